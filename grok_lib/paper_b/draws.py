"""What several of Part B's chapters' checks measure per draw (:func:`grok_lib.grading.draw`): a draw's members and
seed, the continuous time a transition crosses a level, lambda t's spread over a lambda sweep, and inversions of an
order."""

from __future__ import annotations

import math
from typing import Sequence

from ..history import History
from . import measure


def members(hs: Sequence[History], lam: bool = False) -> tuple:
    return tuple(f"α={h.cfg.alpha:g}" + (f" λ={h.cfg.weight_decay:g}" if lam else "") for h in hs)


def seed_of(hs: Sequence[History]) -> int:
    return int(hs[0].cfg.data_seed)


def crossing_t(h: History, level: float) -> float:
    """Continuous time of the first recorded step with test accuracy ≥ ``level`` (NaN if never)."""
    c = measure.first_crossing(h, "test_acc", level)
    return c.t if c else math.nan


def lambda_t_spread(runs: Sequence[History], level: float) -> float:
    """max / min − 1 of λt at ``level`` over a λ sweep (NaN where a run never gets there)."""
    values = [float(h.cfg.weight_decay) * crossing_t(h, level) for h in runs]
    if len(values) < 2:
        raise ValueError("a spread over λ needs at least two runs")
    return max(values) / min(values) - 1 if all(math.isfinite(v) for v in values) else math.nan


def inversions(times: Sequence[float], later: bool = True) -> float:
    """Inversions of "strictly later (``later``; else strictly earlier) for every next run" in ``times`` (in the
    sweep's order): a consecutive pair out of that order, and a run whose clock never stopped (NaN), each count one."""
    count = sum(1 for t in times if math.isnan(t))
    finite = [t for t in times if not math.isnan(t)]
    return float(count + sum(1 for x, y in zip(finite, finite[1:]) if (y <= x if later else y >= x)))
