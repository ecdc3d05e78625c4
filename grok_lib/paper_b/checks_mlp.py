"""Paper B's checks of the MLP chapters: modular addition (the two-layer ReLU net of Sec. 2) and the bridge to Part A
(the book's predictions), each measuring its claims' quantities per seed at every point of each claim's grid and
grading them by the one rule (:func:`grok_lib.grading.grade`) in the regime :mod:`grok_lib.paper_b.regimes`
measures.

Modular addition is graded twice: on the in-regime runs (GD's step held below its stability limit,
:mod:`grok_lib.paper_b.stable_gd`: the book's verdict) and on the notebook's figure runs at the profile's fixed step
2.0, which the regime check finds outside the paper's regime (recorded at the setting :data:`FIXED_LR`)."""

from __future__ import annotations

import math
from typing import Sequence

from ..grading import Regime, Result, draw, grade, not_graded
from ..history import History
from . import measure, regimes, selection
from .checks_diagonal import crossing_t, lambda_t_spread
from .claims import REGISTRY
from .thresholds import BRIDGE_ACC, TRANSITION_LEVELS

#: The setting of the modular-addition records on the figure runs (the profile's fixed step, outside the regime).
FIXED_LR = "fixed_lr"
MODADD_CLAIMS = ("B.modadd.alpha_order", "B.modadd.lambda_order", "B.modadd.log_alpha_clock",
                 "B.modadd.inverse_lambda_clock")


def inversions(times: Sequence[float], later: bool = True) -> float:
    """Inversions of "strictly later (``later``; else strictly earlier) for every next run" in ``times`` (in the
    sweep's order): a consecutive pair out of that order, and a run whose clock never stopped (NaN), each count one."""
    count = sum(1 for t in times if math.isnan(t))
    finite = [t for t in times if not math.isnan(t)]
    return float(count + sum(1 for x, y in zip(finite, finite[1:]) if (y <= x if later else y >= x)))


def log_alpha_clock(alpha_sweep: Sequence[History], level: float) -> float:
    """The slope of t at ``level`` against ln α over the α > 1 runs, times λ (1 on the clock)."""
    big = [h for h in alpha_sweep if float(h.cfg.alpha) > 1]
    lam = float(big[0].cfg.weight_decay) if big else math.nan
    return measure.line_fit([math.log(float(h.cfg.alpha)) for h in big], [crossing_t(h, level) for h in big]).slope * lam


def seed_sweeps(alpha_runs: Sequence[History], lambda_runs: Sequence[History]) -> list[tuple[int, list, list]]:
    """(seed, its α sweep by α, its λ sweep by λ) for every seed of the runs."""
    out = []
    for s in selection.seeds(alpha_runs):
        a = sorted((h for h in alpha_runs if h.cfg.data_seed == s), key=lambda h: h.cfg.alpha)
        lam = sorted((h for h in lambda_runs if h.cfg.data_seed == s), key=lambda h: h.cfg.weight_decay)
        out.append((int(s), a, lam))
    return out


def _times(runs: Sequence[History], level: float, lam: bool = False) -> str:
    return ", ".join((f"λ={h.cfg.weight_decay:g}" if lam else f"α={h.cfg.alpha:g}") + f": {crossing_t(h, level):.0f}"
                     for h in runs)


def grade_modadd(alpha_runs: Sequence[History], lambda_runs: Sequence[History], where: Regime) -> list[Result]:
    """The modular-addition claims on one set of runs (every seed's α and λ sweeps), in the regime ``where``."""
    per_seed = seed_sweeps(alpha_runs, lambda_runs)
    levels = TRANSITION_LEVELS
    times = "; ".join(f"seed {s}, level {q:g}: α sweep {_times(a, q)}; λ sweep {_times(lam, q, True)}"
                      for s, a, lam in per_seed for q in levels)
    def order(runs: Sequence[History], level: float, later: bool) -> float:
        if len(runs) < 2:
            raise ValueError("an order needs at least two runs of the sweep")
        return inversions([crossing_t(h, level) for h in runs], later)

    measures = (("B.modadd.alpha_order", lambda a, lam, q: order(a, q, True), f"transition time t: {times}"),
                ("B.modadd.lambda_order", lambda a, lam, q: order(lam, q, False), ""),
                ("B.modadd.log_alpha_clock", lambda a, lam, q: log_alpha_clock(a, q), ""),
                ("B.modadd.inverse_lambda_clock", lambda a, lam, q: lambda_t_spread(lam, q), ""))
    out = []
    for cid, value, context in measures:
        try:
            draws = [draw(value(a, lam, q), s, (q,)) for s, a, lam in per_seed for q in levels]
        except ValueError as err:
            out.append(not_graded(REGISTRY[cid], f"not measurable on these runs: {err}", where if not where.ok else None))
            continue
        out.append(grade(REGISTRY[cid], draws, context, where))
    return out


def evaluate_modadd(groups, stable_runs: Sequence[History]) -> list[Result]:
    """The modular-addition claims on the in-regime runs (``stable_runs``: the chapter's claim-only runs, every seed's
    α and λ sweeps with GD's step held stable, :func:`grok_lib.paper_b.chapter_runs.stable_modadd_configs`, planned
    from the figure runs' ``groups``)."""
    alpha_runs, lambda_runs = selection.stable_sweeps(groups, stable_runs)
    every = selection.unique([*alpha_runs, *lambda_runs])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    return grade_modadd(alpha_runs, lambda_runs, where)


def evaluate_modadd_fixed(groups) -> list[Result]:
    """The same claims on the figure runs at the profile's fixed step (``groups``: ``run.groups``), recorded at the
    setting :data:`FIXED_LR`: not tested faithfully where lr × the sharpness at initialisation is 2 or more."""
    every = selection.unique([*groups["alpha"], *groups["weight_decay"]])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    return grade_modadd(groups["alpha"], groups["weight_decay"], where)


# --- the bridge to Part A: the book's predictions ---------------------------------------------------------------------
def bridge_delays(runs: Sequence[History]) -> dict[float, list[measure.Delay]]:
    """One seed's delays per weight decay, by α (:func:`grok_lib.paper_b.measure.delays`)."""
    ds = measure.delays(runs, BRIDGE_ACC)
    return {lam: [d for d in ds if d.weight_decay == lam] for lam in sorted({d.weight_decay for d in ds})}


def evaluate_bridge(histories: Sequence[History]) -> list[Result]:
    """The bridge chapter's predictions on each seed's α × λ runs (a run that never groks counts as later)."""
    all_runs = selection.init_scale_runs(histories)
    where = regimes.groks(all_runs)
    delay_draws, clock_draws, text = [], [], []
    for s in selection.seeds(all_runs):
        by_lam = bridge_delays(selection.bridge_runs(histories, s))
        lams = tuple(f"λ={lam:g}" for lam in by_lam)
        delay_draws.append(draw([inversions([d.step if math.isfinite(d.step) else math.inf for d in ds])
                                 for ds in by_lam.values()], int(s), (), lams))
        slopes = [measure.slope_through_origin([d.predicted for d in ds if d.alpha > 1],
                                               [d.delay for d in ds if d.alpha > 1]) for ds in by_lam.values()]
        clock_draws.append(draw(slopes, int(s), (), lams))
        text.append(f"seed {s}: " + "; ".join(
            f"λ={lam:g}: steps " + ", ".join(f"α={d.alpha:g}: {'never' if not math.isfinite(d.step) else int(d.step)}"
                                             for d in ds)
            + " (delays vs predicted " + ", ".join(f"{d.delay:.0f}/{d.predicted:.0f}" for d in ds if d.alpha > 1) + ")"
            for lam, ds in by_lam.items()))
    return [grade(REGISTRY["B.bridge.delay"], delay_draws, "grokking steps: " + "; ".join(text), where),
            grade(REGISTRY["B.bridge.clock"], clock_draws, regime=where)]
