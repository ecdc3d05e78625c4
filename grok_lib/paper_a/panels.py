"""Paper A's MLP panels: what every MLP figure shares (one colour per weight decay, the paper's grokking window drawn
on the loss figures) and Figure 3's plot functions and figures (losses with the stable rank and both clocks, at the
default profile, at the paper's settings, and for the two initialisations), which take runs and the clocks measured
on them; none trains or measures anything. matplotlib is named with :func:`grok_lib.chapters.deferred`: importing
this module loads none."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..chapters import deferred
from ..history import History

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
