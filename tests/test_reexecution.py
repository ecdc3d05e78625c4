"""A build re-executes a notebook only when what it ran changed: each executed notebook records the grok_lib modules
its kernel imported (``grok_imports``), and its fingerprint hashes those modules' sources, not the whole library
(scripts/run_notebooks.py, grok_lib/execution.py). Shown on the committed notebooks' own records."""

import importlib.util
import json
from pathlib import Path

import pytest

from grok_lib.code_deps import code_hash, module_hashes

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))

pytestmark = pytest.mark.unit


def _runner():
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fingerprints(edited: str) -> dict[str, tuple[str, str]]:
    """Each notebook -> (its fingerprint today, its fingerprint had module ``edited`` been edited)."""
    runner, hashes = _runner(), module_hashes()
    assert edited in hashes
    out = {}
    for path in NOTEBOOKS:
        imports = json.loads(path.read_text())["metadata"]["grok_imports"]
        out[path.relative_to(ROOT / "notebooks").as_posix()] = (
            runner.fingerprint(path, code_hash(imports, hashes)),
            runner.fingerprint(path, code_hash(imports, hashes | {edited: "edited"})))
    return out


def test_every_committed_notebook_records_the_modules_it_ran():
    for path in NOTEBOOKS:
        imports = json.loads(path.read_text())["metadata"].get("grok_imports")
        assert imports and "grok_lib" in imports, f"{path.name} was executed without recording its imports"


def test_a_comment_in_part_cs_theory_re_executes_no_part_a_or_b_notebook():
    changed = {name for name, (now, edited) in _fingerprints("grok_lib.paper_c.theory").items() if now != edited}
    # the claims report reads every part's claim declarations, so it ran Part C's modules too
    assert any(name.startswith("paper_c/") for name in changed), changed
    assert all(name.startswith("paper_c/") or name == "claims_report.ipynb" for name in changed), changed


def test_a_comment_in_the_plotting_style_re_executes_the_notebooks_that_draw_with_it():
    changed = {name for name, (now, edited) in _fingerprints("grok_lib.style").items() if now != edited}
    drawing = {p.relative_to(ROOT / "notebooks").as_posix() for p in NOTEBOOKS
               if "grok_lib.style" in json.loads(p.read_text())["metadata"]["grok_imports"]}
    assert changed == drawing and any(n.startswith("paper_a/") for n in changed)
    assert "claims_report.ipynb" not in changed  # it draws no figure


@pytest.mark.parametrize("part, stem", [("paper_c", "weight_decay"), ("paper_c", "nets"),
                                        ("paper_b", "sparse_classification"), ("paper_b", "kernel_vs_rich"),
                                        ("paper_a", "fig2_embedding_geometry"), ("paper_a", "deep_linear_clocks")])
def test_a_comment_in_one_chapter_module_re_executes_its_notebook_and_the_report_only(part, stem):
    """Every part is laid out one module per chapter (grok_lib/<part>/chapters/<stem>.py) and a notebook imports
    only its own chapter module: an edit to one chapter re-executes that chapter's notebook and the claims report (which
    reads every chapter's claims), no other chapter's (the two sparse chapters share their runs, not their module)."""
    changed = {name for name, (now, edited) in _fingerprints(f"grok_lib.{part}.chapters.{stem}").items()
               if now != edited}
    assert changed == {f"{part}/{stem}.ipynb", "claims_report.ipynb"}, changed
