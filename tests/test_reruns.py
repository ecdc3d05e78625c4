"""Reruns never damage the book: unknown parameters are errors, and other settings write beside their
output notebook (Figure 1's notebook stands for every notebook: the mechanics are the core's). That every
notebook runs to the end for drawn combinations of its parameters is tested per part
(``tests/paper_a/test_reruns.py``, ``tests/test_reruns_parts_b_c.py``).

The notebooks' code is executed in this process (tests/notebook_exec.py: the parameters cell,
the injected values, then every code cell, as papermill does) against a scratch run store; the
documented command lines (papermill, scripts/rerun.py) are run for real where they differ.
"""

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grok_lib import notebook
from grok_lib.config import ConfigError
from grok_lib.paper_a import config as mlp_config, run_sets

from notebook_exec import code_cells, execute

ROOT = Path(__file__).resolve().parent.parent
FIG1 = ROOT / "notebooks" / "paper_a" / "fig1_loss_curves.ipynb"
ALL_NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
PAPERMILL = Path(sys.executable).parent / "papermill"


def parameter_names(nb: Path) -> list[str]:
    """The names notebook ``nb``'s parameters cell assigns, in order."""
    src = next(src for tags, src in code_cells(nb) if "parameters" in tags)
    return re.findall(r"^(\w+) = ", src, re.M)


@pytest.fixture(scope="module", autouse=True)
def _use_scratch_store(scratch_store):  # every test here: a scratch run store (tests/conftest.py)
    yield scratch_store


# --- case 2: an unknown parameter is an error listing the parameters, before anything runs ------------------------
@pytest.mark.parametrize("given", [{"lr": 1e6}, {"seed": -1}, {"foo": 1}, {"widht": 64, "epochs": 3}])
def test_an_unknown_parameter_stops_the_notebook_before_training(given, scratch_store, book_unchanged):
    before = sorted(scratch_store.rglob("*")) if scratch_store.exists() else []
    with pytest.raises(ConfigError) as err:
        execute(FIG1, {"profile": "ci", **given})
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"unknown parameter(s) {sorted(set(given) - {'epochs'})[0]}")
    assert "this notebook's parameters are profile, weight_decays, p, train_frac, split, init, width, epochs, data_seed, " \
           "init_seed, device" in text
    assert (sorted(scratch_store.rglob("*")) if scratch_store.exists() else []) == before  # nothing trained


@pytest.mark.parametrize("nb", ALL_NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
@pytest.mark.parametrize("name", ["chapter", "notebook", "tables", "run", "Markdown"])
def test_a_name_the_setup_cell_reimports_is_still_an_unknown_parameter(nb, name, scratch_store, book_unchanged):
    with pytest.raises(ConfigError, match=f"^unknown parameter\\(s\\) {name}: this notebook's parameters are "):
        execute(nb, {"profile": "ci" if nb.parent.name != "notebooks" else "default", name: 1})


def test_papermill_with_a_reimported_name_fails_in_the_setup_cell(tmp_path, scratch_store):
    proc = subprocess.run([str(PAPERMILL), str(FIG1), str(tmp_path / "fig1.ipynb"), "-p", "profile", "ci",
                           "-p", "chapter", "1"], capture_output=True, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert proc.returncode != 0
    assert "ConfigError: unknown parameter(s) chapter: this notebook's parameters are profile" in proc.stdout + proc.stderr


def test_the_notebook_namespace_check_ignores_what_is_not_a_parameter():
    ns = {"__builtins__": {}, "_i1": "x", "In": [], "Out": {}, "get_ipython": print, "json": json,
          "Markdown": type("Markdown", (), {}), "profile": "ci", "width": 8, "PAPERMILL_OUTPUT_PATH": "/tmp/x.ipynb",
          "SWEEP_RUNS": (("gd", 0.0),)}
    kwargs = notebook.parameters(ns, run_sets.mlp)
    assert kwargs == {"profile": "ci", "width": 8, "output_path": "/tmp/x.ipynb"}
    assert notebook.parameters({"run": notebook.Run("ci", {}, []), "table": [1]}, run_sets.mlp) == {"output_path": None}


def test_papermill_with_an_unknown_parameter_fails_in_the_setup_cell(tmp_path, scratch_store):
    out = tmp_path / "fig1.ipynb"
    proc = subprocess.run([str(PAPERMILL), str(FIG1), str(out), "-p", "profile", "ci", "-p", "lr", "1e6"],
                          capture_output=True, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert proc.returncode != 0
    assert "ConfigError: unknown parameter(s) lr: this notebook's parameters are profile, weight_decays" in \
        proc.stdout + proc.stderr
    assert not scratch_store.exists() or not list(scratch_store.glob("*.npz"))  # nothing was trained


def test_the_rerun_script_checks_names_before_starting_a_kernel(tmp_path):
    rerun = [sys.executable, str(ROOT / "scripts" / "rerun.py")]
    proc = subprocess.run(rerun + [str(FIG1), str(tmp_path / "o.ipynb"), "-p", "lr", "1e6"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and not (tmp_path / "o.ipynb").exists()
    assert "unknown parameter(s) lr: fig1_loss_curves.ipynb's parameters are profile, weight_decays, p," in proc.stderr
    proc = subprocess.run(rerun + [str(FIG1), str(ROOT / "notebooks" / "paper_a" / "x.ipynb")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "inside notebooks/ (the committed book)" in proc.stderr
    for folder in ("book/claims/paper_c", "recorded", "_build/html"):
        with pytest.raises(SystemExit):
            _rerun_module().parse([str(FIG1), str(ROOT / folder / "evil.ipynb")])
        assert not (ROOT / folder / "evil.ipynb").exists()


@functools.cache
def _rerun_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("rerun", ROOT / "scripts" / "rerun.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("nb", ALL_NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_rerun_script_knows_every_parameter_of_the_notebook(nb, tmp_path):
    """Every name the parameters cell assigns is accepted, including those whose comment holds " = ",
    which papermill's own inspect_notebook drops (Part B's alpha, Part C's lams and fractions)."""
    declared = parameter_names(nb)
    rerun = _rerun_module()
    assert rerun.parameter_names(nb) == declared
    _, _, params, _ = rerun.parse([str(nb), str(tmp_path / "o.ipynb")] + [a for n in declared for a in ("-p", n, "None")])
    assert list(params) == declared


# --- case 1: only the committed settings write the book; other runs write beside their output -----------------------
def test_a_custom_rerun_writes_beside_its_output_notebook_not_into_the_book(tmp_path, book_unchanged):
    out = tmp_path / "fig1.ipynb"
    ns, printed = execute(FIG1, {"p": 23, "width": 8, "epochs": 20}, output_path=str(out))
    folder = tmp_path / "fig1_outputs"
    assert not ns["run"].committed and ns["run"].output == folder
    assert f"go to {folder}/" in printed and "book/claims and figures/ are not touched" in printed
    assert (folder / "figures" / "paper_a" / "fig1_loss_curves.png").exists()
    assert (folder / "figures" / "paper_a" / "fig1_loss_curves.svg").exists()
    records = json.loads((folder / "claims" / "paper_a" / "fig1_loss_curves.json").read_text())
    fit = next(r for r in records if r["id"] == "A.fig1.train_fit")
    # a 20-epoch run has no value at epoch 1500, and is outside the paper's regime: not graded as a failure
    assert fit["verdict"] == "not tested faithfully" and "outside the regime" in fit["measured"], fit
    assert "λ=0.6: never" in fit["measured"], "a 20-epoch run has no value at epoch 1500"
    assert f"recorded in {folder / 'claims' / 'paper_a' / 'fig1_loss_curves.json'}" in printed


def test_without_a_known_output_notebook_a_rerun_writes_to_a_new_temporary_folder(book_unchanged):
    ns, printed = execute(FIG1, {"profile": "ci", "weight_decays": [0.6], "epochs": 3})
    folder = ns["run"].output
    try:
        assert folder is not None and folder.name.startswith("grok-rerun-") and not folder.is_relative_to(ROOT)
        assert (folder / "figures" / "paper_a" / "fig1_loss_curves.png").exists() and str(folder) in printed
    finally:
        if folder is not None and folder.name.startswith("grok-rerun-"):
            shutil.rmtree(folder)


def test_only_the_committed_settings_count_as_committed(tmp_path, monkeypatch):
    ci = mlp_config.sweep("ci", [0.6], device="cpu")
    monkeypatch.setattr(notebook, "run_all", lambda plans, store=None: [None] * len(plans))
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)  # the committed book is the CPU's
    monkeypatch.setattr("grok_lib.arithmetic.tier", lambda: "exact")  # in the book's arithmetic (below: not)
    assert notebook.start("ci", {}, ci, ci).committed  # the same keys as the committed configs
    other = notebook.start("ci", {}, mlp_config.sweep("ci", [0.7]), ci, output_path=str(tmp_path / "o.ipynb"))
    assert other.output == tmp_path / "o_outputs"
    default = mlp_config.sweep("default")
    assert notebook.start("default", {}, mlp_config.sweep("paper", width=256, epochs=4500), default).committed
    assert not notebook.start("default", {}, mlp_config.sweep("default", epochs=4499), default,
                              output_path=str(tmp_path / "o.ipynb")).committed


def test_named_groups_reach_the_notebook_by_name_and_a_shared_run_trains_once(monkeypatch):
    low, mid, high = mlp_config.sweep("ci", [0.6, 0.8, 1.0], device="cpu")
    planned = []
    monkeypatch.setattr(notebook, "run_all", lambda plans, store=None: planned.extend(plans) or
                        [f"history of {p.config.weight_decay}" for p in plans])
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    monkeypatch.setattr("grok_lib.arithmetic.tier", lambda: "exact")
    run = notebook.start("ci", {}, {"alpha": [low, mid], "weight_decay": [mid, high]}, [low, mid, high])
    assert [p.config for p in planned] == [low, mid, high]  # mid, in both groups, is planned once
    assert run.configs == [low, mid, high] and run.committed_settings
    assert run.groups == {"alpha": ["history of 0.6", "history of 0.8"],
                          "weight_decay": ["history of 0.8", "history of 1.0"]}
    assert run.group_configs == {"alpha": [low, mid], "weight_decay": [mid, high]}
    assert notebook.start("ci", {}, [low], [low]).groups == {}  # a list of runs has no named groups


def test_the_committed_settings_in_other_arithmetic_do_not_write_the_book(tmp_path, monkeypatch):
    ci = mlp_config.sweep("ci", [0.6], device="cpu")
    monkeypatch.setattr(notebook, "run_all", lambda plans, store=None: [None] * len(plans))
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    monkeypatch.setattr("grok_lib.arithmetic.tier", lambda: "envelope")
    run = notebook.start("ci", {}, ci, ci, output_path=str(tmp_path / "o.ipynb"))
    assert not run.committed and run.output == tmp_path / "o_outputs"


def test_the_rerun_script_runs_a_notebook_into_its_own_folder(tmp_path, book_unchanged):
    out = tmp_path / "rerun" / "fig1.ipynb"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "rerun.py"), str(FIG1), str(out), "-p", "profile",
                           "ci", "-p", "epochs", "4", "-y", "weight_decays: [0.6, 1.0]", "--over-book"],
                          capture_output=True, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "This run: 2 run(s)" in proc.stdout  # echoed from the notebook as it ran, and kept in it
    executed = json.loads(out.read_text())
    assert not [o for c in executed["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert "This run: 2 run(s)" in json.dumps(executed)
    # what it wrote is its own: the figures and records of the book's recorded runs stay out
    outputs = tmp_path / "rerun" / "fig1_outputs"
    assert sorted(p.relative_to(outputs).as_posix() for p in outputs.rglob("*") if p.is_file()) == [
        "claims/paper_a/fig1_loss_curves.json", *(f"figures/paper_a/fig1_loss_curves.{s}" for s in ("json", "png", "svg"))]
    given = "profile='ci', weight_decays=[0.6, 1.0], epochs=4"
    records = json.loads((outputs / "claims" / "paper_a" / "fig1_loss_curves.json").read_text())
    assert {r["setting"] for r in records} == {"your parameters"} and {r["parameters"] for r in records} == {given}
    assert all(r["measured"].startswith(f"On your run ({given}): ") for r in records)
    data = json.loads((outputs / "figures" / "paper_a" / "fig1_loss_curves.json").read_text())
    assert data["title"].endswith(f"(your run: {given}); grey: the book's run")
    assert data["numbers"] and all(k.startswith(("wd=0.6/", "wd=1/", "wd=1.0/")) for k in data["numbers"])
    assert 'id="the-books-run' in (outputs / "figures" / "paper_a" / "fig1_loss_curves.svg").read_text()
    assert all(s["label"] != "_book" for panel in data["panels"] for s in panel["series"])


@pytest.mark.parametrize("args,message", [
    (["-p", "profile", "nonsense"], "ConfigError: profile must be 'default' for the claims report"),
    (["-p", "foo", "1"], "ConfigError: unknown parameter(s) foo: this notebook's parameters are profile"),
])
def test_the_claims_report_checks_its_parameters(tmp_path, args, message):
    report = ROOT / "notebooks" / "claims_report.ipynb"
    proc = subprocess.run([str(PAPERMILL), str(report), str(tmp_path / "report.ipynb"), "--cwd", str(report.parent)] + args,
                          capture_output=True, text=True)
    assert proc.returncode != 0 and message in proc.stdout + proc.stderr
