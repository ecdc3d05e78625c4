"""The layout: a core that imports no paper package, one subpackage per paper, nothing left out.

Each check here fails if a new module, part or notebook is added without being wired in:
the package index, the API reference, the run-kind table, the figure manifest.
"""

import importlib
from pathlib import Path

import pytest
from ast_imports import imports_of

from grok_lib import chapters, code_version, kinds, paths

LIB = Path(paths.__file__).parent
ROOT = LIB.parent
CORE = sorted(p for p in LIB.glob("*.py"))
PARTS = paths.parts()


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module ``path`` (a file of grok_lib) imports, wherever in the file."""
    return imports_of(path, ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1]))


def test_there_are_parts_and_every_paper_package_is_one():
    assert "paper_a" in PARTS
    packages = sorted(p.name for p in LIB.glob("paper_*") if (p / "__init__.py").exists())
    assert packages == PARTS, "a paper package without a chapters module is not in the book yet"


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_core_imports_no_paper_package(path):
    bad = sorted(n for n in imported_modules(path) if n.startswith("grok_lib.paper_"))
    assert not bad, f"core module {path.name} imports {bad}"


def test_the_core_has_no_import_circle():
    """No two core modules import each other, even inside a function (a late import hides a circle, it does not
    break it): e.g. the claims module holds the verdict marks and the display imports them, never the reverse."""
    names = {f"grok_lib.{p.stem}": p for p in CORE}
    edges = {m: {n for n in imported_modules(p) if n in names and n != m} for m, p in names.items()}
    circles = sorted(f"{a} <-> {b}" for a in edges for b in edges[a] if a in edges.get(b, ()) and a < b)
    assert not circles, circles


def test_the_import_check_sees_relative_and_nested_imports(tmp_path):
    probe = LIB / "_probe_for_test.py"
    probe.write_text("def f():\n    from .paper_a import train\n")
    try:
        assert "grok_lib.paper_a.train" in imported_modules(probe)
    finally:
        probe.unlink()


@pytest.mark.parametrize("part", PARTS)
def test_each_part_declares_its_chapters(part):
    module = importlib.import_module(f"grok_lib.{part}.chapters")
    assert module.CHAPTERS
    if any(f.sets for c in module.CHAPTERS for f in c.figures):  # a part with figures of recorded sets reads them
        assert callable(module.load_set) and callable(module.recorded_profiles)
    assert chapters.book_configs("ci", part), "a part with no runs"
    notebooks = {p.relative_to(paths.ROOT).as_posix() for p in (paths.ROOT / "notebooks" / part).glob("*.ipynb")}
    assert {c.notebook for c in module.CHAPTERS} == notebooks, "every notebook of the part is one declared chapter"


@pytest.mark.parametrize("part", PARTS)
def test_every_config_type_of_a_part_has_a_run_kind(part):
    importlib.import_module(f"grok_lib.{part}")
    for config in chapters.book_configs("ci", part):
        kind = kinds.kind_of(config)  # a part may reuse another part's runs (Part C trains Part A's MLP)
        owner = kind.name.split(".")[0]
        assert owner in PARTS
        assert any(m.__name__.startswith(f"grok_lib.{owner}.") for m in kind.code), kind.name
        for module in kind.code:  # hashed by module object: paper modules only (the core computes no numbers)
            assert module.__name__.startswith("grok_lib.paper_"), module.__name__


def test_a_config_without_a_row_is_a_clear_error():
    from dataclasses import dataclass

    from grok_lib.config import ConfigError

    @dataclass(frozen=True)
    class Unregistered:
        x: int = 1

    with pytest.raises(ConfigError, match="no run kind is registered for Unregistered"):
        kinds.kind_of(Unregistered())


def every_module() -> list[str]:
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in LIB.rglob("*.py") if p.name != "__init__.py" or p.parent != LIB)


def test_the_package_index_and_the_api_reference_list_every_module():
    import grok_lib

    index = grok_lib.__doc__ + "".join(importlib.import_module(f"grok_lib.{p}").__doc__ for p in PARTS)
    index += "".join(importlib.import_module(m).__doc__ or "" for m in every_module()
                     if (LIB / Path(*m.split(".")[1:]) / "__init__.py").exists())
    api = "".join(p.read_text() for p in sorted((ROOT / "book" / "api").glob("*.md")))  # one page per package
    toc = (ROOT / "_toc.yml").read_text()
    for module in every_module():
        short = module.rsplit(".", 1)[-1]
        part, _, rest = module.removeprefix("grok_lib.").partition(".")
        if rest.startswith("chapters.") and part in BY_CHAPTER:  # a chapter module: its index is the book's contents
            assert f"- file: notebooks/{part}/{short}\n" in toc, f"{module} has no notebook in _toc.yml"
        elif not rest and part in PARTS:  # a part: the book's contents list it (its page and its API page)
            assert f"- file: book/{part}\n" in toc and f"- file: book/api/{part}\n" in toc, f"{part} is not in _toc.yml"
        else:
            assert f":mod:`{module}`" in index or f":mod:`.{short}`" in index, f"{module} is missing from its package index"
        assert f".. automodule:: {module}\n" in api, f"{module} is missing from book/api/*.md"


def test_the_library_hash_covers_every_module():
    files = {p.relative_to(LIB).as_posix() for p in code_version.library_files()}
    assert files == {p.relative_to(LIB).as_posix() for p in LIB.rglob("*.py")}
    assert any("/" in f for f in files), "the paper packages are hashed too"


def test_the_claims_records_are_in_one_folder_per_part():
    from grok_lib.claims import RECORDS

    assert {p.parent.name for p in RECORDS.rglob("*.json")} <= set(PARTS)
    assert not list(RECORDS.glob("*.json")), "records live under book/claims/<part>/"


#: The parts laid out one module per chapter (``grok_lib/<part>/chapters/<stem>.py``): every part (issue #41).
BY_CHAPTER = [p for p in PARTS if (LIB / p / "chapters" / "__init__.py").exists()]


def test_every_part_is_laid_out_one_module_per_chapter():
    assert BY_CHAPTER == PARTS


#: The role modules the parts had before (issue #41): each chapter module holds its own share of them.
ROLES = ("chapter_runs", "thresholds", "claims", "checks", "key_numbers", "readings", "plots", "mechanism_plots",
         "recorded_numbers", "sensitivity", "runs")


@pytest.mark.parametrize("part", PARTS)
def test_a_part_laid_out_by_chapter_has_one_module_per_notebook_and_no_role_module(part):
    folder = LIB / part
    chapter_modules = {p.stem for p in (folder / "chapters").glob("*.py")} - {"__init__"}
    assert chapter_modules == {p.stem for p in (paths.ROOT / "notebooks" / part).glob("*.ipynb")}
    modules = [p for p in folder.rglob("*.py") if "chapters" not in p.relative_to(folder).parts]  # dln/ too
    roles = sorted(p.relative_to(folder).as_posix() for p in modules if p.stem.startswith(ROLES)
                   or p.stem.endswith("_numbers") and p.stem != "curve_numbers" or p.stem.startswith("numbers_"))
    assert not roles, f"{part} still has role modules {roles}"
    for stem in chapter_modules:
        module = importlib.import_module(f"grok_lib.{part}.chapters.{stem}")
        assert module.CHAPTER.notebook == f"notebooks/{part}/{stem}.ipynb"
        assert module.CHAPTER.claims == tuple(getattr(module, "CLAIMS", {})), "a chapter grades the claims it declares"
    # what two chapters share never reads a chapter: the import direction is shared -> chapter
    for path in modules:
        upward = sorted(n for n in imported_modules(path) if n.startswith(f"grok_lib.{part}.chapters"))
        assert not upward, f"{path.name} imports {upward}"
    for path in (folder / "chapters").glob("*.py"):
        sideways = sorted(n for n in imported_modules(path) if n.startswith(f"grok_lib.{part}.chapters.")
                          and path.stem != "__init__")
        assert not sideways, f"chapter {path.stem} imports another chapter: {sideways}"


#: What a later paper may import of an earlier one (DEVELOPING.md, "How to add a paper"): what it reruns.
SHARED = {"task", "model", "config"}


@pytest.mark.parametrize("part", PARTS)
def test_a_paper_imports_of_an_earlier_paper_only_its_task_model_and_config(part):
    foreign = set()
    for path in (LIB / part).rglob("*.py"):
        for name in imported_modules(path):
            other = name.split(".")[1] if name.startswith("grok_lib.paper_") else part
            if other != part:
                assert other < part, f"{path.name} imports the later paper {other}"
                module = name.split(".")[2] if name.count(".") >= 2 else None
                if module is not None and module not in SHARED:
                    foreign.add(f"{path.name}: {name}")
    assert not foreign, f"{part} imports more than the task, model and config of an earlier paper: {sorted(foreign)}"


@pytest.mark.parametrize("part", PARTS)
def test_a_parts_claims_carry_its_letter(part):
    """Claim.paper accepts any capital letter; here each claim names its own part's, in its id too (a claim copied
    from another part would otherwise be counted under that paper on the landing page and in the report)."""
    letter = paths.letter(part)
    wrong = [cid for cid, c in chapters.claims_of(part).items() if c.paper != letter or not cid.startswith(f"{letter}.")]
    assert not wrong, f"{part}: claims not of paper {letter}: {wrong}"


def test_a_part_is_paper_and_one_letter():
    assert [paths.letter(p) for p in PARTS] == [p[-1].upper() for p in PARTS]
    with pytest.raises(ValueError, match="paper_<one lower-case letter>"):
        paths.letter("paper_d2")


@pytest.mark.parametrize("part", PARTS)
def test_each_claim_is_declared_by_the_one_chapter_whose_notebook_grades_it(part):
    """A chapter lists the ids of the claims it grades (``Chapter.claims``): together they are the part's registry,
    each once, and each chapter's list is exactly what its notebook's committed records hold (every setting)."""
    import json

    from grok_lib.claims import RECORDS

    declared = {c.stem: c.claims for c in chapters.chapters(part)}
    ids = [i for claims in declared.values() for i in claims]
    assert len(ids) == len(set(ids)), f"{part}: a claim declared by two chapters"
    assert set(ids) == set(chapters.claims_of(part))
    for stem, claims in declared.items():
        files = [RECORDS / part / f"{stem}.json", *(RECORDS / part).glob(f"{stem}@*.json")]
        recorded = {r["id"] for f in files if f.exists() for r in json.loads(f.read_text())}
        assert recorded == set(claims), f"{part}/{stem}: records {sorted(recorded)}, declared {sorted(claims)}"
