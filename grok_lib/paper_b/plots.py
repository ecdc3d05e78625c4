"""Paper B's figures, one function per figure of the book (``fig1a_sparse``, ``sweeps_figure``, ...):
each takes histories (or rows of numbers) and returns a Figure composed of the panels of
:mod:`grok_lib.paper_b.panels`; none trains or loads anything.
"""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from ..history import History
from . import measure
from .panels import (accuracy_panel, accuracy_vs_margin_classifiers, adam_step_panel, cosines, curves, delay_panel,
                     fraction_limit_panel, loss_panel, mse_panel, norm_shrink_panel, norm_vs_prediction, rank_panel,
                     run_label, slope_fit, transition_fractions)


def fig1a_sparse(h: History, alpha_sweep: Sequence[History]) -> Figure:
    """Fig. 1a: accuracy and loss of one run against GD steps, and the norm of every alpha run against
    alpha e^{-lambda t}."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 3.3), layout="constrained")
    accuracy_panel(h, "steps", axes[0])
    loss_panel(h, "steps", axes[1])
    norm_vs_prediction(alpha_sweep, axes[2])
    for ax, title in zip(axes, (f"(a) accuracy, {run_label(h)}", "(b) logistic loss", r"(c) $\|\theta\|$, $\alpha$ sweep")):
        ax.set_title(title)
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


def sparse_transition(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> Figure:
    """2 x 2: transition fractions against alpha with the fitted window; the same against 1 / ln(alpha) with the
    extrapolation to alpha -> infinity; end time t against ln(alpha) and against 1 / lambda with the theory slopes."""
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 6.6), layout="constrained")
    alphas = [float(h.cfg.alpha) for h in alpha_sweep]
    fr = [measure.accuracy_transition(h).fractions for h in alpha_sweep]
    starts, ends = [f[0] for f in fr], [f[1] for f in fr]
    win = measure.window_fit(starts, ends)
    transition_fractions(alphas, starts, ends, c=win.c, ax=axes[0, 0])
    axes[0, 0].set_title(r"(a) transition window, $\alpha$ sweep")
    big = [i for i, a in enumerate(alphas) if a > 1]  # alpha <= 1 has no clock
    fit_s, fit_e = measure.try_fit(measure.fraction_limits, [alpha_sweep[i] for i in big]) or (None, None)
    fraction_limit_panel([alphas[i] for i in big], [starts[i] for i in big], [ends[i] for i in big], fit_s, fit_e,
                         ax=axes[0, 1])
    axes[0, 1].set_title(r"(b) the limit $\alpha\to\infty$")
    lam = float(alpha_sweep[0].cfg.weight_decay)
    fa = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep)
    slope_fit(np.log(alphas), measure.transition_times(alpha_sweep), fa, r"$\ln\alpha$",
              ylabel=r"end time $t$ (test acc $\geq$ 0.9)", theory_slope=1 / lam, ax=axes[1, 0])
    axes[1, 0].set_title(rf"(c) against $\ln\alpha$ ($\lambda$={lam:g})")
    alpha = float(lambda_sweep[0].cfg.alpha)
    fl = measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    inv = [1 / float(h.cfg.weight_decay) for h in lambda_sweep]
    slope_fit(inv, measure.transition_times(lambda_sweep), fl, r"$1/\lambda$",
              ylabel=r"end time $t$ (test acc $\geq$ 0.9)", theory_slope=math.log(alpha) if alpha > 1 else None,
              ax=axes[1, 1])
    axes[1, 1].set_title(rf"(d) against $1/\lambda$ ($\alpha$={alpha:g})")
    return fig


def margins_sparse(h: History, alpha_sweep: Sequence[History]) -> Figure:
    """Kernel vs rich on sparse data: cosines of beta(t) with the margin classifiers, the net's accuracy beside
    theirs (one run), and the cosine with the max-L1 classifier for every alpha, on the clock."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 3.9), layout="constrained")
    cosines(h, "clock", ax=axes[0])
    accuracy_vs_margin_classifiers(h, "clock", ax=axes[1])
    curves(alpha_sweep, "cos_l1", "clock", ax=axes[2], ylabel=r"$\cos(\beta(t)$, max-$L_1$ margin$)$", logx=False)
    for ax in axes:
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    axes[0].set_title(f"(a) cosines, {run_label(h)}")
    axes[1].set_title("(b) test accuracy: net and classifiers")
    axes[2].set_title(r"(c) cosine with max-$L_1$, $\alpha$ sweep")
    return fig


def misgrokking_figure(h: History) -> Figure:
    """Misgrokking: the net's accuracy beside the margin classifiers', and the cosines, on the clock."""
    fig, axes = plt.subplots(1, 2, figsize=(8.8, 3.9), layout="constrained")
    accuracy_vs_margin_classifiers(h, "clock", ax=axes[0])
    cosines(h, "clock", ax=axes[1])
    for ax in axes:
        ax.axvline(1.0, color="k", lw=0.8, ls="--")
    axes[0].set_title(rf"(a) accuracy, misgrokking, $\gamma$={h.cfg.gamma:g}")
    axes[1].set_title("(b) cosines")
    return fig


def matrix_completion_figure(h: History) -> Figure:
    """Matrix completion: MSEs against steps and against the clock, nuclear norm and stable rank on the clock."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 4.2), layout="constrained")
    mse_panel(h, "steps", axes[0])
    mse_panel(h, "clock", axes[1])
    rank_panel(h, "clock", axes[2])
    axes[0].set_title(f"(a) errors against steps, {run_label(h)}")
    axes[1].set_title(r"(b) errors against $\lambda t/\ln\alpha$")
    axes[2].set_title("(c) nuclear norm and stable rank of W")
    one_legend_below(fig)
    return fig


def one_legend_below(fig, ncol: int = 4) -> None:
    """The panels' legends as one legend below the figure, each label once: panels that share their entries
    (the same curves against steps and against the clock) do not repeat them, and no legend covers data."""
    handles, labels = [], []
    for ax in fig.axes:
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=8)


def modadd_fits(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> Figure:
    """Modular addition: end time t (test accuracy >= 0.9) against ln(alpha) and against 1 / lambda, with the
    least-squares lines and the theory's slopes (1 / lambda, ln alpha)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.8, 3.3), layout="constrained")
    lam = float(alpha_sweep[0].cfg.weight_decay)
    la = [math.log(float(h.cfg.alpha)) for h in alpha_sweep]
    slope_fit(la, measure.transition_times(alpha_sweep), measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), r"$\ln\alpha$",
              ylabel=r"end time $t$ = lr $\times$ step", theory_slope=1 / lam, ax=axes[0])
    axes[0].set_title(rf"(a) against $\ln\alpha$ ($\lambda$={lam:g})")
    alpha = float(lambda_sweep[0].cfg.alpha)
    inv = [1 / float(h.cfg.weight_decay) for h in lambda_sweep]
    slope_fit(inv, measure.transition_times(lambda_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep),
              r"$1/\lambda$", ylabel=r"end time $t$ = lr $\times$ step",
              theory_slope=math.log(alpha) if alpha > 1 else None, ax=axes[1])
    axes[1].set_title(rf"(b) against $1/\lambda$ ($\alpha$={alpha:g})")
    return fig


def init_scale_figure(histories: Sequence[History], delay_rows: Sequence[dict]) -> Figure:
    """The bridge, 2 x 3: test accuracy against steps per lambda (a, b); the delays against ln(alpha) (c);
    the norm against the decay-only prediction (d) and Adam's step size (e), at the largest lambda; train
    accuracy per lambda (f)."""
    fig, axes = plt.subplots(2, 3, figsize=(14.2, 6.8), layout="constrained")
    lams = sorted({float(h.cfg.weight_decay) for h in histories})
    by_lam = {lam: sorted((h for h in histories if float(h.cfg.weight_decay) == lam),
                          key=lambda h: h.cfg.alpha) for lam in lams}
    for ax, lam, tag in zip(axes[0, :2], lams[-2:][::-1] if len(lams) > 1 else lams, "ab"):
        curves(by_lam[lam], "test_acc", "steps", ax=ax, ylabel="test accuracy", logx=False,
               title=rf"({tag}) test accuracy, $\lambda$={lam:g}")
        ax.set_xlabel("AdamW step")
    delay_panel(delay_rows, ax=axes[0, 2])
    axes[0, 2].set_title("(c) delays against the two clocks")
    top = by_lam[lams[-1]]
    norm_shrink_panel(top, ax=axes[1, 0])
    axes[1, 0].set_title(rf"(d) $\|\theta\|$, $\lambda$={lams[-1]:g}")
    adam_step_panel(top, ax=axes[1, 1])
    axes[1, 1].set_title(rf"(e) Adam's step, $\lambda$={lams[-1]:g}")
    curves(top, "train_acc", "steps", ax=axes[1, 2], ylabel="train accuracy", logx=False,
           title=rf"(f) train accuracy, $\lambda$={lams[-1]:g}")
    axes[1, 2].set_xlabel("AdamW step")
    # right of the axes, as (c)'s above it: inside, the late rises crossed it
    axes[1, 2].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig
