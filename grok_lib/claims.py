"""Claims: a paper's quantitative statements, their evaluation results and the records.

A claim has an id (``<paper letter>.<figure or topic>.<name>``), the paper's statement,
how the book measures it and what counts as reproduced. Each paper's registry and its
evaluators live in that paper's package (``grok_lib.paper_a.claims``, ...); a claim's
tolerance prose is formatted there from the same constants its evaluator uses.
Notebooks evaluate claims on their own runs and record the results here; the claims
report page is generated from the records.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

from . import paths

#: Where notebooks record their claim results, one JSON file per notebook under its part's
#: folder (``book/claims/paper_a/fig1_loss_curves.json``).
RECORDS = paths.ROOT / "book" / "claims"

VERDICTS = ("reproduced", "partly", "not reproduced")


@dataclass(frozen=True)
class Claim:
    id: str
    paper: str  # "A", "B" or "C" (see book/intro.md)
    statement: str  # what the paper says
    measure: str  # how the book measures it
    tolerance: str  # what counts as reproduced / partly


@dataclass(frozen=True)
class Result:
    claim: Claim
    measured: str  # the measured numbers, in words
    verdict: str  # one of VERDICTS

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}; got {self.verdict!r}")


def registry(claims: Sequence[Claim]) -> dict[str, Claim]:
    """A paper's claims by id, in order; ids must be unique."""
    out: dict[str, Claim] = {}
    for c in claims:
        if c.id in out:
            raise ValueError(f"claim id {c.id} is registered twice")
        out[c.id] = c
    return out


def share_verdict(flags: Sequence[bool], partly: Sequence[bool]) -> str:
    """reproduced if every flag holds, partly if every ``partly`` flag holds, else not reproduced."""
    if all(flags):
        return "reproduced"
    return "partly" if all(partly) else "not reproduced"


def any_verdict(flags: Sequence[bool]) -> str:
    """reproduced if every flag holds, partly if some do, else not reproduced."""
    return "reproduced" if all(flags) else ("partly" if any(flags) else "not reproduced")


def save_records(results: Sequence[Result], source: str, folder: Path = RECORDS) -> Path:
    """Record a notebook's claim results as ``folder/<source>.json`` (written atomically) and
    return the path; ``source`` is the notebook's path under ``notebooks/`` without the suffix.

    ``folder`` is :data:`RECORDS` (what the claims report reads) only for a run of the
    committed settings; :class:`grok_lib.notebook.Run` sends every other run's records to
    its own output folder.
    """
    from .store import atomic_write  # late: the store is heavier than the claims

    path = Path(folder) / f"{source}.json"
    rows = [asdict(r.claim) | {"measured": r.measured, "verdict": r.verdict, "source": source} for r in results]
    atomic_write(path, (json.dumps(rows, indent=1, ensure_ascii=False) + "\n").encode())
    return path


def load_records(folder: Path = RECORDS, order: Sequence[str] = ()) -> list[dict]:
    """Every recorded claim result under ``folder`` (all parts), ordered by the claim ids in
    ``order`` (a registry's keys), then by paper, file and position."""
    rows = [row for f in sorted(folder.rglob("*.json")) for row in json.loads(f.read_text())]
    rank = {cid: i for i, cid in enumerate(order)}
    return sorted(rows, key=lambda r: (rank.get(r["id"], len(rank)), r["paper"]))


def format_results(results: Sequence[Result]) -> str:
    """A plain-text table of claim results (what notebooks print)."""
    lines = []
    for r in results:
        lines.append(f"[{r.verdict}] {r.claim.id}: {r.claim.statement}")
        lines.append(f"    measured: {r.measured}")
    return "\n".join(lines)


def markdown_table(records: Sequence[dict]) -> str:
    """The claims report's table: claim and its source notebook, measured and tolerance, verdict.

    Links are relative to ``notebooks/`` (where the report lives), so ``paper_a/fig1_loss_curves``
    links to that part's notebook.
    """
    def cell(text) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    lines = ["| claim | measured, and what counts as reproduced | verdict |", "|---|---|---|"]
    for r in records:
        lines.append(f"| `{r['id']}`: {cell(r['statement'])} ([{r['source']}]({r['source']}.ipynb)) | "
                     f"{cell(r['measured'])}<br>*{cell(r['tolerance'])}* | **{r['verdict']}** |")
    return "\n".join(lines)
