"""What a reader sees on the pages (issue 42, item 5), in headless Chromium on the built book with the fixtures of
tests/test_browser.py, at the reviewer's 1366 x 768 px; and the static facts behind them, checked without a build.

- (No page shows raw TeX or a MathJax error: tests/test_browser.py, read in its one load of every page.)
- The landing page's first screen holds one headline per paper with its verdict counts.
- Wherever a claim is listed (the landing page, the claims report) its statement is shown in full.
- The claims report filters by paper and by verdict, together.
- The command `make book` prints serves the book over http, where search shows snippets.
- The citation names the project, the title, the year, the version and the commit; CITATION.cff is linked.

Screenshots (test-artifacts/screenshots): the landing page's first screen, the claims report filtered, the
weight-decay page's derivation.
"""

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_browser import CHROMIUM, SHOTS, _need_browser, _open, _pages, browser, raw_tex, site  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parent.parent
SCREEN = {"width": 1366, "height": 768}

def test_the_weight_decay_derivation_is_typeset(site, browser):  # noqa: F811
    """Paper C's weight-decay page: "The formula with the teacher's norm" shows its two limits as display maths."""
    base, _ = site
    page, problems = _open(browser, f"{base}/notebooks/paper_c/weight_decay.html")
    page.set_viewport_size(SCREEN)
    page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
    para = page.locator("p", has_text="The formula with the teacher").first
    para.scroll_into_view_if_needed()
    display = page.eval_on_selector_all("mjx-container[display='true']", "els => els.length")
    text = page.evaluate("(p) => { const c = p.cloneNode(true); c.querySelectorAll('mjx-container').forEach(e => e.remove());"
                         " return c.innerText; }", para.element_handle())
    box = para.bounding_box()
    page.screenshot(path=str(SHOTS / "weight_decay_derivation.png"),
                    clip={"x": 0, "y": max(0, box["y"] - 20), "width": SCREEN["width"], "height": 520})
    page.close()
    assert display >= 1, "no display maths on the weight-decay page"
    assert not raw_tex(text), raw_tex(text)
    assert not problems, problems


# --- The landing page's first screen -------------------------------------------------------------------

def test_the_landing_pages_first_screen_holds_a_headline_per_paper_with_its_counts(site, browser):  # noqa: F811
    from grok_lib.landing import parts

    base, _ = site
    page, problems = _open(browser, f"{base}/book/intro.html")
    page.set_viewport_size(SCREEN)
    page.evaluate("() => window.scrollTo(0, 0)")
    heads = page.evaluate("""() => [...document.querySelectorAll('article li')].map(li => ({
        text: li.innerText, bottom: li.getBoundingClientRect().bottom + window.scrollY}))""")
    page.screenshot(path=str(SHOTS / "landing_first_screen_1366x768.png"))
    page.close()
    for letter, caption in parts().items():
        line = next((h for h in heads if h["text"].startswith(caption + " — ")), None)
        assert line is not None, f"no headline for {caption}"
        assert re.search(r"\b\d+ claims? of the paper\b", line["text"]) and "reproduced" in line["text"], line
        assert line["bottom"] <= SCREEN["height"], f"{caption}'s headline ends at y = {line['bottom']:.0f}, below the first screen"
    assert not problems, problems


# --- Full claim texts -----------------------------------------------------------------------------------

def words(statement: str) -> list[str]:
    """The statement's words outside its maths: what a full listing shows as text, in order."""
    return re.findall(r"[A-Za-z]{3,}", re.sub(r"\$[^$]*\$", " ", statement))


def test_every_listed_claim_shows_its_full_statement(site, browser):  # noqa: F811
    from grok_lib.claims import headlines, load_records, one_per_claim

    base, _ = site
    records = {r["id"]: r for r in one_per_claim(load_records(setting=None))}
    heads = headlines(load_records(setting=None))
    failed = {cid for cid, r in records.items() if r.get("kind", "claim") == "claim"
              and heads[cid]["verdict"] == "not reproduced"}
    listed = {}
    for rel, selector in (("book/intro.html", "article li"), ("book/intro.html", "article .results tbody tr"),
                          ("notebooks/claims_report.html", "div.claims-report tbody tr")):
        page, problems = _open(browser, f"{base}/{rel}")
        items = page.eval_on_selector_all(selector, """els => els.map(e => [
            (e.querySelector('a code') || {}).textContent, e.textContent])""")
        page.close()
        assert not problems, problems
        for cid, text in items:
            if cid in records:
                listed.setdefault((rel, selector), []).append((cid, text))
    assert {cid for cid, _ in listed[("book/intro.html", "article li")]} == failed
    assert len(listed[("notebooks/claims_report.html", "div.claims-report tbody tr")]) == len(records)
    cut = []
    for where, items in listed.items():
        for cid, text in items:
            shown = re.findall(r"[A-Za-z]{3,}", text)
            want, i = words(records[cid]["statement"]), 0
            for w in shown:  # the statement's words, in order, among the words shown
                if i < len(want) and w == want[i]:
                    i += 1
            if i < len(want):
                cut.append(f"{where[0]}: {cid} shows {' '.join(want[:i])!r} but not {' '.join(want[i:])!r}")
    assert not cut, "\n".join(cut)


# --- The claims report's filter -------------------------------------------------------------------------

_VISIBLE_JS = """() => [...document.querySelectorAll('div.claims-report tbody tr')].filter(tr => tr.offsetParent)
    .map(tr => tr.querySelector('a code').textContent)"""


def test_the_claims_report_filters_by_paper_and_by_verdict(site, browser):  # noqa: F811
    from grok_lib.claims import DEFAULT_SETTING, headlines, load_records, one_per_claim
    from grok_lib.landing import parts

    base, _ = site
    every = load_records(setting=None)
    records, heads = one_per_claim(every), headlines(every)
    # a paper has a dropdown of claims judged at several settings only if it has such claims
    several = {r["paper"] for r in every if r.get("setting", DEFAULT_SETTING) != DEFAULT_SETTING}
    page, problems = _open(browser, f"{base}/notebooks/claims_report.html")
    page.set_viewport_size(SCREEN)
    assert sorted(page.evaluate(_VISIBLE_JS)) == sorted(r["id"] for r in records)
    for letter in parts():
        page.click(f".claims-filter button[data-paper='{letter}']")
        mine = sorted(r["id"] for r in records if r["paper"] == letter)
        assert sorted(page.evaluate(_VISIBLE_JS)) == mine, letter
        papers = page.eval_on_selector_all("p.claims-paper", "els => els.filter(e => e.offsetParent).map(e => e.dataset.paper)")
        assert papers == [letter], papers
        # further down: its dropdown of claims judged at several settings, its rows of the re-grade and coverage tables
        settings = page.eval_on_selector_all(".claims-settings", "els => els.filter(e => e.offsetParent).map(e => e.className)")
        if letter in several:
            assert len(settings) == 1 and f"claims-settings-{letter.lower()}" in settings[0].split(), settings
        else:
            assert not settings, settings
        coverage = page.eval_on_selector_all(".claims-coverage", "els => els.filter(e => e.offsetParent).map(e => e.className)")
        assert len(coverage) == 1 and f"claims-coverage-{letter.lower()}" in coverage[0].split(), coverage
        regrade = page.eval_on_selector_all("article tbody tr", """els => els.filter(tr => tr.offsetParent
            && !tr.closest('div.claims-report')).map(tr => (tr.querySelector('td code') || {}).textContent)
            .filter(t => /^[A-Z][.]/.test(t || ''))""")
        assert regrade and all(t.startswith(letter + ".") for t in regrade), regrade
        for verdict in ("reproduced", "not reproduced", "inconclusive"):
            page.click(f".claims-filter button[data-verdict='{verdict.replace(' ', '-')}']")
            want = sorted(r["id"] for r in records if r["paper"] == letter and heads[r["id"]]["verdict"] == verdict)
            assert sorted(page.evaluate(_VISIBLE_JS)) == want, (letter, verdict)
        page.click(".claims-filter button[data-verdict='all']")
    page.click(".claims-filter button[data-paper='C']")
    page.click(".claims-filter button[data-verdict='not-reproduced']")
    height = page.evaluate("document.documentElement.scrollHeight")
    page.locator("div.claims-report").scroll_into_view_if_needed()
    page.evaluate("() => document.querySelector('div.claims-report').scrollIntoView()")
    page.screenshot(path=str(SHOTS / "claims_report_paper_c_not_reproduced.png"))
    pressed = page.eval_on_selector_all(".claims-filter button[aria-pressed='true']", "els => els.map(e => e.textContent)")
    page.click(".claims-filter button[data-paper='all']")
    page.click(".claims-filter button[data-verdict='all']")
    assert sorted(page.evaluate(_VISIBLE_JS)) == sorted(r["id"] for r in records)
    page.close()
    print(f"claims report filtered to Paper C, not reproduced: {height} px tall; pressed {pressed}")
    assert pressed == ["✗ not reproduced", "Paper C"] or sorted(pressed) == sorted(["✗ not reproduced", "Paper C"])
    assert not problems, problems


# --- Opening the book: the command `make book` prints ---------------------------------------------------

def served_command() -> list[str]:
    """The command the Makefile's ``book`` target prints to serve the book (its echo line)."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nbook:", 1)[1].split("\n\n", 1)[0]
    line = next(x for x in recipe.splitlines() if "http.server" in x)
    command = re.search(r"(\$\(PY\) -m http\.server[^\"]*?)\s{2}", line)
    assert command, line
    return command.group(1).replace("$(PY)", sys.executable).split()


def test_make_book_prints_how_to_serve_the_book_not_a_file_address():
    recipe = (ROOT / "Makefile").read_text().split("\nbook:", 1)[1].split("\n\n", 1)[0]
    assert "file://" not in recipe, recipe
    cmd = served_command()
    assert cmd[1:4] == ["-m", "http.server", "--bind"] and "_build/html" in cmd, cmd
    readme = (ROOT / "README.md").read_text()
    assert "http.server --bind 127.0.0.1 --directory _build/html 8000" in readme


def test_search_shows_snippets_on_the_book_served_as_make_book_says(site, browser):  # noqa: F811
    _, html = site
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [str(html) if c == "_build/html" else (str(port) if c == "8000" else c) for c in served_command()]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                import time
                time.sleep(0.1)
        page, problems = _open(browser, f"{base}/search.html?q=weight+decay")
        page.wait_for_selector("#search-results ul.search li p.context", timeout=30_000)
        snippets = page.eval_on_selector_all("#search-results p.context", "els => els.map(e => e.textContent)")
        page.close()
    finally:
        server.terminate()
        server.wait(10)
    assert snippets and any("decay" in s.lower() for s in snippets), snippets
    assert not problems, problems


# --- The citation ---------------------------------------------------------------------------------------

def _citation_ext():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import citation_ext
        return citation_ext
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))


def test_the_citation_names_the_commit_the_book_is_built_from(tmp_path):
    ext = _citation_ext()
    if (ROOT / ".git").exists():
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        assert ext.commit(ROOT).startswith(f"commit {head}")
    assert ext.commit(tmp_path).startswith("unknown")  # a copy without git history names no commit
    assert ext.PLACEHOLDER in (ROOT / "book" / "intro.md").read_text()


def test_the_built_citation_is_complete_and_links_citation_cff(site, browser):  # noqa: F811
    import urllib.request

    import yaml

    base, _ = site
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    page, problems = _open(browser, f"{base}/book/intro.html")
    bib = page.inner_text("#cite-this-book pre")
    link = page.eval_on_selector_all("#cite-this-book a", "els => els.map(e => e.href).filter(h => h.endsWith('CITATION.cff'))")
    page.close()
    assert "@BOOK_COMMIT@" not in bib, bib
    assert f"title = {{{cff['title']}}}" in bib and f"version = {{{cff['version']}}}" in bib
    assert f"year = {{{str(cff['date-released'])[:4]}}}" in bib
    author = cff["authors"][0]["name"]
    assert f"author = {{{{{author}}}}}" in bib and "authors}" not in bib.split("author =")[1].split("\n")[0]
    assert re.search(r"note = \{Built from (commit [0-9a-f]{40}|unknown)", bib), bib
    assert link, "CITATION.cff is not linked from the landing page"
    with urllib.request.urlopen(link[0]) as r:
        assert yaml.safe_load(r.read()) == cff
    assert not problems, problems


# --- Static: a glued value that holds maths is pasted as MyST -------------------------------------------

def test_every_glued_value_with_maths_is_pasted_as_myst():
    """``{glue:md}`name``` renders its value as CommonMark, where ``$10^{6}$`` stays raw TeX; a value that holds
    maths must be pasted with ``:myst`` (grok_lib.display.glue's docstring)."""
    found = []
    for nb_path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        nb = json.loads(nb_path.read_text())
        maths = {o["metadata"]["scrapbook"]["name"] for c in nb["cells"] for o in c.get("outputs", [])
                 if o.get("metadata", {}).get("scrapbook")
                 and "$" in "".join(o.get("data", {}).get("application/papermill.record/text/markdown", ""))}
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "markdown":
                found += [f"{nb_path.relative_to(ROOT)} cell {i}: {m[0]}"
                          for m in re.finditer(r"\{glue:md\}`([^`:]+)`", "".join(cell["source"])) if m[1] in maths]
    assert not found, "\n".join(found)


def test_display_maths_in_a_notebooks_prose_stands_in_its_own_block():
    """``$$`` inside a paragraph is not display maths in MyST: the formula shows as raw TeX."""
    found = []
    for nb_path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for i, cell in enumerate(json.loads(nb_path.read_text())["cells"]):
            if cell["cell_type"] != "markdown":
                continue
            for block in re.split(r"\n\s*\n", "".join(cell["source"])):
                if "$$" in block and not block.strip().startswith("$$"):
                    found.append(f"{nb_path.relative_to(ROOT)} cell {i}: {block.strip()[:80]}")
    assert not found, "\n".join(found)


def test_typeset_sets_braced_powers_as_maths():
    from grok_lib.tables import typeset

    assert typeset("largest L / ((K-1) e^{-Gamma(t)}) over") == "largest L / ((K-1) $e^{-Γ(t)}$) over"
    assert typeset("(1 − 2ηs)^t against e^{−2ηst}") == "(1 − 2ηs)^t against $e^{−2ηst}$"
    assert typeset("$x^{2}$ and `a^{b}`") == "$x^{2}$ and `a^{b}`"


def test_the_settings_lists_are_collapsed_per_paper():
    from grok_lib.claims import load_records, settings_sections
    from grok_lib.landing import parts

    every = load_records(setting=None)
    text = settings_sections(every, {"default": "default profile", "paper": "paper's settings", "seeds": "seeds"}, parts())
    blocks = text.split("\n\n::::{dropdown} ")
    assert text.startswith("::::{dropdown} Paper A") and len(blocks) == len({r["paper"] for r in every if r["setting"] != "default"})
    for block in blocks:
        letter = block.split(":class-container: claims-settings claims-settings-", 1)[1][0].upper()
        ids = [line.split("`")[1] for line in block.splitlines() if line.startswith("- `")]
        assert ids and all(i.startswith(letter + ".") for i in ids), (letter, ids)
