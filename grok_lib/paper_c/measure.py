"""What Part C reads off its runs: crossing steps, grokking times, relative errors, plateaus, peaks.

Grokking time, as the paper reads it: t_train(eps) and t_test(eps) are the first steps at which
the training and the test accuracy (fraction of samples with ||error||^2 <= eps) reach
GROK_ACC = erf(sqrt 2) ~ 95.45%, the accuracy of a Gaussian error whose loss is eps/4 (d_out = 1);
Delta t_grok(eps) = t_test(eps) - t_train(eps). The trainer measures both crossings for every
threshold of the run (``history.meta["crossings"]``), on the exact state between record steps for
the linear student; :func:`grid_crossing` reads them off recorded curves instead.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..history import History
from .simulate import acc_name
from .theory import GROK_ACC, grok_time_formula

__all__ = ["GROK_ACC", "crossing", "measured_eps", "grokking_time", "theory_grokking_time", "grid_crossing", "relative_error",
           "max_relative_error", "window", "plateau", "formula_ratio", "seed_mean", "peak", "acc_curve"]


def crossing(history: History, eps: float | None = None) -> dict:
    """The crossing row of ``eps`` (None: the run's eps): t_train, t_test (steps, None if never) and,
    where the trainer computed them, theory_t_*/mp_t_* (continuous time)."""
    eps = history.config["eps"] if eps is None else eps
    for row in history.meta["crossings"]:
        if math.isclose(row["eps"], eps, rel_tol=1e-9):
            return row
    known = ", ".join(f"{r['eps']:g}" for r in history.meta["crossings"])
    raise KeyError(f"eps={eps:g} was not measured in this run (measured: {known})")


def measured_eps(history: History, candidates: Sequence[float]) -> list[float]:
    """Those of ``candidates`` at which ``history`` measured its crossings (small profiles measure fewer)."""
    measured = [row["eps"] for row in history.meta["crossings"]]
    return [e for e in candidates if any(math.isclose(e, m, rel_tol=1e-9) for m in measured)]


def _diff(row: dict, prefix: str) -> float:
    a, b = row.get(f"{prefix}t_train"), row.get(f"{prefix}t_test")
    return math.nan if a is None or b is None else float(b) - float(a)


def grokking_time(history: History, eps: float | None = None) -> float:
    """Delta t_grok(eps) = t_test - t_train of the simulation (nan if an accuracy never gets there)."""
    return _diff(crossing(history, eps), "")


def theory_grokking_time(history: History, eps: float | None = None, which: str = "theory") -> float:
    """The same from the run's theory: ``theory`` (exact gradient flow on its spectrum) or ``mp``."""
    return _diff(crossing(history, eps), f"{which}_")


def acc_curve(history: History, which: str, eps: float | None = None) -> np.ndarray:
    """The recorded ``which`` (train | test) accuracy at threshold ``eps`` (None: the run's eps)."""
    main = history.config["eps"]
    return history[acc_name(which, main if eps is None else eps, main)]


def grid_crossing(steps, values, level: float = GROK_ACC) -> float:
    """The first recorded step whose value is >= level (nan if none): a crossing on the record grid."""
    above = np.nonzero(np.asarray(values) >= level)[0]
    return math.nan if len(above) == 0 else float(np.asarray(steps)[above[0]])


def relative_error(measured, reference) -> np.ndarray:
    """abs(measured - reference) / abs(reference), elementwise."""
    measured, reference = np.asarray(measured, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.abs(measured - reference) / np.abs(reference)


def window(reference, floor: float, t=None, t_max: float = math.inf) -> np.ndarray:
    """The record steps where a reference loss is >= floor (relative errors of numbers far below
    any threshold say nothing) and t <= t_max."""
    reference = np.asarray(reference)
    ok = reference >= floor
    if t is not None:
        ok &= np.asarray(t) <= t_max
    return ok


def max_relative_error(measured, reference, floor: float, t=None, t_max: float = math.inf) -> float:
    """The largest relative error over :func:`window` (nan if the window is empty)."""
    ok = window(reference, floor, t, t_max)
    return float(relative_error(np.asarray(measured)[ok], np.asarray(reference)[ok]).max()) if ok.any() else math.nan


def plateau(history: History, name: str, last_fraction: float = 0.1) -> float:
    """The median of ``name`` over the last ``last_fraction`` of the run's log-step range (a plateau's level)."""
    steps = history.steps.astype(np.float64)
    last = steps[-1]
    lo = math.exp(math.log(max(last, 1.0)) * (1 - last_fraction))
    sel = steps >= lo
    return float(np.median(history[name][sel]))


def formula_ratio(history: History, eps: float) -> float:
    """Simulated Delta t_grok(eps) over the paper's formula at the run's realised lambda and d_out."""
    c = history.config
    return grokking_time(history, eps) / grok_time_formula(history.meta["lam_eff"], c["eta"], c["d_out"])


def seed_mean(values) -> tuple[float, float]:
    """(mean, standard error of the mean) of finite values (sem nan for fewer than 2)."""
    v = np.asarray([x for x in values if x is not None and math.isfinite(x)], dtype=np.float64)
    if len(v) == 0:
        return math.nan, math.nan
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.nan


def peak(x: Sequence[float], y: Sequence[float]) -> tuple[float, bool]:
    """(x at the maximum of y, whether that maximum is interior, i.e. not at either end of x)."""
    y = np.asarray(y, dtype=np.float64)
    i = int(np.nanargmax(y))
    return float(np.asarray(x)[i]), 0 < i < len(y) - 1
