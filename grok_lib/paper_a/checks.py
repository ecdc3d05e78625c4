"""Paper A's checks on the MLP: one evaluator per figure's claims (``evaluate_*``) that measures each claim's quantity
on weight-decay sweeps, one sweep per seed (or one recorded sweep), at every point of the claim's grid, and grades
it by the one rule (:func:`grok_lib.grading.grade`).

Every claim is graded only on runs in the paper's regime (:func:`regime`): the transition completes within the
run. A claim about absolute epochs or end values (the train loss at epoch 1,500, the window of the drop, the
stable rank's end) is a property of the paper's own setting, so it also needs the paper's width and a run as
long as its figures' axes (:func:`paper_regime`); the default profile's reduced runs are not a faithful test of
those, and the recorded runs at the paper's settings are. The deep-linear chapter's checks are in
:mod:`grok_lib.paper_a.dln.checks`.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..clocks import first_crossing, grokking_epoch, t_cls
from ..grading import Regime, Result, draw, grade
from ..history import History
from . import geometry
from .claims import REGISTRY
from .clocks import t_rep_srank
from .key_numbers import gradient_ratios, reduction_to_end
from .relu_reduction import churn_rate, frozen_epoch
from .robustness import by_weight_decay, head_share_by_phase
from .thresholds import COMPLETE_ACC, FIT_EPOCH, FIT_EPS, PAPER_AXIS_EPOCHS, PAPER_WIDTH, RATIO_EPS

Sweeps = Sequence[Sequence[History]]


def _members(hs: Sequence[History]) -> tuple:
    return tuple(f"λ={h.cfg.weight_decay:g}" for h in hs)


def _seed(hs: Sequence[History]):
    return int(hs[0].cfg.data_seed)


def _sorted(sweeps: Sweeps) -> list[list[History]]:
    return [by_weight_decay(hs) for hs in sweeps]


def regime(sweeps: Sweeps) -> Regime:
    """Every MLP claim's regime: the transition completes within the run (test accuracy reaches
    :data:`COMPLETE_ACC` before the last epoch, every run)."""
    hs = [h for s in sweeps for h in s]
    groks = [grokking_epoch(h, COMPLETE_ACC) for h in hs]
    done = [not math.isnan(g) for g in groks]
    last = max(float(h.steps[-1]) for h in hs)
    finite = [g for g in groks if not math.isnan(g)]
    measured = (f"{sum(done)} of {len(hs)} runs reach it, by epoch {max(finite):.0f} of {last:.0f}" if finite
                else f"no run reaches it in {last:.0f} epochs")
    return Regime(all(done), f"test accuracy {COMPLETE_ACC:.0%}", "within the run (the transition completes)", measured)


def paper_regime(sweeps: Sweeps) -> Regime:
    """The regime of a claim about absolute epochs or end values: the paper's width and a run at least as long as
    its figures' axes, and the transition complete."""
    complete = regime(sweeps)
    c = sweeps[0][0].cfg
    ok = c.width == PAPER_WIDTH and c.epochs >= PAPER_AXIS_EPOCHS and complete.ok
    return Regime(ok, "width and run length", f"the paper's ({PAPER_WIDTH}; its figures' axes to "
                  f"{PAPER_AXIS_EPOCHS:,} epochs), and the transition complete",
                  f"width {c.width}, {c.epochs:,} epochs; test accuracy {COMPLETE_ACC:.0%}: {complete.measured}")


def drop_regime(sweeps: Sweeps, levels: Sequence[float]) -> Regime:
    """The regime of a claim about the test loss's drop: every run's test loss gets through the smallest level of
    the claim's grid within the run (else the drop is cut off by the run's end, not measured)."""
    hs = [h for s in sweeps for h in s]
    low = min(levels)
    reached = [not math.isnan(drop_epoch(h, low)) for h in hs]
    return Regime(all(reached), f"the test loss's drop to {low:.0e}", "within every run",
                  f"{sum(reached)} of {len(hs)} runs get there in {max(int(h.steps[-1]) for h in hs):,} epochs")


def fall_regime(sweeps: Sweeps, fractions: Sequence[float], matrix: str = "E") -> Regime:
    """The regime of a claim about when the stable rank falls: every run's stable rank gets down to the smallest
    fraction of its peak in the claim's grid within the run (else the fall is cut off by the run's end, not
    measured), as :func:`drop_regime` for the test loss."""
    hs = [h for s in sweeps for h in s]
    low = min(fractions)
    reached = [not math.isnan(t_rep_srank(h, matrix, low)) for h in hs]
    return Regime(all(reached), f"the stable rank's fall to {low:g} × its peak", "within every run",
                  f"{sum(reached)} of {len(hs)} runs get there in {max(int(h.steps[-1]) for h in hs):,} epochs")


def drop_epoch(h: History, level: float) -> float:
    """First recorded epoch with test loss <= ``level`` after the train loss has saturated (T_cls(1e-3)): the
    test loss's drop, not its value before memorisation (NaN if never)."""
    start = t_cls(h, FIT_EPS)
    if math.isnan(start):
        return math.nan
    after = h.steps >= start
    return first_crossing(h.steps[after], h["test_loss"][after], level)


def inversions(epochs: Sequence[float]) -> float:
    """Inversions of "strictly earlier for every larger weight decay" (epochs in increasing weight decay): a pair
    that is not strictly earlier, and a weight decay whose clock never stops, each count one."""
    count = sum(1 for e in epochs if math.isnan(e))
    finite = [e for e in epochs if not math.isnan(e)]
    return float(count + sum(1 for x, y in zip(finite, finite[1:]) if y >= x))


def evaluate_fig1(sweeps: Sweeps) -> list[Result]:
    """The Figure 1 claims on weight-decay sweeps (one per seed)."""
    sweeps = _sorted(sweeps)
    window, order, fit = REGISTRY["A.fig1.grok_window"], REGISTRY["A.fig1.wd_order"], REGISTRY["A.fig1.train_fit"]
    levels = window.choices[0].grid
    fit_draws = [draw([h.at("train_loss", FIT_EPOCH) for h in hs], _seed(hs), (), _members(hs)) for hs in sweeps]
    drops = {(i, lvl): [drop_epoch(h, lvl) for h in hs] for i, hs in enumerate(sweeps) for lvl in levels}
    window_draws = [draw(drops[i, lvl], _seed(hs), (lvl,), _members(hs)) for i, hs in enumerate(sweeps) for lvl in levels]
    order_draws = [draw(inversions(drops[i, lvl]), _seed(hs), (lvl,)) for i, hs in enumerate(sweeps) for lvl in levels]
    acc = "; ".join(f"seed {_seed(hs)}: " + ", ".join(f"{grokking_epoch(h, 0.95):.0f}" for h in hs) for hs in sweeps)
    absolute, drop = paper_regime(sweeps), drop_regime(sweeps, levels)
    window_regime = absolute if not absolute.ok else drop
    return [grade(fit, fit_draws, regime=absolute),
            grade(window, window_draws, f"reported, not graded: test accuracy ≥ 95% at epochs {acc}",
                  regime=window_regime),
            grade(order, order_draws, "drop epochs: " + "; ".join(
                f"seed {_seed(hs)}, ℓ {lvl:.0e}: " + ", ".join("never" if math.isnan(e) else f"{e:.0f}"
                                                             for e in drops[i, lvl])
                for i, hs in enumerate(sweeps) for lvl in levels), regime=drop)]


def _geometry_results(sweeps: list[list[History]], block: str, ids: tuple[str, str, str], note: str = "") -> list[Result]:
    """Fourier sparsity of ``block`` (E or U) at the end of every run, and its circle and even spacing after the
    reordering by E's dominant frequency (Fig. 2's "same label reordering"), graded as claims ``ids``."""
    fourier = REGISTRY[ids[0]]
    end = {i: [(h.snapshot("E", int(h.steps[-1])), h.snapshot(block, int(h.steps[-1]))) for h in hs]
           for i, hs in enumerate(sweeps)}
    fourier_draws = [draw([geometry.energy_fraction(x, k) for _, x in end[i]], _seed(hs), (k,), _members(hs))
                     for i, hs in enumerate(sweeps) for k in fourier.choices[0].grid]
    init = [geometry.energy_fraction(hs[0].snapshot(block, 0), 5) for hs in sweeps]
    polygons = {i: [polygon_on(x, geometry.dominant_frequency(e)) for e, x in end[i]] for i in end}
    circle = [draw([p["radius_cv"] for p in polygons[i]], _seed(hs), (), _members(hs)) for i, hs in enumerate(sweeps)]
    spacing = [draw([p["angle_rms"] for p in polygons[i]], _seed(hs), (), _members(hs)) for i, hs in enumerate(sweeps)]
    where = regime(sweeps)
    return [grade(fourier, fourier_draws, note + f"at init the 5 strongest hold {min(init):.2f}–{max(init):.2f}",
                  regime=where),
            grade(REGISTRY[ids[1]], circle, note.rstrip("; "), regime=where),
            grade(REGISTRY[ids[2]], spacing, note.rstrip("; "), regime=where)]


def polygon_on(x: np.ndarray, k: int) -> dict[str, float]:
    """How far the rows of ``x``, relabelled j = k i mod p and projected on frequency k's plane, are from a
    regular polygon (:func:`grok_lib.paper_a.geometry.polygon_deviation`)."""
    return geometry.polygon_deviation(geometry.circle_projection(x, k), k)


#: Figure 2's panel B claims: graded only on sweeps that keep U's weights (a notebook's own runs; not the recorded sets).
OUTPUT_CLAIMS = ("A.fig2.output_fourier", "A.fig2.output_circle", "A.fig2.output_evenly_spaced")


def evaluate_fig2(sweeps: Sweeps) -> list[Result]:
    """The Figure 2 claims: Fourier sparsity of E and of U, and their circle and even spacing after reordering by
    E's dominant frequency (panels A and B). U's are graded on the sweeps that keep U's weights (the runs of a
    notebook do; recorded sets keep E alone), and left out where none does."""
    sweeps = _sorted(sweeps)
    results = _geometry_results(sweeps, "E", ("A.fig2.fourier", "A.fig2.circle", "A.fig2.evenly_spaced"))
    keeps = [all("U" in h.snapshots for h in hs) for hs in sweeps]
    kept = [hs for hs, k in zip(sweeps, keeps) if k]
    if kept:
        left = [hs for hs, k in zip(sweeps, keeps) if not k]
        note = (f"graded at seed {', '.join(str(_seed(hs)) for hs in kept)} alone: the recorded seed"
                f"{'s' if len(left) > 1 else ''} {', '.join(str(_seed(hs)) for hs in left)} "
                f"keep{'' if len(left) > 1 else 's'} E's weights, not U's; "
                if left else "")
        results += _geometry_results(kept, "U", OUTPUT_CLAIMS, note)
    return results


def peak_epoch(h: History, matrix: str = "E") -> float:
    return float(h.steps[int(np.argmax(h[f"srank_{matrix}"]))])


def slow_clock(h: History, matrix: str, fraction: float) -> float:
    """T_rep(fraction), or, where the stable rank has not fallen that far by the end of the run, the run's last
    epoch: a lower bound on T_rep, so a ratio over it is a lower bound too (what a "≥" bar can use)."""
    t = t_rep_srank(h, matrix, fraction)
    return float(h.steps[-1]) if math.isnan(t) else t


def evaluate_fig3(sweeps: Sweeps, matrix: str = "E") -> list[Result]:
    """The Figure 3 claims: the stable rank's peak and end, its fall after the fit, the clock ratio, and the order
    of its fall in the weight decay (the book's prediction)."""
    sweeps = _sorted(sweeps)
    key = f"srank_{matrix}"
    peak = [draw([float(h[key].max()) for h in hs], _seed(hs), (), _members(hs)) for hs in sweeps]
    final = [draw([float(h[key][-1]) for h in hs], _seed(hs), (), _members(hs)) for hs in sweeps]
    after = REGISTRY["A.fig3.after_fit"]
    after_draws = [draw([peak_epoch(h, matrix) - t_cls(h, eps) for h in hs], _seed(hs), (eps,), _members(hs))
                   for hs in sweeps for eps in after.choices[0].grid]
    ratio = REGISTRY["A.fig3.clock_ratio"]
    fractions, levels = (c.grid for c in ratio.choices)
    ratio_draws = [draw([slow_clock(h, matrix, f) / t_cls(h, e) for h in hs], _seed(hs), (f, e), _members(hs))
                   for hs in sweeps for f in fractions for e in levels]
    order = REGISTRY["A.fig3.srank_wd_order"]
    reps = {(i, f): [t_rep_srank(h, matrix, f) for h in hs] for i, hs in enumerate(sweeps) for f in order.choices[0].grid}
    order_draws = [draw(inversions(reps[i, f]), _seed(hs), (f,)) for i, hs in enumerate(sweeps)
                   for f in order.choices[0].grid]
    order_text = "T_rep(f) by weight decay: " + "; ".join(
        f"seed {_seed(hs)}, f {f:g}: " + ", ".join("never" if math.isnan(t) else f"{t:.0f}" for t in reps[i, f])
        for i, hs in enumerate(sweeps) for f in order.choices[0].grid)
    rep_vs_grok = "; ".join(f"seed {_seed(hs)}: " + ", ".join(
        f"{t_rep_srank(h, matrix) - grokking_epoch(h, 0.95):.0f}" for h in hs) for hs in sweeps)
    where = regime(sweeps)
    return [grade(REGISTRY["A.fig3.srank_peak"], peak, regime=where),
            grade(REGISTRY["A.fig3.srank_final"], final, regime=paper_regime(sweeps)),
            grade(after, after_draws, regime=where),
            grade(ratio, ratio_draws, f"reported, not graded: T_rep(0.8) − T_grok(95%), per weight decay: {rep_vs_grok}",
                  regime=where),
            grade(order, order_draws, order_text, regime=fall_regime(sweeps, order.choices[0].grid, matrix))]


def evaluate_gradients(sweeps: Sweeps) -> list[Result]:
    """Prop. 4.2: the head's gradient dominates the embeddings' while the training set is fitted (graded on the
    fitting phase, in epochs; the later phases and the AdamW update ratio are reported)."""
    sweeps = _sorted(sweeps)
    claim = REGISTRY["A.prop42.head_dominated"]
    draws = [draw([head_share_by_phase(h, eps)["fitting"] for h in hs], _seed(hs), (eps,), _members(hs))
             for hs in sweeps for eps in claim.choices[0].grid]
    later = "; ".join(f"seed {_seed(hs)}: " + ", ".join(
        f"{head_share_by_phase(h, FIT_EPS)['plateau']:.2f}/{head_share_by_phase(h, FIT_EPS)['late']:.2f}" for h in hs)
        for hs in sweeps)
    upd = "; ".join(f"seed {_seed(hs)}: " + ", ".join(
        f"{float(np.nanmedian(gradient_ratios(h)['update_U/update_E'])):.2f}" for h in hs) for hs in sweeps)
    return [grade(claim, draws, f"reported, not graded: the same share on the plateau / late phase, per weight decay: "
                                f"{later}; median AdamW update ratio U/E over the run: {upd}", regime=regime(sweeps))]


def evaluate_activations(sweeps: Sweeps) -> list[Result]:
    """Sec. 5's premise: activation patterns freeze before the representation clock stops (at every churn level
    of the grid). The reduced-model check needs a run's kept weights, so it is reported where they are kept."""
    sweeps = _sorted(sweeps)
    claim = REGISTRY["A.relu.frozen_patterns"]
    draws = [draw([frozen_epoch(h, c) / t_rep_srank(h) for h in hs], _seed(hs), (c,), _members(hs))
             for hs in sweeps for c in claim.choices[0].grid]
    late = "; ".join(f"seed {_seed(hs)}: " + ", ".join(
        f"{float(np.nanmedian(churn_rate(h)[h.steps >= t_cls(h, FIT_EPS)])):.4f}" for h in hs) for hs in sweeps)
    text = f"median churn per 50 epochs after T_cls(1e-3), per weight decay: {late}"
    focus = sweeps[0][-1]
    if "W" in focus.snapshots:
        err = reduction_to_end(focus)
        text += (f"; λ={focus.cfg.weight_decay:g}, the pattern of epoch 1000 held to the end: "
                 f"{err['bits_changed']:.3f} of bits differ, relative logit error {err['rel_logit_error']:.2f}")
    return [grade(claim, draws, text, regime=regime(sweeps))]


def ratio_at_book_thresholds(h: History, matrix: str = "E") -> float:
    """T_rep(0.8) / T_cls(1e-4): the clock ratio at the book's central choices (the tables' column)."""
    return t_rep_srank(h, matrix) / t_cls(h, RATIO_EPS)
