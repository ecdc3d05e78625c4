"""How sure Paper A's verdicts are: the thresholds they depend on, moved; phases measured in
epochs; the verdicts seed by seed.

Every level the paper does not give is the book's choice, so each claim that rests on one is graded
at every value of its grid (declared in the claim, :mod:`grok_lib.paper_a.claims`; the grids are the
constants of :mod:`grok_lib.paper_a.thresholds`, re-exported here for the tables of
:mod:`grok_lib.paper_a.sensitivity`): by the one rule (:mod:`grok_lib.grading`) a claim is reproduced
only where every seed and every grid choice passes, not reproduced where none does, and inconclusive
otherwise. The grids hold the book's own value.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from ..clocks import grokking_epoch, t_cls
from ..grading import Result
from ..history import History
from .clocks import T_REP_FRACTION, t_rep_srank
from .relu_reduction import FROZEN_CHURN, frozen_epoch
from .thresholds import FIT_EPS_GRID, FROZEN_CHURN_GRID, RATIO_EPS_GRID, T_REP_FRACTIONS

#: T_grok: the test accuracy that counts as grokked (the book's: 0.95; reported, not graded).
GROK_ACC_GRID = (0.9, 0.95, 0.99)
#: T_rep: the fractions of the stable rank's peak it must fall to, the clock ratio's grid (the book's: 0.8).
T_REP_FRACTION_GRID = T_REP_FRACTIONS
#: FIT_EPS_GRID (T_cls of "fitted", the book's 1e-3), RATIO_EPS_GRID (the clock ratio's T_cls, the book's 1e-4)
#: and FROZEN_CHURN_GRID (bits flipped per 50 epochs below which patterns count as frozen, the book's 1e-3)
#: are the claims' own grids (:mod:`grok_lib.paper_a.thresholds`).

assert T_REP_FRACTION in T_REP_FRACTION_GRID and FROZEN_CHURN in FROZEN_CHURN_GRID


def clock_ratio(history: History, fraction: float, eps: float, matrix: str = "E") -> float:
    """T_rep(fraction) / T_cls(eps): NaN where either clock never stops."""
    return t_rep_srank(history, matrix, fraction) / t_cls(history, eps)


def ratio_grid(history: History, matrix: str = "E") -> dict[tuple[float, float], float]:
    """The clock ratio at every (T_rep fraction, T_cls level) of the grids."""
    return {(f, e): clock_ratio(history, f, e, matrix) for f in T_REP_FRACTION_GRID for e in RATIO_EPS_GRID}


def grok_grid(history: History) -> dict[float, float]:
    """The grokking epoch at every accuracy of :data:`GROK_ACC_GRID`."""
    return {acc: grokking_epoch(history, acc) for acc in GROK_ACC_GRID}


# --- phases, in epochs ---------------------------------------------------------------------------
def epoch_share(steps: np.ndarray, flags: np.ndarray, start: float, stop: float) -> float:
    """The share of the epochs in [start, stop) at which ``flags`` holds, each recorded value
    standing for the epochs up to the next record (records are log-spaced early, so a share of
    *records* would overweight the first few hundred epochs). NaN for an empty phase."""
    steps = np.asarray(steps, dtype=float)
    lo, hi = steps, np.append(steps[1:], steps[-1])
    span = np.clip(np.minimum(hi, stop) - np.maximum(lo, start), 0, None)
    total = span.sum()
    return float((span * np.asarray(flags, dtype=bool)).sum() / total) if total > 0 else math.nan


def phases(history: History, fit_eps: float) -> dict[str, tuple[float, float]]:
    """The three phases of a run: fitting (before T_cls(fit_eps)), plateau (to T_grok(95%)), late
    (to the end). A phase the run never reaches is empty."""
    end = float(history.steps[-1])
    fit = t_cls(history, fit_eps)
    grok = grokking_epoch(history)
    fit = end if math.isnan(fit) else fit
    grok = end if math.isnan(grok) else max(grok, fit)
    return {"fitting": (0.0, fit), "plateau": (fit, grok), "late": (grok, end)}


def head_share_by_phase(history: History, fit_eps: float) -> dict[str, float]:
    """Per phase: the share of its epochs with ||grad_U|| > ||grad_E||."""
    above = history["grad_U"] / history["grad_E"] > 1
    return {name: epoch_share(history.steps, above, lo, hi) for name, (lo, hi) in phases(history, fit_eps).items()}


def frozen_grid(history: History) -> dict[float, float]:
    """The frozen epoch at every churn threshold of :data:`FROZEN_CHURN_GRID`."""
    return {c: frozen_epoch(history, c) for c in FROZEN_CHURN_GRID}


# --- seeds -----------------------------------------------------------------------------------------
def by_weight_decay(histories: Sequence[History]) -> list[History]:
    """``histories`` in order of their weight decay (a sweep's panels and claims read them so)."""
    return sorted(histories, key=lambda h: h.cfg.weight_decay)


def largest_weight_decay(histories: Sequence[History]) -> History:
    """The run of the sweep's largest weight decay, whatever order the sweep was given in (the focus of
    Figure 2 and of the gradient figure)."""
    return max(histories, key=lambda h: h.cfg.weight_decay)


def _number(v: float, fmt: str | None) -> str:
    if fmt is not None:
        return f"{v:{fmt}}"
    return f"{v:.0f}" if float(v).is_integer() and abs(v) < 1e6 else f"{v:.3g}"


def spread(values: Sequence[float], fmt: str | None = None) -> str:
    """``median [min–max]`` of the finite values, with how many never got there (``fmt`` None:
    whole numbers as such, others to three significant digits)."""
    finite = [float(v) for v in values if not math.isnan(v)]
    never = len(values) - len(finite)
    if not finite:
        return "never"
    text = f"{_number(float(np.median(finite)), fmt)} [{_number(min(finite), fmt)}–{_number(max(finite), fmt)}]"
    return text + (f" ({never} never)" if never else "")


def _value(v) -> float:
    """A table cell as a number: "never" (a clock that never stopped) is NaN."""
    return math.nan if v == "never" else float(v)


def spread_table(seed_tables: Sequence[Sequence[dict]], key: str = "weight_decay", fmt: str | None = None) -> list[dict]:
    """Rows of several seeds' tables (same rows, same columns) merged into one: each numeric
    column as :func:`spread` over the seeds ("never" counts as never), ``key`` kept."""
    rows = []
    for same in zip(*seed_tables):
        row = {key: same[0][key]}
        for column in same[0]:
            if column != key:
                row[column] = spread([_value(r[column]) for r in same], fmt)
        rows.append(row)
    return rows


def seed_of(histories: Sequence[History]) -> int:
    """The seed of a sweep (its data seed; the recorded seeds draw split and initialisation alike)."""
    return int(histories[0].cfg.data_seed)


def seed_verdicts(evaluate: Callable, seeds: Sequence[Sequence[History]]) -> dict[str, list[Result]]:
    """Claim id -> its result on each seed's sweep graded alone (``evaluate`` is an evaluator of
    :mod:`grok_lib.paper_a.checks`, which takes a list of sweeps). The claims' verdicts grade every seed at
    once; these say which seed moves a verdict that is inconclusive over them."""
    out: dict[str, list[Result]] = {}
    for histories in seeds:
        for result in evaluate([histories]):
            out.setdefault(result.claim.id, []).append(result)
    return out


def seed_table(evaluate: Callable, seeds: Sequence[Sequence[History]]) -> list[dict]:
    """One row per claim: its verdict (in the words of its kind) graded on each seed alone, and on every seed
    at once (the claim's verdict)."""
    per_seed = seed_verdicts(evaluate, seeds)
    together = {r.claim.id: r for r in evaluate(seeds)}
    return [{"claim": cid} | {f"seed {seed_of(s)}": r.word for s, r in zip(seeds, results)}
            | {"every seed": together[cid].word} for cid, results in per_seed.items()]


def differing(evaluate: Callable, seeds: Sequence[Sequence[History]]) -> dict[str, list[Result]]:
    """The claims whose verdict graded on one seed alone is not the same for every seed."""
    return {cid: rs for cid, rs in seed_verdicts(evaluate, seeds).items() if len({r.verdict for r in rs}) > 1}
