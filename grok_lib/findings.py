"""The findings box at the top of every chapter page: what the page's claims are, how each came
out (the headline verdict: the weakest across the settings it was judged at), the numbers that
carry it and the page's main figure, before any settings, tables or code.

Nothing in a box is typed: it is written when the book is built (``book/_ext/book_ext.py``) from
the claim records the notebooks wrote (``book/claims``) and the figure manifest
(:func:`grok_lib.provenance.load_manifest`), so it always shows the executed notebook's own numbers.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Sequence

from . import paths
from .claims import DEFAULT_SETTING, KINDS, VERDICT_MARKS, VERDICTS, WORDS, headlines, tally
from .claims import badge as verdict_badge
from .claims import claim_anchor
from .display import figure_label
from .tables import typeset

#: The settings in a few words, for the narrow verdict cells (the claims report names them in full).
SHORT = {DEFAULT_SETTING: "default profile", "paper": "paper's settings",
         "paper_ordered": "paper's settings (ordered pairs)", "seeds": "seeds 0–2",
         "paper_lambda": "paper's λ and step, d = 4000",
         "fixed_lr": "figure runs at step 2.0"}
#: The longest excerpt of a measured text a box shows (the claims report has the whole text).
EXCERPT_CHARS = 170


def stronger_settings(headline: dict) -> str:
    """The settings whose verdict differs from the claim's headline ("not tested faithfully at: default
    profile"), or ""."""
    kind = headline.get("kind", "claim")
    other: dict[str, list[str]] = {}
    for setting, verdict in headline["by_setting"].items():
        if verdict != headline["verdict"]:
            other.setdefault(verdict, []).append(SHORT.get(setting, setting))
    return "; ".join(f"{WORDS[kind][v]} at: {', '.join(where)}" for v, where in other.items())


def verdict_cell(headline: dict) -> str:
    """A claim's headline verdict (its settings' verdicts combined by the one rule) and, in small type, the
    settings that gave another one."""
    other = stronger_settings(headline)
    return verdict_badge(headline["verdict"], headline.get("kind", "claim")) + (f"<br><small>{other}</small>" if other else "")


def count_line(verdicts: Sequence[str], kind: str = "claim") -> str:
    """"6 ✓ reproduced · 3 ✗ not reproduced · 2 ? inconclusive" in the words of ``kind`` (verdicts with no claim
    left out)."""
    c = Counter(verdicts)
    return " · ".join(f"{c[v]} {VERDICT_MARKS[v]} {WORDS[kind][v]}" for v in VERDICTS if c[v])


def report_summary(records: Sequence[dict], heads: dict[str, dict], registered: Sequence[str]) -> str:
    """The claims report's first line: how many statements, their verdicts per kind (:func:`kind_counts`), and the
    registered claims no record holds yet (``registered``: every part's claim ids)."""
    missing = sorted(set(registered) - {r["id"] for r in records})
    return (f"**{len(records)} statements**, each at the default profile (or at the paper's settings where only those "
            "measure it); their verdicts over every setting: " + kind_counts(records, heads)
            + (f"; registered but not yet evaluated: {', '.join(missing)}." if missing
               else "; every registered claim is evaluated."))


def kind_counts(rows: Sequence[dict], heads: dict[str, dict]) -> str:
    """The headline verdicts of ``rows`` counted per kind: the paper's claims first, then the premises it relies
    on and the book's own predictions, each named ("2 claims of the paper: …; 1 premise: …")."""
    names = {"claim": ("claim of the paper", "claims of the paper"), "premise": ("premise it relies on", "premises it relies on"),
             "prediction": ("prediction of the book", "predictions of the book")}
    out = []
    for kind, mine in tally(rows).items():
        if mine:
            noun = names[kind][len(mine) != 1]
            out.append(f"{len(mine)} {noun}: {count_line([heads[r['id']]['verdict'] for r in mine], kind)}")
    return "; ".join(out)


# A sentence or clause end: ". " after a non-digit (not a decimal point) or "; ".
_CLAUSE = re.compile(r"(?<=[^0-9])\. |; ")


def first_clause(text: str) -> str:
    """``text`` up to its first clause end (:data:`_CLAUSE`) outside parentheses: the "; " in "(λt / ln α; from
    0.02)" belongs to the clause it stands in. The depth never goes below 0 (a stray ")" as in "[0, 1)" closes
    nothing); where no clause end lies outside parentheses (an unclosed "("), the first one at any depth."""
    ends = [m.start() for m in _CLAUSE.finditer(text)]
    depth, at = 0, 0
    for end in ends:
        for ch in text[at:end]:
            depth = depth + 1 if ch == "(" else max(depth - 1, 0) if ch == ")" else depth
        at = end
        if depth == 0:
            return text[:end]
    return text[:ends[0]] if ends else text


def excerpt(measured: str, limit: int = EXCERPT_CHARS) -> str:
    """The measured text's first clause, the one that carries its numbers (the central choice's values, or the
    reason a claim was not tested faithfully), cut at a comma if it is longer than ``limit``."""
    first = first_clause(measured).strip().rstrip(".")
    if len(first) > limit:
        cut = first.rfind(", ", 0, limit)
        first = first[: cut if cut > 0 else limit].rstrip() + " …"
    return first


def page_title(source: str, notebooks=paths.ROOT / "notebooks") -> str:
    """A chapter's title: the first heading of its notebook (``source``: "paper_c/loss_curves")."""
    cells = json.loads((notebooks / f"{source}.ipynb").read_text())["cells"]
    text = "".join(next((c for c in cells if c["cell_type"] == "markdown"), {"source": ""})["source"])
    return next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), source)


def page_records(records: Sequence[dict], source: str) -> list[dict]:
    """The default-setting records a page wrote (``source``: "paper_c/loss_curves"), in their order."""
    return [r for r in records if r["source"] == source and r.get("setting", DEFAULT_SETTING) == DEFAULT_SETTING]


def main_figure(manifest: dict, notebook: str) -> str | None:
    """The first figure the manifest lists for ``notebook`` ("notebooks/paper_c/loss_curves.ipynb")."""
    return next((name for name, entry in manifest.items() if entry["notebook"] == notebook), None)


def deciding_record(records: Sequence[dict], default: dict, headline: dict) -> dict:
    """The record whose measured text a box shows beside a claim's headline verdict: its default-setting record
    (``default``) where that gave the headline, else its first record at another setting that did (a claim not
    tested faithfully at the default profile and not reproduced at the paper's settings shows the paper's settings'
    numbers, which carry its ✗; an inconclusive headline shows a setting that was itself inconclusive, if one was);
    ``default`` where no setting gave it (settings that disagree, each decided: inconclusive)."""
    if default["verdict"] == headline["verdict"]:
        return default
    return next((r for r in records if r["id"] == default["id"] and r["verdict"] == headline["verdict"]
                 and r.get("setting", DEFAULT_SETTING) != DEFAULT_SETTING), default)


def box(source: str, records: Sequence[dict], manifest: dict, figure_root: str = "../../book/figure_files") -> str:
    """The findings box of the notebook page ``source`` (MyST), or "" for a page that judges no claim.

    ``records`` are every setting's records (``load_records(setting=None)``); links point into the page
    (the claim's verdict, the figure's anchor); ``figure_root`` is the shipped figures' folder relative
    to the page."""
    mine = page_records(records, source)
    if not mine:
        return ""
    heads = headlines(records)
    lines = [f"**Checked here:** {kind_counts(mine, heads)}.", ""]
    for r in mine:
        # raw <a>: an in-page anchor that is not a heading is a missing reference to MyST (a warning)
        stronger = stronger_settings(heads[r["id"]])
        shown = deciding_record(records, r, heads[r["id"]])
        setting = shown.get("setting", DEFAULT_SETTING)
        where = "" if shown is r else f" ({SHORT.get(setting, setting)})"
        lines.append(f"- {verdict_badge(heads[r['id']]['verdict'], r.get('kind', 'claim'))} <a href=\"#{claim_anchor(r['id'])}\">**`{r['id']}`**</a> "
                     f"{typeset(r['statement'])}<br>*Measured{where}:* {typeset(excerpt(shown['measured']))}"
                     + (f" <small class=\"stronger\">({stronger})</small>" if stronger else ""))
    figure = main_figure(manifest, f"notebooks/{source}.ipynb")
    if figure:
        title = manifest[figure]["title"]
        lines += ["", f"```{{image}} {figure_root}/{figure}.png\n:alt: {title}\n:width: 100%\n"
                      f":target: \"#{figure_label(figure)}\"\n:class: findings-figure\n```", "",
                  f"<small>{typeset(title)}: <a href=\"#{figure_label(figure)}\">the figure and its data below</a>; "
                  "the measured texts and what each claim declared in full at each verdict.</small>"]
    body = "\n".join(lines)
    return f"::::{{admonition}} What this page finds\n:class: findings\n\n{body}\n::::\n"


def part_box(part: str, records: Sequence[dict], docs: dict[str, str]) -> str:
    """The findings box of a part's overview page: per chapter (``docs``: source -> page title, in the
    book's order), its claims' headline verdicts, linked to each verdict."""
    heads = headlines(records)
    rows = [r for r in records if r["paper"] == part and r.get("setting", DEFAULT_SETTING) == DEFAULT_SETTING]
    if not rows:
        return ""
    lines = [f"**Checked:** {kind_counts(rows, heads)}.", ""]
    for source, title in docs.items():
        mine = [r for r in rows if r["source"] == source]
        if not mine:
            continue
        marks = ", ".join(f"<a href=\"../notebooks/{source}.html#{claim_anchor(r['id'])}\">"
                          f"{VERDICT_MARKS[heads[r['id']]['verdict']]} <code>{r['id']}</code></a>" for r in mine)
        lines.append(f"- {{doc}}`{title} <../notebooks/{source}>`: {marks}")
    body = "\n".join(lines)
    return f"::::{{admonition}} What this part finds\n:class: findings\n\n{body}\n::::\n"


def after_title(markdown: str, block: str) -> str:
    """``markdown`` with ``block`` inserted after its first level-1 heading (at the top if it has none)."""
    if not block:
        return markdown
    lines = markdown.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    return "\n".join([*lines[:at], "", block, *lines[at:]])


def into_notebook(text: str, block: str) -> str:
    """A notebook's JSON text with ``block`` inserted after the title of its first markdown cell."""
    if not block:
        return text
    nb = json.loads(text)
    cell = next((c for c in nb["cells"] if c["cell_type"] == "markdown"), None)
    if cell is None:
        return text
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    cell["source"] = after_title(source, block)
    return json.dumps(nb)
