"""Part C's figures, one per notebook, each composed of the panels of :mod:`grok_lib.paper_c.panels` (which
also hold the colours and styles); they take histories or arrays, and nothing here trains or fits."""

from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..history import History
from .measure import GROK_ACC
from .panels import (DT, GROK_LEVEL, clip_loss_axis, plot_accuracies, plot_d_out, plot_data_ratio, plot_formula_ratios,
                     plot_grok_times, plot_label_noise, plot_losses, plot_mp_density, plot_plateaus,
                     plot_relative_errors, plot_weight_decay)


# --- the figures (one per notebook; each composes panels of .panels) ------------------------------------
def _title(ax, h: History, extra: str = "") -> None:
    c = h.cfg
    ax.set_title(rf"$\lambda$={c.lam:g} ($N_{{\mathrm{{tr}}}}$={h.meta['n_train']})" + extra, loc="left")


def figure_loss_curves(histories: Sequence[History]):
    """Losses (top) and threshold accuracies (bottom) vs step, one column per λ, simulation against
    the exact and the Marchenko-Pastur theory."""
    fig, axes = plt.subplots(2, len(histories), figsize=(4.4 * len(histories), 7.4), layout="constrained",
                             squeeze=False)
    for j, h in enumerate(histories):
        plot_losses(axes[0, j], h)
        clip_loss_axis(axes[0, j])  # below LOSS_BOTTOM: exponential tails down to float underflow
        _title(axes[0, j], h)
        plot_accuracies(axes[1, j], h, mp=True)
    axes[0, 0].legend(fontsize=7, loc="lower left")  # below the early losses, left of the fall
    axes[1, 0].legend(fontsize=7, loc="center left")
    return fig


def figure_agreement(histories: Sequence[History], errors: Sequence[Mapping[str, np.ndarray]]):
    """Top: relative errors over time (``errors[i]`` for run i); bottom: the MP density over each
    run's sample eigenvalues."""
    fig, axes = plt.subplots(2, len(histories), figsize=(4.4 * len(histories), 6.8), layout="constrained",
                             squeeze=False)
    for j, (h, err) in enumerate(zip(histories, errors)):
        plot_relative_errors(axes[0, j], h.steps, err)
        _title(axes[0, j], h)
        plot_mp_density(axes[1, j], h.meta["lam_eff"], h.snapshots["eigenvalues"][-1])
    # the error curves' legend above the panels, which it would cover; the densities' in the first one
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside upper center", ncol=len(errors[0]), fontsize=7)
    axes[1, 0].legend(fontsize=7)
    return fig


def figure_grok_time(lams, times, formula_lams, formula, ratios):
    """Δt_grok vs λ per ε with the paper's formula (left), and simulation / formula (right)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    plot_grok_times(a, lams, times, formula_lams, formula)
    plot_formula_ratios(b, lams, ratios)
    a.legend(fontsize=7)
    b.legend(fontsize=7)
    return fig


def figure_weight_decay(histories: Sequence[History], limits: Sequence[Mapping], predicted, measured, labels):
    """Each (λ, γ) run's losses with the predicted plateaus (``limits[i]`` for run i), and every measured
    plateau against the paper's formula (last panel)."""
    n = len(histories)
    cols = (n + 1) // 2 + 1
    fig, axes = plt.subplots(2, cols, figsize=(4.0 * cols, 7.2), layout="constrained", squeeze=False)
    for i, (h, lim) in enumerate(zip(histories, limits)):
        ax = axes[i % 2, i // 2]
        plot_weight_decay(ax, h, lim)
        ax.set_ylim(min(lim["paper"] + lim["our convention"]) / 30, None)
        _title(ax, h, rf", $\gamma$={h.cfg.gamma:g}")
    plot_plateaus(axes[0, -1], predicted, measured)  # labels crowd at small gamma: the table has them
    axes[0, -1].set_title("plateaus vs the formula", loc="left")
    axes[1, -1].axis("off")
    # the first run's legend stands in the free panel, where it hides no curve
    axes[1, -1].legend(*axes[0, 0].get_legend_handles_labels(), loc="center", fontsize=6)
    return fig


def figure_d_out(d_outs, mean, sem, scaled_mean, scaled_sem, scaled_theory):
    """Δt_grok vs d_out in steps (left) and per output, Δt / d_out, with the isotropic theory (right)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    plot_d_out(a, d_outs, mean, sem)
    plot_d_out(b, d_outs, scaled_mean, scaled_sem, scaled_theory)
    b.set_ylabel(DT + r" / $d_{\mathrm{out}}$")
    b.legend(fontsize=7)
    return fig


def figure_nets(histories: Sequence[History]):
    """Losses (top) and accuracies (bottom) of the two-layer linear and the tanh student, against the
    rescaled linear theory (dashed)."""
    fig, axes = plt.subplots(2, len(histories), figsize=(5.2 * len(histories), 7.2), layout="constrained",
                             squeeze=False)
    for j, h in enumerate(histories):
        c = h.cfg
        plot_losses(axes[0, j], h, mp=False, test="gen_loss" not in h.metrics)
        clip_loss_axis(axes[0, j])
        axes[0, j].set_title(f"{c.model.replace('_', ' ')} {c.d_in}-{c.hidden}-{c.d_out}", loc="left")
        plot_accuracies(axes[1, j], h)
        # each loss panel its own legend where its lines differ from the first's (the tanh net has no exact
        # generalisation loss: its orange line is the test set's), in the empty corner below the early losses
        if j == 0 or axes[0, j].get_legend_handles_labels()[1] != axes[0, 0].get_legend_handles_labels()[1]:
            axes[0, j].legend(fontsize=7, loc="lower left")
    axes[1, 0].legend(fontsize=7, loc="center left")
    return fig


def figure_label_noise(histories: Sequence[History]):
    """Each label-noise run: losses with the rebuttal's prediction and the exact theory (top), and the
    two accuracies (bottom)."""
    fig, axes = plt.subplots(2, len(histories), figsize=(4.2 * len(histories), 7.2), layout="constrained",
                             squeeze=False)
    for j, h in enumerate(histories):
        if "noise_pred_train_loss" in h.metrics:
            plot_label_noise(axes[0, j], h)
        else:
            plot_losses(axes[0, j], h, mp=False, test=False)
        clip_loss_axis(axes[0, j])
        _title(axes[0, j], h, "\n" + rf"$\sigma_n$={h.cfg.label_noise:.3g}")
        plot_accuracies(axes[1, j], h, theory=False)
        if j < 2:  # the noiseless run, and the first noisy one (the others repeat its entries); below the early
            axes[0, j].legend(fontsize=6, loc="lower left")  # losses, which fall from the top left
    axes[1, 0].legend(fontsize=7, loc="center left")
    return fig


def figure_data_ratio(histories: Sequence[History], measured):
    """Part A's MLP: test accuracy vs epoch per training fraction (seed 0, left) and Δt_grok against the
    training fraction with the three two-parameter fits (right; ``measured`` is a ``data_ratio.DataRatio``)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11.5, 4.4), layout="constrained")
    first = [h for h in histories if h.cfg.data_seed == histories[0].cfg.data_seed]
    cmap = plt.get_cmap("viridis")
    for i, h in enumerate(sorted(first, key=lambda h: h.cfg.train_frac)):
        a.plot(np.where(h.steps == 0, 0.5, h.steps), h["test_acc"], color=cmap(i / max(len(first) - 1, 1)),
               label=f"f = {h.cfg.train_frac:g}")
    a.axhline(GROK_ACC, color="0.6", lw=0.7, label=GROK_LEVEL)
    a.set_xscale("log")
    a.set_xlabel("epoch")
    a.set_ylabel("test accuracy")
    a.legend(fontsize=7, loc="upper left")  # before the rises: on the lower right, the latest rise crossed it
    plot_data_ratio(b, measured)
    return fig
