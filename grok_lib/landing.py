"""The landing page's generated part (``book/_landing.md``, included by ``book/intro.md``): the
headline findings per paper, the figure gallery (small thumbnails, each linking to its figure) and
every claim's verdict grouped by paper, written from the claim records (``book/claims``) and
the figure manifest (derived from the chapters' declarations, :mod:`grok_lib.chapters`) so that it
cannot go stale.

``scripts/make_landing.py`` writes it (``make notebooks`` runs it after the claims report);
``tests/test_landing.py`` fails if the committed file differs from what the records give.
"""

from __future__ import annotations

import io
from pathlib import Path

from . import paths
from .atomic import atomic_write
from .claims import DEFAULT_SETTING, RECORDS, claim_anchor, headlines, load_records, one_per_claim, table_cell
from .display import figure_label
from .figure_files import SHIPPED
from .findings import kind_counts, verdict_cell
from .provenance import load_manifest
from .tables import typeset

#: The generated file; its links are relative to ``book/`` (where ``intro.md`` includes it).
LANDING = paths.LANDING
#: Gallery thumbnails, made from the shipped PNGs (a few tens of KB each instead of the full figure).
THUMBS = SHIPPED / "thumbs"
THUMB_WIDTH = 480  #: px: a card is at most about 300 px wide, so this is sharp on a 1.5x screen
THUMB_COLOURS = 96  #: a palette PNG: the figures are line art on white


def parts(toc: Path = paths.TOC) -> dict[str, str]:
    """The book's papers in its order, from ``_toc.yml``'s part captions ("Paper A: two training
    clocks"): letter -> caption. A new paper is a new part there, nothing here."""
    import yaml

    out = {}
    for part in yaml.safe_load(toc.read_text()).get("parts", []):
        caption = part.get("caption", "")
        if caption.startswith("Paper ") and len(caption) > 7 and caption[7] == ":":
            out[caption[6]] = caption
    return out


def claim_link(record: dict, prefix: str = "../notebooks") -> str:
    """The claim's id linked to its verdict on its page (an HTML anchor, not the page top)."""
    return f'<a href="{prefix}/{record["source"]}.html#{claim_anchor(record["id"])}"><code>{record["id"]}</code></a>'


def part_doc(letter: str) -> str:
    """The part's overview page (``book/paper_a.md``), as a ``{doc}`` target relative to ``book/``."""
    return f"paper_{letter.lower()}"


def headline_findings(records: list[dict], heads: dict[str, dict], captions: dict[str, str]) -> str:
    """One headline per paper, short enough that the three fit the first screen: the paper (linked to its part) and
    its own claims counted by verdict; the premises it relies on and the book's own predictions counted apart."""
    lines = []
    for letter, caption in captions.items():
        rows = [r for r in records if r["paper"] == letter]
        if rows:
            lines.append(f"- **{{doc}}`{caption} <{part_doc(letter)}>`** — {kind_counts(rows, heads)}.")
    return "\n".join(lines)


def not_reproduced(records: list[dict], heads: dict[str, dict], captions: dict[str, str]) -> str:
    """Per paper, its own claims that did not reproduce, each in full (a statement cut short reads as a fragment),
    linked to its verdict on its page. A premise or a prediction of the book is not a paper's failure."""
    lines = []
    for letter, caption in captions.items():
        failed = [r for r in records if r["paper"] == letter and r.get("kind", "claim") == "claim"
                  and heads[r["id"]]["verdict"] == "not reproduced"]
        if failed:
            lines.append(f"- **{caption}**")
            lines += [f"  - {claim_link(r)} {typeset(r['statement'])}" for r in failed]
    return "\n".join(lines)


def results_table(records: list[dict], heads: dict[str, dict] | None = None) -> str:
    """One row per claim: the claim id linked to its verdict on its page, the statement, the headline verdict
    (``heads``: :func:`grok_lib.claims.headlines`; without it, each record's own verdict)."""
    lines = ["| claim | verdict |", "|---|---|"]
    for r in records:
        head = (heads or {}).get(r["id"], {"verdict": r["verdict"], "by_setting": {DEFAULT_SETTING: r["verdict"]}})
        lines.append(f"| {claim_link(r)}: {table_cell(r['statement'])} | {verdict_cell(head)} |")
    return "\n".join(lines)


def grouped_tables(records: list[dict], heads: dict[str, dict], captions: dict[str, str]) -> str:
    """The full results table, one collapsed dropdown per paper titled with its counts."""
    out = []
    for letter, caption in captions.items():
        rows = [r for r in records if r["paper"] == letter]
        if rows:
            out.append(f"::::{{dropdown}} {caption} — {kind_counts(rows, heads)}\n:class-container: results\n\n"
                       f"{results_table(rows, heads)}\n::::")
    return "\n\n".join(out)


def thumbnail_png(png: Path) -> bytes:
    """A small palette PNG of a shipped figure for the gallery (the same bytes for the same figure)."""
    from PIL import Image

    with Image.open(png) as im:
        im = im.convert("RGB")
        im.thumbnail((THUMB_WIDTH, THUMB_WIDTH * 4))
        im = im.quantize(colors=THUMB_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        im.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def thumbnails(manifest: dict, shipped: Path = SHIPPED, thumbs: Path = THUMBS) -> dict[Path, bytes]:
    """Each shipped figure's thumbnail: path -> bytes."""
    return {thumbs / f"{name}.png": thumbnail_png(shipped / f"{name}.png") for name in manifest
            if (shipped / f"{name}.png").exists()}


def gallery(manifest: dict, shipped: Path = SHIPPED, thumbs: Path = THUMBS) -> str:
    """A grid of thumbnail cards, one per figure the book ships (``book/figure_files``), each linking
    to the figure on its page; figures not shipped yet are listed by name."""
    cards, missing = [], []
    for name, entry in sorted(manifest.items(), key=lambda item: item[0].split("/")[0]):  # by part, stable
        page = "../" + entry["notebook"].removesuffix(".ipynb")
        png = shipped / f"{name}.png"
        if not png.exists():
            missing.append(f"[{entry['title']}]({page}.ipynb)")
            continue
        rel = (thumbs / f"{name}.png").relative_to(paths.ROOT / "book").as_posix()
        cards.append(f":::{{grid-item-card}} {typeset(entry['title'])}\n:img-top: {rel}\n:img-alt: {entry['title']}\n"
                     f":link: {page}.html#{figure_label(name)}\n:link-type: url\n:::")
    out = ["::::{grid} 1 2 3 3\n:gutter: 2\n:class-container: gallery\n", *cards, "::::"] if cards else []
    if missing:
        out.append("\nAlso in the book: " + "; ".join(missing) + ".")
    return "\n".join(out)


def render(records_folder: Path = RECORDS, shipped: Path = SHIPPED) -> str:
    every = load_records(records_folder, setting=None)
    records, heads = one_per_claim(every), headlines(every)
    captions = parts()
    failed = not_reproduced(records, heads, captions)
    return "\n".join([
        "<!-- Generated by scripts/make_landing.py from book/claims and the chapters' figures: do not edit. -->",
        "",
        "## What the book finds",
        "",
        headline_findings(records, heads, captions),
        "",
        f"{len(records)} statements checked, each graded by one rule declared before any run: *reproduced* or "
        "*not reproduced* only where every seed, every level the book had to choose and every arithmetic measured "
        "falls on the same side of the bar; otherwise *inconclusive*; *not tested faithfully* where the runs are "
        "outside the paper's regime. A paper's count holds only its own claims; the premises it relies on and the "
        "book's own predictions are counted apart. A claim's verdict combines the settings it was judged at (the "
        "default profile, its seeds, the paper's settings) by the same rule; each claim links to its verdict on the "
        "page that measures it, and the {doc}`claims report <../notebooks/claims_report>` has every measured number "
        "and what each claim declared.",
        "",
        *(["### The papers' claims that did not reproduce", "", failed, ""] if failed else []),
        "## The figures",
        "",
        gallery(load_manifest(), shipped),
        "",
        "## Every claim and its verdict",
        "",
        grouped_tables(records, heads, captions),
        "",
    ])


def write(path: Path = LANDING) -> bool:
    """Write the landing part and the gallery's thumbnails; return whether any changed."""
    changed = False
    for target, data in thumbnails(load_manifest()).items():
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, data)
            changed = True
    text = render()
    if path.exists() and path.read_text() == text:
        return changed
    atomic_write(path, text.encode())
    return True
