"""Static checks of the committed notebooks (nbval re-executes them separately)."""

import ast
import json
import re
from pathlib import Path

import pytest

from grok_lib.paths import parts

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
REPORT = ROOT / "notebooks" / "claims_report.ipynb"


def cells(nb_path):
    return json.loads(nb_path.read_text())["cells"]


def test_there_are_notebooks_in_one_folder_per_part():
    assert NOTEBOOKS
    folders = {p.parent.name for p in NOTEBOOKS if p != REPORT}
    assert folders == set(parts()), "each part's notebooks live in notebooks/<part>/ (and only there)"
    assert not [p for p in (ROOT / "notebooks").glob("*.ipynb") if p != REPORT], "only the claims report is at the top"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_notebook_conventions(nb):
    cs = cells(nb)
    tags = [c.get("metadata", {}).get("tags", []) for c in cs]
    assert sum("parameters" in t for t in tags) == 1, "exactly one cell tagged 'parameters'"
    assert not any("injected-parameters" in t for t in tags), "committed with papermill -p overrides"
    params = "".join(next(c for c, t in zip(cs, tags) if "parameters" in t)["source"])
    assert re.search(r'^profile = "default"', params, re.M), "committed outputs must be the default profile's"
    code = [c for c in cs if c["cell_type"] == "code"]
    assert all(c.get("outputs") is not None for c in code)
    assert any(c["outputs"] for c in code), "committed without outputs"
    for c in code:
        src = "".join(c["source"])
        defined = [n for n in ast.walk(ast.parse(src)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.ClassDef, ast.Lambda))]
        assert not defined, "functions and classes belong in grok_lib, not in a notebook"
        for out in c["outputs"]:
            assert out["output_type"] != "error", f"an error output in {nb.name}"
    checked = [c for c in code if "# NBVAL_CHECK_OUTPUT" in "".join(c["source"])
               or "nbval-check-output" in c.get("metadata", {}).get("tags", [])]
    assert checked, "no cell is checked by nbval (tag 'nbval-check-output')"


# Plain-text maths the prose must not have (outside $...$ maths and `code`): the clocks with a
# subscript, numbers in e-notation, norms, markdown-escaped subscripts (issue 12).
PLAIN_MATHS = re.compile(r"\bT_(?:rep|cls|grok)\b|(?<![\w.])\d+(?:\.\d+)?e-\d+\b|‖|\\_")


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_prose_writes_its_maths_as_maths(nb):
    found = []
    for c in cells(nb):
        if c["cell_type"] != "markdown":
            continue
        for line in "".join(c["source"]).splitlines():
            prose = re.sub(r"`[^`]*`", "", re.sub(r"\$[^$]*\$", "", line))
            found += [f"{m!r} in: {line[:100]}" for m in PLAIN_MATHS.findall(prose)]
    assert not found, "maths written as plain text (typeset it with $...$):\n" + "\n".join(found)


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_notebook_is_in_the_book_and_the_make_globs(nb):
    rel = nb.relative_to(ROOT).with_suffix("").as_posix()
    assert f"file: {rel}\n" in (ROOT / "_toc.yml").read_text()
    makefile = (ROOT / "Makefile").read_text()
    globbed = nb == REPORT or "notebooks/paper_*/*.ipynb" in makefile
    assert globbed, "the Makefile's notebook glob misses this notebook"


@pytest.mark.parametrize("nb", [n for n in NOTEBOOKS if n != REPORT], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_figure_notebook_makes_one_setup_call(nb):
    code = "\n".join("".join(c["source"]) for c in cells(nb) if c["cell_type"] == "code")
    # one call builds the notebook's run; the readers of recorded runs (Paper A) only load committed data
    readers = {"recorded", "seed_sweeps", "default_runs"}
    calls = [name for name in re.findall(r"\bsetup\.(\w+)\(", code) if name not in readers]
    assert len(calls) == 1, f"one setup call per notebook, got {calls}"
    assert "run_all(" not in code and "profile_config(" not in code, "the setup call owns the plumbing"
