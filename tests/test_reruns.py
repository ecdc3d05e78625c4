"""Reruns never damage the book: unknown parameters are errors, other settings write beside their
output notebook, and every notebook runs to the end for the combinations of its parameters.

The notebooks' code is executed in this process (tests/notebook_exec.py: the parameters cell,
the injected values, then every code cell, as papermill does) against a scratch run store; the
documented command lines (papermill, scripts/rerun.py) are run for real where they differ.
"""

import functools
import inspect
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
from grok_lib.paper_a import config as mlp_config, setup
from grok_lib.paper_a.dln import config as dln_config

from notebook_exec import code_cells, draw, execute

ROOT = Path(__file__).resolve().parent.parent
PAPER_A = sorted((ROOT / "notebooks" / "paper_a").glob("*.ipynb"))
MLP_NOTEBOOKS = [nb for nb in PAPER_A if "setup.mlp(" in "".join(src for _, src in code_cells(nb))]
DLN = ROOT / "notebooks" / "paper_a" / "deep_linear_clocks.ipynb"
FIG1 = ROOT / "notebooks" / "paper_a" / "fig1_loss_curves.ipynb"
ALL_NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
PAPERMILL = Path(sys.executable).parent / "papermill"


@pytest.fixture(scope="module", autouse=True)
def _use_scratch_store(scratch_store):  # every test here: a scratch run store (tests/conftest.py)
    yield scratch_store


def parameter_names(nb: Path) -> list[str]:
    src = next(src for tags, src in code_cells(nb) if "parameters" in tags)
    return re.findall(r"^(\w+) = ", src, re.M)


def setup_function_of(nb: Path):
    code = "\n".join(src for _, src in code_cells(nb))
    return getattr(setup, re.search(r"\bsetup\.(\w+)\(", code).group(1))


# --- the notebooks' parameters are the setup call's ----------------------------------------------------------------
@pytest.mark.parametrize("nb", PAPER_A, ids=lambda p: p.name)
def test_each_notebook_passes_its_namespace_to_its_setup_call(nb):
    fn = setup_function_of(nb)
    code = "\n".join(src for _, src in code_cells(nb))
    assert f"setup.{fn.__name__}(**notebook.parameters(globals(), setup.{fn.__name__}))" in code
    signature = [n for n, p in inspect.signature(fn).parameters.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert parameter_names(nb) == signature, "the parameters cell and the setup function must list the same names"


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


@pytest.mark.parametrize("nb", ALL_NOTEBOOKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("name", ["setup", "notebook", "claims", "figures", "Markdown"])
def test_a_name_the_setup_cell_reimports_is_still_an_unknown_parameter(nb, name, scratch_store, book_unchanged):
    with pytest.raises(ConfigError, match=f"^unknown parameter\\(s\\) {name}: this notebook's parameters are "):
        execute(nb, {"profile": "ci" if nb.parent.name != "notebooks" else "default", name: 1})


def test_papermill_with_a_reimported_name_fails_in_the_setup_cell(tmp_path, scratch_store):
    proc = subprocess.run([str(PAPERMILL), str(FIG1), str(tmp_path / "fig1.ipynb"), "-p", "profile", "ci",
                           "-p", "setup", "1"], capture_output=True, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert proc.returncode != 0
    assert "ConfigError: unknown parameter(s) setup: this notebook's parameters are profile" in proc.stdout + proc.stderr


def test_the_notebook_namespace_check_ignores_what_is_not_a_parameter():
    ns = {"__builtins__": {}, "_i1": "x", "In": [], "Out": {}, "get_ipython": print, "json": json,
          "Markdown": type("Markdown", (), {}), "profile": "ci", "width": 8, "PAPERMILL_OUTPUT_PATH": "/tmp/x.ipynb",
          "SWEEP_RUNS": (("gd", 0.0),)}
    kwargs = notebook.parameters(ns, setup.mlp)
    assert kwargs == {"profile": "ci", "width": 8, "output_path": "/tmp/x.ipynb"}
    assert notebook.parameters({"run": notebook.Run("ci", {}, []), "table": [1]}, setup.mlp) == {"output_path": None}


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
    _, _, params = rerun.parse([str(nb), str(tmp_path / "o.ipynb")] + [a for n in declared for a in ("-p", n, "None")])
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
    assert "train loss at epoch 1500: λ=0.6: nan" in fit["measured"], "a 20-epoch run has no value at epoch 1500"
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
                           "ci", "-p", "epochs", "4", "-y", "weight_decays: [0.6, 1.0]"],
                          capture_output=True, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "rerun" / "fig1_outputs" / "claims" / "paper_a" / "fig1_loss_curves.json").exists()
    assert (tmp_path / "rerun" / "fig1_outputs" / "figures" / "paper_a" / "fig1_loss_curves.png").exists()
    executed = json.loads(out.read_text())
    assert not [o for c in executed["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]


# --- case 3: the deep-linear notebook runs to the end on valid input -----------------------------------------------
@pytest.mark.parametrize("given", [{"depths": [1]}, {"depths": [2], "steps": 50}, {"depths": [4], "steps": 1}],
                         ids=["depth-1", "depth-2-50-steps", "depth-4-1-step"])
def test_the_deep_linear_notebook_runs_to_the_end(given, tmp_path, book_unchanged):
    ns, printed = execute(DLN, {"profile": "ci", **given}, output_path=str(tmp_path / "dln.ipynb"))
    for name in ("dln_fast_clock", "dln_slow_clock", "dln_separation"):
        assert (tmp_path / "dln_outputs" / "figures" / "paper_a" / f"{name}.png").exists()
    assert "A.dln.separation" in printed


# --- every notebook, drawn combinations of its parameters within the ci sizes ----------------------------------------
#: Each parameter's candidates (None: the ci profile's value); lists with one, two or all of their values, the
#: smallest step counts, the smallest sizes the validation allows.
MLP_SPACE = {
    "weight_decays": [[0.6], [0.6, 1.0], None, [0.0], [0.0, 2.0]],
    "epochs": [1, 2, 30, None],
    "p": [2, 3, None],
    "train_frac": [None, 0.2, 0.9],
    "split": [None, "ordered"],
    "init": [None, "scaled_embed"],
    "width": [1, None],
    "data_seed": [None, 1],
    "init_seed": [None, 2],
    "device": [None, "cpu"],
}
DLN_SPACE = {
    "depths": [[2], [1, 3], None, [4], [1, 2, 3, 4]],
    "steps": [1, 2, 50, None],
    "n_classes": [None, 2],
    "d_in": [None, 1, 2],
    "width": [None, 3],
    "n_train": [1, None, 5],
    "seed": [None, 1],
    "lr": [None, 0.05],
}


def valid(build, combo: dict) -> bool:
    try:
        build(combo)
    except ConfigError:
        return False
    return True


MLP_COMBOS = draw(MLP_SPACE, 6, seed=1)
DLN_COMBOS = draw(DLN_SPACE, 6, seed=2)
QUICK = {"fig": {"profile": "ci", "weight_decays": [0.6], "epochs": 1, "p": 2, "width": 1},
         "dln": {"profile": "ci", "depths": [1, 3], "steps": 2, "d_in": 1, "n_train": 1}}


def build_mlp(c):
    return mlp_config.sweep(c["profile"], c.get("weight_decays"), **{k: v for k, v in c.items()
                                                                     if k not in ("profile", "weight_decays")})


def build_dln(c):
    return dln_config.sweep(c["profile"], c.get("depths") or dln_config.DEPTHS,
                            **{k: v for k, v in c.items() if k not in ("profile", "depths")})


def run_combination(nb: Path, combo: dict, build, tmp_path):
    if valid(build, combo):
        ns, _ = execute(nb, combo, output_path=str(tmp_path / "out.ipynb"))
        assert ns["run"].output == tmp_path / "out_outputs" or ns["run"].committed
    else:  # an invalid combination stops in the setup cell with one line
        with pytest.raises(ConfigError) as err:
            execute(nb, combo)
        assert "\n" not in str(err.value) and "code cell 1 " in err.value.__notes__[0]


@pytest.mark.parametrize("nb", PAPER_A, ids=lambda p: p.name)
def test_every_notebook_runs_to_the_end_with_the_smallest_settings(nb, tmp_path, book_unchanged):
    combo, build = (QUICK["dln"], build_dln) if nb == DLN else (QUICK["fig"], build_mlp)
    assert valid(build, combo)
    run_combination(nb, combo, build, tmp_path)


def combo_id(value) -> str:
    if isinstance(value, Path):
        return value.stem
    return "-".join(f"{k}={v}" for k, v in value.items() if k != "profile").replace(" ", "")


@pytest.mark.notebook
@pytest.mark.parametrize("nb,combo", [(nb, c) for nb in MLP_NOTEBOOKS for c in MLP_COMBOS]
                         + [(DLN, c) for c in DLN_COMBOS], ids=combo_id)
def test_every_notebook_runs_to_the_end_for_drawn_combinations(nb, combo, tmp_path, book_unchanged):
    run_combination(nb, combo, build_dln if nb == DLN else build_mlp, tmp_path)


def test_the_draw_covers_every_candidate_and_has_valid_combinations():
    for space, combos, build in ((MLP_SPACE, MLP_COMBOS, build_mlp), (DLN_SPACE, DLN_COMBOS, build_dln)):
        for name, values in space.items():
            for v in values:
                assert any(c.get(name) == v for c in combos), (name, v)
        assert sum(valid(build, c) for c in combos) >= len(combos) - 2


@pytest.mark.parametrize("args,message", [
    (["-p", "profile", "nonsense"], "ConfigError: profile must be 'default' for the claims report"),
    (["-p", "foo", "1"], "ConfigError: unknown parameter(s) foo: this notebook's parameters are profile"),
])
def test_the_claims_report_checks_its_parameters(tmp_path, args, message):
    report = ROOT / "notebooks" / "claims_report.ipynb"
    proc = subprocess.run([str(PAPERMILL), str(report), str(tmp_path / "report.ipynb"), "--cwd", str(report.parent)] + args,
                          capture_output=True, text=True)
    assert proc.returncode != 0 and message in proc.stdout + proc.stderr
