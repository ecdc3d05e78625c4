"""Paper A's deep-linear-network checks: :func:`evaluate_deep_linear` turns a sweep's histories into
:class:`grok_lib.claims.Result` objects of the registry (:mod:`grok_lib.paper_a.dln.claims`), judged by
:mod:`grok_lib.paper_a.dln.thresholds`, from the measurements of :mod:`grok_lib.paper_a.dln.clocks` (which
:mod:`grok_lib.paper_a.dln.key_numbers` prints too); with the formatting of its measured texts."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...grading import Regime, Result, draw, grade
from ...tables import at_resolution
from ...history import History
from . import clocks as dc
from .clocks import EPS_LEVELS, ETA_LEVELS, drift_median_error, lemma31_ratio, schatten_excess, sharpness
from .claims import REGISTRY
from .runs import gd_decayed_runs, plain_runs
from .thresholds import EXCESS_RESOLUTION, GD_STABLE, LINE_R2


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


def _members(hs: Sequence[History]) -> tuple:
    return tuple(dc.run_label(h) for h in hs)


def _slow_clock(h: History, eta: float) -> float:
    """T_rep(eta), or the run's last step where the gap has not stayed below eta by then: a lower bound."""
    t = dc.t_rep_gap(h, eta)
    return float(h.steps[-1]) if math.isnan(t) else t


def _ratio(a: float, b: float) -> float:
    """a / b; NaN where the fast clock stopped at step 0 (a run too short to measure it: no ratio)."""
    return a / b if b else math.nan


def gd_sharpness(h: History) -> tuple[float, float]:
    """lr × the sharpness of the trained objective at a run's initialisation and at its end (its kept final
    factors): :func:`grok_lib.paper_a.dln.clocks.sharpness`."""
    c = h.cfg
    end = [h.snapshot(f"W{i + 1}", int(h.steps[-1])) for i in range(c.depth)]
    return c.lr * sharpness(c), c.lr * sharpness(c, end)


def regime(histories: Sequence[History]) -> Regime:
    """The chapter's regime: the theory is for gradient flow, and gradient descent follows it only where
    lr × the sharpness of the objective is below 2 (:data:`GD_STABLE`), measured at initialisation on every GD
    run (at the end: reported). AdamW's steps are not bounded by it (its step is normalised)."""
    gd = [h for h in histories if h.cfg.optimizer == "gd"]
    if not gd:
        return Regime(True, "lr × the sharpness of the objective at initialisation", "< 2 on every GD run", "no GD run")
    init, end = zip(*(gd_sharpness(h) for h in gd))
    ok = all(GD_STABLE.holds(v) for v in init)
    return Regime(ok, "lr × the sharpness of the objective at initialisation (the largest Hessian eigenvalue of "
                      "the trained objective in the factors)", f"{GD_STABLE.text()} on every GD run (GD follows the "
                      "gradient flow the theory is about)",
                  f"{value_range(init, '.2g')} over the {len(gd)} GD runs (at the end of the runs: {value_range(end, '.2g')})")


def _both(a: Regime, b: Regime) -> Regime:
    """Two regimes a claim needs at once."""
    return Regime(a.ok and b.ok, f"{a.quantity} {a.requirement.strip()}: {a.measured}; and {b.quantity}",
                  b.requirement, b.measured)


def evaluate_deep_linear(histories: Sequence[History]) -> list[Result]:
    """Every deep-linear claim on a sweep of :func:`grok_lib.paper_a.dln.config.sweep` (one draw per point of a
    claim's grid: the runs are deterministic), each in the chapter's regime (:func:`regime`)."""
    gd_wd, plain = gd_decayed_runs(histories), plain_runs(histories)
    stable = regime(histories)
    results = []

    # an excess within float64 rounding of zero is zero (its digits and sign move with the arithmetic)
    excess = [0.0 if abs(e) < EXCESS_RESOLUTION else e for e in (schatten_excess(h) for h in gd_wd)]
    results.append(grade(REGISTRY["A.dln.schatten"], [draw(excess, None, (), _members(gd_wd))],
                         f"largest {at_resolution(max(excess), EXCESS_RESOLUTION)}, smallest "
                         f"{at_resolution(min(excess), EXCESS_RESOLUTION)} (digits below {EXCESS_RESOLUTION:.0e} are "
                         f"float64 rounding)", regime=stable))

    ratios = [lemma31_ratio(h) for h in histories]
    results.append(grade(REGISTRY["A.dln.lemma31"], [draw(ratios, None, (), _members(histories))], regime=stable))

    growth = [dc.margin_growth(h) for h in plain]
    r2_line = [g["linear"].r2 if g["linear"] is not None else math.nan for g in growth]
    slopes = _per_optimizer(plain, [g["linear"].slope if g["linear"] is not None else None for g in growth])
    results.append(grade(
        REGISTRY["A.dln.margin_linear"], [draw(r2_line, None, (), _members(plain))],
        "R² of a line in t / in ln t " + by_depth(plain, [
            f"{g['linear'].r2:.2f}/{g['log'].r2:.2f}" if g["linear"] is not None else "never grows" for g in growth])
        + "; slope ν per step: " + _ranges(slopes, ".1e"), regime=stable))

    fast = REGISTRY["A.dln.fast_log"]
    premise = [h for h, r2 in zip(plain, r2_line) if LINE_R2.holds(r2)]
    where = Regime(bool(premise), "runs whose margin grows linearly (Assumption 3.4: a line in t with R² ≥ 0.95)",
                   "at least one", ", ".join(dc.run_label(h) for h in premise) or "none")
    draws = []
    for floor in fast.choices[0].grid:
        eps = EPS_LEVELS[EPS_LEVELS >= floor * 0.999]
        fits = [dc.fast_clock_fits(h, eps) for h in premise]
        draws.append(draw([f["log"].r2 - f["power"].r2 if f["log"] is not None else math.nan for f in fits],
                          None, (floor,), _members(premise)) if premise else None)
    all_fits = [dc.fast_clock_fits(h) for h in plain]
    exponents = _per_optimizer(plain, [f["power"].slope if f["log"] is not None else None for f in all_fits])
    context = ("every run without weight decay, R² of a line in ln(1/ε) / of a power law " + by_depth(plain, [
        f"{f['log'].r2:.2f}/{f['power'].r2:.2f}" if f["log"] is not None else "too few levels" for f in all_fits])
        + "; power-law exponent (T ∝ ε^-k), k: " + _ranges(exponents, ".2f"))
    results.append(grade(fast, [d for d in draws if d is not None], context, regime=_both(stable, where)))

    rates = [dc.contraction_rates(h) for h in plain]
    results.append(grade(
        REGISTRY["A.dln.contraction"], [draw([r["slowest"] for r in rates], None, (), _members(plain))],
        "per-step rate μ at the window's start / end " + by_depth(plain, [
            f"{r['start']:.1e}/{r['end']:.1e}" if r["mu"].size else "no window" for r in rates]), regime=stable))

    slow = REGISTRY["A.dln.slow_poly"]
    draws = []
    for floor in slow.choices[0].grid:
        eta = ETA_LEVELS[ETA_LEVELS >= floor * 0.999]
        fits = [dc.slow_clock_fits(h, eta) for h in gd_wd]
        draws.append(draw([f["power"].r2 - f["log"].r2 if f["power"] is not None else math.nan for f in fits],
                          None, (floor,), _members(gd_wd)))
    central = [dc.slow_clock_fits(h) for h in gd_wd]
    rates = [(dc.tail_rate(h), dc.predicted_tail_rate(h.cfg)) for h in gd_wd]
    results.append(grade(
        slow, draws,
        "R² of the power law / of a line in ln(1/η) " + by_depth(gd_wd, [
            f"{s['power'].r2:.3f}/{s['log'].r2:.3f}" if s["power"] is not None else "too few levels of η" for s in central])
        + f"; θ from the power law = {value_range([s['theta'] for s in central if s['power'] is not None], '.2f')}"
        + f"; the gap's tail decays exponentially at 2pλ·lr × {value_range([-r.slope / pr for r, pr in rates if r is not None], '.3f')}",
        regime=stable))

    errors = [drift_median_error(h, "prop43") for h in gd_wd]
    factored = [drift_median_error(h, "factored") for h in gd_wd]
    results.append(grade(REGISTRY["A.dln.prop43"], [draw(errors, None, (), _members(gd_wd))],
                         "with the factored flow's factor L s^(2−2/L): " + by_depth(gd_wd, [f"{e:.2g}" for e in factored]),
                         regime=stable))

    sep = REGISTRY["A.dln.separation"]
    draws = [draw([_ratio(_slow_clock(h, eta), dc.t_cls_floor(h)) for h in gd_wd], None, (eta,), _members(gd_wd))
             for eta in sep.choices[0].grid]
    results.append(grade(sep, draws, regime=stable))
    return results
