"""The GPU check runs on a bare machine, and the captured trainer is the eager one.

- ``benchmarks/gpu_check.py`` and every module of the repository it imports (transitively,
  packages' ``__init__`` included) import nothing but the standard library, torch and numpy
  (and tqdm, which the script replaces by a stand-in where it is missing), scipy aside: Part B's
  modules import it inside the functions that fit margins and sharpness, which the check never calls;
- the script's rehearsal (``--device cpu --smoke``) runs in a fresh interpreter where the
  project is *not* installed (no site-packages ``.pth`` files: the editable install is not
  seen), the repository only on ``PYTHONPATH``, and tqdm, yaml, matplotlib, scipy, pytest,
  papermill and Jupyter made unimportable;
- ``benchmarks/cuda_graphs.py`` without capture (the path that can be tested
  here) gives bitwise the histories of :func:`grok_lib.paper_a.train.train_sweep` on the
  CPU, with either recorder, resumed or not. The capture itself needs CUDA: the last test
  runs only where there is one (and ``gpu_check.py`` measures it);
- Part B's step (``benchmarks/paper_b_runs.py``) writes the modular-addition chapter's runs under the keys the
  notebook computes, bitwise the store's trainer's, and a run the budget cannot finish is not written.
"""

import argparse
import contextlib
import dataclasses
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ast_imports import imports_of
import torch

from grok_lib.config import ConfigError
from benchmarks import cuda_graphs, gpu_check, paper_b_runs
from grok_lib.paper_a.config import profile_config, weight_decay_sweep
from benchmarks.cuda_graphs import CapturedStep, adamw_scalars, frozen_from, train_sweep_captured
from grok_lib.paper_a.train import StackRun, TrainState, train_sweep
from grok_lib.plans import run_key
from grok_lib.store import RunStore


#: trained in one torch thread, as the run store trains (conftest.one_thread)
pytestmark = pytest.mark.usefixtures("one_thread")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "gpu_check.py"
ALLOWED = {"torch", "numpy", "tqdm"}  # tqdm: gpu_check.ensure_tqdm stands in for it where it is missing
#: Imported only inside functions the check never calls (Part B's margin, sharpness and line fits); the rehearsal
#: blocks it, so a call would fail the smoke run.
IN_UNCALLED_FUNCTIONS = {"scipy"}
BLOCKED = ("tqdm", "yaml", "matplotlib", "scipy", "pandas", "pytest", "papermill", "nbformat", "nbclient",
           "IPython", "jupyter_client", "dask")


# --- what the script imports ---------------------------------------------------------------------------------



def repo_file(module: str):
    """The repository file of ``module`` (a package's ``__init__``), or None if it is not one."""
    path = ROOT.joinpath(*module.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


def transitive_imports(start: Path, in_functions: bool = True) -> tuple[set[str], set[str]]:
    """(repository modules reached, top-level names of everything else imported) from ``start`` (without
    ``in_functions``: only the imports that importing a module runs)."""
    seen, outside, todo = set(), set(), [(start, "benchmarks")]
    while todo:
        path, package = todo.pop()
        for name in imports_of(path, package, in_functions):
            top = name.split(".")[0]
            if top not in ("grok_lib", "benchmarks"):
                outside.add(top)
                continue
            parts = name.split(".")
            for i in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ too
                module = ".".join(parts[:i])
                file = repo_file(module)
                if file is not None and module not in seen:
                    seen.add(module)
                    todo.append((file, module if file.name == "__init__.py" else module.rsplit(".", 1)[0]))
    return seen, outside


def test_the_gpu_check_imports_only_the_standard_library_torch_and_numpy():
    reached, outside = transitive_imports(SCRIPT)
    assert {"grok_lib.paper_a.train", "benchmarks.cuda_graphs", "grok_lib.store", "benchmarks.paper_b_runs",
            "benchmarks.bench_sweep", "grok_lib.paper_a.dln.train", "grok_lib.paper_b.relu_net"} <= reached  # deep
    foreign = sorted(outside - set(sys.stdlib_module_names) - ALLOWED - IN_UNCALLED_FUNCTIONS - {"__future__"})
    assert not foreign, f"gpu_check.py needs {foreign}, which a bare GPU machine may not have"
    _, on_import = transitive_imports(SCRIPT, in_functions=False)
    assert not on_import & IN_UNCALLED_FUNCTIONS, "importing the check's modules imports scipy"


def test_reading_the_chapter_declarations_imports_nothing_beyond_torch_and_numpy():
    """Step 8 reads the figure declarations (each chapter module's CHAPTER, reached through import_module, which the
    import walk above does not follow); they name matplotlib and the style with chapters.deferred, imported only when a
    figure is drawn.
    So check it in a process: reading Part A's declarations, as step 8 does, adds no module outside the standard
    library and grok_lib to what importing grok_lib, numpy and torch loads."""
    code = ("import sys, grok_lib, numpy, torch; before = {m.split('.')[0] for m in sys.modules}; "
            "from grok_lib import chapters; assert chapters.figures('paper_a'); "
            "added = {m.split('.')[0] for m in sys.modules} - before - set(sys.stdlib_module_names) - {'grok_lib'}; "
            "assert not added, sorted(added)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_import_walk_sees_a_third_party_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom grok_lib import clocks\ndef f():\n    import yaml\n")
    reached, outside = transitive_imports(probe)
    assert "grok_lib.clocks" in reached and "yaml" in outside and "numpy" in outside
    _, on_import = transitive_imports(probe, in_functions=False)
    assert "numpy" in on_import and "yaml" not in on_import  # grok_lib.clocks imports numpy at its top


# --- the rehearsal, not installed ----------------------------------------------------------------------------
RUNNER = """
import importlib.abc, json, runpy, sys
BLOCKED = set(sys.argv[1].split(","))
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None
sys.meta_path.insert(0, Block())
sys.path.append(sys.argv[2])  # site-packages without its .pth files: the editable install is not seen
script, sys.argv = sys.argv[3], sys.argv[3:]
try:
    runpy.run_path(script, run_name="__main__")
    code = 0
except SystemExit as stop:
    code = stop.code or 0
import grok_lib
print("DIAGNOSTICS " + json.dumps({
    "grok_lib": grok_lib.__file__,
    "editable_finder": sorted(m for m in sys.modules if "editable" in m),
    "blocked_loaded": sorted(m for m, mod in list(sys.modules.items())
                             if m.split(".")[0] in BLOCKED and getattr(mod, "__file__", None)),
    "tqdm": sys.modules["tqdm"].__dict__.get("__file__"),
}))
sys.exit(code)
"""


def run_smoke(out: Path) -> tuple[subprocess.CompletedProcess, dict]:
    site_packages = next(p for p in site.getsitepackages() if Path(p, "torch").exists())
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    # the same arithmetic as this process (its keys are compared with ours): the switch and the pins pass through
    env |= {k: os.environ[k] for k in ("GROK_ARITHMETIC", "MKL_CBWR", "ATEN_CPU_CAPABILITY", "OPENBLAS_CORETYPE")
            if k in os.environ}
    cmd = [sys.executable, "-S", "-c", RUNNER, ",".join(BLOCKED), site_packages, str(SCRIPT), str(out),
           "--device", "cpu", "--smoke"]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("DIAGNOSTICS ")), None)
    return proc, json.loads(line[len("DIAGNOSTICS "):]) if line else {}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu_check") / "out"
    proc, diagnostics = run_smoke(out)
    return out, proc, diagnostics


@pytest.mark.train
def test_the_smoke_run_passes_without_the_package_installed(smoke):
    out, proc, diagnostics = smoke
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert diagnostics["grok_lib"] == str(ROOT / "grok_lib" / "__init__.py")
    assert diagnostics["editable_finder"] == []
    assert diagnostics["blocked_loaded"] == []
    assert diagnostics["tqdm"] is None  # the stand-in
    report = json.loads((out / "report.json").read_text())
    assert report["failures"] == [], report["failures"]
    assert report["finished"] == "all checks that ran passed"
    assert list(report["steps"]) == ["1 device", "2 checks", "3 sweep benchmark", "4 recorded step", "5 paper sweep",
                                     paper_b_runs.STEP, paper_b_runs.SPARSE_STEP]
    assert report["steps"]["1 device"]["tqdm"].startswith("missing")
    checks = report["steps"]["2 checks"]
    assert all(v["ok"] for v in checks.values()), checks
    assert checks["captured trainer equals eager, recorder eager"]["bitwise"]
    assert {s["what"] for s in report["skipped"]} == {"synchronisations per step", "default profile against the CPU"}
    sweep = report["steps"]["5 paper sweep"]
    assert sweep["mode eager"]["epochs_done"] == sweep["mode captured"]["epochs_done"] == 1000
    assert sweep["eager vs captured"]["bitwise"]
    assert set(sweep["mode eager"]["key_numbers"]) == {"wd=0.6", "wd=0.7", "wd=0.8", "wd=0.9", "wd=1"}
    assert "T_rep" in sweep["cpu recorded values"]["wd=0.6"]  # the committed default-profile values
    md = (out / "report.md").read_text()
    assert "**Finished**" in md and "CPU values of the paper profile are not recorded" in md


def test_the_smoke_run_writes_histories_the_run_store_can_load(smoke):
    out, proc, _ = smoke
    written = json.loads((out / "report.json").read_text())["steps"]["5 paper sweep"]["written to runs/"]
    configs = weight_decay_sweep(profile_config("ci", epochs=1000))
    assert written["keys"] == [run_key(c, "cpu") for c in configs]
    store = RunStore(out / "runs")
    for config, key in zip(configs, written["keys"]):
        h = store.load(key)
        assert h is not None and h.config == config.to_dict()
        assert h.meta["recorded_by"] == "benchmarks/gpu_check.py" and h.meta["mode"] == "eager"
        assert h.snapshot_steps.tolist() == [0, 500, 1000]  # the snapshots the figures read
        assert {"train_loss", "test_loss", "srank_E", "update_E"} <= set(h.metrics)


# --- Part B's step: the notebook's runs, the store's numbers ----------------------------------------------------------
def modadd_chapter_runs(profile: str) -> list:
    """The modular-addition notebook's figure runs at ``profile``, each once (what its setup call plans)."""
    from grok_lib.paper_b.chapters import modular_addition

    groups = modular_addition.CHAPTER.runs(profile)
    return list(dict.fromkeys(groups["alpha"] + groups["weight_decay"]))


def test_the_smoke_run_writes_part_b_runs_the_notebook_reads_bitwise_the_stores(smoke):
    """Every figure run the notebook plans at the ci profile is in runs/ under the key it computes (so the notebook
    reads it instead of training), and is bitwise what the run store's trainer computes."""
    from grok_lib.paper_b import relu_net

    out, _, _ = smoke
    step = json.loads((out / "report.json").read_text())["steps"][paper_b_runs.STEP]
    configs = modadd_chapter_runs("ci")
    assert step["written to runs/"]["keys"] == [run_key(c, "cpu") for c in configs]
    assert step[paper_b_runs.REPLAY_CHECK]["bitwise"]
    store = RunStore(out / "runs")
    for c in configs:
        written, own = store.load(run_key(c, "cpu")), relu_net.train(c, progress=False)
        assert written.meta["recorded_by"] == "benchmarks/gpu_check.py" and written.meta["stepper"] == "eager"
        assert written.steps.tolist() == own.steps.tolist() and set(written.metrics) == set(own.metrics)
        for k in own.metrics:
            np.testing.assert_array_equal(written[k], own[k], err_msg=k)
        assert step[f"run {paper_b_runs.tag(c)}"]["complete"]


def test_the_gpu_checks_part_b_plan_is_the_notebooks_at_the_papers_settings(monkeypatch):
    from grok_lib.plans import plan

    planned = paper_b_runs.planned("paper", "cuda")
    notebook = modadd_chapter_runs("paper")
    assert [dataclasses.replace(c, device="auto") for c in planned] == notebook
    assert {(c.p, c.width, c.lr, c.train_frac, c.steps) for c in planned} == {(97, 1024, 0.002, 0.4, 1_000_000)}
    assert sorted({c.alpha for c in planned}) == [1.0, 10.0, 100.0]
    assert sorted({c.weight_decay for c in planned}) == [1e-4, 3e-4, 1e-3, 3e-3]
    assert len(planned) == 6  # the run both sweeps share, once
    # on a CUDA machine the notebook plans its "auto" configs under the keys the check writes
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert [plan(c).key for c in notebook] == [run_key(c, "cuda") for c in planned]


def test_a_part_b_run_the_budget_cannot_finish_stops_and_is_not_written(tmp_path):
    config = paper_b_runs.planned("ci", "cpu")[0]
    h, how = paper_b_runs.train_one(config, "cpu", deadline=0.0)  # long past: stops at the first recorded step
    assert not how["complete"] and h.meta["stopped_at"] == how["steps_done"] == 0
    assert h.steps.tolist() == [0] and len(h["test_acc"]) == 1
    report = gpu_check.Report(tmp_path, argparse.Namespace(device="cpu", smoke=True), budget_s=0.0)
    paper_b_runs.modadd_paper(report, "cpu", smoke=True)
    assert report.data["steps"][paper_b_runs.STEP]["written to runs/"]["keys"] == []
    assert len([s for s in report.data["skipped"] if s["what"].startswith("Part B run")]) == 3
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").glob("*.npz"))


def test_a_run_stopped_midway_is_the_first_steps_of_the_whole_run():
    from grok_lib.paper_b import relu_net

    config = paper_b_runs.planned("ci", "cpu")[0]
    whole = relu_net.train(config, progress=False)
    part = relu_net.train(config, progress=False, stop=lambda step: step >= 50)
    n = len(part.steps)
    assert part.meta["stopped_at"] == part.steps[-1] >= 50 and whole.steps.tolist()[:n] == part.steps.tolist()
    for k in whole.metrics:
        np.testing.assert_array_equal(part[k], whole[k][:n], err_msg=k)


class FakeCuda:
    """Stand-ins for the torch.cuda calls :class:`paper_b_runs.CapturedGD` makes, counting what a GPU would run: a
    capture runs no step (``capturing`` tells the counted gd_step so), a replay runs the captured one."""

    class Stream:
        def wait_stream(self, other):
            pass

    def __init__(self, capture_fails: bool = False):
        self.capturing, self.fails = False, capture_fails
        self.default = self.stream = self.Stream()  # the stream the caller is on
        self.ran = []  # "eager" or "replay", one per step taken

    def patch(self, monkeypatch):
        from grok_lib.paper_b import relu_net

        fake = self

        class Graph:
            def replay(self):
                fake.ran.append("replay")

        @contextlib.contextmanager
        def graph(g):
            before, fake.capturing, fake.stream = fake.stream, True, self.Stream()
            try:
                yield
                if fake.fails:
                    raise RuntimeError("operation not permitted when stream is capturing")
            finally:
                fake.capturing = False  # torch leaves the capture stream set when capture_end raises
            fake.stream = before

        def gd_step(*args):
            if not fake.capturing:
                fake.ran.append("eager")

        monkeypatch.setattr(relu_net, "gd_step", gd_step)
        for name, value in {"CUDAGraph": Graph, "graph": graph, "Stream": self.Stream, "synchronize": lambda: None,
                            "stream": lambda s: contextlib.nullcontext(), "current_stream": lambda: fake.stream,
                            "set_stream": lambda s: setattr(fake, "stream", s)}.items():
            monkeypatch.setattr(torch.cuda, name, value, raising=False)
        return self


@pytest.mark.parametrize("fails", [False, True])
def test_the_captured_step_takes_every_step_once_and_falls_back_to_eager(monkeypatch, fails):
    fake = FakeCuda(capture_fails=fails).patch(monkeypatch)
    step = paper_b_runs.CapturedGD({}, None, 0.1, 0.0, capture=True)
    for _ in range(10):
        step()
    warm = ["eager"] * paper_b_runs.CapturedGD.WARMUP
    if fails:
        assert fake.ran == ["eager"] * 10 and step.graph is None and "not permitted" in step.error
        assert fake.stream is fake.default  # the caller's stream is put back
    else:
        assert fake.ran == warm + ["replay"] * (10 - len(warm)) and step.error is None


def test_part_b_skips_a_run_it_cannot_finish_and_goes_on_after_a_failure(tmp_path, monkeypatch):
    """After a complete run, a run whose estimate at that pace is over the time left is skipped; a run that raises is
    reported and the next tried; only complete runs are written."""
    report = gpu_check.Report(tmp_path, argparse.Namespace(device="cpu", smoke=True), budget_s=600.0)
    configs = paper_b_runs.planned("ci", "cpu")
    real = paper_b_runs.train_one
    calls = []

    def train_one(config, device, deadline, capture=True):
        if config not in configs:  # the replay check's short run
            return real(config, device, deadline, capture)
        calls.append(config)
        if len(calls) == 1:
            raise FloatingPointError("modadd diverged at step 7")
        h, how = real(config, device, deadline, capture)
        return h, how | {"wall_s": 1e3}  # as if it took 1,000 s: the next run cannot fit in the 600 s

    monkeypatch.setattr(paper_b_runs, "train_one", train_one)
    paper_b_runs.modadd_paper(report, "cpu", smoke=True)
    step = report.data["steps"][paper_b_runs.STEP]
    assert calls == configs[:2]
    assert [f["what"] for f in report.data["failures"]] == [f"Part B run {paper_b_runs.tag(configs[0])}"]
    assert step[paper_b_runs.WRITTEN]["keys"] == [run_key(configs[1], "cpu")]
    skipped = [s for s in report.data["skipped"] if s["what"].startswith("Part B run")]
    assert len(skipped) == 1 and "needs about 1105 s at the last run's pace" in skipped[0]["why"]
    # a second check in the same folder (the next lease, the first one's runs copied in) keeps the written run
    calls.clear()
    again = gpu_check.Report(tmp_path, argparse.Namespace(device="cpu", smoke=True), budget_s=600.0)
    paper_b_runs.modadd_paper(again, "cpu", smoke=True)
    assert calls == [configs[0], configs[2]]  # not configs[1]
    assert again.data["steps"][paper_b_runs.STEP][f"run {paper_b_runs.tag(configs[1])}"].startswith("already in runs/")
    assert "already in runs/" in (tmp_path / "report.md").read_text()


def test_the_smoke_runs_sparse_sweep_is_the_stacked_sweeps_on_its_device(smoke):
    from grok_lib.history import History
    from grok_lib.paper_b import diagonal_sweep

    out, _, _ = smoke
    step = json.loads((out / "report.json").read_text())["steps"][paper_b_runs.SPARSE_STEP]
    assert step["this call"]["done"] and step["this call"]["started_at"] == 0
    configs = paper_b_runs.sparse_configs(smoke=True)
    assert {c.margins for c in configs} == {False} and len(step["members"]) == len(configs) == 5
    straight = diagonal_sweep.train_sweep(configs, progress=False, array_device="cpu")
    for j, ref in enumerate(straight):
        got = History.from_bytes((out / paper_b_runs.SPARSE_FOLDER / f"{j}.npz").read_bytes())
        assert got.steps.tolist() == ref.steps.tolist()
        for k in ref.metrics:
            np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


def test_the_sparse_sweep_stopped_in_one_lease_ends_in_the_next_as_one_call_would(tmp_path, monkeypatch):
    from grok_lib.history import History
    from grok_lib.paper_b import diagonal_sweep, sweep_folder

    real = sweep_folder.train

    def first_lease(*args, **kwargs):  # its time is up at once: it stops at its first checkpoint
        return real(*args, **(kwargs | {"stop_after": 0.0}))

    report = gpu_check.Report(tmp_path, argparse.Namespace(device="cpu", smoke=True), budget_s=600.0)
    monkeypatch.setattr(paper_b_runs.sweep_folder, "train", first_lease)
    paper_b_runs.sparse_paper(report, "cpu", smoke=True)
    call = report.data["steps"][paper_b_runs.SPARSE_STEP]["this call"]
    assert not call["done"] and call["stopped_at"] == 200 and call["calls_of_this_length_left"] == 9
    assert "stopped at a checkpoint" in (tmp_path / "report.md").read_text()
    monkeypatch.setattr(paper_b_runs.sweep_folder, "train", real)
    nxt = tmp_path / "next"  # the next lease's folder, the first one's sweep copied in
    nxt.mkdir()
    shutil.copytree(tmp_path / paper_b_runs.SPARSE_FOLDER, nxt / paper_b_runs.SPARSE_FOLDER)
    again = gpu_check.Report(nxt, argparse.Namespace(device="cpu", smoke=True), budget_s=600.0)
    paper_b_runs.sparse_paper(again, "cpu", smoke=True)
    call = again.data["steps"][paper_b_runs.SPARSE_STEP]["this call"]
    assert call["done"] and call["started_at"] == 200
    configs = paper_b_runs.sparse_configs(smoke=True)
    for j, ref in enumerate(diagonal_sweep.train_sweep(configs, progress=False, array_device="cpu")):
        got = History.from_bytes((nxt / paper_b_runs.SPARSE_FOLDER / f"{j}.npz").read_bytes())
        for k in ref.metrics:
            np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


def test_a_sparse_sweep_begun_with_another_torch_is_left_alone_and_said_so(tmp_path):
    report = gpu_check.Report(tmp_path, argparse.Namespace(device="cpu", smoke=True), budget_s=600.0)
    folder = tmp_path / paper_b_runs.SPARSE_FOLDER
    paper_b_runs.sweep_folder.check(folder, paper_b_runs.sparse_configs(smoke=True), "float64", array_device="cpu")
    described = json.loads((folder / "sweep.json").read_text())
    (folder / "sweep.json").write_text(json.dumps(described | {"torch": "2.11.0+cu130"}))
    paper_b_runs.sparse_paper(report, "cpu", smoke=True)
    (skipped,) = [s for s in report.data["skipped"] if s["what"] == "Part B sparse sweep"]
    assert "was trained with torch 2.11.0+cu130" in skipped["why"] and "go on with it or record it where it started" in skipped["why"]
    assert report.data["failures"] == [] and not (folder / "state.npz").exists()


# --- the captured trainer, uncaptured: bitwise train_sweep on the CPU -------------------------------------------
def members(dtype="float32", **overrides):
    """Three members differing in weight decay (one 0), init seed and learning rate, with betas whose
    AdamW scalars settle early (float32, beta2 = 0.9: step 167; float64, betas 0.5: step 55)."""
    betas = {"beta2": 0.9} if dtype == "float32" else {"beta1": 0.5, "beta2": 0.5}
    base = profile_config("ci", epochs=300, eval_every=25, dtype=dtype, device="cpu", **betas, **overrides)
    return [dataclasses.replace(base, weight_decay=0.5), dataclasses.replace(base, weight_decay=1.0, init_seed=3),
            dataclasses.replace(base, weight_decay=0.0, lr=3e-3)]


def assert_same(a, b, rtol=0.0):
    for ha, hb in zip(a, b):
        assert ha.steps.tolist() == hb.steps.tolist()
        assert set(ha.metrics) == set(hb.metrics)
        for k in ha.metrics:
            if rtol == 0:
                np.testing.assert_array_equal(ha[k], hb[k], err_msg=k)
            else:
                np.testing.assert_allclose(ha[k], hb[k], rtol=rtol, atol=0, equal_nan=True, err_msg=k)
        assert ha.snapshot_steps.tolist() == hb.snapshot_steps.tolist()
        for k in ha.snapshots:
            np.testing.assert_allclose(ha.snapshots[k], hb.snapshots[k], rtol=rtol, atol=0, err_msg=k)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_uncaptured_step_gives_bitwise_the_histories_of_train_sweep(dtype):
    configs = members(dtype)
    timings = {}
    captured = train_sweep_captured(configs, timings=timings)
    assert timings["replayed_steps"] > 100 and timings["settle_step"] == frozen_from(configs) < 200
    assert captured[0].meta["trainer"] == "cuda_graphs" and not captured[0].meta["captured"]
    assert_same(train_sweep(configs, progress=False), captured)


def test_the_batched_recorder_records_what_the_per_member_recording_does():
    configs = members()
    # Bitwise on this machine; 1e-12 leaves room for reductions split differently elsewhere.
    assert_same(train_sweep(configs, progress=False), train_sweep_captured(configs, recorder="batched"), rtol=1e-12)


def test_a_resumed_captured_run_ends_as_an_uninterrupted_one():
    configs = members(checkpoint_every=100)
    saved = []
    full = train_sweep_captured(configs, on_checkpoint=saved.append)
    assert [s.step for s in saved] == [100, 200]
    resumed = train_sweep_captured(configs, resume=TrainState.from_arrays(saved[1].to_arrays()))
    for a, b in zip(full, resumed):
        for k in a.metrics:
            np.testing.assert_array_equal(a[k], b[k], err_msg=k)
        np.testing.assert_array_equal(a.snapshots["E"], b.snapshots["E"])


@pytest.mark.parametrize("dtype, cast", [("float32", np.float32), ("float64", float)])
def test_the_adamw_scalars_settle_in_the_parameters_dtype_at_frozen_from(dtype, cast):
    configs = members(dtype)
    t = frozen_from(configs)
    lrs = [c.lr for c in configs]

    def seen(count):
        s, sizes = adamw_scalars(lrs, configs[0].beta1, configs[0].beta2, count)
        return (cast(s), *map(cast, sizes))

    assert all(seen(u) == seen(configs[0].epochs) for u in range(t, configs[0].epochs + 1))
    assert seen(t - 1) != seen(t)
    assert frozen_from(weight_decay_sweep(profile_config("paper"))) == 824  # the profiles' betas, float32


def test_the_captured_step_refuses_unsettled_scalars_and_capture_without_cuda():
    configs = members()
    run = StackRun(configs, "cpu")
    with pytest.raises(ValueError, match="before the AdamW scalars settle"):
        CapturedStep(run, configs)
    run.opt.step_count = frozen_from(configs)
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="needs a run on a CUDA device"):
            CapturedStep(run, configs, capture=True)
        with pytest.raises(ConfigError, match="capture=True needs device 'cuda'"):
            train_sweep_captured(configs, capture=True)
    with pytest.raises(ConfigError, match="recorder must be one of eager, batched"):
        train_sweep_captured(configs, recorder="fast")


def test_a_deadline_stops_the_run_at_a_recorded_step_with_the_history_so_far():
    configs = members()
    histories = train_sweep_captured(configs, deadline=0.0)  # long past: stops at the first recorded step after 0
    assert histories[0].meta["stopped_at"] == 1
    assert histories[0].steps.tolist() == [0] and len(histories[0]["update_E"]) == 1


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a CUDA device")
def test_on_a_gpu_the_replayed_steps_train_as_the_eager_ones():
    configs = [dataclasses.replace(c, device="cuda") for c in members()]
    eager = train_sweep(configs, progress=False, device="cuda")
    captured = train_sweep_captured(configs, device="cuda", capture=True)
    assert captured[0].meta["captured"]
    assert_same(eager, captured, rtol=1e-5)  # bitwise is the aim; gpu_check.py reports which
    assert cuda_graphs.RECORDERS == ("eager", "batched")


def test_the_cpu_comparison_covers_every_figure_of_the_default_sweep():
    """Step 8 compares the GPU sweep with the committed CPU numbers of each figure of the default weight-decay sweep."""
    names = gpu_check.default_sweep_numbers()
    assert "paper_a/fig1_loss_curves" in names and "paper_a/dln_fast_clock" not in names
    assert "paper_a/fig1_paper_settings" not in names
    assert all(gpu_check.figure_numbers.committed(n) for n in names)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a CUDA device")
def test_on_a_gpu_the_replayed_gd_steps_train_as_the_eager_ones():
    from grok_lib.paper_b import relu_net

    config = dataclasses.replace(paper_b_runs.planned("ci", "cuda")[0], steps=300)
    eager = relu_net.train(config, progress=False)
    captured, how = paper_b_runs.train_one(config, "cuda", deadline=float("inf"))
    assert how["captured"], how["capture_error"]
    for k in eager.metrics:  # bitwise is the aim; gpu_check.py reports which
        np.testing.assert_allclose(captured[k], eager[k], rtol=1e-5, err_msg=k)
