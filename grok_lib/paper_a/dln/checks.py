"""Paper A's deep-linear-network checks: :func:`evaluate_deep_linear` turns a sweep's histories into
:class:`grok_lib.claims.Result` objects of the registry (:mod:`grok_lib.paper_a.dln.claims`), judged by
:mod:`grok_lib.paper_a.dln.thresholds`, from the measurements of :mod:`grok_lib.paper_a.dln.clocks` (which
:mod:`grok_lib.paper_a.dln.key_numbers` prints too); with the formatting of its measured texts."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...claims import Result, any_verdict
from ...tables import at_resolution
from ...history import History
from . import clocks as dc
from .clocks import drift_median_error, lemma31_ratio, schatten_excess
from .claims import REGISTRY
from .runs import gd_decayed_runs, plain_runs
from .thresholds import DRIFT_ERROR, EXCESS_RESOLUTION, LINE_R2, SCHATTEN_EXCESS, SEPARATION


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


def _per_optimizer(histories: Sequence[History], values: Sequence) -> dict[str, list]:
    """GD's and AdamW's values (one per history, None where a run has none), in the histories' order."""
    return {opt: [v for h, v in zip(histories, values) if v is not None and h.cfg.optimizer == opt]
            for opt in ("gd", "adamw")}


def _ranges(by_optimizer: dict[str, list], fmt: str) -> str:
    """"GD lo–hi, AdamW lo–hi" of :func:`_per_optimizer`'s values."""
    return ", ".join(f"{_OPTIMIZER_NAMES[o]} {value_range(v, fmt)}" for o, v in by_optimizer.items())


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
    slopes = _per_optimizer(plain, [g["linear"].slope if g["linear"] is not None else None for g in growth])
    results.append(Result(
        REGISTRY["A.dln.margin_linear"],
        "R² of a line in t / in ln t " + by_depth(plain, [
            f"{g['linear'].r2:.2f}/{g['log'].r2:.2f}" if g["linear"] is not None else "never grows" for g in growth])
        + "; slope ν per step: " + _ranges(slopes, ".1e"),
        "reproduced" if all(map(all, lin_ok.values())) else ("partly" if any(map(all, lin_ok.values())) else "not reproduced"),
    ))

    fast = [dc.fast_clock_fits(h) for h in plain]
    fast_ok = [f["log"] is not None and f["log"].r2 >= LINE_R2 and f["log"].r2 > f["power"].r2 for f in fast]
    exponents = _per_optimizer(plain, [f["power"].slope if f["log"] is not None else None for f in fast])
    results.append(Result(
        REGISTRY["A.dln.fast_log"],
        "R² of a line in ln(1/ε) / of a power law " + by_depth(plain, [
            f"{f['log'].r2:.2f}/{f['power'].r2:.2f}" if f["log"] is not None else "too few levels" for f in fast])
        + "; power-law exponent (T ∝ ε^-k), k: " + _ranges(exponents, ".2f"),
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
