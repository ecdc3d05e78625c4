"""Paper B's panels: axis-level plot functions that take histories (or plain arrays) and ``ax``
(None: a new figure) and draw one panel; none trains or loads anything. Symbols use matplotlib
mathtext. The chapter modules (:mod:`grok_lib.paper_b.chapters`) compose them into the book's figures.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from ..history import History
from . import measure

CLOCK_LABEL = r"$\lambda t\,/\,\ln\alpha$"
X_AXES = ("steps", "clock")


def run_label(h: History) -> str:
    """r"$\\alpha$=128, $\\lambda$=0.02" for a history."""
    return rf"$\alpha$={h.cfg.alpha:g}, $\lambda$={h.cfg.weight_decay:g}"


def _axes(ax, ncols: int = 1, width: float = 4.2, height: float = 3.0):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(1, ncols, figsize=(width * ncols, height), layout="constrained")
    return fig, ax


def _x(h: History, x: str) -> np.ndarray:
    if x not in X_AXES:
        raise ValueError(f"x must be one of {', '.join(X_AXES)}; got {x!r}")
    return h.steps.astype(float) if x == "steps" else measure.clock(h)


def _symlog_steps(ax) -> None:
    """A log-like step axis that still shows step 0 (symlog, linear below 1), starting at 0."""
    ax.set_xscale("symlog", linthresh=1.0)
    ax.set_xlim(left=0)


def _legend_below(ax, ncol: int = 2) -> None:
    """The legend below the axes (under the x label), where it hides no data: inside, matplotlib's "best"
    place looks at the lines' points only and so hides horizontal reference lines."""
    ax.legend(fontsize=7, ncol=ncol, loc="upper center", bbox_to_anchor=(0.5, -0.17))


def _xlabel(ax, x: str) -> None:
    ax.set_xlabel("GD step" if x == "steps" else CLOCK_LABEL)


def run_color(i: int, n: int):
    """The colour of run ``i`` of ``n`` (viridis, stopping short of its pale yellow end)."""
    return plt.get_cmap("viridis")(0.85 * i / max(n - 1, 1))


def curves(histories: Sequence[History], metric: str, x: str = "steps", ax=None, label: Callable = run_label,
           ylabel: str | None = None, logx: bool | None = None, logy: bool = False, window: bool = True,
           title: str | None = None) -> Figure:
    """``metric`` of several runs against GD steps or the clock lambda t / ln(alpha) (one line per run).

    On the clock axis the theorem's point 1 is marked (dashed). A run without a clock (alpha <= 1) has no
    line there.
    """
    fig, ax = _axes(ax)
    for i, h in enumerate(histories):
        xs = _x(h, x)
        name = label(h) if np.isfinite(xs).any() else f"{label(h)} (no clock: ln α = 0)"
        ax.plot(xs, h[metric], color=run_color(i, len(histories)), label=name)
    if x == "clock" and window:
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    if logx if logx is not None else x == "steps":
        _symlog_steps(ax)
    if logy:
        ax.set_yscale("log")
    _xlabel(ax, x)
    ax.set_ylabel(ylabel or metric.replace("_", " "))
    if title:
        ax.set_title(title)
    ax.legend(fontsize=7)
    return fig


def sweep_panels(histories: Sequence[History], metric: str = "test_acc", ylabel: str = "test accuracy",
                 logy: bool = False) -> Figure:
    """The same sweep twice: against GD steps (left) and against lambda t / ln(alpha) (right)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.0), layout="constrained")
    curves(histories, metric, "steps", ax=axes[0], ylabel=ylabel, logy=logy)
    curves(histories, metric, "clock", ax=axes[1], ylabel=ylabel, logy=logy, logx=False)
    return fig


def _train_test_panel(h: History, metric: str, ylabel: str, x: str, ax, logy: bool = False) -> Figure:
    """Train (solid) and test (dashed) ``<split>_<metric>`` of one run against steps or the clock."""
    fig, ax = _axes(ax)
    xs = _x(h, x)
    for split, style in (("train", "-"), ("test", "--")):
        ax.plot(xs, h[f"{split}_{metric}"], style, label=split)
    ax.set_ylabel(ylabel)
    if logy:
        ax.set_yscale("log")
    _xlabel(ax, x)
    if x == "steps":
        _symlog_steps(ax)
    ax.legend(fontsize=7)
    return fig


def accuracy_panel(h: History, x: str = "steps", ax=None) -> Figure:
    """Train (solid) and test (dashed) accuracy of one classification run."""
    return _train_test_panel(h, "acc", "accuracy", x, ax)


def loss_panel(h: History, x: str = "steps", ax=None) -> Figure:
    """Train (solid) and test (dashed) logistic loss of one classification run, log y."""
    return _train_test_panel(h, "loss", "loss", x, ax, logy=True)


def accuracy_and_loss(h: History, x: str = "steps") -> Figure:
    """Train / test accuracy (left) and loss (right) of one classification run (Fig. 1a)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.0), layout="constrained")
    accuracy_panel(h, x, axes[0])
    loss_panel(h, x, axes[1])
    axes[0].set_title(run_label(h))
    return fig


def norm_vs_prediction(histories: Sequence[History], ax=None) -> Figure:
    r"""$\|\theta\|$ against the kernel-regime prediction $\alpha e^{-\lambda t}$ (dashed), on log y."""
    fig, ax = _axes(ax)
    for i, h in enumerate(histories):
        t = measure.continuous_time(h)
        color = run_color(i, len(histories))
        ax.plot(t, h["norm"], color=color, label=run_label(h))
        pred = h.cfg.alpha * np.exp(-h.cfg.weight_decay * t)
        shown = pred >= 0.3 * float(np.min(h["norm"]))  # the prediction only down to the norm's floor
        ax.plot(t[shown], pred[shown], color=color, ls="--", lw=0.9)
    ax.set_yscale("log")
    ax.set_xlabel(r"continuous time $t$ = $\sum$ step sizes")
    ax.set_ylabel(r"$\|\theta\|$  (dashed: $\alpha e^{-\lambda t}$)")
    ax.legend(fontsize=7)
    return fig


def cosines(h: History, x: str = "clock", ax=None) -> Figure:
    r"""Cosine of $\beta(t)$ with the max-L2-margin and max-L1-margin classifiers (and w*) over training."""
    fig, ax = _axes(ax)
    xs = _x(h, x)
    for key, text in (("cos_l2", r"max-$L_2$ margin"), ("cos_l1", r"max-$L_1$ margin"), ("cos_star", r"$w^*$")):
        if key in h.metrics:
            ax.plot(xs, h[key], label=text, ls=":" if key == "cos_star" else "-")
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel(r"$\cos(\beta(t), \cdot)$")
    _xlabel(ax, x)
    if x == "steps":
        _symlog_steps(ax)
    ax.legend(fontsize=7)
    return fig


def accuracy_vs_margin_classifiers(h: History, x: str = "clock", ax=None) -> Figure:
    """The net's test accuracy over training beside the test accuracies of the two margin classifiers."""
    fig, ax = _axes(ax)
    xs = _x(h, x)
    ax.plot(xs, h["test_acc"], label="net (test)")
    ax.plot(xs, h["train_acc"], lw=0.8, label="net (train)")
    for key, text, ls in (("l2_test_acc", r"max-$L_2$ margin", "--"), ("l1_test_acc", r"max-$L_1$ margin", ":")):
        if key in h.meta:
            ax.axhline(h.meta[key], color="k", ls=ls, lw=0.9, label=f"{text} (test)")
    ax.set_ylabel("accuracy")
    _xlabel(ax, x)
    if x == "steps":
        _symlog_steps(ax)
    _legend_below(ax)
    return fig


def transition_fractions(alphas, starts, ends, c: float | None = None, ax=None, xlabel: str = r"$\alpha$") -> Figure:
    """Start and end of each run's transition as fractions of ln(alpha) / lambda, against alpha (log x).

    ``c`` (optional) shades the fitted window 1 +- c; the theorem's limit is 1 for alpha -> infinity.
    """
    fig, ax = _axes(ax)
    alphas, starts, ends = (np.asarray(v, dtype=float) for v in (alphas, starts, ends))
    ax.vlines(alphas, starts, ends, color="0.6", lw=3, zorder=1)
    ax.plot(alphas, starts, "o", label=r"start (test acc $\geq$ 0.6)", zorder=2)
    ax.plot(alphas, ends, "s", label=r"end (test acc $\geq$ 0.9)", zorder=2)
    ax.axhline(1.0, color="k", ls="--", lw=0.8)
    if c is not None and math.isfinite(c):
        ax.axhspan(1 - c, 1 + c, color="0.92", zorder=0, label=rf"$1\pm c$, $c$={c:.2f}")
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(r"transition time / $(\ln\alpha/\lambda)$")
    ax.legend(fontsize=7)
    return fig


def slope_fit(x, y, fit, xlabel: str, ylabel: str = r"transition time $t$", theory_slope: float | None = None,
              ax=None) -> Figure:
    """Measured transition times against x with the least-squares line (and the theory's slope through the mean)."""
    fig, ax = _axes(ax)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ax.plot(x, y, "o", label="runs")
    grid = np.linspace(np.nanmin(x), np.nanmax(x), 50)
    ok = np.isfinite(x) & np.isfinite(y)
    if fit is not None:
        ax.plot(grid, fit(grid), "-", label=f"fit: slope {fit.slope:.3g} ± {fit.slope_se:.2g}")
    else:
        ax.plot([], [], " ", label="no fit: fewer than two runs crossed")
    if theory_slope is not None and ok.any() and math.isfinite(theory_slope):
        x0, y0 = x[ok].mean(), y[ok].mean()
        ax.plot(grid, y0 + theory_slope * (grid - x0), "--", color="k", lw=0.9, label=f"theory slope {theory_slope:.3g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)
    return fig


def mse_panel(h: History, x: str = "clock", ax=None) -> Figure:
    """Matrix completion: train / test MSE and the mean square of W off the observed entries (log y)."""
    fig, ax = _axes(ax)
    xs = _x(h, x)
    ax.plot(xs, h["train_mse"], label="train MSE (observed)")
    ax.plot(xs, h["test_mse"], label="test MSE (unobserved)")
    ax.plot(xs, h["far_rms"] ** 2, ls=":", label=r"mean $W_{ij}^2$ off $\Omega\cup\Omega^T$")
    if "zero_test_mse" in h.meta:
        ax.axhline(h.meta["zero_test_mse"], color="k", ls="--", lw=0.8, label="test MSE of predicting 0 (init)")
    ax.set_yscale("log")
    ax.set_ylabel("MSE")
    _xlabel(ax, x)
    if x == "clock":
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    else:
        _symlog_steps(ax)
    _legend_below(ax)
    return fig


def rank_panel(h: History, x: str = "clock", ax=None) -> Figure:
    """Matrix completion: nuclear norm of W (left axis, with that of X*) and its stable rank (right axis), from
    the first step on (W = 0 at init, where neither is informative)."""
    fig, ax = _axes(ax)
    keep = h.steps > 0
    xs = _x(h, x)[keep]
    ax.plot(xs, h["nuclear"][keep], label=r"$\|W\|_*$ (left)")
    if "target_nuclear" in h.meta:
        ax.axhline(h.meta["target_nuclear"], color="k", ls="--", lw=0.8, label=r"$\|X^*\|_*$ (left)")
    ax.set_ylabel("nuclear norm")
    ax.set_ylim(bottom=0)
    twin = ax.twinx()
    twin.plot(xs, h["stable_rank"][keep], color="C3", label="stable rank (right)")
    twin.set_ylim(bottom=0)
    twin.set_ylabel("stable rank", color="C3")
    twin.grid(False)
    _xlabel(ax, x)
    if x == "clock":
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    else:
        _symlog_steps(ax)
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")] + twin.get_lines()
    ax.legend(lines, [ln.get_label() for ln in lines], fontsize=7, loc="upper right")
    return fig


def matrix_completion(h: History, x: str = "clock") -> Figure:
    """Matrix completion: train / test MSE and the entries outside Omega u Omega^T (left), nuclear norm and
    stable rank of W (right)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 3.0), layout="constrained")
    mse_panel(h, x, axes[0])
    rank_panel(h, x, axes[1])
    return fig


def fraction_limit_panel(alphas, starts, ends, fit_start=None, fit_end=None, ax=None) -> Figure:
    """Start / end fractions against 1 / ln(alpha), with their fitted lines extended to 0 (alpha -> infinity)."""
    fig, ax = _axes(ax)
    x = 1.0 / np.log(np.asarray(alphas, dtype=float))
    grid = np.linspace(0.0, float(np.nanmax(x)) * 1.05, 50)
    for values, fit, marker, name, color in ((starts, fit_start, "o", "start", "C0"), (ends, fit_end, "s", "end", "C1")):
        ax.plot(x, values, marker, color=color, label=name)
        if fit is not None:
            ax.plot(grid, fit(grid), "-", color=color, lw=1.0,
                    label=rf"{name} fit: {fit.intercept:.2f} {fit.slope:+.2f}$/\ln\alpha$")
    ax.axhline(1.0, color="k", ls="--", lw=0.8)
    ax.set_xlim(left=-0.01)
    ax.set_xlabel(r"$1/\ln\alpha$  ($\alpha\to\infty$ at 0)")
    ax.set_ylabel(r"transition time / $(\ln\alpha/\lambda)$")
    ax.legend(fontsize=7)
    return fig


def norm_shrink_panel(histories: Sequence[History], ax=None) -> Figure:
    r"""$\|\theta\|$ against GD steps with the decay-only prediction $\|\theta_0\| e^{-\lambda\,lr\,s}$ (dashed), log y."""
    fig, ax = _axes(ax)
    for i, h in enumerate(histories):
        color = run_color(i, len(histories))
        t = measure.continuous_time(h)
        ax.plot(h.steps, h["norm"], color=color, label=run_label(h))
        ax.plot(h.steps, h["norm"][0] * np.exp(-float(h.cfg.weight_decay) * t), color=color, ls="--", lw=0.8)
    ax.set_yscale("log")
    ymin = min(float(np.min(h["norm"])) for h in histories)
    ax.set_ylim(bottom=ymin / 3)
    ax.set_xlabel("AdamW step")
    ax.set_ylabel(r"$\|\theta\|$  (dashed: $\|\theta_0\|e^{-\lambda\,\mathrm{lr}\,s}$)")
    ax.legend(fontsize=7)
    return fig


def delay_panel(rows: Sequence[dict], ax=None) -> Figure:
    """The bridge's delays against ln(alpha): measured grokking delays (filled circles, solid) and train-fit delays
    (open squares, dotted) per lambda (one colour each), the shrinking clock ln(alpha) / (lambda lr) per lambda
    (dashed) and Adam's memory 4 ln(alpha) / (1 - beta2) (black, dotted). ``rows``: dicts with alpha, weight_decay,
    lr, beta2, "grok delay", "fit delay". The legend (the colours, then the kinds of line) stands right of the axes, where
    it hides no data (the y axis ends at the data)."""
    fig, ax = _axes(ax)
    lams = sorted({r["weight_decay"] for r in rows})
    grid = np.linspace(0.0, max(math.log(r["alpha"]) for r in rows), 50)
    for j, lam in enumerate(lams):
        mine = [r for r in rows if r["weight_decay"] == lam]
        color = f"C{j}"
        la = [math.log(r["alpha"]) for r in mine]
        ax.plot(la, [r["grok delay"] for r in mine], "o-", color=color)
        ax.plot(la, [r["fit delay"] for r in mine], "s:", mfc="none", color=color)
        ax.plot(grid, grid / (lam * mine[0]["lr"]), "--", color=color, lw=0.9)
    beta2 = rows[0]["beta2"]
    adam = dict(color="k", ls=(0, (1, 1)), lw=1.0)
    ax.plot(grid, 4 * grid / (1 - beta2), **adam)
    ax.set_xlabel(r"$\ln\alpha$")
    ax.set_ylabel(r"delay against $\alpha$ = 1 (steps)")
    kind = lambda fmt, **kw: plt.Line2D([], [], color="0.35", ls=fmt[1:] or "none", marker=fmt[0], **kw)  # noqa: E731
    entries = [(plt.Line2D([], [], color=f"C{j}", lw=3), rf"$\lambda$={lam:g}") for j, lam in enumerate(lams)]
    entries += [(kind("o-"), "grokking delay"), (kind("s:", mfc="none"), "train-fit delay"),
                (plt.Line2D([], [], color="0.35", ls="--", lw=0.9), r"$\ln\alpha/(\lambda\,\mathrm{lr})$"),
                (plt.Line2D([], [], **adam), r"$4\ln\alpha/(1-\beta_2)$")]
    handles, labels = zip(*entries)
    ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig


def adam_step_panel(histories: Sequence[History], ax=None) -> Figure:
    """Adam's own move per step in units of lr (RMS over the weights), log y: of order one normally (about 0.5
    here), far less while its second-moment average remembers the large initial gradients."""
    fig, ax = _axes(ax)
    for i, h in enumerate(histories):
        ax.plot(h.steps, h["adam_step"], color=run_color(i, len(histories)), label=run_label(h))
    ax.set_yscale("log")
    ax.set_xlabel("AdamW step")
    ax.set_ylabel("Adam step / lr (RMS)")
    ax.legend(fontsize=7)
    return fig


def sweeps_figure(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History], metric: str = "test_acc",
                  ylabel: str = "test accuracy", logx: bool = True) -> Figure:
    """2 x 2: the alpha sweep (top) and the lambda sweep (bottom), against GD steps (left; log-like axis unless
    ``logx`` is False) and the clock (right)."""
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 6.4), layout="constrained")
    for row, (runs, name) in enumerate(((alpha_sweep, r"$\alpha$ sweep"), (lambda_sweep, r"$\lambda$ sweep"))):
        curves(runs, metric, "steps", ax=axes[row, 0], ylabel=ylabel, title=f"{name}, against steps", logx=logx)
        curves(runs, metric, "clock", ax=axes[row, 1], ylabel=ylabel, logx=False,
               title=rf"{name}, against $\lambda t/\ln\alpha$")
    return fig
