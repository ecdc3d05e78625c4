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
           "max_relative_error", "window", "plateau", "formula_ratio", "seed_mean", "peak", "acc_curve",
           "decided_window", "isotropic_losses", "binomial_z", "capped_grokking_time", "second_layer_gram",
           "rescaled_clock_crossing"]


def crossing(history: History, eps: float | None = None) -> dict:
    """The crossing row of ``eps`` (None: the run's eps): t_train, t_test (steps, None if never) and,
    where the trainer computed them, theory_t_*/mp_t_* (continuous time)."""
    eps = history.cfg.eps if eps is None else eps
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
    main = history.cfg.eps
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
    c = history.cfg
    return grokking_time(history, eps) / grok_time_formula(history.meta["lam_eff"], c.eta, c.d_out)


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


# --- windows and references the re-graded claims read -----------------------------------------------------------
def decided_window(train_loss, gen_loss, level: float) -> np.ndarray:
    """The record steps before both accuracies are decided: before the later of the first steps at which each loss
    that ever falls below ``level`` does so (a loss that never does, such as L_gen on its plateau for lambda > 1,
    does not extend the window); every step if neither falls below it. At ``level`` = eps/4 this is the range the
    paper's accuracy figures show moving."""
    ends = [int(below[0]) for x in (train_loss, gen_loss) if len(below := np.nonzero(np.asarray(x) < level)[0])]
    ok = np.zeros(len(np.asarray(gen_loss)), bool)
    ok[: max(ends) if ends else len(ok)] = True
    return ok


def isotropic_losses(history: History) -> tuple[np.ndarray, np.ndarray]:
    """(L_tr, L_gen) of the exact gradient-flow theory averaged over the direction of D_0 (its norm kept), on the
    run's record steps: for an isotropic D_0 each eigenmode of the sample covariance carries l0 / d_in, so
    L_tr = l0 mean_i[s_i e^{-4 eta' s_i t}], L_gen = l0 mean_i[e^{-4 eta' s_i t}], eta' = eta / d_out. This is the
    MP integral with the run's own sample spectrum in place of the MP law (gamma = 0, no label noise)."""
    s = np.asarray(history.snapshots["eigenvalues"][0], dtype=np.float64)
    c = history.cfg
    decay = np.exp(-4 * (c.eta / c.d_out) * np.outer(s, history.steps.astype(np.float64)))
    l0 = history.meta["l0"]
    return l0 * (s[:, None] * decay).mean(axis=0), l0 * decay.mean(axis=0)


def binomial_z(measured_acc, law_acc, n: int) -> np.ndarray:
    """``|measured - law|`` in binomial standard deviations sqrt(p (1 - p) / n) of an accuracy counted on n samples,
    p = the law's accuracy kept within [1/n, 1 - 1/n] (so that one sample off at p = 0 or 1 is about 1 sd)."""
    p = np.clip(np.asarray(law_acc, dtype=np.float64), 1.0 / n, 1.0 - 1.0 / n)
    return np.abs(np.asarray(measured_acc) - np.asarray(law_acc)) / np.sqrt(p * (1 - p) / n)


def capped_grokking_time(t_train, t_test, cap: int) -> tuple[float, bool]:
    """(Delta t, censored) as a run stopped after ``cap`` steps would record it: t_test - t_train if the test
    accuracy crossed by then, else cap - t_train with censored = True (nan if the training accuracy had not
    crossed either)."""
    if t_train is None or t_train > cap:
        return math.nan, True
    if t_test is None or t_test > cap:
        return float(cap - t_train), True
    return float(t_test - t_train), False


# --- the two-layer linear net's second layer ----------------------------------------------------------------------
def second_layer_gram(config, t_max: int) -> np.ndarray:
    """The mean eigenvalue of W2^T W2 at steps 0 ... t_max of the two-layer linear net of ``config``, retraced with
    the trainer's own data, initialisation and update (:mod:`.simulate`, in the eigenbasis; weight decay included).
    The paper's rescaling eta -> eta / (2 d_out^2) assumes W2^T W2 = I / (2 d_out), its value at initialisation."""
    from . import simulate

    w1, w2 = simulate.init_net(config)
    rotated = simulate.Rotated(config, simulate.make_data(config), w1 @ w2)
    return np.asarray([float(np.trace(w2.T @ w2)) / config.d_out
                       for _, (_, w2, _) in zip(range(t_max + 1), simulate.two_layer_linear_steps(config, rotated))])


def rescaled_clock_crossing(gram_mean, d_out: int, theory_t: float) -> float:
    """The step at which the two-layer net reaches the theory's crossing time ``theory_t`` if its clock runs at the
    measured W2^T W2 instead of its initial I / (2 d_out): the first t with sum_{u < t} 2 d_out gram(u) >= theory_t
    (nan if not within the traced steps)."""
    clock = np.concatenate([[0.0], np.cumsum(2 * d_out * np.asarray(gram_mean))])
    reached = np.nonzero(clock >= theory_t)[0]
    return float(reached[0]) if len(reached) else math.nan
