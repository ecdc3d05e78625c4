"""Paper B's checks, one function per claim (:data:`EVALUATORS`, keyed by claim id): each takes
histories and returns ``(measured_text, verdict)``, judged by the thresholds of
:mod:`grok_lib.paper_b.thresholds`. :mod:`grok_lib.paper_b.claims` groups them per notebook."""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from ..history import History
from . import measure
from .thresholds import (BRIDGE_ACC, COS_MIN, COS_PARTLY, FIG1A_TOL, FIG1A_TOL_PARTLY, FINAL_TEST_ACC_MIN,
                         KERNEL_TEST_ACC_MAX, KERNEL_WINDOW, LIMIT_TOL, LIMIT_TOL_PARTLY, MC_CLOCK_FACTOR,
                         MC_FAR_MAX, MC_PAPER_CLOCK, MC_PLATEAU_MIN, MC_RECOVERY, MC_RECOVERY_PARTLY,
                         MC_SRANK_MAX, MC_TRAIN_FIT, MISGROK_DROP_PARTLY, MISGROK_EARLY_MIN,
                         MISGROK_FINAL_MAX, NORM_DEV_MAX, NORM_DEV_PARTLY, PAPER_FIG1A_FRACTIONS,
                         REGIME_ACC_TOL, SLOPE_RANGE, SLOPE_RANGE_PARTLY, TRAIN_FIT_CLOCK)


def _verdict(all_ok: bool, partly_ok: bool) -> str:
    return "reproduced" if all_ok else ("partly" if partly_ok else "not reproduced")


def _within(v: float, r) -> bool:
    return math.isfinite(v) and r[0] <= v <= r[1]


def _label(h: History) -> str:
    return f"α={h.config['alpha']:g} λ={h.config['weight_decay']:g}"


def _by_alpha(histories: Sequence[History]) -> list[History]:
    return sorted(histories, key=lambda h: h.config["alpha"])


# --- evaluators -----------------------------------------------------------------------------------
def kernel_then_rich(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    rows, fit_ok, kern_ok, final_ok = [], [], [], []
    for h in _by_alpha(alpha_sweep):
        fitted = measure.value_in_clock(h, "train_acc", TRAIN_FIT_CLOCK * 0.5, TRAIN_FIT_CLOCK, np.min)
        kern = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)
        final = h.final("test_acc")
        fit_ok.append(fitted >= 1.0)
        kern_ok.append(kern <= KERNEL_TEST_ACC_MAX)
        final_ok.append(final >= FINAL_TEST_ACC_MIN)
        rows.append(f"{_label(h)}: train {fitted:.2f}, kernel test {kern:.3f}, final test {final:.3f}")
    return "; ".join(rows), _verdict(all(fit_ok) and all(kern_ok) and all(final_ok), all(final_ok))


def fig1a_fractions(runs_alpha_128: Sequence[History]) -> tuple[str, str]:
    rows, ok, partly = [], [], []
    for h in runs_alpha_128:
        s, e = measure.accuracy_transition(h).fractions
        ds, de = abs(s - PAPER_FIG1A_FRACTIONS[0]), abs(e - PAPER_FIG1A_FRACTIONS[1])
        ok.append(ds <= FIG1A_TOL and de <= FIG1A_TOL)
        partly.append(ds <= FIG1A_TOL_PARTLY and de <= FIG1A_TOL_PARTLY)
        rows.append(f"{_label(h)}: {s:.2f}-{e:.2f}")
    text = "; ".join(rows) + f" (paper {PAPER_FIG1A_FRACTIONS[0]:.2f}-{PAPER_FIG1A_FRACTIONS[1]:.2f})"
    return text, _verdict(bool(ok) and all(ok), bool(partly) and all(partly))


def theorem_window(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    runs = _by_alpha(alpha_sweep)
    fr = [measure.accuracy_transition(h).fractions for h in runs]
    win = measure.window_fit([f[0] for f in fr], [f[1] for f in fr])
    gaps = [abs(1 - (s + e) / 2) for s, e in fr]
    monotone = all(b < a for a, b in zip(gaps, gaps[1:]))
    inside = math.isfinite(win.c) and win.c < 1
    text = (", ".join(f"α={h.config['alpha']:g}: {s:.2f}-{e:.2f}" for h, (s, e) in zip(runs, fr))
            + f"; window c = {win.c:.2f}; |1 - midpoint| " + " → ".join(f"{g:.2f}" for g in gaps))
    return text, _verdict(inside and monotone, inside or (len(gaps) > 1 and gaps[-1] < gaps[0]))


def log_alpha_slope(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    fit = measure.fit_vs_log_alpha(alpha_sweep)
    lam = float(alpha_sweep[0].config["weight_decay"])
    r = fit.slope * lam
    return (f"slope {fit.slope:.4g} ± {fit.slope_se:.2g} (R² {fit.r2:.3f}, {fit.n} runs); x λ = {r:.2f} ± "
            f"{fit.slope_se * lam:.2f}; intercept {fit.intercept:.4g}"), _verdict(_within(r, SLOPE_RANGE),
                                                                               _within(r, SLOPE_RANGE_PARTLY))


def inverse_lambda_slope(lambda_sweep: Sequence[History]) -> tuple[str, str]:
    fit = measure.fit_vs_inverse_lambda(lambda_sweep)
    log_a = math.log(float(lambda_sweep[0].config["alpha"]))
    r = fit.slope / log_a
    return (f"slope {fit.slope:.4g} ± {fit.slope_se:.2g} (R² {fit.r2:.3f}, {fit.n} runs); / ln α = {r:.2f} ± "
            f"{fit.slope_se / log_a:.2f}; intercept {fit.intercept:.4g}"), _verdict(_within(r, SLOPE_RANGE),
                                                                                 _within(r, SLOPE_RANGE_PARTLY))


def norm_decay(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    devs = []
    for h in _by_alpha(alpha_sweep):
        start = measure.accuracy_transition(h).fractions[0]
        devs.append(measure.norm_deviation(h, up_to_clock=min(0.5, start) if math.isfinite(start) else 0.5))
    text = ", ".join(f"{_label(h)}: {d:.1%}" for h, d in zip(_by_alpha(alpha_sweep), devs))
    return text, _verdict(all(d <= NORM_DEV_MAX for d in devs), all(d <= NORM_DEV_PARTLY for d in devs))


def regime_cosines(sparse_runs: Sequence[History]) -> tuple[str, str]:
    early = [measure.value_in_clock(h, "cos_l2", *KERNEL_WINDOW) for h in sparse_runs]
    late = [h.final("cos_l1") for h in sparse_runs]
    text = "; ".join(f"{_label(h)}: cos L2 early {e:.3f}, cos L1 end {l:.3f}" for h, e, l in zip(sparse_runs, early, late))
    lo = min(early + late)
    return text, _verdict(lo >= COS_MIN, lo >= COS_PARTLY)


def misgrokking(h: History) -> tuple[str, str]:
    early = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)
    final = h.final("test_acc")
    c = h.config  # the run's own gamma, d and n (the default profile scales the paper's gamma = 25, d = 1e5 down)
    text = (f"at γ = {c['gamma']:g}, d = {c['d']}, n = {c['n_train']}: "
            f"test accuracy {early:.3f} early → {final:.3f} at clock {measure.clock(h)[-1]:.2f} "
            f"(test accuracy of the max-L2-margin classifier {h.meta.get('l2_test_acc', math.nan):.3f}, "
            f"of the max-L1-margin classifier {h.meta.get('l1_test_acc', math.nan):.3f}); "
            f"cos L1 at the end {h.final('cos_l1'):.3f}")
    return text, _verdict(early >= MISGROK_EARLY_MIN and final <= MISGROK_FINAL_MAX,
                          early >= MISGROK_EARLY_MIN and early - final >= MISGROK_DROP_PARTLY)


def _target_rms(h: History) -> float:
    from .matrix_completion import target

    return float(np.sqrt(np.mean(target(int(h.config["d"])) ** 2)))


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
    return text, _verdict(base and t_fit <= MC_TRAIN_FIT[1], base and t_fit <= MC_TRAIN_FIT[2])


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
    return text, _verdict(ratio <= MC_RECOVERY and srank <= MC_SRANK_MAX, ratio <= MC_RECOVERY_PARTLY)


def mc_clock(h: History) -> tuple[str, str]:
    s, e = measure.drop_transition(h).fractions
    lo, hi = MC_PAPER_CLOCK / MC_CLOCK_FACTOR, MC_PAPER_CLOCK * MC_CLOCK_FACTOR
    text = (f"10% drop at clock {s:.2f}, 90% drop at {e:.2f} (paper ~{MC_PAPER_CLOCK:.1f}; "
            f"run ends at {measure.clock(h)[-1]:.2f})")
    return text, _verdict(_within(e, (lo, hi)), math.isfinite(s) and s > 0.5)


def _grok_steps(histories: Sequence[History]) -> list[float]:
    out = []
    for h in histories:
        end = measure.accuracy_transition(h).end
        out.append(float(end.step) if end else math.inf)
    return out


def modadd_alpha_order(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    runs = _by_alpha(alpha_sweep)
    steps = _grok_steps(runs)
    text = ", ".join(f"α={h.config['alpha']:g}: {s:g}" for h, s in zip(runs, steps))
    return text, _verdict(all(b > a for a, b in zip(steps, steps[1:])), steps[-1] > steps[0])


def modadd_lambda_order(lambda_sweep: Sequence[History]) -> tuple[str, str]:
    runs = sorted(lambda_sweep, key=lambda h: h.config["weight_decay"])
    steps = _grok_steps(runs)
    text = ", ".join(f"λ={h.config['weight_decay']:g}: {s:g}" for h, s in zip(runs, steps))
    return text, _verdict(all(b < a for a, b in zip(steps, steps[1:])), steps[-1] < steps[0])


def modadd_clock(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> tuple[str, str]:
    fa, fl = measure.fit_vs_log_alpha(alpha_sweep), measure.fit_vs_inverse_lambda(lambda_sweep)
    ra = fa.slope * float(alpha_sweep[0].config["weight_decay"])
    rl = fl.slope / math.log(float(lambda_sweep[0].config["alpha"]))
    text = (f"vs ln α: slope x λ = {ra:.2f} ± {fa.slope_se * float(alpha_sweep[0].config['weight_decay']):.2f} "
            f"(R² {fa.r2:.2f}); vs 1/λ: slope / ln α = {rl:.2f} ± "
            f"{fl.slope_se / math.log(float(lambda_sweep[0].config['alpha'])):.2f} (R² {fl.r2:.2f})")
    oks = [_within(ra, SLOPE_RANGE_PARTLY), _within(rl, SLOPE_RANGE_PARTLY)]
    return text, _verdict(all(oks), any(oks))


def theorem_limit(alpha_sweep: Sequence[History]) -> tuple[str, str]:
    runs = [h for h in _by_alpha(alpha_sweep) if float(h.config["alpha"]) > 1]
    start, end = measure.fraction_limits(runs)
    gaps = (abs(start.intercept - 1), abs(end.intercept - 1))
    text = (f"start fraction = {start.intercept:.3f} {start.slope:+.2f} / ln α (R² {start.r2:.3f}), end fraction = "
            f"{end.intercept:.3f} {end.slope:+.2f} / ln α (R² {end.r2:.3f}), {start.n} runs: extrapolated to α → ∞, "
            f"{start.intercept:.2f} and {end.intercept:.2f}")
    return text, _verdict(max(gaps) <= LIMIT_TOL, max(gaps) <= LIMIT_TOL_PARTLY)


def regime_test_acc(sparse_runs: Sequence[History]) -> tuple[str, str]:
    rows, early_ok, late_ok = [], [], []
    for h in sparse_runs:
        early, late = measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW), h.final("test_acc")
        l2, l1 = h.meta.get("l2_test_acc", math.nan), h.meta.get("l1_test_acc", math.nan)
        early_ok.append(abs(early - l2) <= REGIME_ACC_TOL)
        late_ok.append(abs(late - l1) <= REGIME_ACC_TOL)
        rows.append(f"{_label(h)}: {early:.3f} vs L2 {l2:.3f}, end {late:.3f} vs L1 {l1:.3f}")
    return "; ".join(rows), _verdict(all(early_ok) and all(late_ok), all(early_ok) or all(late_ok))


def bridge_delay(histories: Sequence[History]) -> tuple[str, str]:
    ds = measure.delays(histories, BRIDGE_ACC)
    lams = sorted({d.weight_decay for d in ds})
    rows, ok, partly = [], [], []
    for lam in lams:
        steps = [d.step if math.isfinite(d.step) else math.inf for d in ds if d.weight_decay == lam]
        ok.append(all(b > a for a, b in zip(steps, steps[1:])))
        partly.append(steps[-1] > steps[0])
        rows.append(f"λ={lam:g}: " + ", ".join(f"α={d.alpha:g}: {'never' if not math.isfinite(d.step) else int(d.step)}"
                                            for d in ds if d.weight_decay == lam))
    return "; ".join(rows), _verdict(all(ok), all(partly))


def bridge_clock(histories: Sequence[History]) -> tuple[str, str]:
    ds = [d for d in measure.delays(histories, BRIDGE_ACC) if d.alpha > 1]
    rows, slopes = [], []
    for lam in sorted({d.weight_decay for d in ds}):
        mine = [d for d in ds if d.weight_decay == lam]
        slope = measure.slope_through_origin([d.predicted for d in mine], [d.delay for d in mine])
        slopes.append(slope)
        rows.append(f"λ={lam:g}: delays " + ", ".join(f"{d.delay:.0f}" for d in mine) + " vs predicted "
                    + ", ".join(f"{d.predicted:.0f}" for d in mine) + f" steps: slope {slope:.2f}")
    return "; ".join(rows), _verdict(all(_within(r, SLOPE_RANGE) for r in slopes),
                                     all(_within(r, SLOPE_RANGE_PARTLY) for r in slopes))


EVALUATORS: dict[str, Callable[..., tuple[str, str]]] = {
    "B.fig1a.kernel_then_rich": kernel_then_rich,
    "B.fig1a.fractions": fig1a_fractions,
    "B.thm.window": theorem_window,
    "B.thm.limit": theorem_limit,
    "B.thm.log_alpha_slope": log_alpha_slope,
    "B.thm.inverse_lambda_slope": inverse_lambda_slope,
    "B.fig1a.norm": norm_decay,
    "B.regimes.cosines": regime_cosines,
    "B.regimes.test_acc": regime_test_acc,
    "B.misgrokking": misgrokking,
    "B.mc.kernel_plateau": mc_kernel_plateau,
    "B.mc.recovery": mc_recovery,
    "B.mc.clock": mc_clock,
    "B.modadd.alpha_order": modadd_alpha_order,
    "B.modadd.lambda_order": modadd_lambda_order,
    "B.modadd.clock": modadd_clock,
    "B.bridge.delay": bridge_delay,
    "B.bridge.clock": bridge_clock,
}
