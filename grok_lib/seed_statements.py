"""What a statement of a paper is, and every part's statements gathered: each part lists its paper's statements as the
seeds give them (``shared/seeds/``; ``shared/PAPERS.md`` where a row says so) in ``grok_lib/<part>/statements.py``,
one row per distinct statement in the book's words, with the claims that test it or why none does
(:mod:`grok_lib.coverage`, which renders them in the claims report). Drafted by reading the seeds against the claim
registries on 2026-12-06; a claim added later is added to its row there (``tests/test_coverage.py`` fails until every
claim of a paper tests one of its statements). The module imports the standard library only; :func:`statements`
imports every part's package."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from .paths import letter, parts

#: How the reason of a statement the book means to test, but does not yet, begins.
OPEN = "open work"


@dataclass(frozen=True)
class Statement:
    text: str  # the statement, paraphrased, with the seeds' numbers
    where: str  # where the seeds say it
    claims: tuple[str, ...] = ()  # the claims that test it
    why: str = ""  # why no claim tests it (empty when one does)


def statements() -> dict[str, tuple[Statement, ...]]:
    """Every part's statements (``grok_lib/<part>/statements.py``'s ``STATEMENTS``) by its paper's letter, in part
    order; a part without the module is an error that names it (each part says what of its paper it tests)."""
    out = {}
    for part in parts():
        try:
            module = import_module(f"grok_lib.{part}.statements")
        except ModuleNotFoundError as e:
            if e.name != f"grok_lib.{part}.statements":
                raise
            raise ModuleNotFoundError(f"grok_lib/{part}/statements.py is missing: each part lists its paper's "
                                      "statements there (DEVELOPING.md, 'How to add a paper')") from None
        out[letter(part)] = module.STATEMENTS
    return out
