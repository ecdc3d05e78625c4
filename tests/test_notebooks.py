"""Static checks of the committed notebooks (nbval re-executes them separately)."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def cells(nb_path):
    return json.loads(nb_path.read_text())["cells"]


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
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
        assert not re.search(r"class \w+\(.*nn\.Module\)", src), "models belong in grok_lib"
        for out in c["outputs"]:
            assert out["output_type"] != "error", f"an error output in {nb.name}"
    assert any("# NBVAL_CHECK_OUTPUT" in "".join(c["source"]) for c in code), "no cell is checked by nbval"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_in_the_book(nb):
    toc = (ROOT / "_toc.yml").read_text()
    assert f"notebooks/{nb.stem}" in toc
