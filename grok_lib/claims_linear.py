"""Evaluation of Paper A's deep-linear-network claims (registered in :data:`grok_lib.claims.REGISTRY`)."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from . import dln_clocks as dc
from .claims import REGISTRY, Result
from .deep_linear import end_to_end, factor_penalty, lemma31_bound, schatten_power
from .history import History


def _name(h: History) -> str:
    c = h.config
    return f"L={c['depth']} {c['optimizer']} λ={c['weight_decay']:g}"


def _verdict(flags: Sequence[bool]) -> str:
    return "reproduced" if all(flags) else ("partly" if any(flags) else "not reproduced")


def schatten_excess(history: History) -> float:
    """Relative excess of (1/L) sum ||W_l||^2 over ||A||_{S_p}^p at the end of a run."""
    factors = [history.snapshots[f"W{i + 1}"][-1] for i in range(history.config["depth"])]
    target = schatten_power(end_to_end(factors), 2.0 / history.config["depth"])
    return (factor_penalty(factors) - target) / target


def lemma31_ratio(history: History) -> float:
    """Largest L_CE / ((K-1) exp(-Gamma)) over the recorded steps with a positive margin."""
    k = history.config["n_classes"]
    pos = history["margin"] > 0
    if not pos.any():
        return math.nan
    bound = np.array([lemma31_bound(g, k) for g in history["margin"][pos]])
    return float(np.max(history["train_loss"][pos] / bound))


def drift_median_error(history: History, name: str) -> float:
    """Median relative error of a drift prediction over steps >= 10 and the K-1 singular values the loss sees."""
    errs = [dc.drift_errors(history, i, start=10)[name] for i in range(history.config["n_classes"] - 1)]
    return float(np.median(np.concatenate(errs)))


def evaluate_deep_linear(histories: Sequence[History]) -> list[Result]:
    """Every deep-linear claim on a sweep of :func:`grok_lib.deep_linear.sweep`."""
    by = lambda opt, decayed: [h for h in histories if h.config["optimizer"] == opt  # noqa: E731
                               and (h.config["weight_decay"] > 0) == decayed]
    gd_wd, plain = by("gd", True), by("gd", False) + by("adamw", False)
    results = []

    excess = [schatten_excess(h) for h in gd_wd]
    results.append(Result(REGISTRY["A.dln.schatten"],
                          f"relative excess at the end: max {max(excess):.1e} over {len(excess)} runs "
                          f"(min {min(excess):.1e})", _verdict([e <= 1e-3 for e in excess])))

    ratios = [lemma31_ratio(h) for h in histories]
    worst = float(np.nanmax(ratios))
    results.append(Result(REGISTRY["A.dln.lemma31"],
                          f"largest L_CE / bound over {len(histories)} runs: {worst:.3f}",
                          "reproduced" if worst <= 1 else "not reproduced"))

    growth = [dc.margin_growth(h) for h in plain]
    lin_ok = {opt: [g["linear"].r2 >= 0.95 for h, g in zip(plain, growth) if h.config["optimizer"] == opt]
              for opt in ("gd", "adamw")}
    results.append(Result(
        REGISTRY["A.dln.margin_linear"],
        "; ".join(f"{_name(h)}: R² line in t {g['linear'].r2:.2f} vs in ln t {g['log'].r2:.2f}, "
                  f"ν = {g['linear'].slope:.1e}/step" for h, g in zip(plain, growth)),
        "reproduced" if all(map(all, lin_ok.values())) else ("partly" if any(map(all, lin_ok.values())) else "not reproduced"),
    ))

    fast = [dc.fast_clock_fits(h) for h in plain]
    fast_ok = [f["log"] is not None and f["log"].r2 >= 0.95 and f["log"].r2 > f["power"].r2 for f in fast]
    results.append(Result(
        REGISTRY["A.dln.fast_log"],
        "; ".join(f"{_name(h)}: R² ln(1/ε) {f['log'].r2:.2f} vs power {f['power'].r2:.2f} "
                  f"(T ∝ ε^{-f['power'].slope:.2f})" if f["log"] is not None else f"{_name(h)}: too few levels"
                  for h, f in zip(plain, fast)),
        _verdict(fast_ok),
    ))

    slow = [dc.slow_clock_fits(h) for h in gd_wd]
    poly_ok = [s["power"] is not None and s["power"].r2 > s["log"].r2 and 0.5 < s["theta"] < 1 for s in slow]
    rates = [(dc.tail_rate(h), dc.predicted_tail_rate(h.config)) for h in gd_wd]
    results.append(Result(
        REGISTRY["A.dln.slow_poly"],
        "; ".join(f"{_name(h)}: R² power {s['power'].r2:.3f} vs ln(1/η) {s['log'].r2:.3f}, θ = {s['theta']:.2f} ± "
                  f"{s['power'].slope_se / 2:.2f}, tail decay rate {-r.slope:.2e} vs 2pλ·lr = {pr:.2e}"
                  for h, s, (r, pr) in zip(gd_wd, slow, rates)),
        _verdict(poly_ok),
    ))

    depths = sorted({h.config["depth"] for h in gd_wd})
    errors = {name: {d: max(drift_median_error(h, name) for h in gd_wd if h.config["depth"] == d) for d in depths}
              for name in ("prop43", "factored")}
    results.append(Result(
        REGISTRY["A.dln.prop43"],
        "median relative error as stated: " + ", ".join(f"L={d}: {e:.2g}" for d, e in errors["prop43"].items())
        + "; with the factored-flow factor L s^(2-2/L): "
        + ", ".join(f"L={d}: {e:.2g}" for d, e in errors["factored"].items()),
        _verdict([e <= 0.1 for e in errors["prop43"].values()]),
    ))

    sep = [dc.separation_row(h)["T_rep/T_cls"] for h in gd_wd]
    results.append(Result(REGISTRY["A.dln.separation"],
                          "T_rep(1e-6) / T_cls(floor): " + ", ".join(f"{_name(h)}: {r:.1f}" for h, r in zip(gd_wd, sep)),
                          _verdict([r >= 2 for r in sep])))
    return results
