"""How Paper A's pages say their graded results in words (for :func:`grok_lib.display.glue`): a verdict in its
kind's words with the measured reason where it was not tested faithfully, several settings' verdicts at once,
the verdicts of seeds graded alone, a span of epochs."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..grading import Result, sides
from ..tables import typeset
from .robustness import seed_of


def reading(r: Result) -> str:
    """"`id` is **its verdict**", with the regime's measured reason where it was not tested faithfully."""
    text = f"`{r.claim.id}` is **{r.word}**"
    if r.verdict == "not tested faithfully" and r.regime is not None:
        text += f" ({typeset(r.regime.quantity)}: {typeset(r.regime.measured)})"
    return text


def graded(r: Result) -> str:
    """"`id` (a premise): **verdict**", with how many (draw, bar) pairs pass where they split."""
    passing, failing = sides(r.claim, r.draws)
    split = f", {len(passing)} of {len(passing) + len(failing)} (level, bar) pairs passing" if passing and failing else ""
    return f"`{r.claim.id}`{' (a premise)' if r.claim.kind == 'premise' else ''}: **{r.word}**{split}"


def words(results: Sequence[Mapping[str, Result]], claim_id: str) -> str:
    """The verdicts of ``claim_id`` over several settings' results (each id -> Result), each once, in bold."""
    return " and ".join(sorted({f"**{r[claim_id].word}**" for r in results}))


def by_seed(results: Sequence[Result], seeds: Sequence) -> str:
    """The verdicts of one claim graded on each seed alone (``results`` in the order of ``seeds``' sweeps)."""
    if len({r.verdict for r in results}) == 1:
        return f"is **{results[0].word}** for each of the {len(seeds)} seeds graded alone"
    return "differs between the seeds graded alone (" + ", ".join(
        f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, results)) + ")"


def span(values: Sequence[float]) -> str:
    """"lo–hi" of the finite epochs, "never" if none, noting the ones that never came."""
    finite = [v for v in values if math.isfinite(v)]
    return (f"{min(finite):,.0f}–{max(finite):,.0f}" if finite else "never") + ("" if len(finite) == len(values) else " (some never)")
