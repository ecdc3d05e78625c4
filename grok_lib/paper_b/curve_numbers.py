"""What several of Part B's chapters' tables and key numbers read off runs: a run's tag, rounding, values at points
of the clock or at steps, a fitted line's attribute, one table's rows at every seed, and a run's transition row."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..figure_numbers import none_if_nan
from ..history import History
from ..tables import format_value
from . import measure


#: Points of the clock lambda t / ln(alpha) at which curves are guarded (the nearest recorded step).
CLOCK_POINTS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)


def fit_attr(fit, name: str, scale: float = 1.0) -> float:
    """Attribute ``name`` of a line fit times ``scale``; NaN where the fit is None (a failed
    :func:`grok_lib.paper_b.measure.try_fit`)."""
    return getattr(fit, name) * scale if fit is not None else math.nan


def run_tag(h: History) -> str:
    """The run's prefix in the regression numbers' names: ``a=<alpha>,wd=<lambda>``."""
    return f"a={h.cfg.alpha:g},wd={h.cfg.weight_decay:g}"


def rounded(x, digits: int = 3):
    """``x`` rounded (nan stays nan: printed as 'never')."""
    return round(float(x), digits) if x is not None and math.isfinite(float(x)) else math.nan


def at_clock(h: History, metric: str, x: float) -> float:
    """``metric`` at the recorded step whose clock lambda t / ln(alpha) is nearest ``x``."""
    return float(h[metric][int(np.argmin(np.abs(measure.clock(h) - x)))])


def at_clocks(h: History, names: Sequence[str], points: Sequence[float] = CLOCK_POINTS) -> dict:
    """``tag/name@clock<x>`` for each name and clock point (None for NaN)."""
    return {f"{run_tag(h)}/{name}@clock{x:g}": none_if_nan(at_clock(h, name, x)) for x in points for name in names}


def at_steps(h: History, names: Sequence[str], steps: Sequence[int]) -> dict:
    """``tag/name@<step>`` for each name at the last recorded step <= each step, and at the end."""
    return {f"{run_tag(h)}/{name}@{s}": none_if_nan(h.at(name, s)) for s in (*steps, int(h.steps[-1])) for name in names}


def seeds_table(tables: dict, keys: Sequence[str], columns: Sequence[str]) -> list[dict]:
    """One per-run table at several seeds (``{seed: rows}``, the same rows in the same order) merged: the
    ``keys`` columns, then each of ``columns`` as its values at the seeds, "seed 0 / seed 1 / ..."."""
    seeds = ", ".join(str(s) for s in tables)
    rows = []
    for same in zip(*tables.values()):
        row = {k: same[0][k] for k in keys}
        row |= {f"{c} (seeds {seeds})": " / ".join(format_value(r[c]) for r in same) for c in columns}
        rows.append(row)
    return rows


def transition_row(h: History) -> dict:
    """A run's transition on the clock: ln(alpha) / lambda (in t and in steps at the step cap), the first steps with
    test accuracy >= 0.6 and >= 0.9 (:func:`grok_lib.paper_b.measure.accuracy_transition`) and their fractions of it."""
    tr = measure.accuracy_transition(h)
    s, e = tr.fractions
    return {"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
            "ln(a)/l (t)": rounded(measure.clock_unit(h.cfg), 1),
            "ln(a)/l (steps at cap)": int(round(measure.clock_unit(h.cfg) / float(h.cfg.lr))),
            "start step": measure.crossing_step(tr.start), "end step": measure.crossing_step(tr.end),
            "start frac": rounded(s), "end frac": rounded(e)}
