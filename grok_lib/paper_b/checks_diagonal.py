"""Paper B's checks of the diagonal-net chapters (sparse classification, kernel vs rich, misgrokking) and of matrix
completion: each ``evaluate_*`` measures its claims' quantities on the runs, at every point of each claim's grid,
and grades them by the one rule (:func:`grok_lib.grading.grade`) in the regime :mod:`grok_lib.paper_b.regimes`
measures. The sparse sweeps share one data draw (their seed); the focus run's fractions are read at several."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import numpy as np

from ..grading import Result, draw, grade, not_graded
from ..history import History
from . import measure, regimes, selection
from .claims import REGISTRY
from .thresholds import (END_ACC, FIT_CLOCKS, KERNEL_ENDS, KERNEL_START, KERNEL_WINDOW, MC_PLATEAU_CLOCKS, ONSET_ACC,
                         TRANSITION_LEVELS)

#: The clock the recovery is measured against: the kernel plateau at its central reading.
PLATEAU_CLOCK = MC_PLATEAU_CLOCKS[1]


def members(hs: Sequence[History], lam: bool = False) -> tuple:
    return tuple(f"α={h.cfg.alpha:g}" + (f" λ={h.cfg.weight_decay:g}" if lam else "") for h in hs)


def seed_of(hs: Sequence[History]) -> int:
    return int(hs[0].cfg.data_seed)


def crossing_t(h: History, level: float) -> float:
    """Continuous time of the first recorded step with test accuracy ≥ ``level`` (NaN if never)."""
    c = measure.first_crossing(h, "test_acc", level)
    return c.t if c else math.nan


def fraction_at(h: History, level: float) -> float:
    """λt / ln α at the first recorded step with test accuracy ≥ ``level`` (NaN if never)."""
    c = measure.first_crossing(h, "test_acc", level)
    return c.fraction if c else math.nan


def window_shrinks(runs: Sequence[History]) -> list[float]:
    """Per pair of consecutive α: the smaller α's smallest c less the larger α's largest c (the range the recording
    grid allows, taken against the claim; NaN where a transition does not end within its run)."""
    cs = [measure.window_c(h) for h in runs]
    return [a[1] - b[2] for a, b in zip(cs, cs[1:])]


def limit_intercept(runs: Sequence[History], level: float) -> float:
    """The intercept (1 / ln α → 0) of the line of the fraction at ``level`` against 1 / ln α over the α > 1 runs."""
    big = [h for h in runs if float(h.cfg.alpha) > 1]
    fit = measure.line_fit([1 / math.log(float(h.cfg.alpha)) for h in big], [fraction_at(h, level) for h in big])
    return fit.intercept


def log_alpha_slope(runs: Sequence[History], level: float) -> float:
    """Least-squares slope of t at ``level`` against ln α, times λ (1 on the clock)."""
    lam = float(runs[0].cfg.weight_decay)
    return measure.line_fit([math.log(float(h.cfg.alpha)) for h in runs], [crossing_t(h, level) for h in runs]).slope * lam


def lambda_t_spread(runs: Sequence[History], level: float) -> float:
    """max / min − 1 of λt at ``level`` over a λ sweep (NaN where a run never gets there)."""
    values = [float(h.cfg.weight_decay) * crossing_t(h, level) for h in runs]
    if len(values) < 2:
        raise ValueError("a spread over λ needs at least two runs")
    return max(values) / min(values) - 1 if all(math.isfinite(v) for v in values) else math.nan


def _grade_or_not(claim_id: str, measure_draws, context: str = "", regime=None) -> Result:
    """Grade a claim whose measurement may need more than the runs have (a fit through two transitions, in a short
    rerun): then it is not tested, saying why."""
    claim = REGISTRY[claim_id]
    try:
        draws = measure_draws(claim)
    except ValueError as err:
        return not_graded(claim, f"not measurable on these runs: {err}", regime if regime and not regime.ok else None)
    return grade(claim, draws, context, regime)


def evaluate_sparse(groups, focus_at_seeds: Sequence[History] | None = None) -> list[Result]:
    """The sparse-classification chapter's claims: Fig. 1a, the theorems' window, its limit, the slopes, the norm.
    ``groups``: ``run.groups`` (``"alpha"``, ``"weight_decay"``); ``focus_at_seeds``: the focus run at every data seed
    (its own first; None: the focus run alone)."""
    alpha_sweep = selection.by_alpha(groups["alpha"])
    lambda_sweep = sorted(groups["weight_decay"], key=lambda h: h.cfg.weight_decay)
    focus_at_seeds = list(focus_at_seeds) if focus_at_seeds else [selection.focus_run(groups)]
    every = selection.unique([*alpha_sweep, *lambda_sweep, *focus_at_seeds])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    seed, names = seed_of(alpha_sweep), members(alpha_sweep)
    out = []

    def over_alpha(value, grid=None):
        """Draws of ``value(run, point)`` over the α sweep, one per point of ``grid`` (None: one draw, no choice)."""
        return lambda claim: [draw([value(h, p) for h in alpha_sweep], seed, () if grid is None else (p,), names)
                              for p in (grid or (None,))]

    focus = selection.focus_run(groups)
    seeds_text = (f"the focus run α = {focus.cfg.alpha:g}, λ = {focus.cfg.weight_decay:g} at data seeds "
                  + ", ".join(str(h.cfg.data_seed) for h in focus_at_seeds))
    out.append(_grade_or_not("B.fig1a.fit_at_once", over_alpha(
        lambda h, c: measure.value_in_clock(h, "train_acc", c, KERNEL_WINDOW[1], np.min), FIT_CLOCKS), regime=where))
    out.append(_grade_or_not("B.fig1a.kernel_acc", over_alpha(
        lambda h, w: measure.value_in_clock(h, "test_acc", KERNEL_START, w), KERNEL_ENDS),
        f"the max-L2-margin classifier's test accuracy on this data: {alpha_sweep[0].meta.get('l2_test_acc', math.nan):.3f}",
        where))
    out.append(_grade_or_not("B.fig1a.final_acc", over_alpha(lambda h, _: h.final("test_acc")), regime=where))
    for cid, level in (("B.fig1a.start_fraction", ONSET_ACC), ("B.fig1a.end_fraction", END_ACC)):
        out.append(_grade_or_not(cid, lambda claim, level=level: [draw(fraction_at(h, level), int(h.cfg.data_seed))
                                                                   for h in focus_at_seeds], seeds_text, where))
    out.append(_grade_or_not("B.fig1a.norm", over_alpha(lambda h, _: norm_deviation(h)), regime=where))

    pairs = tuple(f"α {a.cfg.alpha:g}→{b.cfg.alpha:g}" for a, b in zip(alpha_sweep, alpha_sweep[1:]))
    cs = "; ".join(f"α={h.cfg.alpha:g}: c = {c:.3f} [{lo:.3f}, {hi:.3f}]"
                   for h, (c, lo, hi) in zip(alpha_sweep, (measure.window_c(h) for h in alpha_sweep)))

    def window_draws(claim):
        if len(alpha_sweep) < 2:
            raise ValueError("the window's shrink needs at least two α")
        return [draw(window_shrinks(alpha_sweep), seed, (), pairs)]

    out.append(_grade_or_not("B.thm.window", window_draws, f"c per α with the range the recording grid allows: {cs}",
                             where))
    levels = TRANSITION_LEVELS
    out.append(_grade_or_not("B.thm.limit", lambda claim: [draw(limit_intercept(alpha_sweep, q), seed, (q,))
                                                            for q in levels], regime=where))
    out.append(_grade_or_not("B.thm.log_alpha_slope", lambda claim: [draw(log_alpha_slope(alpha_sweep, q), seed, (q,))
                                                                      for q in levels], regime=where))
    out.append(_grade_or_not("B.thm.inverse_lambda_slope",
                             lambda claim: [draw(lambda_t_spread(lambda_sweep, q), seed, (q,)) for q in levels],
                             inverse_lambda_context(lambda_sweep), where))
    return out


#: The setting of the sparse claims graded on the recorded set at the paper's lambda (``recorded/paper_b/sparse_paper_lambda``).
PAPER_LAMBDA = "paper_lambda"
#: What that set cannot grade: it has no lambda sweep (the spread over lambda needs two).
NO_LAMBDA_SWEEP = ("B.thm.inverse_lambda_slope",)


def evaluate_sparse_paper_lambda(histories: Sequence[History]) -> list[Result]:
    """The sparse chapter's claims on the recorded set at the paper's lambda and step
    (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`): the alpha sweep is the runs at the first run's data
    seed, the focus run (alpha = 128) is read at every seed; the claims of :data:`NO_LAMBDA_SWEEP` are left out."""
    seed = histories[0].cfg.data_seed
    sweep = [h for h in histories if h.cfg.data_seed == seed]
    groups = {"alpha": sweep, "weight_decay": [h for h in sweep if h.cfg.alpha == 128.0]}
    focus = selection.focus_run(groups)
    at_seeds = [focus, *(h for h in histories if h.cfg.data_seed != seed and h.cfg.alpha == focus.cfg.alpha)]
    return [r for r in evaluate_sparse(groups, at_seeds) if r.claim.id not in NO_LAMBDA_SWEEP]


def norm_deviation(h: History) -> float:
    """‖θ‖ against α e^{−λt} up to min(0.5, the run's start fraction)."""
    start = fraction_at(h, ONSET_ACC)
    return measure.norm_deviation(h, up_to_clock=min(0.5, start) if math.isfinite(start) else 0.5)


def inverse_lambda_context(lambda_sweep: Sequence[History]) -> str:
    """λt at the transition per λ, and the slope of t against 1/λ over ln α (reported, not graded)."""
    parts = []
    for q in TRANSITION_LEVELS:
        lt = ", ".join(f"λ={h.cfg.weight_decay:g}: {float(h.cfg.weight_decay) * crossing_t(h, q):.3f}" for h in lambda_sweep)
        fit = measure.try_fit(measure.line_fit, [1 / h.cfg.weight_decay for h in lambda_sweep],
                              [crossing_t(h, q) for h in lambda_sweep])
        slope = f"{fit.slope / math.log(float(lambda_sweep[0].cfg.alpha)):.3f}" if fit else "n/a"
        parts.append(f"level {q:g}: λt {lt}; slope against 1/λ over ln α {slope}")
    return "reported, not graded: " + "; ".join(parts)


def evaluate_regimes(groups) -> list[Result]:
    """The kernel-vs-rich chapter's claims: both sparse sweeps' runs against the margin classifiers of their data, and
    the misgrokking run (``groups``: ``run.groups``)."""
    runs = selection.sweep_runs(groups)
    where = regimes.both(regimes.stability(runs), regimes.transition_ends(runs))
    seed, names = seed_of(runs), members(runs, lam=True)
    windows = KERNEL_ENDS
    early = {w: [measure.value_in_clock(h, "test_acc", KERNEL_START, w) for h in runs] for w in windows}
    out = [
        grade(REGISTRY["B.regimes.kernel_l2"],
              [draw([1 - measure.value_in_clock(h, "cos_l2", KERNEL_START, w) for h in runs], seed, (w,), names)
               for w in windows], regime=where),
        grade(REGISTRY["B.regimes.rich_l1"], [draw([1 - h.final("cos_l1") for h in runs], seed, (), names)],
              regime=where),
        grade(REGISTRY["B.regimes.kernel_acc_match"],
              [draw([abs(e - h.meta.get("l2_test_acc", math.nan)) for h, e in zip(runs, early[w])], seed, (w,), names)
               for w in windows],
              "the max-L2-margin classifier's test accuracy: " + ", ".join(
                  f"{x:.3f}" for x in sorted({h.meta.get('l2_test_acc', math.nan) for h in runs})), where),
        grade(REGISTRY["B.regimes.rich_acc_match"],
              [draw([abs(h.final("test_acc") - h.meta.get("l1_test_acc", math.nan)) for h in runs], seed, (), names)],
              "the max-L1-margin classifier's test accuracy: " + ", ".join(
                  f"{x:.3f}" for x in sorted({h.meta.get('l1_test_acc', math.nan) for h in runs})), where),
    ]
    return out + evaluate_misgrokking([selection.misgrokking_run(groups)])


def evaluate_sample_gap(sweeps: Sequence) -> Result:
    """B.bounds.sample_gap on the sample-size sweeps of :mod:`.sample_complexity` (one per data seed): per seed and
    accuracy level, the kernel classifier's smallest n over the rich one's."""
    claim = REGISTRY["B.bounds.sample_gap"]
    (levels,) = claim.choices
    draws = [draw(sw.gap(level), int(sw.config.data_seed), (level,)) for sw in sweeps for level in levels.grid]
    context = "; ".join(
        f"seed {sw.config.data_seed} (d = {sw.config.d}, k = {sw.config.k}, grid {sw.grid[0]}…{sw.grid[-1]}): at "
        f"{levels.central:g} the max-L1 classifier first at n = {sw.smallest_n('l1', levels.central):.0f}, the max-L2 "
        + (f"at n = {sw.smallest_n('l2', levels.central):.0f}" if sw.smallest_n("l2", levels.central) <= sw.grid[-1]
           else f"never by n = {sw.grid[-1]} (its best test accuracy on the grid {max(sw.accuracy['l2'].values()):.3f})")
        for sw in sweeps)
    if any(sw.smallest_n("l2", level) > sw.grid[-1] for sw in sweeps for level in levels.grid):
        context += (f"; where the max-L2 classifier never reaches a level its n is counted as {2 * sweeps[0].grid[-1]}"
                    f" (twice the grid's last size), so those ratios are lower bounds (≥)")
    return grade(claim, draws, context)


def misgrokking_context(runs: Sequence[History]) -> str:
    return "; ".join(
        f"seed {h.cfg.data_seed} (γ = {h.cfg.gamma:g}, d = {h.cfg.d}, n = {h.cfg.n_train}): test accuracy of the "
        f"max-L2-margin classifier {h.meta.get('l2_test_acc', math.nan):.3f}, of the max-L1-margin classifier "
        f"{h.meta.get('l1_test_acc', math.nan):.3f}; the run's at λt / ln α = {measure.clock(h)[-1]:.2f} "
        f"{h.final('test_acc'):.3f}, cos(β, max-L1) {h.final('cos_l1'):.3f}" for h in runs)


def evaluate_misgrokking(runs: Sequence[History]) -> list[Result]:
    """Misgrokking on its runs (one per data seed): the kernel phase's test accuracy, and where it falls to (in the
    regime only where the fall has completed by the end of the run)."""
    stable = regimes.stability(runs)
    windows = KERNEL_ENDS
    high = [draw(measure.value_in_clock(h, "test_acc", KERNEL_START, w), int(h.cfg.data_seed), (w,))
            for h in runs for w in windows]
    falls = [draw(h.final("test_acc"), int(h.cfg.data_seed)) for h in runs]
    return [grade(REGISTRY["B.misgrokking.starts_high"], high, regime=stable),
            grade(REGISTRY["B.misgrokking.falls"], falls, misgrokking_context(runs),
                  regimes.both(stable, regimes.fall_completed(runs)))]


def _target_rms(h: History) -> float:
    from .matrix_completion import target

    return float(np.sqrt(np.mean(target(int(h.cfg.d)) ** 2)))


def fit_time(h: History, eps: float) -> float:
    """Continuous time at the first recorded step with train MSE ≤ eps × its initial value (NaN if never)."""
    fit = h["train_mse"] <= eps * h["train_mse"][0]
    return float(measure.continuous_time(h)[np.argmax(fit)]) if fit.any() else math.nan


def drop_clock(h: History, q: float) -> float:
    """λt / ln α where the test MSE has first dropped by a share q of its kernel plateau (NaN if never)."""
    return measure.drop_transition(h, start=1 - q, end=1 - q).fractions[0]


def evaluate_matrix_completion(h: History) -> list[Result]:
    """The matrix-completion chapter's claims on one run (the default profile's, or the recorded paper-scale run)."""
    where = regimes.both(regimes.stability([h]), regimes.drop_ends([h]))
    seed = int(h.cfg.data_seed)
    fit, plateau, clock = (REGISTRY[c] for c in ("B.mc.train_fit", "B.mc.kernel_plateau", "B.mc.clock"))
    steps = ", ".join(f"ε {e:.0e}: step {step_at(h, fit_time(h, e))}" for e in fit.choices[0].grid)
    far = measure.value_in_clock(h, "far_rms", 0.0, 0.5, np.max) / _target_rms(h)
    base = measure.plateau(h, at_clock=PLATEAU_CLOCK)
    return [
        grade(fit, [draw(fit_time(h, e), seed, (e,)) for e in fit.choices[0].grid],
              f"at step {h.cfg.lr:g}: {steps} (the paper's ~10 steps at step 0.1)", where),
        grade(plateau, [draw(measure.plateau(h, at_clock=x) / h.meta["zero_test_mse"], seed, (x,))
                        for x in plateau.choices[0].grid],
              f"RMS of W off Ω ∪ Ωᵀ up to λt / ln α = 0.5: {far:.1e} of the table's RMS", where),
        grade(REGISTRY["B.mc.recovery"], [draw(h.final("test_mse") / base, seed)],
              f"final test MSE {h.final('test_mse'):.4f}, plateau {base:.4f}", where),
        grade(REGISTRY["B.mc.rank_one"], [draw(h.final("stable_rank") - 1, seed)],
              f"stable rank {measure.value_in_clock(h, 'stable_rank', *KERNEL_WINDOW):.2f} in the kernel window → "
              f"{h.final('stable_rank'):.2f}; nuclear norm {h.final('nuclear'):.1f} (X*: "
              f"{h.meta.get('target_nuclear', math.nan):.1f})", where),
        grade(clock, [draw(drop_clock(h, q), seed, (q,)) for q in clock.choices[0].grid],
              f"the run ends at λt / ln α = {measure.clock(h)[-1]:.2f}", where),
    ]


def noisy_twins(clean: History, noisy: Sequence[History]) -> list[History]:
    """The runs of ``noisy`` that are ``clean``'s config with initialisation noise (any noise level and seed)."""
    return [h for h in noisy if h.cfg.init_noise > 0
            and replace(h.cfg, init_noise=0.0, init_seed=clean.cfg.init_seed) == clean.cfg]


def evaluate_noisy_init(clean: History, noisy: Sequence[History]) -> Result:
    """Remark 3.13 (B.mc.noisy_init): each run with init noise against the noise-free run on the same observed set,
    the transition clock at every drop level, per init seed and noise level."""
    claim = REGISTRY["B.mc.noisy_init"]
    runs = noisy_twins(clean, noisy)
    if not runs:
        return not_graded(claim, "no matrix-completion run with initialisation noise at this run's settings (the "
                                 "recorded ones are the default profile's)")
    levels = claim.choices[1].grid
    base = {q: drop_clock(clean, q) for q in levels}
    draws = [draw(abs(drop_clock(h, q) / base[q] - 1), int(h.cfg.init_seed), (float(h.cfg.init_noise), q))
             for h in runs for q in levels]
    finals = ", ".join(f"σ {h.cfg.init_noise:.0e} seed {h.cfg.init_seed}: {h.final('test_mse') / measure.plateau(h):.3f}"
                       for h in runs)
    context = (f"noise-free clock at q = {', '.join(f'{q:g}: {base[q]:.3f}' for q in levels)}; reported, not graded: "
               f"final test MSE over the kernel plateau, {finals} (noise-free {clean.final('test_mse') / measure.plateau(clean):.3f})")
    return grade(claim, draws, context, regimes.both(regimes.stability(runs), regimes.drop_ends([clean, *runs])))


def step_at(h: History, t: float) -> int | None:
    """The first recorded step at continuous time >= t (None if never)."""
    if not math.isfinite(t):
        return None
    hit = measure.continuous_time(h) >= t
    return int(h.steps[np.argmax(hit)]) if hit.any() else None
