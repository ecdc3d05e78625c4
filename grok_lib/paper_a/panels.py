"""Paper A's MLP panels: what every MLP figure shares (one colour per weight decay, the paper's grokking window drawn
on the loss figures) and the plot functions and figures of Figures 1-3 (the model sketch, loss and accuracy curves;
Fourier spectra and the embeddings on their circle; losses with the stable rank and both clocks), which take runs and
the numbers measured on them. None trains or measures anything: the chapter modules say which runs each figure draws.
matplotlib is named with :func:`grok_lib.chapters.deferred`: importing this module loads none."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..chapters import deferred
from ..history import History
from .geometry import circle_projection, dominant_frequency, fourier_power, reorder_labels

plt = deferred("matplotlib.pyplot")
patches = deferred("matplotlib.patches")
house_style = deferred("grok_lib.style")


def weight_decay_colors(weight_decays: Sequence[float]) -> dict[float, tuple]:
    """One colour per weight decay, light (small) to dark (large)."""
    cmap = plt.get_cmap("viridis")
    ordered = sorted(weight_decays)
    n = max(len(ordered) - 1, 1)
    return {wd: cmap(0.85 - 0.75 * i / n) for i, wd in enumerate(ordered)}


#: The paper's test-loss window (Fig. 1b), shaded on the paper-settings figures.
PAPER_WINDOW = (4000, 8500)


# Figure 1

def plot_loss_curves(ax, histories: Sequence[History], log_x: bool = False) -> None:
    """Train (dashed) and test (solid) cross-entropy vs epoch, one colour per weight decay."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        wd = h.cfg.weight_decay
        c = colors[wd]
        ax.plot(house_style.epochs(h), h["train_loss"], ls="--", color=c, lw=1.1)
        ax.plot(house_style.epochs(h), h["test_loss"], ls="-", color=c, label=f"λ = {wd:g}")
    ax.set_yscale("log")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("epoch (full-batch step)")
    ax.set_ylabel("cross-entropy")
    style = [plt.Line2D([], [], ls="--", color="grey"), plt.Line2D([], [], ls="-", color="grey")]
    ax.legend(style, ["train", "test"], loc="upper right")


def plot_accuracy_curves(ax, histories: Sequence[History]) -> None:
    """Train (dashed) and test (solid) accuracy vs epoch, one colour per weight decay."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        c = colors[h.cfg.weight_decay]
        ax.plot(house_style.epochs(h), h["train_acc"], ls="--", color=c, lw=1.1)
        ax.plot(house_style.epochs(h), h["test_acc"], ls="-", color=c, label=f"λ = {h.cfg.weight_decay:g}")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("epoch (full-batch step)")
    ax.set_ylabel("accuracy")
    ax.legend(loc="lower right", title="weight decay")


def _box(ax, x, y, w, h, text, color):
    ax.add_patch(patches.FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=color, ec="black", lw=0.8))
    ax.text(x, y, text, ha="center", va="center", fontsize=10)


def _arrow(ax, x0, y0, x1, y1, text=""):
    ax.add_patch(patches.FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=10, lw=0.9, color="black"))
    if text:
        ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.045, text, ha="center", va="bottom", fontsize=10)


def draw_architecture(ax, p: int, d_embed: int, width: int) -> None:
    """A sketch of Paper A's model: two tokens, summed embeddings, one ReLU layer, the head."""
    ax.set_xlim(-0.03, 1.0)
    ax.set_ylim(0, 1)
    ax.axis("off")
    for y, tok in ((0.78, "a"), (0.22, "b")):
        _box(ax, 0.05, y, 0.08, 0.12, tok, "#dde8f5")
        _box(ax, 0.23, y, 0.15, 0.16, f"E[{tok}]\n$\\in\\mathbb{{R}}^{{{d_embed}}}$", "#f7e3c8")
        _arrow(ax, 0.095, y, 0.15, y, "E")
        _arrow(ax, 0.31, y + (-0.06 if y > 0.5 else 0.06), 0.385, 0.5 + (0.05 if y > 0.5 else -0.05))
    _box(ax, 0.42, 0.50, 0.07, 0.11, "+", "#ffffff")
    _box(ax, 0.62, 0.50, 0.21, 0.24, f"h = ReLU(Wz+b)\n{width} units", "#d9eed9")
    _box(ax, 0.885, 0.50, 0.19, 0.24, f"logits = Uh\n{p} classes", "#eadcf2")
    _arrow(ax, 0.455, 0.50, 0.515, 0.50, "z")
    _arrow(ax, 0.725, 0.50, 0.785, 0.50, "U")
    ax.set_title(f"(a) the model, on (a + b) mod {p}", loc="left")


def figure1(histories: Sequence[History]):
    """Paper A, Figure 1: the model sketch (a) above the loss (b) and accuracy (c) curves."""
    cfg = histories[0].cfg
    fig = plt.figure(figsize=(12, 7.4), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[0.8, 1.2])
    draw_architecture(top.subplots(), cfg.p, cfg.d_embed, cfg.width)
    ax_loss, ax_acc = bottom.subplots(1, 2)
    plot_loss_curves(ax_loss, histories)
    ax_loss.set_title("(b) cross-entropy", loc="left")
    plot_accuracy_curves(ax_acc, histories)
    ax_acc.set_title("(c) accuracy", loc="left")
    return fig


def figure1_paper_settings(panels: dict[str, Sequence[History]]):
    """Figure 1 (b, c) at the paper's settings, one row per split (``panels``: row title -> sweep),
    with the paper's 4k-8.5k test-loss window shaded."""
    fig = plt.figure(figsize=(12, 4.0 * len(panels)), layout="constrained")
    rows = np.atleast_1d(fig.subfigures(len(panels), 1))
    for sub, (title, histories) in zip(rows, panels.items()):
        ax_loss, ax_acc = sub.subplots(1, 2)
        plot_loss_curves(ax_loss, histories)
        plot_accuracy_curves(ax_acc, histories)
        for ax in (ax_loss, ax_acc):
            ax.axvspan(*PAPER_WINDOW, color="grey", alpha=0.12, lw=0)
        ax_loss.set_title("(b) cross-entropy; shaded: the paper's 4k–8.5k", loc="left")
        ax_acc.set_title("(c) accuracy", loc="left")
        sub.suptitle(title, x=0.01, ha="left", fontweight="bold")
    return fig


# Figure 2

def plot_fourier_spectra(ax, histories: Sequence[History], block: str = "E", step: int | None = None) -> None:
    """Energy per Fourier frequency (over the token index) of ``block`` at ``step`` (default: last)."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        at = int(h.steps[-1]) if step is None else step
        power = fourier_power(h.snapshot(block, at))[1:]
        ax.plot(np.arange(1, len(power) + 1), power / power.sum(), color=colors[h.cfg.weight_decay],
                label=f"λ = {h.cfg.weight_decay:g}", lw=1.0)
    ax.set_xlabel("frequency k")
    ax.set_ylabel(f"share of {block}'s energy")


#: The cyclic colour map of the reordered labels: saturated all round, so no label fades into the page.
LABEL_CMAP = "hsv"


def plot_circle(ax, x: np.ndarray, k: int, title: str):
    """Rows of ``x`` on their frequency-k plane, coloured by the reordered label j = k i mod p; returns
    the scatter (for a colour bar)."""
    z = circle_projection(x, k)
    labels = reorder_labels(len(z), k)
    points = ax.scatter(z.real, z.imag, c=labels, cmap=LABEL_CMAP, s=14, edgecolors="none")
    order = np.argsort(labels)
    ax.plot(np.append(z.real[order], z.real[order][0]), np.append(z.imag[order], z.imag[order][0]),
            color="grey", lw=0.4, alpha=0.6)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(title)
    ax.set_xticks([])
    ax.set_yticks([])
    return points


def figure2(histories: Sequence[History], focus: History, memorising_step: int):
    """Paper A, Figure 2, with the paper's panels: (A) the token embeddings E, (B) the output weights U.
    Each row: the Fourier spectrum at the end of training (every λ), then the ``focus`` run's rows on
    the plane of E's dominant frequency k, relabelled j = k·i mod p, untrained, memorising and at the end."""
    last = int(focus.steps[-1])
    k = dominant_frequency(focus.snapshot("E", last))
    p = focus.cfg.p
    fig, axes = plt.subplots(2, 4, figsize=(13, 6.6), layout="constrained", width_ratios=[1.6, 1, 1, 1])
    stages = [(0, "untrained"), (memorising_step, f"memorising (epoch {memorising_step})"), (last, f"end (epoch {last})")]
    for row, (block, name) in zip(axes, (("E", "(a) token embeddings E"), ("U", "(b) output weights U"))):
        plot_fourier_spectra(row[0], histories, block)
        row[0].set_title(f"{name}: Fourier spectrum at the end", loc="left")
        for ax, (step, stage) in zip(row[1:], stages):
            points = plot_circle(ax, focus.snapshot(block, step), k, f"{block}, {stage}")
    for ax in axes[:, 0]:  # headroom above the spectra for the legend
        ax.set_ylim(0, ax.get_ylim()[1] * 1.45)
    axes[0, 0].legend(ncol=3, loc="upper center")
    bar = fig.colorbar(points, ax=axes[:, 1:], shrink=0.8, pad=0.01)
    bar.set_label(f"reordered label j = {k}·i mod {p}")
    fig.suptitle(f"(c) rows on the plane of E's dominant frequency k = {k} (λ = {focus.cfg.weight_decay:g})",
                 x=0.98, ha="right", fontsize=10)
    return fig


# Figure 3

def legend_rows(owner, rows: Sequence[Sequence[tuple]], **kwargs):
    """A legend outside ``owner``'s axes (a figure or subfigure), below them, where it hides no data:
    ``rows`` of (handle, label) pairs, each row of the legend one row of entries (short rows padded)."""
    ncol = max(len(r) for r in rows)
    blank = (plt.Line2D([], [], alpha=0), "")
    padded = [list(r) + [blank] * (ncol - len(r)) for r in rows]
    handles, labels = zip(*(padded[r][c] for c in range(ncol) for r in range(len(padded))))  # legends fill by column
    return owner.legend(handles, labels, ncol=ncol, loc="outside lower center", **kwargs)


def plot_loss_and_srank(ax, histories: Sequence[History], matrix: str = "E", clocks: dict | None = None) -> None:
    """Train (dashed) and test (solid) loss (log, left axis) and the stable rank of ``matrix``
    (dotted, right axis) vs epoch.

    ``clocks`` maps a weight decay to (T_cls, T_rep): T_cls, a train-loss clock, is drawn as a
    circle on the train-loss curve, T_rep as a diamond on the stable-rank curve.
    """
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    right = ax.twinx()
    for h in histories:
        wd = h.cfg.weight_decay
        c = colors[wd]
        ax.plot(house_style.epochs(h), h["train_loss"], color=c, lw=0.9, ls="--")
        ax.plot(house_style.epochs(h), h["test_loss"], color=c, lw=1.2, label=f"λ = {wd:g}")
        right.plot(house_style.epochs(h), h[f"srank_{matrix}"], color=c, lw=1.4, ls=":")
        if clocks and wd in clocks:
            t_c, t_r = clocks[wd]
            if np.isfinite(t_c):
                ax.plot([t_c], [h.at("train_loss", t_c)], "o", color=c, ms=5, mec="black", mew=0.5)
            if np.isfinite(t_r):
                right.plot([t_r], [h.at(f"srank_{matrix}", t_r)], "D", color=c, ms=5, mec="black", mew=0.5)
    ax.set_yscale("log")
    ax.set_xlabel("epoch (full-batch step)")
    ax.set_ylabel("cross-entropy: train (dashed), test (solid)")
    right.set_ylabel(f"stable rank of {matrix} (dotted)")
    right.grid(False)
    right.spines["right"].set_visible(True)


#: The train-loss clock the Figure 3 plots mark (a circle on the train loss).
FIG3_CLS = r"$T_{\mathrm{cls}}(10^{-4})$"


def loss_and_srank_legend(owner, histories: Sequence[History], matrix: str = "E", cls_label: str = FIG3_CLS,
                          extra: Sequence[tuple] = ()):
    """The legend of :func:`plot_loss_and_srank`, below the axes of ``owner`` (a figure or subfigure):
    one colour per weight decay on the first row, the line styles and the clock markers (and ``extra``
    (handle, label) pairs) on the second."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    line = lambda **kw: plt.Line2D([], [], color="grey", **kw)  # noqa: E731
    marker = lambda m: plt.Line2D([], [], ls="none", marker=m, ms=5, color="grey", mec="black", mew=0.5)  # noqa: E731
    return legend_rows(owner, [
        [(plt.Line2D([], [], color=c), f"λ = {wd:g}") for wd, c in sorted(colors.items())],
        [(line(ls="--", lw=0.9), "train loss"), (line(ls="-", lw=1.2), "test loss"),
         (line(ls=":", lw=1.4), f"stable rank of {matrix}"), (marker("o"), f"{cls_label} on the train loss"),
         (marker("D"), r"$T_{\mathrm{rep}}$ on the stable rank"), *extra]])


def figure3(histories: Sequence[History], matrix: str, clocks: dict, others: Sequence[str]):
    """Paper A, Figure 3: losses and stable rank, with both clocks marked; other matrices alongside."""
    fig = plt.figure(figsize=(12, 4.7), layout="constrained")
    main, side = fig.subfigures(1, 2, width_ratios=[1.5, 1])
    ax = main.subplots()
    plot_loss_and_srank(ax, histories, matrix, clocks)
    ax.set_title(f"(a) losses and stable rank of {matrix}, with both clocks", loc="left")
    loss_and_srank_legend(fig, histories, matrix)  # the whole figure's width: five entries a row do not fit under (a)
    axes = side.subplots(len(others), 1, sharex=True)
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for a, name in zip(np.atleast_1d(axes), others):
        for h in histories:
            a.plot(house_style.epochs(h), h[f"srank_{name}"], color=colors[h.cfg.weight_decay], lw=1.0)
        a.set_ylabel(f"srank {name}")
    np.atleast_1d(axes)[0].set_title("(b) stable rank of the other matrices", loc="left")
    np.atleast_1d(axes)[-1].set_xlabel("epoch")
    return fig


def figure3_paper_settings(panels: dict[str, tuple[Sequence[History], dict]], matrix: str = "E"):
    """Figure 3 (a) at the paper's settings, one panel per split (``panels``: title -> (sweep, clocks))."""
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.7), layout="constrained", squeeze=False)
    for ax, (title, (histories, clocks)) in zip(axes[0], panels.items()):
        plot_loss_and_srank(ax, histories, matrix, clocks)
        ax.axvspan(*PAPER_WINDOW, color="grey", alpha=0.12, lw=0)
        ax.set_title(title, loc="left")
    # one legend for both panels (the same weight decays), below them: inside, it hid the early train loss
    window = (patches.Patch(color="grey", alpha=0.12, lw=0), "the paper's test-loss window, 4k–8.5k")
    loss_and_srank_legend(fig, next(iter(panels.values()))[0], matrix, extra=[window])
    return fig


def figure_init(default: Sequence[History], scaled: Sequence[History]):
    """The two initialisations side by side: ||E||_F, the stable rank of E and the losses, one colour
    per weight decay, PyTorch's default solid and N(0, 1/d) dashed."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), layout="constrained")
    colors = weight_decay_colors([h.cfg.weight_decay for h in default])
    for histories, ls in ((default, "-"), (scaled, "--")):
        for h in histories:
            c = colors[h.cfg.weight_decay]
            axes[0].plot(house_style.epochs(h), h["norm_E"], color=c, ls=ls)
            axes[1].plot(house_style.epochs(h), h["srank_E"], color=c, ls=ls)
            axes[2].plot(house_style.epochs(h), h["test_loss"], color=c, ls=ls, label=f"λ = {h.cfg.weight_decay:g}"
                         if ls == "-" else None)
    axes[0].set_yscale("log")
    axes[0].set_ylabel(r"$\|E\|_F$")
    axes[1].set_ylabel("stable rank of E")
    axes[2].set_yscale("log")
    axes[2].set_ylabel("test cross-entropy")
    for ax, title in zip(axes, ("(a) size of the embeddings", "(b) the slow clock's matrix", "(c) test loss")):
        ax.set_xlabel("epoch")
        ax.set_title(title, loc="left")
    inits = [plt.Line2D([], [], color="grey", ls="-"), plt.Line2D([], [], color="grey", ls="--")]
    axes[0].legend(inits, ["E ~ N(0, 1) (PyTorch)", "E ~ N(0, 1/d)"], loc="lower left")
    axes[2].legend(loc="lower left")
    return fig
