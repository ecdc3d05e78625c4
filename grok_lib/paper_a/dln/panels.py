"""The deep linear network's panels: plot functions that take runs and the numbers measured on them (margins,
losses and their bounds, clock readings with their fits, energy gaps, the singular-value drift) and draw one panel, and
the three figures of :mod:`grok_lib.paper_a.chapters.deep_linear_clocks` composed of them; none trains or measures
anything. One colour per depth, one line style per optimiser. matplotlib is named with
:func:`grok_lib.chapters.deferred`: importing this module loads none."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...chapters import deferred
from ...history import History
from .clocks import run_label

plt = deferred("matplotlib.pyplot")
house_style = deferred("grok_lib.style")

#: One colour per depth L.
DEPTH_COLORS = {1: "#1b9e77", 2: "#d95f02", 3: "#7570b3", 4: "#e7298a"}

#: One line style per optimiser.
OPT_STYLE = {"gd": "-", "adamw": "--"}


def plot_margins(ax, histories: Sequence[History]) -> None:
    """The smallest training margin vs step (linear axes: Assumption 3.4 is a straight line)."""
    for h in histories:
        c = h.cfg
        ax.plot(h.steps, h["margin"], OPT_STYLE[c.optimizer], color=DEPTH_COLORS[c.depth], lw=1.2,
                label=run_label(h))
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xlabel("step")
    ax.set_ylabel(r"min margin $\Gamma(t)$")


def plot_loss_bounds(ax, history: History, lemma31: np.ndarray, theorem35: np.ndarray) -> None:
    """Train loss with Lemma 3.1's bound (from the measured margin) and Theorem 3.5's line.

    The loss is drawn in the run's depth colour and optimiser line style, its two bounds in
    black (GD) or grey (AdamW); NaN entries of a bound are not drawn.
    """
    c = history.cfg
    color, ls = DEPTH_COLORS[c.depth], OPT_STYLE[c.optimizer]
    bound_color = "black" if c.optimizer == "gd" else "grey"
    t = house_style.epochs(history)
    ax.plot(t, history["train_loss"], ls, color=color, lw=1.8, label=f"$L_{{\\mathrm{{CE}}}}$, {run_label(history)}")
    ax.plot(t, lemma31, ":", color=bound_color, lw=1.1, label=f"Lemma 3.1 $(K-1)e^{{-\\Gamma(t)}}$, {c.optimizer}")
    ax.plot(t, theorem35, "-.", color=bound_color, lw=1.0, label=f"Thm 3.5, $\\nu$ that holds, {c.optimizer}")
    house_style.log_scale_where_positive(ax)
    ax.set_ylim(1e-12, 10)
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy")


def plot_clock_levels(ax, histories: Sequence[History], levels: np.ndarray, times: Sequence[np.ndarray],
                      fits: Sequence, log_log: bool, symbol: str, fit_max: float = np.inf) -> None:
    """Clock readings T(level) with each run's fitted line (if any), in the axes where that fit is straight:
    T against ln(1/level) on linear axes (``log_log=False``), or T against 1/level on log-log axes.
    Lines are drawn over the levels <= ``fit_max`` (the fitted range)."""
    levels = np.asarray(levels)
    x = 1 / levels if log_log else np.log(1 / levels)
    for h, t, fit in zip(histories, times, fits):
        c = h.cfg
        color = DEPTH_COLORS[c.depth]
        ax.plot(x, t, "o", color=color, ms=3.5, mfc="none" if c.optimizer == "adamw" else color)
        if fit is not None:
            xs = x[np.isfinite(t) & (levels <= fit_max)]
            ys = np.exp(fit(np.log(xs))) if log_log else fit(xs)
            kind = f"slope {fit.slope:.2f}" if log_log else f"{fit.slope * np.log(10):.0f}/decade"
            ax.plot(xs, ys, OPT_STYLE[c.optimizer], color=color, lw=1.0, label=f"{run_label(h)}: {kind}, R²={fit.r2:.2f}")
    if log_log:
        house_style.log_scale_where_positive(ax)
        ax.set_xlabel(f"1/{symbol}")
    else:
        ax.set_xlabel(f"ln(1/{symbol})")
        ax.set_ylim(bottom=0)
    ax.set_ylabel("steps")


def plot_gaps(ax, histories: Sequence[History], gaps: Sequence[np.ndarray]) -> None:
    """The structural-energy gap Delta(t) on log-log axes (a power law is a straight line)."""
    for h, d in zip(histories, gaps):
        c = h.cfg
        ls = "-" if c.weight_decay == max(g.cfg.weight_decay for g in histories) else ":"
        ax.plot(house_style.epochs(h), np.where(d > 0, d, np.nan), ls, color=DEPTH_COLORS[c.depth], lw=1.2, label=run_label(h))
    house_style.log_scale_where_positive(ax)
    ax.set_xlabel("step")
    ax.set_ylabel(r"$\Delta(t) = E(A_t) - E(A_*)$")


#: Line style per singular value in the drift panel (colour: which prediction; style: which value).
DRIFT_STYLES = ("-", "--", ":", "-.")


def plot_drift_errors(ax, steps: np.ndarray, errors: dict[str, np.ndarray], label: str, ls: str = "-") -> None:
    """Relative error of Prop. 4.3 (literal) and of its factored form against the measured drift."""
    ax.plot(steps, errors["prop43"], ls, color="#d95f02", lw=1.1, label=f"Prop. 4.3 as stated, {label}")
    ax.plot(steps, errors["factored"], ls, color="#1b9e77", lw=1.1,
            label=f"× $L s^{{2-2/L}}$ (factored flow), {label}")
    house_style.log_scale_where_positive(ax)
    ax.set_xlabel("step")
    ax.set_ylabel("|predicted − measured| / |measured|")


def plot_two_clocks(ax, history: History, gap: np.ndarray, t_cls: float, t_rep: float) -> None:
    """Loss and energy gap on one log time axis, the fast clock (circle) and slow clock (diamond)."""
    color = DEPTH_COLORS[history.cfg.depth]
    t = house_style.epochs(history)
    ax.plot(t, history["train_loss"], color=color, lw=1.5, label=r"$L_{\mathrm{CE}}(A_t)$")
    ax.plot(t, np.where(gap > 0, gap, np.nan), ":", color=color, lw=1.5, label=r"$\Delta(t)$")
    if np.isfinite(t_cls):
        ax.axvline(t_cls, color="black", lw=0.8, ls="--")
        ax.plot([t_cls], [history.at("train_loss", t_cls)], "o", color=color, mec="black", ms=6)
    if np.isfinite(t_rep):
        ax.axvline(t_rep, color="black", lw=0.8, ls="-.")
        ax.plot([t_rep], [max(np.interp(t_rep, history.steps, gap), 1e-300)], "D", color=color, mec="black", ms=6)
    house_style.log_scale_where_positive(ax)
    ax.set_xlabel("step")


def figure_fast_clock(margin_runs, bound_runs, bounds, eps, t_cls_levels, log_fits, power_fits):
    """The fast clock: margins (Assumption 3.4), loss vs bounds (Lemma 3.1, Thm 3.5), and T_cls(eps)
    in the axes where a logarithmic clock (c) or a polynomial one (d) is a straight line."""
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), layout="constrained")
    (a, b), (c, d) = axes
    plot_margins(a, margin_runs)
    a.set_title("(a) smallest margin, λ = 0 (solid GD, dashed AdamW)", loc="left")
    a.legend(ncol=2, fontsize=7)
    for h, (lemma, thm) in zip(bound_runs, bounds):
        plot_loss_bounds(b, h, lemma, thm)
    b.set_title("(b) loss and its margin bounds", loc="left")
    b.legend(fontsize=7, loc="lower left")
    plot_clock_levels(c, margin_runs, eps, t_cls_levels, log_fits, log_log=False, symbol="ε")
    c.set_title(r"(c) $T_{\mathrm{cls}}(\varepsilon)$ against $\ln(1/\varepsilon)$: Theorem 3.5 is a line here", loc="left")
    c.legend(fontsize=6.5)
    plot_clock_levels(d, margin_runs, eps, t_cls_levels, power_fits, log_log=True, symbol="ε")
    d.set_title("(d) the same on log-log axes: a power law is a line here", loc="left")
    d.legend(fontsize=6.5)
    return fig


def figure_slow_clock(runs, gaps, etas, t_rep_levels, power_fits, log_fits, drift_steps, drift_errors, drift_label,
                      slow_max: float = 1e-3):
    """The slow clock: Delta(t); T_rep(eta) in the axes where Theorem 4.9's power law (b) or an
    exponential tail (c) is a straight line; Prop. 4.3 against the run (d)."""
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), layout="constrained")
    (a, b), (c, d) = axes
    plot_gaps(a, runs, gaps)
    a.set_title("(a) energy gap, GD (solid: larger λ)", loc="left")
    a.legend(ncol=2, fontsize=6.5)
    plot_clock_levels(b, runs, etas, t_rep_levels, power_fits, log_log=True, symbol="η", fit_max=slow_max)
    b.set_title(r"(b) $T_{\mathrm{rep}}(\eta)$, log-log: Theorem 4.9's power law is a line here", loc="left")
    b.legend(fontsize=6.5)
    plot_clock_levels(c, runs, etas, t_rep_levels, log_fits, log_log=False, symbol="η", fit_max=slow_max)
    c.set_title(r"(c) $T_{\mathrm{rep}}(\eta)$ against $\ln(1/\eta)$: an exponential tail is a line here", loc="left")
    c.legend(fontsize=6.5)
    for n, (index, errs) in enumerate(drift_errors.items()):
        plot_drift_errors(d, drift_steps[index], errs, f"$s_{{{index + 1}}}$", DRIFT_STYLES[n % len(DRIFT_STYLES)])
    d.set_title(f"(d) singular-value drift, {drift_label}", loc="left")
    d.legend(fontsize=6.5)
    return fig


def figure_separation(histories: Sequence[History], gaps, clocks: Sequence[tuple[float, float]]):
    """One panel per run (depth): loss and gap on a common time axis with both clocks marked."""
    fig, axes = plt.subplots(1, len(histories), figsize=(3.6 * len(histories), 3.6), layout="constrained",
                             sharey=True)
    for ax, h, d, (tc, tr) in zip(np.atleast_1d(axes), histories, gaps, clocks):
        plot_two_clocks(ax, h, d, tc, tr)
        ratio = f"{tr / tc:.1f}" if tc != 0 else "-"
        ax.set_title(f"L = {h.cfg.depth}: $T_{{\\mathrm{{rep}}}}/T_{{\\mathrm{{cls}}}}$ = {ratio}", loc="left")
    np.atleast_1d(axes)[0].set_ylabel(r"solid $L_{\mathrm{CE}}$, dotted $\Delta$")
    np.atleast_1d(axes)[0].legend(loc="lower left")
    return fig
