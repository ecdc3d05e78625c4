"""Paper A's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, the call it makes, runs, figures."""

from __future__ import annotations

import numpy as np

from ..chapters import Chapter, Figure, lazy_import
from . import chapter_runs, config, key_numbers, recorded_numbers, robustness
from .dln import clocks as dc, config as dln_config
from .dln import key_numbers as dln_numbers
from .dln.runs import focus_depth, gd_decayed_runs, plain_runs, separation_runs
from .relu_reduction import FROZEN_CHURN

# How each figure is drawn from its chapter's runs (a list of histories, one per weight decay), or from the
# recorded sets it declares: the notebook's figure cell and the image tests both draw through these. The plot
# modules load when a figure is drawn, not when the declarations are read (lazy_import: no matplotlib then).
plots = lazy_import("grok_lib.paper_a.plots")
mechanism_plots = lazy_import("grok_lib.paper_a.mechanism_plots")
dln_plots = lazy_import("grok_lib.paper_a.dln.plots")


def _fig1(hs):
    return plots.figure1(hs)


def _fig2(hs):
    return mechanism_plots.figure2(hs, robustness.largest_weight_decay(hs), key_numbers.MEMORISING_EPOCH)


def _clock_marks(hs) -> dict:
    """Weight decay -> (T_cls, T_rep), the two clocks Figure 3 marks on each run."""
    return {r["weight_decay"]: (r["T_cls(1e-04)"], r["T_rep"]) for r in key_numbers.fig3_clock_table(hs)}


def _fig3(hs):
    return plots.figure3(hs, key_numbers.SLOW_MATRIX, _clock_marks(hs), others=key_numbers.OTHER_MATRICES)


_PAPER_SPLITS = tuple(chapter_runs.PAPER_SPLITS.values())  # the recorded sets, in the order of their labels


def _fig1_paper(*splits):
    return plots.figure1_paper_settings(dict(zip(chapter_runs.PAPER_SPLITS, splits, strict=True)))


def _init(default, scaled):
    return plots.figure_init(default, scaled)


def _fig3_paper(*splits):
    return plots.figure3_paper_settings({label: (hs, _clock_marks(hs)) for label, hs in zip(chapter_runs.PAPER_SPLITS,
                                                                                             splits, strict=True)})


def _gradients(hs):
    ratios = {h.cfg.weight_decay: key_numbers.gradient_ratios(h) for h in hs}
    return mechanism_plots.figure_gradients(hs, robustness.largest_weight_decay(hs),
                                            {wd: r["grad_U/grad_E"] for wd, r in ratios.items()},
                                            {wd: r["update_U/update_E"] for wd, r in ratios.items()})


def _activations(hs):
    return mechanism_plots.figure_activations(hs, key_numbers.activation_rates(hs), key_numbers.activation_marks(hs),
                                              FROZEN_CHURN)


def _dln_fast(hs):
    plain = plain_runs(hs)
    focus = [h for h in plain if h.cfg.depth == focus_depth(plain)]
    growth = [dc.margin_growth(h) for h in focus]
    bounds = [((h.cfg.n_classes - 1) * np.exp(-h["margin"]),
               dc.theorem35_bound(h.steps, g["t0"], g["gamma0"], g["nu_hold"], h.cfg.n_classes, g["t_end"]))
              for h, g in zip(focus, growth)]
    fast = [dc.fast_clock_fits(h) for h in plain]
    return dln_plots.figure_fast_clock(plain, focus, bounds, dc.EPS_LEVELS, [f["T"] for f in fast],
                                       [f["log"] for f in fast], [f["power"] for f in fast])


def _dln_slow(hs):
    gd_decayed = gd_decayed_runs(hs)
    slow = [dc.slow_clock_fits(h) for h in gd_decayed]
    drift_run = next(h for h in gd_decayed if h.cfg.depth == focus_depth(plain_runs(hs)))
    drift = {i: dc.drift_errors(drift_run, i, start=10) for i in (0, 1) if f"sv_{i}" in drift_run.metrics}
    return dln_plots.figure_slow_clock(gd_decayed, [dc.gap(h) for h in gd_decayed], dc.ETA_LEVELS,
                                       [s["T"] for s in slow], [s["power"] for s in slow], [s["log"] for s in slow],
                                       {i: d["steps"] for i, d in drift.items()}, drift, dc.run_label(drift_run))


def _dln_separation(hs):
    sep_runs = separation_runs(hs)
    marks = [(dc.t_cls_floor(h), dc.t_rep_gap(h, dc.ETA_TABLE)) for h in sep_runs]
    return dln_plots.figure_separation(sep_runs, [dc.gap(h) for h in sep_runs], marks)


def _mlp(stem: str, *figs: Figure, claims: tuple[str, ...]) -> Chapter:
    """An MLP chapter: the weight-decay sweep of :func:`chapter_runs.mlp`."""
    return Chapter(f"notebooks/paper_a/{stem}.ipynb", chapter_runs.mlp, config.sweep, figs, claims=claims)


CHAPTERS = (
    _mlp("fig1_loss_curves",
         Figure("paper_a/fig1_loss_curves", "Paper A, Figure 1: train/test loss and accuracy over weight decays 0.6-1.0",
                key_numbers.fig1_loss_curves, _fig1, interactive=True),
         Figure("paper_a/fig1_paper_settings", "Paper A, Figure 1 at the paper's settings (recorded runs; the caption "
                "gives their settings), both splits", recorded_numbers.fig1_paper_settings, _fig1_paper,
                _PAPER_SPLITS),
         claims=("A.fig1.train_fit", "A.fig1.grok_window", "A.fig1.wd_order")),
    _mlp("fig2_embedding_geometry",
         Figure("paper_a/fig2_embedding_geometry", "Paper A, Figure 2: Fourier spectra and the embeddings after "
                "generator reordering", key_numbers.fig2_embedding_geometry, _fig2),
         claims=("A.fig2.fourier", "A.fig2.circle", "A.fig2.evenly_spaced", "A.fig2.output_fourier",
                 "A.fig2.output_circle", "A.fig2.output_evenly_spaced")),
    _mlp("fig3_stable_rank",
         Figure("paper_a/fig3_stable_rank", "Paper A, Figure 3: test loss and the stable-rank clock, with both clocks "
                "marked", key_numbers.fig3_stable_rank, _fig3, interactive=True),
         Figure("paper_a/fig3_paper_settings", "Paper A, Figure 3 at the paper's settings (recorded runs; the caption "
                "gives their settings), both splits", recorded_numbers.fig3_paper_settings, _fig3_paper,
                _PAPER_SPLITS),
         Figure("paper_a/init_comparison", "Paper A: PyTorch's N(0, 1) embeddings against N(0, 1/d) (default profile; "
                "recorded runs)", recorded_numbers.init_comparison, _init, ("default", "init_scaled")),
         claims=("A.fig3.srank_peak", "A.fig3.srank_final", "A.fig3.after_fit", "A.fig3.clock_ratio",
                 "A.fig3.srank_wd_order")),
    _mlp("gradient_hierarchy",
         Figure("paper_a/gradient_hierarchy", "Paper A, Prop. 4.2: per-block gradient norms, their bounds, and "
                "AdamW's updates", key_numbers.gradient_hierarchy, _gradients),
         claims=("A.prop42.head_dominated",)),
    _mlp("activation_patterns",
         Figure("paper_a/activation_patterns", "Paper A, Sec. 5: churn of the training set's ReLU activation patterns",
                key_numbers.activation_patterns, _activations),
         claims=("A.relu.frozen_patterns",)),
    Chapter("notebooks/paper_a/deep_linear_clocks.ipynb", chapter_runs.deep_linear, dln_config.sweep, (
        Figure("paper_a/dln_fast_clock", "Paper A, deep linear networks: the fast clock (margins, Lemma 3.1 / "
               "Theorem 3.5, T_cls(ε))", dln_numbers.dln_fast_clock, _dln_fast),
        Figure("paper_a/dln_slow_clock", "Paper A, deep linear networks: the slow clock (energy gap, T_rep(η), "
               "Prop. 4.3 drift)", dln_numbers.dln_slow_clock, _dln_slow),
        Figure("paper_a/dln_separation", "Paper A, deep linear networks: loss and energy gap with both clocks, "
               "per depth", dln_numbers.dln_separation, _dln_separation)),
        claims=("A.dln.schatten", "A.dln.lemma31", "A.dln.margin_linear", "A.dln.fast_log", "A.dln.contraction",
                "A.dln.slow_poly", "A.dln.prop43", "A.dln.separation")),
)


def load_set(name: str):
    """A recorded set's histories; ``default``: the default profile's sweep at seed 0, as recorded."""
    return chapter_runs.default_runs() if name == "default" else chapter_runs.recorded(name)


def recorded_profiles() -> dict[str, list]:
    """The profiles' sweeps a recorded figure's caption compares the recordings with, the default profile
    first: the caption (:func:`grok_lib.provenance.recorded_source`) names the settings in which the recorded
    runs differ from the default profile's, and the profile they are closest to."""
    return {name: config.sweep(name) for name in ("default", *sorted(set(config.PROFILES) - {"default", "ci"}))}
