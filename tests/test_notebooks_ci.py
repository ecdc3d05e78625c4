"""Every part's notebooks, as a user reruns them: the parameters are those of the call its chapter declares, an unknown
one stops the notebook before anything runs, and the whole notebook runs to the end at the ci
profile's sizes, writing beside its output notebook and never into the book.

(``tests/paper_a/test_reruns.py`` and ``tests/test_reruns_parts_b_c.py`` go further: drawn combinations of every
parameter.)
"""

import importlib
import inspect
import re
from pathlib import Path

import pytest

from grok_lib.chapters import chapter
from grok_lib.config import ConfigError
from grok_lib.paths import parts
from notebook_exec import code_cells, execute

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(nb for part in parts() for nb in (ROOT / "notebooks" / part).glob("*.ipynb"))


@pytest.fixture(scope="module", autouse=True)
def _use_scratch_store(scratch_store):  # every test here: a scratch run store (tests/conftest.py)
    yield scratch_store


def call_of(nb: Path):
    """The setup function notebook ``nb`` calls, as its chapter declares it: its chapter module's ``run`` (Part A's MLP
    chapters share one, imported as their ``run``); the notebook does call it so."""
    call = chapter(nb.parent.name, nb.stem).call
    assert importlib.import_module(f"grok_lib.{nb.parent.name}.chapters.{nb.stem}").run is call
    code = "\n".join(src for _, src in code_cells(nb))
    assert "chapter.run(**notebook.parameters(globals(), chapter.run))" in code
    return call


def book_files() -> dict:
    watched = [p for p in (ROOT / "book" / "claims").rglob("*.json")] + [p for p in (ROOT / "figures").rglob("*.*")]
    return {p: p.read_bytes() for p in watched}


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_parameters_cell_assigns_exactly_the_setup_calls_parameters(nb):
    src = next(src for tags, src in code_cells(nb) if "parameters" in tags)
    names = re.findall(r"^(\w+) = ", src, re.M)
    signature = inspect.signature(call_of(nb)).parameters
    assert names == [n for n, p in signature.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_an_unknown_parameter_stops_the_notebook_in_its_setup_cell(nb, scratch_store):
    with pytest.raises(ConfigError, match=r"^unknown parameter\(s\) no_such_knob: this notebook's parameters are "):
        execute(nb, {"profile": "ci", "no_such_knob": 1})
    assert not list(scratch_store.rglob("*.npz")) if scratch_store.exists() else True


@pytest.mark.notebook
@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_notebook_runs_to_the_end_at_the_ci_profile_and_leaves_the_book_alone(nb, tmp_path):
    before = book_files()
    ns, _ = execute(nb, {"profile": "ci"}, output_path=str(tmp_path / "out.ipynb"))
    assert ns["run"].output == tmp_path / "out_outputs" and not ns["run"].committed
    assert list((tmp_path / "out_outputs" / "figures").rglob("*.png")), "its figures went beside the output"
    assert book_files() == before, "a rerun wrote into the book"
