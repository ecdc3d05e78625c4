"""Paper A's deep-linear-network claims: the registry (thresholds as constants) and their evaluation."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...claims import Claim, Result, any_verdict, registry
from ...tables import at_resolution
from ...history import History
from . import clocks as dc
from .runs import gd_decayed_runs, plain_runs
from .theory import end_to_end, factor_penalty, lemma31_bound, schatten_power


SCHATTEN_EXCESS = 1e-3  # relative excess of the factor penalty over the Schatten power: "balanced"
LINE_R2 = 0.95  # R^2 a fit must reach to count as holding
DRIFT_ERROR = 0.1  # median relative error of Prop. 4.3's drift
SEPARATION = 2  # T_rep(1e-6) / T_cls(floor)

CLAIMS = [
    Claim(
        "A.dln.schatten",
        "A",
        r"Layerwise weight decay on a depth-$L$ linear net is the Schatten-$2/L$ penalty on $A = W_L \cdots W_1$ (eq. 2.7).",
        "At the end of every GD run with lambda > 0: (1/L) sum ||W_l||_F^2 against ||A||_{S_2/L}^{2/L} (the identity itself is unit-tested).",
        f"reproduced: relative excess <= {SCHATTEN_EXCESS:g} on every run (trained factors balanced); partly: on some.",
    ),
    Claim(
        "A.dln.lemma31",
        "A",
        r"If every logit margin is $\ge \gamma$ then $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$ (Lemma 3.1).",
        "Largest L_CE / ((K-1) exp(-Gamma(t))) over every recorded step with a positive margin, every run.",
        "reproduced: <= 1 everywhere; not reproduced otherwise.",
    ),
    Claim(
        "A.dln.margin_linear",
        "A",
        r"After it turns positive the margin grows at least linearly, $\Gamma(t) \ge \gamma_0 + \nu (t - t_0)$ (Assumption 3.4).",
        "Margin over the fast clock's window, lambda = 0: R^2 of a line in t against R^2 of a line in ln t; fitted nu.",
        f"reproduced: the line in t fits with R^2 >= {LINE_R2} for every run; partly: for one optimiser's runs.",
    ),
    Claim(
        "A.dln.fast_log",
        "A",
        r"The loss clock is logarithmic: $T_{\mathrm{cls}}(\varepsilon) = O(\log 1/\varepsilon)$ (Theorem 3.5).",
        "T_cls(eps) for eps = 1e-1 ... 1e-8, lambda = 0; a line in ln(1/eps) against a power law in 1/eps.",
        f"reproduced: the line in ln(1/eps) fits with R^2 >= {LINE_R2} and better than the power law for every run; "
        "partly: for some.",
    ),
    Claim(
        "A.dln.slow_poly",
        "A",
        r"The representation clock is polynomial: $T_{\mathrm{rep}}(\eta) - T_{\mathrm{KL}} = \Theta(\eta^{-(2\theta - 1)})$, $\theta \in (1/2, 1)$ (Theorems 4.8-4.9).",
        "T_rep(eta) (the gap Delta stays <= eta) for eta = 1e-3 ... 1e-9, GD with lambda > 0: power law against a line in ln(1/eta).",
        "reproduced: the power law fits better, theta in (1/2, 1), for every run; partly: for some; else not reproduced.",
    ),
    Claim(
        "A.dln.prop43",
        "A",
        r"Singular values of $A$ drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$ (Prop. 4.3).",
        "Measured (s_i(t+1) - s_i(t)) / lr on GD runs against the prediction, median relative error over steps, the K-1 singular values the loss sees.",
        f"reproduced: median error <= {DRIFT_ERROR:.0%} at every depth; partly: at some depths.",
    ),
    Claim(
        "A.dln.separation",
        "A",
        "With weight decay the representation clock runs well after the loss clock.",
        "T_rep(1e-6) / T_cls(floor) on GD runs with lambda > 0 (T_cls(floor): loss within 10% of its final value).",
        f"reproduced: ratio >= {SEPARATION} on every run; partly: on some.",
    ),
]
REGISTRY = registry(CLAIMS)


def run_label(h: History) -> str:
    c = h.cfg
    return f"L={c.depth} {c.optimizer} λ={c.weight_decay:g}"


_OPTIMIZER_NAMES = {"gd": "GD", "adamw": "AdamW"}


def by_depth(histories: Sequence[History], cells: Sequence[str]) -> str:
    """One cell per run, as one line per optimiser and weight decay ordered by depth:
    "at L = 1, 2, 3 — GD λ = 0.001: a, b, c; ..." (short enough for a table cell; a group that
    lacks a depth labels each of its cells instead)."""
    depths = sorted({h.cfg.depth for h in histories})
    groups: dict[tuple, list[tuple[int, str]]] = {}
    for h, cell in zip(histories, cells):
        groups.setdefault((h.cfg.optimizer, h.cfg.weight_decay), []).append((h.cfg.depth, cell))
    parts = []
    for (opt, wd), rows in groups.items():
        rows.sort()
        name = _OPTIMIZER_NAMES.get(opt, opt) + (f" λ = {wd:g}" if wd else "")
        full = [d for d, _ in rows] == depths
        parts.append(f"{name}: " + ", ".join(c if full else f"L={d}: {c}" for d, c in rows))
    return f"at L = {', '.join(map(str, depths))} — " + "; ".join(parts)


def value_range(values: Sequence[float], fmt: str) -> str:
    """"lo–hi" of the finite values (one value when they agree at this precision)."""
    vals = [v for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return "–"
    lo, hi = format(min(vals), fmt), format(max(vals), fmt)
    return lo if lo == hi else f"{lo}–{hi}"


#: Below this a Schatten excess is rounding noise of the run's float64 products (its sign and
#: digits change with the CPU's arithmetic): printed as "< 1e-09", never as digits.
EXCESS_RESOLUTION = 1e-9


def schatten_excess(history: History) -> float:
    """Relative excess of (1/L) sum ||W_l||^2 over ||A||_{S_p}^p at the end of a run."""
    factors = [history.snapshots[f"W{i + 1}"][-1] for i in range(history.cfg.depth)]
    target = schatten_power(end_to_end(factors), 2.0 / history.cfg.depth)
    return (factor_penalty(factors) - target) / target


def lemma31_ratio(history: History) -> float:
    """Largest L_CE / ((K-1) exp(-Gamma)) over the recorded steps with a positive margin."""
    k = history.cfg.n_classes
    pos = history["margin"] > 0
    if not pos.any():
        return math.nan
    bound = np.array([lemma31_bound(g, k) for g in history["margin"][pos]])
    return float(np.max(history["train_loss"][pos] / bound))


def drift_median_error(history: History, name: str) -> float:
    """Median relative error of a drift prediction over steps >= 10 and the K-1 singular values the loss sees."""
    n_sv = sum(k.startswith("sv_") for k in history.metrics)  # min(K, d, width) singular values
    errs = [dc.drift_errors(history, i, start=10)[name] for i in range(min(history.cfg.n_classes - 1, n_sv))]
    return float(np.median(np.concatenate(errs)))


def evaluate_deep_linear(histories: Sequence[History]) -> list[Result]:
    """Every deep-linear claim on a sweep of :func:`grok_lib.paper_a.dln.config.sweep`."""
    gd_wd, plain = gd_decayed_runs(histories), plain_runs(histories)
    results = []

    excess = [schatten_excess(h) for h in gd_wd]
    results.append(Result(REGISTRY["A.dln.schatten"],
                          f"relative excess at the end: max {at_resolution(max(excess), EXCESS_RESOLUTION)} over "
                          f"{len(excess)} runs (min {at_resolution(min(excess), EXCESS_RESOLUTION)}; digits below "
                          f"{EXCESS_RESOLUTION:.0e} are float64 rounding)", any_verdict([e <= SCHATTEN_EXCESS for e in excess])))

    ratios = [lemma31_ratio(h) for h in histories]
    worst = float(np.nanmax(ratios))
    results.append(Result(REGISTRY["A.dln.lemma31"],
                          f"largest L_CE / bound over {len(histories)} runs: {worst:.3f}",
                          "reproduced" if worst <= 1 else "not reproduced"))

    growth = [dc.margin_growth(h) for h in plain]
    lin_ok = {opt: [g["linear"] is not None and g["linear"].r2 >= LINE_R2
                    for h, g in zip(plain, growth) if h.cfg.optimizer == opt]
              for opt in ("gd", "adamw")}
    slopes = {opt: [g["linear"].slope for h, g in zip(plain, growth) if g["linear"] is not None and h.cfg.optimizer == opt]
              for opt in ("gd", "adamw")}
    results.append(Result(
        REGISTRY["A.dln.margin_linear"],
        "R² of a line in t / in ln t " + by_depth(plain, [
            f"{g['linear'].r2:.2f}/{g['log'].r2:.2f}" if g["linear"] is not None else "never grows" for g in growth])
        + "; slope ν per step: " + ", ".join(f"{_OPTIMIZER_NAMES[o]} {value_range(v, '.1e')}" for o, v in slopes.items()),
        "reproduced" if all(map(all, lin_ok.values())) else ("partly" if any(map(all, lin_ok.values())) else "not reproduced"),
    ))

    fast = [dc.fast_clock_fits(h) for h in plain]
    fast_ok = [f["log"] is not None and f["log"].r2 >= LINE_R2 and f["log"].r2 > f["power"].r2 for f in fast]
    exponents = {opt: [f["power"].slope for h, f in zip(plain, fast) if f["log"] is not None and h.cfg.optimizer == opt]
                 for opt in ("gd", "adamw")}
    results.append(Result(
        REGISTRY["A.dln.fast_log"],
        "R² of a line in ln(1/ε) / of a power law " + by_depth(plain, [
            f"{f['log'].r2:.2f}/{f['power'].r2:.2f}" if f["log"] is not None else "too few levels" for f in fast])
        + "; power-law exponent (T ∝ ε^-k), k: " + ", ".join(f"{_OPTIMIZER_NAMES[o]} {value_range(v, '.2f')}" for o, v in exponents.items()),
        any_verdict(fast_ok),
    ))

    slow = [dc.slow_clock_fits(h) for h in gd_wd]
    poly_ok = [s["power"] is not None and s["power"].r2 > s["log"].r2 and 0.5 < s["theta"] < 1 for s in slow]
    rates = [(dc.tail_rate(h), dc.predicted_tail_rate(h.cfg)) for h in gd_wd]
    results.append(Result(
        REGISTRY["A.dln.slow_poly"],
        "R² of the power law / of a line in ln(1/η) " + by_depth(gd_wd, [
            f"{s['power'].r2:.3f}/{s['log'].r2:.3f}" if s["power"] is not None else "too few levels of η" for s in slow])
        + f"; θ = {value_range([s['theta'] for s in slow if s['power'] is not None], '.2f')} "
        f"(standard errors ≤ {max((s['power'].slope_se / 2 for s in slow if s['power'] is not None), default=math.nan):.2f})"
        + f"; tail decay rate / 2pλ·lr = {value_range([-r.slope / pr for r, pr in rates if r is not None], '.3f')}",
        any_verdict(poly_ok),
    ))

    depths = sorted({h.cfg.depth for h in gd_wd})
    errors = {name: {d: max(drift_median_error(h, name) for h in gd_wd if h.cfg.depth == d) for d in depths}
              for name in ("prop43", "factored")}
    results.append(Result(
        REGISTRY["A.dln.prop43"],
        f"median relative error at L = {', '.join(map(str, depths))} — as stated: "
        + ", ".join(f"{e:.2g}" for e in errors["prop43"].values())
        + "; with the factored-flow factor L s^(2-2/L): " + ", ".join(f"{e:.2g}" for e in errors["factored"].values()),
        any_verdict([e <= DRIFT_ERROR for e in errors["prop43"].values()]),
    ))

    sep = [dc.separation_row(h)["T_rep/T_cls"] for h in gd_wd]
    results.append(Result(REGISTRY["A.dln.separation"],
                          "T_rep(1e-6) / T_cls(floor) " + by_depth(gd_wd, [f"{r:.1f}" for r in sep]),
                          any_verdict([r >= SEPARATION for r in sep])))
    return results
