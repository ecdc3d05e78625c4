"""The book builds strictly (-W --keep-going) from the committed notebooks, with no network."""

import pytest


@pytest.mark.book
def test_book_builds_strictly(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    assert (html / "index.html").exists()
    page = (html / "notebooks" / "paper_a" / "fig1_loss_curves.html").read_text()
    assert "<img" in page and "Key numbers" in page
    assert "&lt;Figure size" not in page  # no figure repr leaking as text


@pytest.mark.book
def test_math_is_served_from_the_book(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    page = (html / "book" / "intro.html").read_text()
    assert "_static/mathjax/tex-chtml.js" in page
    assert "cdn.jsdelivr" not in page and "mathjax@" not in page
    assert (html / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()


# --- The API reference: an index page and one page per package -------------------------------------------

import importlib
import pkgutil
import re
import sys
import tarfile
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
API_INDEX = ROOT / "book" / "api.md"
API_PAGES = ROOT / "book" / "api"
#: An automodule directive in a page's {eval-rst} block, with its option lines.
AUTOMODULE = re.compile(r"^\.\. automodule:: (\S+)\n((?:[ \t]+:.*\n)*)", re.M)


def library_modules() -> list[str]:
    """Every module and subpackage under grok_lib/, as the import system finds them."""
    import grok_lib

    return sorted(m.name for m in pkgutil.walk_packages(grok_lib.__path__, "grok_lib."))


def page_of(module: str) -> str:
    """The API page a module belongs on: its paper package's, or the core's."""
    part = module.split(".")[1]
    return part if part.startswith("paper_") else "core"


def automodules(text: str) -> dict[str, str]:
    """module -> the options of its automodule directive, for every one in ``text``."""
    return {m.group(1): m.group(2) for m in AUTOMODULE.finditer(text)}


def test_every_module_is_documented_on_exactly_one_api_page():
    from grok_lib.paths import parts

    pages = {p.stem: p.read_text() for p in sorted(API_PAGES.glob("*.md"))}
    assert sorted(pages) == ["core", *parts()], sorted(pages)  # one page for the core, one per part
    found = {}
    for page, text in pages.items():
        for module in AUTOMODULE.findall(text):
            found.setdefault(module[0], []).append(page)
    modules = library_modules()
    assert "grok_lib.paper_a.train" in modules and "grok_lib.paper_a.dln.theory" in modules
    missing = [m for m in modules if m not in found]
    assert not missing, f"modules on no API page (book/api/<page>.md): {missing}"
    twice = {m: p for m, p in found.items() if len(p) > 1}
    assert not twice, f"modules on more than one API page: {twice}"
    wrong = {m: p[0] for m, p in found.items() if m in modules and p[0] != page_of(m)}
    assert not wrong, f"modules on another package's page: {wrong}"
    stale = sorted(set(found) - set(modules))
    assert not stale, f"API pages document modules that do not exist: {stale}"


def test_the_api_index_documents_no_module_itself():
    """The index shows the packages' own indexes (their docstrings) and no members, indexing nothing but
    ``grok_lib`` (documented nowhere else): every module's one place is its package's page."""
    from grok_lib.paths import parts

    text = API_INDEX.read_text()
    shown = automodules(text)
    assert set(shown) == {"grok_lib", "grok_lib.paper_a.dln", *(f"grok_lib.{p}" for p in parts())}, sorted(shown)
    for module, options in shown.items():
        assert ":members:" not in options, f"{module}: the index lists modules, their members are on their page"
        assert module == "grok_lib" or ":no-index:" in options, f"{module} would be indexed twice"
    for page in ("core", *parts()):
        assert f"<api/{page}>" in text, f"book/api.md does not link book/api/{page}.md"


def test_the_table_of_contents_lists_every_api_page_under_the_index():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    chapters = [c for part in toc["parts"] for c in part["chapters"]]
    api = next(c for c in chapters if c["file"] == "book/api")
    assert [s["file"] for s in api.get("sections", [])] == [
        f"book/api/{p.stem}" for p in sorted(API_PAGES.glob("*.md"), key=lambda p: (p.stem != "core", p.stem))]


@pytest.mark.book
def test_api_reference_is_generated_from_docstrings(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    expected = {"core": ("RunStore", "run_all", "claim_anchor"),
                "paper_a": ("ModAddConfig", "make_split", "stable_rank", "figure1", "train_sweep"),
                "paper_b": ("ModAddConfig", "max_l1_margin", "fig1a_sparse"),
                "paper_c": ("grok_time_formula", "grokking_time", "mp_density")}
    for page, names in expected.items():
        text = (html / "book" / "api" / f"{page}.html").read_text()
        for name in names:
            assert 'id="grok_lib.' in text and name in text, (page, name)
    sources = {p.stem: automodules(p.read_text()) for p in API_PAGES.glob("*.md")}
    for page, modules in sources.items():
        text = (html / "book" / "api" / f"{page}.html").read_text()
        for module, options in modules.items():
            if ":no-index:" not in options:
                assert f'id="module-{module}"' in text, f"{module} is not rendered on book/api/{page}.html"
    index = (html / "book" / "api.html").read_text()
    assert 'class="py function"' not in index and 'class="py class"' not in index, "members on the index page"
    for page in sources:
        assert f'href="api/{page}.html' in index, page
    # the index's module names link to their pages (the packages' docstrings, rendered with :mod: links)
    assert 'href="api/core.html#module-grok_lib.store"' in index
    assert 'href="api/paper_a.html#module-grok_lib.paper_a.dln.theory"' in index


# --- Citation: CITATION.cff, the BibTeX entry on the first page, pyproject.toml -------------------------

def bibtex_entry() -> dict:
    """The fields of the ``@software`` entry in book/intro.md's "Cite this book"."""
    intro = (ROOT / "book" / "intro.md").read_text()
    block = re.search(r"## Cite this book\n.*?```bibtex\n(@software\{.*?\n\})\n```", intro, re.S)
    assert block, "book/intro.md has no BibTeX @software entry under 'Cite this book'"
    fields = dict(re.findall(r"^\s+(\w+)\s*=\s*\{(.*)\},?$", block.group(1), re.M))
    return {k: v.removeprefix("{").removesuffix("}") if k == "author" else v for k, v in fields.items()}


def test_the_citation_agrees_with_the_package_and_the_book():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    bib = bibtex_entry()
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["title"] == config["title"] == bib["title"]
    assert str(cff["version"]) == project["version"] == bib["version"]
    released = str(cff["date-released"])
    assert released == bib["date"] and released[:4] == bib["year"]
    assert [a["name"] for a in cff["authors"]] == [config["author"]] == [bib["author"]]
    # no address the project does not have: the source ships with the book (book/_ext/source_ext.py)
    assert not {"url", "repository-code", "repository", "doi"} & set(cff)


def test_the_citation_references_the_three_papers_as_the_bibliography_does():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    bib = (ROOT / "book" / "references.bib").read_text()
    intro = (ROOT / "book" / "intro.md").read_text()
    cited = re.findall(r"\{cite:p\}`(\w+)`", intro.split("Notation:")[0])
    assert len(cited) == 3, cited
    for key, ref in zip(cited, cff["references"]):
        entry = re.search(r"@\w+\{" + key + r",(.*?)\n\}", bib, re.S).group(1)
        arxiv = re.search(r"note\s*=\s*\{(arXiv:[\d.]+)\}", entry).group(1)
        title = re.sub(r"[{}]", "", re.search(r"title\s*=\s*\{(.*)\},", entry).group(1))
        assert [i["value"] for i in ref["identifiers"]] == [arxiv], key
        assert ref["title"] == title, key
        assert ref["year"] == int(re.search(r"year\s*=\s*\{(\d+)\}", entry).group(1)), key


# --- The source archive behind the header's "Source code" link -------------------------------------------

def _source_ext():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        return importlib.import_module("source_ext")
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))


def test_the_source_archive_of_a_tree_leaves_out_what_git_ignores(tmp_path):
    tree = tmp_path / "tree"
    for rel in ("pyproject.toml", "grok_lib/__init__.py", ".venv/bin/python", "_build/html/index.html",
                "grok_lib/__pycache__/x.pyc", "pkg.egg-info/PKG-INFO", ".git/HEAD"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text("x")
    (tree / ".gitignore").write_text(".venv/\n_build/\n__pycache__/\n*.egg-info/\n")
    out = tmp_path / "source.tar.gz"
    _source_ext()._tree_archive(tree, out, "grok-lib-0", skip=tree / "_build" / "html")
    with tarfile.open(out) as tar:
        names = sorted(tar.getnames())
    assert names == ["grok-lib-0/.gitignore", "grok-lib-0/grok_lib/__init__.py", "grok-lib-0/pyproject.toml"]


@pytest.mark.book
def test_the_book_ships_its_source_and_every_page_links_it(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    archive = html / "_static" / "source.tar.gz"
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    prefix = f"grok-lib-{version}/"
    for rel in ("pyproject.toml", "grok_lib/__init__.py", "_config.yml", "book/intro.md", "CITATION.cff"):
        assert prefix + rel in names, rel
    assert not [n for n in names if "/.venv/" in n or "/_build/" in n or "/.git/" in n]
    for rel in ("book/intro.html", "book/api/core.html", "notebooks/paper_a/fig1_loss_curves.html", "search.html"):
        page = html / rel
        hrefs = re.findall(r'<a href="([^"]*source\.tar\.gz)"[^>]*title="Source code"', page.read_text())
        assert len(hrefs) == 1, (rel, hrefs)
        assert (page.parent / hrefs[0]).resolve() == archive.resolve(), (rel, hrefs[0])


@pytest.mark.book
def test_no_page_numbers_figures_with_a_counter_of_its_own(built_book):
    """The figures carry the papers' numbers ("Paper A, Figure 2"); a book counter ("Fig. 4") would collide."""
    code, log, html = built_book
    assert code == 0, log[-2000:]
    numbered = [p.relative_to(html).as_posix() for p in html.rglob("*.html") if 'class="caption-number"' in p.read_text()]
    assert not numbered, numbered
