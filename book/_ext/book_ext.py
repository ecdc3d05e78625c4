"""The book's own Sphinx extension (loaded through _config.yml's ``local_extensions``).

* Search: Sphinx indexes words with Python's Porter stemmer (snowball), which keeps a doubled
  final consonant ("grokking" -> "grokk"), while the browser stems a query with its JavaScript
  Porter stemmer, which drops it ("grokking" -> "grok"): a search for "grokking" missed every page
  that has only that form. The index here applies the same rule, so both sides agree.
* Search-result snippets: they are cut from each page's HTML text, where maths is TeX source;
  ``_static/search_math.js`` reads it as plain symbols first.
* Source maps: the themes ship ``*.map`` files (about 3 MB) that no reader needs; they are removed
  from the built book.
"""

from __future__ import annotations

from pathlib import Path

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


def _remove_source_maps(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir, "_static").rglob("*.map"):
        path.unlink()


def setup(app):
    app.add_search_language(BookEnglish)
    app.add_js_file("search_math.js")  # search-result snippets read maths as symbols, not TeX
    app.connect("build-finished", _remove_source_maps)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
