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
from .atomic import atomic_write
from .tables import typeset

#: Where notebooks record their claim results, one JSON file per notebook under its part's
#: folder (``book/claims/paper_a/fig1_loss_curves.json``).
RECORDS = paths.RECORDS

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
    verdict_here: str = ""  # where :func:`across_arithmetic` changed the verdict: the one this arithmetic alone gives

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


def across_seeds(per_seed: Sequence[Sequence[Result]], seeds: Sequence[int]) -> list[Result]:
    """One result per claim over several seeds' results (``per_seed[i]`` evaluated on seed
    ``seeds[i]``'s runs, the same claims in the same order). A chaotic run (an MLP that groks) moves
    by tens of epochs with the last bits of its arithmetic, so a verdict holds only if it holds for
    every seed: the common verdict where all seeds agree, else "partly", saying on how many seeds
    the claim is reproduced. The measured text names each seed's verdict and its numbers. One seed:
    its results as they are."""
    if len(per_seed) != len(seeds):
        raise ValueError(f"{len(per_seed)} seeds' results for {len(seeds)} seeds")
    if len(seeds) == 1:
        return list(per_seed[0])
    out = []
    for i, first in enumerate(per_seed[0]):
        results = [rs[i] for rs in per_seed]
        if any(r.claim.id != first.claim.id for r in results):
            raise ValueError(f"the seeds' results are not the same claims: {[r.claim.id for r in results]}")
        verdicts = [r.verdict for r in results]
        if len(set(verdicts)) == 1:
            head, verdict = f"{verdicts[0]} for all {len(seeds)} seeds", verdicts[0]
        else:
            k = verdicts.count("reproduced")
            counts = ", ".join(f"{v} {verdicts.count(v)}" for v in VERDICTS if v in verdicts)
            head, verdict = f"reproduced on {k} of {len(seeds)} seeds ({counts})", "partly"
        detail = "; ".join(f"seed {s} ({r.verdict}): {r.measured}" for s, r in zip(seeds, results))
        out.append(Result(first.claim, f"{head}. {detail}", verdict))
    return out


#: The setting of the book's own runs (the default profile). A notebook may also record its claims
#: at other settings (Paper A: the paper's settings, from recorded runs; the spread over seeds):
#: ``<source>@<setting>.json``, each row with its ``setting``; the claims report shows them as columns.
DEFAULT_SETTING = "default"


def weakest(verdicts: Sequence[str]) -> str:
    """The weakest of ``verdicts`` (not reproduced < partly < reproduced)."""
    return max(verdicts, key=VERDICTS.index)


def headlines(records: Sequence[dict]) -> dict[str, dict]:
    """Each claim's headline, from its records at every setting (``load_records(setting=None)``): the weakest
    verdict across its settings (a claim that holds at the default profile but not over seeds or at the
    paper's settings is not "reproduced"), and where each other verdict was recorded.
    Returns claim id -> {"verdict": headline, "by_setting": {setting: verdict}} in the records' order."""
    out: dict[str, dict] = {}
    for r in records:
        entry = out.setdefault(r["id"], {"by_setting": {}})
        entry["by_setting"][r.get("setting", DEFAULT_SETTING)] = r["verdict"]
    for entry in out.values():
        entry["verdict"] = weakest(list(entry["by_setting"].values()))
    return out


def save_records(results: Sequence[Result], source: str, folder: Path = RECORDS,
                 setting: str = DEFAULT_SETTING) -> Path:
    """Record a notebook's claim results as ``folder/<source>.json`` (``<source>@<setting>.json`` for
    another setting; written atomically) and return the path; ``source`` is the notebook's path
    under ``notebooks/`` without the suffix.

    ``folder`` is :data:`RECORDS` (what the claims report reads) only for a run of the
    committed settings; :class:`grok_lib.notebook.Run` sends every other run's records to
    its own output folder.
    """
    path = Path(folder) / (f"{source}.json" if setting == DEFAULT_SETTING else f"{source}@{setting}.json")
    rows = [asdict(r.claim) | {"measured": r.measured, "verdict": r.verdict, "source": source, "setting": setting}
            | ({"verdict_here": r.verdict_here} if r.verdict_here else {}) for r in results]
    atomic_write(path, (json.dumps(rows, indent=1, ensure_ascii=False) + "\n").encode())
    return path


def load_records(folder: Path = RECORDS, order: Sequence[str] = (), setting: str | None = DEFAULT_SETTING) -> list[dict]:
    """Every recorded claim result under ``folder`` (all parts) at ``setting`` (None: at every
    setting), ordered by the claim ids in ``order`` (a registry's keys), then by paper, file and
    position. Records live at ``<folder>/<source>[@setting].json``, a source being ``<part>/<notebook>``, and
    nowhere deeper (a folder someone wrote inside, e.g. a rerun's outputs, is not part of the records); a
    file there that is not a list of records is an error naming it."""
    rows = []
    for f in sorted([*folder.glob("*.json"), *folder.glob("*/*.json")]):
        records = json.loads(f.read_text())
        if not isinstance(records, list) or not all(isinstance(r, dict) and {"id", "paper", "verdict"} <= r.keys()
                                                    for r in records):
            raise ValueError(f"{f} is not a list of claim records (each with id, paper and verdict)")
        rows += [r for r in records if setting is None or r.get("setting", DEFAULT_SETTING) == setting]
    rank = {cid: i for i, cid in enumerate(order)}
    return sorted(rows, key=lambda r: (rank.get(r["id"], len(rank)), r["paper"]))


def format_results(results: Sequence[Result]) -> str:
    """A plain-text table of claim results (what notebooks print)."""
    lines = []
    for r in results:
        lines.append(f"[{r.verdict}] {r.claim.id}: {r.claim.statement}")
        lines.append(f"    measured: {r.measured}")
    return "\n".join(lines)


LONG_CELL = 160  # characters: a measured text longer than this is set one clause per line


def table_cell(text) -> str:
    """A text as one Markdown table cell: its maths typeset, pipes escaped, on one line."""
    return typeset(str(text)).replace("|", "\\|").replace("\n", " ")


def measured_cell(text) -> str:
    """A measured text as a table cell; a long one is broken after each "; " so that its clauses
    (one per group of runs) read as lines rather than as one paragraph."""
    cell = table_cell(text)
    return cell.replace("; ", ";<br>") if len(str(text)) > LONG_CELL else cell


#: Each verdict's mark: a verdict is shown by colour (CSS class) and by word, the mark repeats it.
VERDICT_MARKS = {"reproduced": "✓", "partly": "◐", "not reproduced": "✗"}


def badge(verdict: str) -> str:
    """A verdict as inline HTML, marked by colour (CSS class) and by word: ``✓ reproduced``."""
    slug = verdict.replace(" ", "-")
    return f'<span class="verdict verdict-{slug}">{VERDICT_MARKS.get(verdict, "")} {verdict}</span>'


def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's verdict on its page ("C.dyn.exact" -> "claim-c-dyn-exact")."""
    from docutils.nodes import make_id

    return make_id(f"claim-{claim_id}")


def _row(r: dict) -> str:
    link = f'<a href="{r["source"]}.html#{claim_anchor(r["id"])}"><code>{r["id"]}</code></a>'
    return (f"| {link}: {table_cell(r['statement'])} | {measured_cell(r['measured'])}<br>*{table_cell(r['tolerance'])}* "
            f"| {badge(r['verdict'])} |")


def markdown_table(records: Sequence[dict]) -> str:
    """The claims report's table: each claim linked to its verdict on its page, measured and tolerance, verdict.

    Links are relative to ``notebooks/`` (where the report lives): ``paper_a/fig1_loss_curves.html#claim-...``.
    """
    return "\n".join(["| claim | measured, and what counts as reproduced | verdict |", "|---|---|---|",
                      *map(_row, records)])


def _counts(records: Sequence[dict]) -> str:
    from collections import Counter

    c = Counter(r["verdict"] for r in records)
    return ", ".join(f"{c[v]} {v}" for v in VERDICTS if c[v])


def report_sections(records: Sequence[dict], papers: dict[str, str], pages: dict[str, str]) -> str:
    """The claims report grouped by paper (``papers``: letter -> title) and by page (``pages``: source ->
    title), each group headed by its counts per verdict; pages and papers keep the order of ``records``."""
    out = []
    for letter, title in papers.items():
        mine = [r for r in records if r["paper"] == letter]
        if not mine:
            continue
        out.append(f'<p class="claims-paper"><strong>{title}</strong> — {len(mine)} claims: {_counts(mine)}</p>\n')
        for source in dict.fromkeys(r["source"] for r in mine):
            rows = [r for r in mine if r["source"] == source]
            out.append(f"*[{pages.get(source, source)}]({source}.ipynb)* — {_counts(rows)}\n\n{markdown_table(rows)}\n")
    return "\n".join(out)


def settings_table(records: Sequence[dict], settings: dict[str, str]) -> str:
    """One row per claim recorded at more than the default setting, one column per setting
    (``settings``: setting -> column title): the verdict in bold, then the measured value; a dash
    where a claim has no record at that setting. ``records`` are rows of every setting
    (``load_records(setting=None)``), in the order the rows should appear."""
    by_claim: dict[str, dict[str, dict]] = {}
    for r in records:
        by_claim.setdefault(r["id"], {})[r.get("setting", DEFAULT_SETTING)] = r
    lines = ["| claim | " + " | ".join(settings.values()) + " |", "|---" * (len(settings) + 1) + "|"]
    for cid, rows in by_claim.items():
        if set(rows) == {DEFAULT_SETTING}:
            continue
        cells = [f"{badge(rows[s]['verdict'])}: {measured_cell(rows[s]['measured'])}" if s in rows else "—" for s in settings]
        lines.append(f"| `{cid}` ([{rows[next(iter(rows))]['source']}]({rows[next(iter(rows))]['source']}.ipynb)) | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)
