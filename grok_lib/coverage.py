"""What the book tests of each paper: every statement of the seeds (``shared/seeds/``), with the claims that test it
or the reason none does. The statements are the book's paraphrases, one row per distinct statement; the verdicts
are read from the claim records, never typed here. The claims report renders :func:`sections`.

A statement is tested when at least one registered claim tests it (``claims``); otherwise ``why`` says why not:
the seeds give nothing to test against, it is background, or it is open work (``OPEN``: a claim still to be
added). ``tests/test_coverage.py`` holds the table to the registries: every id exists, and every claim of a paper
tests at least one statement.
"""

from __future__ import annotations

from typing import Sequence

from .claims import badge, claim_anchor
from .seed_statements import OPEN, Statement, statements

def status(s: Statement, heads: dict[str, dict], sources: dict[str, str]) -> str:
    """The statement's cell: each claim's id (a link to its verdict on its page) and headline verdict, or why not."""
    if not s.claims:
        return f"not tested: {cell(s.why)}"
    parts = []
    for cid in s.claims:
        head = heads.get(cid)
        link = f'<a href="{sources[cid]}.html#{claim_anchor(cid)}"><code>{cid}</code></a>' if cid in sources else \
            f"<code>{cid}</code>"
        parts.append(f"{link} {badge(head['verdict'], head['kind']) if head else '(no record)'}")
    return "<br>".join(parts)


def cell(text: str) -> str:
    """A statement's text for a table cell: a file name stays a name (the book links bare domains like PAPERS.md)."""
    return text.replace("PAPERS.md", "<code>PAPERS.md</code>")


def counts(statements: Sequence[Statement]) -> tuple[int, int, int]:
    """(statements, tested, of the untested those that are open work)."""
    tested = sum(bool(s.claims) for s in statements)
    return len(statements), tested, sum(s.why.startswith(OPEN) for s in statements)


def sections(records: Sequence[dict], heads: dict[str, dict], papers: dict[str, str]) -> str:
    """Per paper (``papers``: letter -> title), a table of its statements and their status, headed by the counts,
    each in a block whose class names its paper (``claims-coverage-a``): the report's paper filter hides the other
    papers' blocks (``book/_static/claims_filter.js``), untested rows included, which name no claim to filter by."""
    sources = {r["id"]: r["source"] for r in records}
    out, every = [], statements()
    for letter, title in papers.items():
        rows = every.get(letter, ())
        n, tested, open_work = counts(rows)
        out.append(f"````{{container}} claims-coverage claims-coverage-{letter.lower()}\n### {title}\n\n"
                   f"{n} statement{'s' if n != 1 else ''}: {tested} tested, {n - tested} not "
                   f"({open_work} of them open work).\n")
        out.append("| statement | where | status |\n|---|---|---|")
        out += [f"| {cell(s.text)} | {cell(s.where)} | {status(s, heads, sources)} |" for s in rows]
        out.append("````\n")
    return "\n".join(out)
