"""Claims and their records: what notebooks write after grading, and what the claims report, the findings boxes
and the landing page read.

A claim (:class:`grok_lib.grading.Claim`) declares before any run what it is and how it is graded; the one rule
that grades it is :mod:`grok_lib.grading`. Each claim and its check live in its chapter's module
(``grok_lib.paper_a.chapters.fig1_loss_curves``, ...). Notebooks grade claims on their runs and record the results here
(:func:`save_records`, one JSON file per notebook and setting); the claims report, the findings boxes and the
landing page are generated from the records.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Sequence

from . import paths
from .atomic import atomic_write
from .config import ConfigError
# Claim, Result, KINDS and VERDICTS are re-exported: the paper packages import them from here.
from .grading import KINDS, VERDICTS, WORDS, Claim, Result, combine  # noqa: F401
from .tables import typeset

#: Where notebooks record their claim results, one JSON file per notebook under its part's
#: folder (``book/claims/paper_a/fig1_loss_curves.json``).
RECORDS = paths.RECORDS


def registry(claims: Sequence[Claim]) -> dict[str, Claim]:
    """A paper's claims by id, in order; ids must be unique."""
    out: dict[str, Claim] = {}
    for c in claims:
        if c.id in out:
            raise ValueError(f"claim id {c.id} is registered twice")
        out[c.id] = c
    return out


#: The setting of the book's own runs (the default profile). A notebook may also record its claims
#: at other settings (Paper A: the paper's settings, from recorded runs; the spread over seeds):
#: ``<source>@<setting>.json``, each row with its ``setting``; the claims report shows them as columns.
DEFAULT_SETTING = "default"
#: The settings whose runs are the book's recorded sets, whatever a notebook's parameters (the paper's settings, the
#: further seeds): a rerun shows their verdicts but does not record them as its own.
RECORDED_SETTINGS = ("paper", "paper_ordered", "seeds", "paper_lambda")


def headlines(records: Sequence[dict]) -> dict[str, dict]:
    """Each claim's headline, from its records at every setting (``load_records(setting=None)``): its verdicts
    at the settings it was judged at combined by the one rule (:func:`grok_lib.grading.combine`: their common
    verdict, inconclusive where they differ; a setting outside the paper's regime counts only where no other
    was judged), and the verdict at each setting.
    Returns claim id -> {"verdict": headline, "kind": kind, "by_setting": {setting: verdict}} in the records' order."""
    out: dict[str, dict] = {}
    for r in records:
        entry = out.setdefault(r["id"], {"by_setting": {}, "kind": r.get("kind", "claim")})
        entry["by_setting"][r.get("setting", DEFAULT_SETTING)] = r["verdict"]
    for entry in out.values():
        entry["verdict"] = combine(list(entry["by_setting"].values()))
    return out


def record(result: Result, source: str, setting: str = DEFAULT_SETTING, given: str = "") -> dict:
    """A result as its record: the claim's declaration (kind, where the paper says it, the statement, quantity,
    threshold and grid), the regime check, the measured text and draws, the verdict (and its word for the
    claim's kind), and where and at which setting it was judged."""
    c = result.claim
    row = {"id": c.id, "paper": c.paper, "kind": c.kind, "basis": c.basis, "where": c.where, "quote": c.quote,
           "statement": c.statement, "quantity": c.quantity, "threshold": c.threshold, "grid": c.grid,
           "why": c.why, "grading": c.grading(),
           "regime": result.regime.text() if result.regime is not None else "",
           "measured": result.measured, "verdict": result.verdict, "word": result.word,
           "draws": [{"seed": d.seed, "point": list(d.point), "members": list(d.members), "values": [None if math.isnan(v) else v for v in d.values]}
                     for d in result.draws],
           "source": source, "setting": setting}
    if given:  # a rerun's record: judged on the parameters it was given, not the book's
        row["setting"] = "your parameters" if setting == DEFAULT_SETTING else f"{setting}, your parameters"
        row["parameters"] = given
        row["measured"] = f"On your run ({given}): {row['measured']}"
    if result.verdict_here:
        row["verdict_here"] = result.verdict_here
    if result.too_tight:
        row["too_tight"] = True
    return row


def save_records(results: Sequence[Result], source: str, folder: Path = RECORDS,
                 setting: str = DEFAULT_SETTING, given: str = "") -> Path:
    """Record a notebook's claim results as ``folder/<source>.json`` (``<source>@<setting>.json`` for
    another setting; written atomically) and return the path; ``source`` is the notebook's path
    under ``notebooks/`` without the suffix.

    ``folder`` is :data:`RECORDS` (what the claims report reads) only for a run of the
    committed settings; :class:`grok_lib.notebook.Run` sends every other run's records to
    its own output folder, with ``given``: the parameters it was given (its records say so).
    """
    path = Path(folder) / (f"{source}.json" if setting == DEFAULT_SETTING else f"{source}@{setting}.json")
    rows = [record(r, source, setting, given) for r in results]
    atomic_write(path, (json.dumps(rows, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode())
    return path


class ClaimRecordError(ConfigError):
    """A claim record file is damaged: the message (one line) names the file, the record and what is wrong."""


#: The keys every claim record must hold: what :func:`record` writes and the report, findings and landing page
#: index. ``kind`` and ``setting`` (read with their defaults) and the rest of what it writes may be absent.
REQUIRED = ("id", "paper", "source", "verdict", "statement", "measured",
            "basis", "where", "quote", "quantity", "threshold", "grid")


def load_records(folder: Path = RECORDS, order: Sequence[str] = (), setting: str | None = DEFAULT_SETTING) -> list[dict]:
    """Every recorded claim result under ``folder`` (all parts) at ``setting`` (None: at every
    setting), ordered by the claim ids in ``order`` (a registry's keys), then by paper, file and
    position. Records live at ``<folder>/<source>[@setting].json``, a source being ``<part>/<notebook>``, and
    nowhere deeper (a folder someone wrote inside, e.g. a rerun's outputs, is not part of the records); a
    file there that is not a list of valid records (:func:`record_problem`) is a ClaimRecordError naming it."""
    rows = []
    for f in sorted([*folder.glob("*.json"), *folder.glob("*/*.json")]):
        rows += [r for r in read_records(f) if setting is None or r.get("setting", DEFAULT_SETTING) == setting]
    rank = {cid: i for i, cid in enumerate(order)}
    return sorted(rows, key=lambda r: (rank.get(r["id"], len(rank)), r["paper"]))


def one_per_claim(records: Sequence[dict]) -> list[dict]:
    """Of ``records`` (every setting's), one per claim, in their order: the default profile's where the claim has
    one, else the first of its other settings. A claim measured only at the paper's settings (on recorded runs,
    such as C.nets.relu) is a statement of the book like any other; its verdict over every setting is its
    headline's (:func:`headlines`)."""
    chosen: dict[str, dict] = {}
    for r in records:
        held = chosen.get(r["id"])
        if held is None or (r.get("setting", DEFAULT_SETTING) == DEFAULT_SETTING
                            and held.get("setting", DEFAULT_SETTING) != DEFAULT_SETTING):
            chosen[r["id"]] = r
    return list(chosen.values())


def read_records(path: Path) -> list[dict]:
    """The claim records of one file, each checked: a damaged file is a one-line ClaimRecordError naming it (a
    wrong record would otherwise be counted, or not, far from its file)."""
    try:
        records = json.loads(path.read_text())
    except OSError as err:
        raise ClaimRecordError(f"{path} cannot be read ({err.strerror})") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        raise ClaimRecordError(f"{path} is not JSON ({' '.join(str(err).split())})") from None
    if not isinstance(records, list):
        raise ClaimRecordError(f"{path} is not a list of claim records")
    for i, r in enumerate(records):
        problem = record_problem(r)
        if problem:
            claim = f" (claim {r['id']!r})" if isinstance(r, dict) and isinstance(r.get("id"), str) else ""
            raise ClaimRecordError(f"{path}: record {i}{claim} {problem}")
    return records


def record_problem(r) -> str:
    """What is wrong with one claim record (empty if nothing): its shape, its required keys, its verdicts and kind."""
    if not isinstance(r, dict):
        return "is not a dict"
    missing = [k for k in REQUIRED if k not in r]
    if missing:
        return f"has no {', '.join(missing)}"
    bad = next((k for k in ("id", "paper", "source") if not isinstance(r[k], str)), None)
    if bad:
        return f"has an {bad} that is not a string"
    for key, allowed in (("verdict", VERDICTS), ("kind", tuple(KINDS)), ("verdict_here", ("", *VERDICTS))):
        if key in r and r[key] not in allowed:
            return f"has the {key} {r[key]!r}, not one of {', '.join(a for a in allowed if a)}"
    return ""


def format_results(results: Sequence[Result]) -> str:
    """A plain-text table of claim results (what notebooks print)."""
    lines = []
    for r in results:
        lines.append(f"[{r.word}] {r.claim.id} ({KINDS[r.claim.kind]}): {r.claim.statement}")
        lines.append(f"    measured: {r.measured}")
    return "\n".join(lines)


def declaration(c: Claim | dict) -> str:
    """What a claim declared before any run, in words (Markdown): its kind, where the paper says it and in which
    words, the quantity, the threshold and the grid of the book's choices."""
    get = (lambda k: c[k]) if isinstance(c, dict) else (lambda k: getattr(c, k))
    words = f"“{get('quote')}”" if get("basis") != "figure" else get("quote")
    parts = [f"*{KINDS[get('kind')].capitalize()}*, {get('where')}: {words}",
             f"*Quantity:* {get('quantity')}", f"*Reproduced if:* {get('threshold')}"]
    if get("grid"):
        parts.append(f"*Over the book's choices:* {get('grid')}")
    return "<br>".join(typeset(p) for p in parts)


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
VERDICT_MARKS = {"reproduced": "✓", "not reproduced": "✗", "inconclusive": "?", "not tested faithfully": "–"}


def badge(verdict: str, kind: str = "claim") -> str:
    """A verdict as inline HTML, marked by colour (CSS class) and by the word of the claim's kind:
    ``✓ reproduced``, ``✗ does not hold in these runs`` (a premise)."""
    slug = verdict.replace(" ", "-")
    return f'<span class="verdict verdict-{slug}">{VERDICT_MARKS.get(verdict, "")} {WORDS[kind][verdict]}</span>'


def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's verdict on its page ("C.dyn.exact" -> "claim-c-dyn-exact")."""
    from docutils.nodes import make_id

    return make_id(f"claim-{claim_id}")


def _row(r: dict, head: str | None = None) -> str:
    """A claim's row: its verdict is its headline (``head``: every setting combined) where given, with the default
    profile's own beside it where that differs."""
    link = f'<a href="{r["source"]}.html#{claim_anchor(r["id"])}"><code>{r["id"]}</code></a>'
    kind = r.get("kind", "claim")
    verdict = badge(head or r["verdict"], kind)
    if head and head != r["verdict"]:
        verdict += f"<br><small>at the default profile: {WORDS[kind][r['verdict']]}</small>"
    return (f"| {link}: {table_cell(r['statement'])}<br><small>{table_cell(declaration(r))}</small> "
            f"| {measured_cell(r['measured'])} | {verdict} |")


def markdown_table(records: Sequence[dict], heads: dict[str, dict] | None = None) -> str:
    """The claims report's table: each claim linked to its verdict on its page with its declaration, measured,
    verdict.

    Links are relative to ``notebooks/`` (where the report lives): ``paper_a/fig1_loss_curves.html#claim-...``.
    """
    return "\n".join(["| claim, and what it declared before any run | measured | verdict |", "|---|---|---|",
                      *(_row(r, heads[r["id"]]["verdict"] if heads else None) for r in records)])


def count_words(verdicts: Sequence[str], kind: str = "claim") -> str:
    """"3 reproduced, 1 inconclusive" in the words of ``kind`` (verdicts with no claim left out)."""
    from collections import Counter

    c = Counter(verdicts)
    return ", ".join(f"{c[v]} {WORDS[kind][v]}" for v in VERDICTS if c[v])


def tally(records: Sequence[dict]) -> dict[str, list[dict]]:
    """``records`` by kind: the paper's claims (what its tally counts), the premises it relies on, the book's
    own predictions."""
    return {kind: [r for r in records if r.get("kind", "claim") == kind] for kind in KINDS}


def report_sections(records: Sequence[dict], papers: dict[str, str], pages: dict[str, str],
                    heads: dict[str, dict] | None = None) -> str:
    """The claims report grouped by paper (``papers``: letter -> title) and by page (``pages``: source ->
    title). A paper's heading counts its own claims only; the premises it relies on and the book's own
    predictions are counted apart. With ``heads`` (:func:`headlines`), the counts and verdicts are the headlines
    (every setting combined), as on the landing page. Pages and papers keep the order of ``records``."""
    verdict = (lambda r: heads[r["id"]]["verdict"]) if heads else (lambda r: r["verdict"])
    out = []
    for letter, title in papers.items():
        mine = [r for r in records if r["paper"] == letter]
        if not mine:
            continue
        kinds = tally(mine)
        counts = [f"{len(kinds['claim'])} claims of the paper: {count_words([verdict(r) for r in kinds['claim']])}"]
        if kinds["premise"]:
            counts.append(f"{len(kinds['premise'])} premises it relies on: "
                          f"{count_words([verdict(r) for r in kinds['premise']], 'premise')}")
        if kinds["prediction"]:
            counts.append(f"{len(kinds['prediction'])} of the book's own predictions: "
                          f"{count_words([verdict(r) for r in kinds['prediction']], 'prediction')}")
        out.append(f'<p class="claims-paper" data-paper="{letter}"><strong>{title}</strong> — {"; ".join(counts)}</p>\n')
        for source in dict.fromkeys(r["source"] for r in mine):
            rows = [r for r in mine if r["source"] == source]
            out.append(f"*[{pages.get(source, source)}]({source}.ipynb)*\n\n{markdown_table(rows, heads)}\n")
    return "\n".join(out)


def settings_sections(records: Sequence[dict], settings: dict[str, str | dict[str, str]], papers: dict[str, str]) -> str:
    """:func:`settings_list` per paper (``papers``: letter -> title), each in a collapsed dropdown titled with its
    paper and its number of claims: the lists of every setting's measured text run to thousands of pixels, and a
    reader opens the paper they want. Each dropdown's class names its paper (``claims-settings-a``), which the
    report's paper filter reads (``book/_static/claims_filter.js``). A setting's name may differ per paper
    (``settings[s]`` a dict letter -> name: Part A's "paper's settings" have a split, Part B's and C's do not)."""
    out = []
    for letter, title in papers.items():
        mine = [r for r in records if r["paper"] == letter]
        names = {s: name.get(letter, s) if isinstance(name, dict) else name for s, name in settings.items()}
        listed = settings_list(mine, names)
        if listed:
            n = sum(1 for line in listed.splitlines() if line.startswith("- "))
            out.append(f"::::{{dropdown}} {title} — {n} claim{'s' if n != 1 else ''} judged at more than one setting\n"
                       f":class-container: claims-settings claims-settings-{letter.lower()}\n\n{listed}\n::::")
    return "\n\n".join(out)


def settings_list(records: Sequence[dict], settings: dict[str, str]) -> str:
    """One item per claim recorded at more than the default setting, one sub-item per setting it was recorded at
    (``settings``: setting -> its name, in the order shown): the verdict, then the measured value. A list, not a
    table: six settings' measured texts side by side do not fit any screen. ``records`` are rows of every setting
    (``load_records(setting=None)``), in the order the items should appear."""
    by_claim: dict[str, dict[str, dict]] = {}
    for r in records:
        by_claim.setdefault(r["id"], {})[r.get("setting", DEFAULT_SETTING)] = r
    lines = []
    for cid, rows in by_claim.items():
        if set(rows) == {DEFAULT_SETTING}:
            continue
        source = rows[next(iter(rows))]["source"]
        lines.append(f"- `{cid}` ([{source}]({source}.ipynb))")
        lines += [f"  - **{name}**: {badge(rows[s]['verdict'], rows[s].get('kind', 'claim'))}: {table_cell(rows[s]['measured'])}"
                  for s, name in settings.items() if s in rows]
    return "\n".join(lines)
