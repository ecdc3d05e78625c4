"""Paper B's checks of the MLP chapters (modular addition, the bridge to Part A), one function per claim: each takes
histories and returns ``(measured_text, verdict)``, judged by the thresholds of :mod:`grok_lib.paper_b.thresholds`.
:mod:`grok_lib.paper_b.checks` turns them into the claims' results, per notebook."""

from __future__ import annotations

import math
from typing import Sequence

from ..history import History
from . import measure, selection
from .checks_diagonal import verdict, within
from .thresholds import BRIDGE_ACC, SE_K, SLOPE_RANGE, SLOPE_RANGE_PARTLY


def _grok_steps(histories: Sequence[History]) -> list[float]:
    out = []
    for h in histories:
        end = measure.accuracy_transition(h).end
        out.append(float(end.step) if end else math.inf)
    return out


def pair_orders(steps_by_seed: Sequence[Sequence[float]]) -> list[str]:
    """Per pair of consecutive sweep values (the same values at every seed, in order): "later" where the second
    crosses later at every seed, "earlier" where earlier at every seed, else "mixed" (a tie counts as neither)."""
    out = []
    for i in range(len(steps_by_seed[0]) - 1):
        diffs = [s[i + 1] - s[i] for s in steps_by_seed]
        out.append("later" if all(d > 0 for d in diffs) else "earlier" if all(d < 0 for d in diffs) else "mixed")
    return out


def modadd_alpha_order(alpha_sweeps: Sequence[Sequence[History]]) -> tuple[str, str]:
    """The grokking step against alpha, judged over seeds (one alpha sweep per seed, the same alphas)."""
    runs = [selection.by_alpha(sweep) for sweep in alpha_sweeps]
    steps = [_grok_steps(r) for r in runs]
    alphas = [h.cfg.alpha for h in runs[0]]
    orders = pair_orders(steps)
    largest_later = all(s[-1] > s[0] for s in steps)
    text = ("; ".join(f"seed {r[0].cfg.data_seed}: " + ", ".join(f"α={h.cfg.alpha:g}: {x:g}"
                                                                     for h, x in zip(r, s)) for r, s in zip(runs, steps))
            + "; from each α to the next: " + ", ".join(
                f"{a:g} → {b:g} {o + ' at every seed' if o != 'mixed' else 'mixed (not the same at every seed)'}"
                for a, b, o in zip(alphas, alphas[1:], orders)))
    return text, verdict(all(o == "later" for o in orders),
                         "earlier" not in orders and largest_later)


def modadd_lambda_order(lambda_sweep: Sequence[History]) -> tuple[str, str]:
    runs = sorted(lambda_sweep, key=lambda h: h.cfg.weight_decay)
    steps = _grok_steps(runs)
    text = ", ".join(f"λ={h.cfg.weight_decay:g}: {s:g}" for h, s in zip(runs, steps))
    return text, verdict(all(b < a for a, b in zip(steps, steps[1:])), steps[-1] < steps[0])


def clock_slopes(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> tuple[float, float]:
    """(slope of t_end against ln(alpha) over the alpha > 1 runs, x lambda; slope against 1 / lambda, / ln(alpha)):
    both 1 on the theory's clock. alpha = 1 has ln(alpha) = 0 and no kernel phase, so it is left out (as in
    :func:`grok_lib.paper_b.checks_diagonal.theorem_limit`)."""
    big = [h for h in alpha_sweep if float(h.cfg.alpha) > 1]
    fa, fl = measure.fit_vs_log_alpha(big), measure.fit_vs_inverse_lambda(lambda_sweep)
    return (fa.slope * float(alpha_sweep[0].cfg.weight_decay),
            fl.slope / math.log(float(lambda_sweep[0].cfg.alpha)))


def clock_verdict(per_seed: Sequence[tuple[float, float]]) -> tuple[str, str]:
    """Both normalised slopes over seeds: their means and standard errors against the theory's 1."""
    rows, near, positive = [], [], []
    for name, values in (("vs ln α, slope × λ", [p[0] for p in per_seed]), ("vs 1/λ, slope / ln α", [p[1] for p in per_seed])):
        mean, se, n = measure.mean_se(values)
        near.append(math.isfinite(se) and abs(mean - 1) <= SE_K * se)
        positive.append(math.isfinite(se) and mean - SE_K * se > 0)
        rows.append(f"{name}: {mean:.2f} ± {se:.2f} over {n} seeds (" + ", ".join(f"{v:.2f}" for v in values) + ")")
    return "; ".join(rows), verdict(all(near), all(positive))


def modadd_clock(alpha_sweeps: Sequence[Sequence[History]], lambda_sweeps: Sequence[Sequence[History]]) -> tuple[str, str]:
    """One alpha sweep (with the claim-only alphas) and one lambda sweep per seed."""
    return clock_verdict([clock_slopes(a, l) for a, l in zip(alpha_sweeps, lambda_sweeps)])


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
    return "; ".join(rows), verdict(all(ok), all(partly))


def bridge_clock(histories: Sequence[History]) -> tuple[str, str]:
    ds = [d for d in measure.delays(histories, BRIDGE_ACC) if d.alpha > 1]
    rows, slopes = [], []
    for lam in sorted({d.weight_decay for d in ds}):
        mine = [d for d in ds if d.weight_decay == lam]
        slope = measure.slope_through_origin([d.predicted for d in mine], [d.delay for d in mine])
        slopes.append(slope)
        rows.append(f"λ={lam:g}: delays " + ", ".join(f"{d.delay:.0f}" for d in mine) + " vs predicted "
                    + ", ".join(f"{d.predicted:.0f}" for d in mine) + f" steps: slope {slope:.2f}")
    return "; ".join(rows), verdict(all(within(r, SLOPE_RANGE) for r in slopes),
                                    all(within(r, SLOPE_RANGE_PARTLY) for r in slopes))
