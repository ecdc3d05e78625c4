"""The book's search ranks its pages above the library's symbols (book/_static/search_scorer.js).

Sphinx's default scorer puts an API symbol whose name contains a word of the query (weight_decay_sweep,
WEIGHT_DECAYS, ...) above every page that merely discusses it, so a search for "weight decay" answered with
functions. The book's scorer keeps Sphinx's scores within three groups, in this order: the book's pages, the
API reference's pages, the library's symbols. Searched in headless Chromium on the built book, with the
fixtures of tests/test_browser.py.
"""

import pytest
from test_browser import _open, browser, site  # noqa: F401  (fixtures, shared with the page tests)

pytestmark = pytest.mark.book

_DONE_JS = ("() => { const s = document.querySelector('#search-results p.search-summary');"
            " return s !== null && /found|did not match/.test(s.innerText); }")
_RESULTS_JS = ("els => els.map(li => { const a = li.querySelector('a');"
               " return {href: a.getAttribute('href'), title: a.innerText, symbol: li.querySelector(':scope > span') !== null}; })")


def _search(browser, base: str, query: str) -> list[dict]:  # noqa: F811
    """The results of ``query`` in display order: each {href, title, symbol} (symbol: an API object)."""
    page, problems = _open(browser, f"{base}/search.html?q={query}")
    page.wait_for_function(_DONE_JS, timeout=60_000)
    results = page.eval_on_selector_all("#search-results ul.search li", _RESULTS_JS)
    page.close()
    assert not problems, problems
    return results


def _group(result: dict) -> int:
    """0: a page of the book, 1: a page of the API reference, 2: a library symbol."""
    if result["symbol"]:
        return 2
    return 1 if result["href"].split("#")[0].startswith("book/api") else 0


def test_weight_decay_finds_chapters_first_and_symbols_last(site, browser):  # noqa: F811
    base, _ = site
    results = _search(browser, base, "weight decay")
    top = [r["href"] for r in results[:5]]
    assert any(r["symbol"] for r in results), "the library's weight-decay symbols are still found"
    assert results[0]["href"].startswith("notebooks/"), f"a chapter comes first: {top}"
    assert not [r for r in results[:5] if r["symbol"]], f"an API symbol in the top 5: {top}"
    groups = [_group(r) for r in results]
    assert groups == sorted(groups), f"pages, then API pages, then symbols: {[r['href'] for r in results]}"


def test_marchenko_finds_the_paper_c_chapter_above_the_api_reference(site, browser):  # noqa: F811
    base, _ = site
    hrefs = [r["href"].split("#")[0] for r in _search(browser, base, "Marchenko")]
    chapter = "notebooks/paper_c/loss_curves.html"
    assert chapter in hrefs, hrefs
    api = [i for i, h in enumerate(hrefs) if h.startswith("book/api")]
    assert not api or hrefs.index(chapter) < min(api), hrefs
