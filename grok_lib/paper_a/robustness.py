"""How sure Paper A's verdicts are over seeds: a quantity's spread over the seeds, each seed graded alone, the
verdicts that differ between seeds, and runs in weight-decay order.

By the one rule (:mod:`grok_lib.grading`) a claim is reproduced only where every seed and every grid choice passes,
not reproduced where none does, and inconclusive otherwise. Each chapter's grids of thresholds (the sensitivity
tables) are in its chapter module."""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from ..grading import Result
from ..history import History


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
    a chapter module, which takes a list of sweeps). The claims' verdicts grade every seed at
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
