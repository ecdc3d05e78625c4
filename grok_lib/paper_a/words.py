"""Paper A's graded results in the prose's words (glued by :func:`grok_lib.display.glue`, never typed)."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..grading import Result
from ..tables import typeset
from .robustness import seed_of


def reading(r: Result) -> str:
    """"`id` is **its verdict**", with the regime's measured reason where it was not tested faithfully."""
    text = f"`{r.claim.id}` is **{r.word}**"
    if r.verdict == "not tested faithfully" and r.regime is not None:
        text += f" ({typeset(r.regime.quantity)}: {typeset(r.regime.measured)})"
    return text


def words(results: Sequence[Mapping[str, Result]], claim_id: str) -> str:
    """The verdicts of ``claim_id`` over several settings' results (each id -> Result), each once, in bold."""
    return " and ".join(sorted({f"**{r[claim_id].word}**" for r in results}))


def seeds_phrase(judged: Sequence[Sequence]) -> str:
    """The seeds a verdict was judged on (:func:`grok_lib.paper_a.run_sets.judged_seeds`), as the prose names them."""
    if len(judged) > 1:
        return f"seeds {', '.join(str(seed_of(s)) for s in judged[:-1])} and {seed_of(judged[-1])}"
    return "this run's one seed"
