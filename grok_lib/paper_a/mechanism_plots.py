"""Paper A's figures of what happens inside the MLP while the clocks run: the embedding geometry of
Figure 2, the gradient hierarchy of Prop. 4.2 and the activation-pattern churn of Sec. 5. Plot
functions take histories or arrays; colours per weight decay are :mod:`grok_lib.paper_a.plots`'s.

They never train or load anything; the house style and saving are :mod:`grok_lib.style`.
"""

from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..history import History
from ..style import epochs, log_scale_where_positive
from .plots import weight_decay_colors


# --- Paper A, Figure 2: embedding geometry -----------------------------------------------


def plot_fourier_spectra(ax, histories: Sequence[History], block: str = "E", step: int | None = None) -> None:
    """Energy per Fourier frequency (over the token index) of ``block`` at ``step`` (default: last)."""
    from .geometry import fourier_power

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
    from .geometry import circle_projection, reorder_labels

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
    from .geometry import dominant_frequency

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


# --- Paper A, Prop. 4.2: the gradient hierarchy -------------------------------------------


#: The legend labels of Prop. 4.2's full-batch bounds: each is a weighted mean over the training pairs of
#: per-sample factors (train.record_member), which bounds the full-batch gradient (a weighted sum of the
#: per-sample gradients) by the triangle inequality; for U the per-sample factor is the per-sample norm itself.
BOUND_LABELS = {
    "U": "bound for U: mean of the per-sample $\\|\\nabla_U \\ell_i\\|$\n(loose: per-sample gradients cancel in the sum)",
    "W": r"bound for W: $\|U\|_2\,\cdot$ mean of $\|\delta_i\|\,\|z_i\|$",
    "E": r"bound for E: $\|U\|_2\|W\|_2\,\cdot$ mean of $\|B_i\|\,\|\delta_i\|$",
}


def plot_gradient_norms(ax, history: History, legend: bool = True) -> None:
    """||grad|| of U, W, E (solid) and Prop. 4.2's bounds on the same run (dashed), log scale; the
    legend (gradients in one column, their bounds in the other) below the axes."""
    x = epochs(history)
    bounds = {
        "U": history["mean_delta_h"],
        "W": history["spec_U"] * history["mean_delta_z"],
        "E": history["spec_W"] * history["spec_U"] * history["mean_delta_B"],
    }
    for block, color in (("U", "#7b3294"), ("W", "#008837"), ("E", "#e66101")):
        ax.plot(x, history[f"grad_{block}"], color=color, label=f"$\\|\\nabla_{block}\\|$")
        ax.plot(x, bounds[block], color=color, ls="--", lw=1.0, label=BOUND_LABELS[block])
    log_scale_where_positive(ax)  # a one-step run may have no positive gradient to draw
    ax.set_xlabel("epoch")
    ax.set_ylabel("gradient norm of the train loss")
    if legend:  # below the axes: inside, the bounds' labels covered the late gradients
        handles, labels = ax.get_legend_handles_labels()
        order = [0, 2, 4, 1, 3, 5]  # the gradients in the first column, their bounds in the second
        ax.legend([handles[i] for i in order], [labels[i] for i in order], ncol=2, fontsize=7,
                  loc="upper center", bbox_to_anchor=(0.5, -0.15))


def plot_ratio_curves(ax, histories: Sequence[History], ratios: dict, name: str) -> None:
    """One ratio curve per weight decay (``ratios`` maps a weight decay to an array), log x."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        wd = h.cfg.weight_decay
        ax.plot(epochs(h), ratios[wd], color=colors[wd], label=f"λ = {wd:g}", lw=1.1)
    ax.axhline(1.0, color="black", lw=0.8)
    log_scale_where_positive(ax)
    ax.set_xlabel("epoch")
    ax.set_ylabel(name)


def figure_gradients(histories: Sequence[History], focus: History, grad_ratios: dict, update_ratios: dict):
    """Gradient norms vs Prop. 4.2 bounds for one run; head/embedding ratios for all runs."""
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(13, 4.6), layout="constrained")
    plot_gradient_norms(a, focus)
    a.set_title(f"(a) gradients and Prop. 4.2 bounds, λ = {focus.cfg.weight_decay:g}", loc="left")
    plot_ratio_curves(b, histories, grad_ratios, r"$\|\nabla_U\| / \|\nabla_E\|$")
    b.set_title("(b) head / embedding gradient", loc="left")
    b.legend(fontsize=7)
    plot_ratio_curves(c, histories, update_ratios, "relative update U / E")
    c.set_title("(c) AdamW update, head / embedding", loc="left")  # the long form was clipped
    return fig


# --- Paper A, Sec. 5: activation patterns --------------------------------------------------


def figure_activations(histories: Sequence[History], rates: dict, clocks: dict, threshold: float):
    """Churn rate of the training-set ReLU patterns (``rates``: weight decay -> array), clocks marked."""
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        wd = h.cfg.weight_decay
        # churn is measured at the regular records only (NaN at the log-spaced ones between them): drawn
        # through the measured points, the line is continuous, as its legend shows it
        rate = np.asarray(rates[wd], dtype=float)
        ok = np.isfinite(rate)
        x, y = epochs(h)[ok], rate[ok]
        ax.plot(x, y, color=colors[wd], lw=1.1, label=f"λ = {wd:g}")
        for t, marker in zip(clocks[wd], ("o", "D")):
            if np.isfinite(t) and x.size:
                i = min(int(np.searchsorted(x, t)), x.size - 1)  # the first measured point at or after t
                ax.plot([t], [y[i]], marker, color=colors[wd], ms=5, mec="black", mew=0.5)
    ax.axhline(threshold, color="black", ls="--", lw=0.8, label=f"frozen below {threshold:g}")
    if any(np.any(np.asarray(r) > 0) for r in rates.values()):  # a run shorter than one churn window has none
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("fraction of pattern bits\nflipped per 50 epochs")
    ax.set_title(r"activation-pattern churn on the training set; ● $T_{\mathrm{cls}}(10^{-3})$, ◆ $T_{\mathrm{rep}}$",
                 loc="left")
    ax.legend(ncol=2, fontsize=7)
    return fig
