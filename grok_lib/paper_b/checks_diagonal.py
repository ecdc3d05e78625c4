"""Paper B's checks of the diagonal-net chapters (sparse classification, kernel vs rich, matrix completion), one
function per claim: each takes histories and returns ``(measured_text, verdict)``, judged by the thresholds of
:mod:`grok_lib.paper_b.thresholds`; and the grading helpers :mod:`grok_lib.paper_b.checks_mlp` shares.
:mod:`grok_lib.paper_b.checks` turns them into the claims' results, per notebook."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..history import History
from . import measure, selection
from .thresholds import (COS_MIN, COS_PARTLY, FINAL_TEST_ACC_MIN, KERNEL_TEST_ACC_MAX, KERNEL_WINDOW,
                         LIMIT_TOL, LIMIT_TOL_PARTLY, MC_FAR_MAX, MC_PAPER_CLOCK, MC_PAPER_DECADES,
                         MC_PAPER_DECADES_PARTLY, MC_PLATEAU_MIN, MC_RECOVERY, MC_RECOVERY_PARTLY, MC_SRANK_MAX,
                         MC_TRAIN_FIT, MISGROK_DROP_PARTLY, MISGROK_EARLY_MIN, MISGROK_FINAL_MAX, NORM_DEV_MAX,
                         NORM_DEV_PARTLY, OFFSET_SHARE_PARTLY, PAPER_FIG1A_FRACTIONS, REGIME_ACC_TOL, SE_K,
                         SLOPE_RANGE, SLOPE_RANGE_PARTLY, TRAIN_FIT_CLOCK)


def verdict(all_ok: bool, partly_ok: bool) -> str:
    """"reproduced" where all holds, "partly" where only the partly condition does, else "not reproduced"."""
    return "reproduced" if all_ok else ("partly" if partly_ok else "not reproduced")


def within(v: float, r) -> bool:
    """Whether ``v`` is finite and inside the closed range ``r`` (its first two entries: low, high)."""
    return math.isfinite(v) and r[0] <= v <= r[1]


def _label(h: History) -> str:
    return f"α={h.cfg.alpha:g} λ={h.cfg.weight_decay:g}"


def kernel_then_rich(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    rows, fit_ok, kern_ok, final_ok = [], [], [], []
    for h in selection.by_alpha(alpha_sweep):
        fitted = measure.value_in_clock(h, "train_acc", TRAIN_FIT_CLOCK * 0.5, TRAIN_FIT_CLOCK, np.min)
        kern = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)
        final = h.final("test_acc")
        fit_ok.append(fitted >= 1.0)
        kern_ok.append(kern <= KERNEL_TEST_ACC_MAX)
        final_ok.append(final >= FINAL_TEST_ACC_MIN)
        rows.append(f"{_label(h)}: train {fitted:.2f}, kernel test {kern:.3f}, final test {final:.3f}")
    return "; ".join(rows), verdict(all(fit_ok) and all(kern_ok) and all(final_ok), all(final_ok))


def agrees_with_one_more_draw(value: float, draws: Sequence[float]) -> tuple[bool, float, float]:
    """Whether ``value`` (one draw, e.g. the paper's one data set) lies within SE_K standard deviations of a new
    draw around the mean of ``draws``: ``|value - mean| <= SE_K sd sqrt(1 + 1/n)``, the prediction interval of one more
    draw. Returns (agrees, mean, the interval's half width); never agrees with fewer than two draws (no sd)."""
    mean, _, n = measure.mean_se(draws)
    half = SE_K * measure.sd(draws) * math.sqrt(1 + 1 / n) if n > 1 else math.nan
    return bool(math.isfinite(half) and abs(value - mean) <= half), mean, half


def fig1a_fractions(focus_at_seeds: Sequence[History]) -> tuple[str, str]:
    """The focus run (alpha = 128 in the default profile) at several data seeds against the paper's one run."""
    fr = [measure.accuracy_transition(h).fractions for h in focus_at_seeds]
    judged = [agrees_with_one_more_draw(paper, [f[i] for f in fr]) for i, paper in enumerate(PAPER_FIG1A_FRACTIONS)]
    seeds = ", ".join(f"seed {h.cfg.data_seed}: {s:.2f}-{e:.2f}" for h, (s, e) in zip(focus_at_seeds, fr))
    text = (f"{_label(focus_at_seeds[0])}, {len(fr)} data seeds ({seeds}); "
            + "; ".join(f"{name} {mean:.3f} ± {half:.3f} against the paper's {paper:.2f} ({'within' if ok else 'outside'})"
                        for name, paper, (ok, mean, half) in zip(("start", "end"), PAPER_FIG1A_FRACTIONS, judged))
            + " (our reading of Fig. 1a)")
    oks = [ok for ok, _, _ in judged]
    return text, verdict(all(oks), any(oks))


def theorem_window(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    """c per alpha with the range the recording grid allows; the theorem's c -> 0 as alpha grows, tested as c
    shrinking from each alpha to the next by more than the grid allows."""
    runs = selection.by_alpha(alpha_sweep)
    cs = [measure.window_c(h) for h in runs]
    ended = all(math.isfinite(c) for c, _, _ in cs)
    shrinks = [b[2] < a[1] for a, b in zip(cs, cs[1:])]  # the larger alpha's largest c below the smaller's smallest
    overall = ended and len(cs) > 1 and cs[-1][2] < cs[0][1]
    text = (", ".join(f"α={h.cfg.alpha:g}: c = {c:.3f} [{lo:.3f}, {hi:.3f}]" for h, (c, lo, hi) in zip(runs, cs))
            + f"; c shrinks beyond the grid at {sum(shrinks)} of {len(shrinks)} steps of α; every transition "
            + ("ends within the run" if ended else "does not end within the run"))
    return text, verdict(ended and all(shrinks), overall)


def theorem_limit(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    runs = [h for h in selection.by_alpha(alpha_sweep) if float(h.cfg.alpha) > 1]
    start, end = measure.fraction_limits(runs)
    gaps = (abs(start.intercept - 1), abs(end.intercept - 1))
    text = (f"start fraction = {start.intercept:.3f} {start.slope:+.2f} / ln α (R² {start.r2:.3f}), end fraction = "
            f"{end.intercept:.3f} {end.slope:+.2f} / ln α (R² {end.r2:.3f}), {start.n} runs: extrapolated to α → ∞, "
            f"{start.intercept:.2f} and {end.intercept:.2f}")
    return text, verdict(max(gaps) <= LIMIT_TOL, max(gaps) <= LIMIT_TOL_PARTLY)


def log_alpha_slope(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    fit = measure.fit_vs_log_alpha(alpha_sweep)
    lam = float(alpha_sweep[0].cfg.weight_decay)
    r = fit.slope * lam
    return (f"slope {fit.slope:.4g} ± {fit.slope_se:.2g} (R² {fit.r2:.3f}, {fit.n} runs); x λ = {r:.2f} ± "
            f"{fit.slope_se * lam:.2f}; intercept {fit.intercept:.4g}"), verdict(within(r, SLOPE_RANGE),
                                                                              within(r, SLOPE_RANGE_PARTLY))


def inverse_lambda_slope(lambda_sweep: Sequence[History], alpha_sweep: Sequence[History]) -> tuple[str, str]:
    """The slope of t_end against 1 / lambda at fixed alpha, against lambda t_end at that alpha as the alpha sweep's
    own end-fraction line predicts it (the theory's ln(alpha) less the finite-alpha offset the sweep measures)."""
    fit = measure.fit_vs_inverse_lambda(lambda_sweep)
    alpha = float(lambda_sweep[0].cfg.alpha)
    log_a = math.log(alpha)
    x = [1.0 / float(h.cfg.weight_decay) for h in lambda_sweep]
    grid = [measure.crossing_interval(h, measure.accuracy_transition(h).end) for h in lambda_sweep]
    lo, hi = measure.line_slope_bounds(x, [g[0] for g in grid], [g[1] for g in grid])
    expected, se = measure.predicted_end_clock(alpha_sweep, alpha)
    margin = SE_K * se if math.isfinite(se) else 0.0
    ok = lo - margin <= expected <= hi + margin
    gap = abs(log_a - fit.slope)  # the offset's share of the gap to ln(alpha); no gap: nothing to explain
    explained = 1 - abs(fit.slope - expected) / gap if gap > 0 else 1.0
    text = (f"slope {fit.slope:.3f} (the recording grid allows {lo:.3f}-{hi:.3f}; R² {fit.r2:.4f}, {fit.n} runs); "
            f"predicted by the α sweep's end-fraction line at α = {alpha:g}: {expected:.3f} ± {se:.3f}, "
            f"that is ln α − {log_a - expected:.2f} (ln α = {log_a:.3f}); measured / predicted = {fit.slope / expected:.3f}; "
            f"the offset explains {explained:.0%} of the gap to ln α")
    return text, verdict(ok, explained > OFFSET_SHARE_PARTLY)


def norm_decay(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    devs = []
    for h in selection.by_alpha(alpha_sweep):
        start = measure.accuracy_transition(h).fractions[0]
        devs.append(measure.norm_deviation(h, up_to_clock=min(0.5, start) if math.isfinite(start) else 0.5))
    text = ", ".join(f"{_label(h)}: {d:.1%}" for h, d in zip(selection.by_alpha(alpha_sweep), devs))
    return text, verdict(all(d <= NORM_DEV_MAX for d in devs), all(d <= NORM_DEV_PARTLY for d in devs))


def regime_cosines(sparse_runs: Sequence[History]) -> tuple[str, str]:
    early = [measure.value_in_clock(h, "cos_l2", *KERNEL_WINDOW) for h in sparse_runs]
    late = [h.final("cos_l1") for h in sparse_runs]
    text = "; ".join(f"{_label(h)}: cos L2 early {e:.3f}, cos L1 end {l:.3f}" for h, e, l in zip(sparse_runs, early, late))
    lo = min(early + late)
    return text, verdict(lo >= COS_MIN, lo >= COS_PARTLY)


def regime_test_acc(sparse_runs: Sequence[History]) -> tuple[str, str]:
    rows, early_ok, late_ok = [], [], []
    for h in sparse_runs:
        early, late = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW), h.final("test_acc")
        l2, l1 = h.meta.get("l2_test_acc", math.nan), h.meta.get("l1_test_acc", math.nan)
        early_ok.append(abs(early - l2) <= REGIME_ACC_TOL)
        late_ok.append(abs(late - l1) <= REGIME_ACC_TOL)
        rows.append(f"{_label(h)}: {early:.3f} vs L2 {l2:.3f}, end {late:.3f} vs L1 {l1:.3f}")
    return "; ".join(rows), verdict(all(early_ok) and all(late_ok), all(early_ok) or all(late_ok))


def misgrokking(h: History) -> tuple[str, str]:
    early = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)
    final = h.final("test_acc")
    c = h.cfg  # the run's own gamma, d and n (the default profile scales the paper's gamma = 25, d = 1e5 down)
    text = (f"at γ = {c.gamma:g}, d = {c.d}, n = {c.n_train}: "
            f"test accuracy {early:.3f} early → {final:.3f} at clock {measure.clock(h)[-1]:.2f} "
            f"(test accuracy of the max-L2-margin classifier {h.meta.get('l2_test_acc', math.nan):.3f}, "
            f"of the max-L1-margin classifier {h.meta.get('l1_test_acc', math.nan):.3f}); "
            f"cos L1 at the end {h.final('cos_l1'):.3f}")
    return text, verdict(early >= MISGROK_EARLY_MIN and final <= MISGROK_FINAL_MAX,
                         early >= MISGROK_EARLY_MIN and early - final >= MISGROK_DROP_PARTLY)


def _target_rms(h: History) -> float:
    from .matrix_completion import target

    return float(np.sqrt(np.mean(target(int(h.cfg.d)) ** 2)))


def mc_kernel_plateau(h: History) -> tuple[str, str]:
    far = measure.value_in_clock(h, "far_rms", 0.0, 0.5, np.max) / _target_rms(h)
    ratio = measure.plateau(h) / h.meta["zero_test_mse"]
    t = measure.continuous_time(h)
    fit = h["train_mse"] <= MC_TRAIN_FIT[0] * h["train_mse"][0]
    t_fit = float(t[np.argmax(fit)]) if fit.any() else math.inf
    first = step_at(h, t_fit)
    text = (f"off-support RMS ≤ {far:.1e} of RMS(X*) up to clock 0.5; plateau test MSE {measure.plateau(h):.4f} = "
            f"{ratio:.2f} x zero predictor; train MSE ≤ 1% of initial by t = {t_fit:.2g} (step {first})")
    base = far <= MC_FAR_MAX and ratio >= MC_PLATEAU_MIN
    return text, verdict(base and t_fit <= MC_TRAIN_FIT[1], base and t_fit <= MC_TRAIN_FIT[2])


def step_at(h: History, t: float) -> int | None:
    """The first recorded step at continuous time >= t (None if never)."""
    hit = measure.continuous_time(h) >= t
    return int(h.steps[np.argmax(hit)]) if hit.any() else None


def mc_recovery(h: History) -> tuple[str, str]:
    ratio = h.final("test_mse") / measure.plateau(h)
    srank = h.final("stable_rank")
    kernel_srank = measure.value_in_clock(h, "stable_rank", *KERNEL_WINDOW)
    text = (f"final test MSE {h.final('test_mse'):.4f} = {ratio:.3f} x plateau; stable rank {kernel_srank:.2f} (kernel) "
            f"→ {srank:.2f}; nuclear norm {h.final('nuclear'):.1f} (X*: {h.meta.get('target_nuclear', math.nan):.1f})")
    return text, verdict(ratio <= MC_RECOVERY and srank <= MC_SRANK_MAX, ratio <= MC_RECOVERY_PARTLY)


def decades_from(value: float, reference: float) -> float:
    """``|log10(value / reference)|`` (inf for a value that is not positive, nan for nan)."""
    if not math.isfinite(value):
        return math.nan
    return abs(math.log10(value / reference)) if value > 0 else math.inf


def mc_clock(h: History) -> tuple[str, str]:
    """The fall of the test MSE (its 10%, 50% and 90% drop) against the paper's about 1e6 steps on the clock."""
    levels = (0.1, 0.5, 0.9)
    at = [measure.drop_transition(h, start=1 - q, end=1 - q).fractions[0] for q in levels]
    off = [decades_from(x, MC_PAPER_CLOCK) for x in at]
    lo, hi = MC_PAPER_CLOCK / 10 ** MC_PAPER_DECADES, MC_PAPER_CLOCK * 10 ** MC_PAPER_DECADES
    text = (", ".join(f"{q:.0%} drop at clock {x:.2f}" for q, x in zip(levels, at))
            + f" (paper ~{MC_PAPER_CLOCK:.1f}, {MC_PAPER_DECADES:g} decade either side {lo:.2f}-{hi:.2f}; run ends at "
            f"{measure.clock(h)[-1]:.2f})")
    whole = all(d <= MC_PAPER_DECADES for d in off)  # nan (never fell) compares False
    some = any(d <= MC_PAPER_DECADES for d in off) or all(d <= MC_PAPER_DECADES_PARTLY for d in off)
    return text, verdict(whole, some)
