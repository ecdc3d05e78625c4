"""The book's own Sphinx extension (loaded through _config.yml's ``local_extensions``).

* Search: Sphinx indexes words with Python's Porter stemmer (snowball), which keeps a doubled
  final consonant ("grokking" -> "grokk"), while the browser stems a query with its JavaScript
  Porter stemmer, which drops it ("grokking" -> "grok"): a search for "grokking" missed every page
  that has only that form. The index here applies the same rule, so both sides agree.
* Search-result snippets: they are cut from each page's HTML text, where maths is TeX source;
  ``_static/search_math.js`` reads it as plain symbols first.
* Bibliography: labels in the reference list read as the text cites them ("Tan et al., 2026").
* Findings first: every chapter page opens with a box of its claims' verdicts, the numbers that carry
  them and its main figure, and each part's overview page with its chapters' verdicts
  (:mod:`grok_lib.findings`, written here from the claim records when the page is read). A box whose figure
  is a wide one is marked ``findings-wide`` (book.css draws it as wide as that figure).
* The article header's contents button: ``_static/contents_drawer.js`` makes it open the theme's drawer.
* Source maps: the themes ship ``*.map`` files (about 3 MB) that no reader needs; they are removed
  from the built book.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import yaml

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.search.en import SearchEnglish

_KEEP_DOUBLE = set("lsz")


class BookEnglish(SearchEnglish):
    """English search with stems that match those of the JavaScript Porter stemmer."""

    def stem(self, word: str) -> str:
        stem = super().stem(word)
        w = word.lower()
        if (w.endswith(("ing", "ed")) and len(stem) > 2 and stem[-1] == stem[-2]
                and stem[-1] not in _KEEP_DOUBLE and stem[-1] not in "aeiouy"):
            return stem[:-1]
        return stem


class AuthorYearLabels(BaseLabelStyle):
    """Bibliography labels as the text cites (``bibtex_reference_style: author_year``):
    "Tan et al., 2026" rather than pybtex's default "TGZ26"."""

    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            names = [p.last_names[-1] for p in entry.persons.get("author", [])] or [entry.key]
            who = names[0] if len(names) == 1 else (" and ".join(names) if len(names) == 2 else f"{names[0]} et al.")
            yield f"{who}, {entry.fields.get('year', 'n.d.')}".replace("{", "").replace("}", "")


class BookStyle(PlainStyle):
    """pybtex's plain style with :class:`AuthorYearLabels` (``bibtex_default_style: book``)."""

    default_label_style = "book_author_year"


register_plugin("pybtex.style.labels", "book_author_year", AuthorYearLabels)
register_plugin("pybtex.style.formatting", "book", BookStyle)


def _part_chapters(root: Path, docname: str) -> dict[str, str]:
    """The notebook chapters of the part whose overview page is ``docname`` ("book/paper_a"), in the
    book's order: source ("paper_a/fig1_loss_curves") -> page title."""
    from grok_lib import findings

    toc = yaml.safe_load((root / "_toc.yml").read_text())
    for part in toc.get("parts", []):
        files = [c["file"] for c in part.get("chapters", [])]
        if docname in files:
            return {f.removeprefix("notebooks/"): findings.page_title(f.removeprefix("notebooks/"))
                    for f in files if f.startswith("notebooks/")}
    return {}


@functools.lru_cache(maxsize=1)
def _records_and_manifest() -> tuple:
    """The claim records and the figure manifest, read once per build (every page's box reads them)."""
    from grok_lib import claims
    from grok_lib.provenance import load_manifest

    return claims.load_records(setting=None), load_manifest()


def _wide_figure(root: Path, figure: str | None) -> bool:
    """Whether ``figure`` ("paper_c/grok_time") is shown full width (its data file's layout): the findings box
    that shows it is then drawn as wide (book.css, ``findings-wide``), so that its text is as legible."""
    if figure is None:
        return False
    facts = root / "book" / "figure_files" / f"{figure}.json"
    return facts.exists() and json.loads(facts.read_text()).get("layout") == "wide"


def _findings_first(app, docname, source) -> None:
    """Put the findings box at the top of a chapter page (a notebook) or a part's overview page."""
    from grok_lib import findings, paths

    root = Path(app.srcdir)
    records, manifest = _records_and_manifest()
    if docname.startswith("notebooks/paper_"):
        block = findings.box(docname.removeprefix("notebooks/"), records, manifest)
        if _wide_figure(root, findings.main_figure(manifest, f"{docname}.ipynb")):
            block = block.replace("\n:class: findings\n", "\n:class: findings findings-wide\n", 1)
        source[0] = findings.into_notebook(source[0], block)
    elif docname.removeprefix("book/") in paths.parts():  # a part's page
        block = findings.part_box(paths.letter(docname.removeprefix("book/")), records, _part_chapters(root, docname))
        source[0] = findings.after_title(source[0], block)


def _no_figure_counter(app, config) -> None:
    """No automatic "Fig. N": the figures are named by the papers' own numbers ("Paper A, Figure 2"), which a
    book counter would collide with. ``numfig: false`` in _config.yml is not enough: sphinx_jupyterbook_latex,
    which Jupyter Book always loads, sets it back to True when the configuration is read."""
    config.numfig = False


def _remove_source_maps(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir, "_static").rglob("*.map"):
        path.unlink()


def setup(app):
    app.add_search_language(BookEnglish)
    app.add_js_file("search_math.js")  # search-result snippets read maths as symbols, not TeX
    app.connect("config-inited", _no_figure_counter, priority=900)  # after sphinx_jupyterbook_latex's (500)
    app.connect("source-read", _findings_first)
    app.add_js_file("claims_filter.js")  # the claims report's verdict filter (does nothing on other pages)
    app.add_js_file("contents_drawer.js", loading_method="defer")  # the article header's contents button works
    app.connect("build-finished", _remove_source_maps)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
