"""The GPU check runs on a bare machine, and the captured trainer is the eager one.

- ``benchmarks/gpu_check.py`` and every module of the repository it imports (transitively,
  packages' ``__init__`` included) import nothing but the standard library, torch and numpy
  (and tqdm, which the script replaces by a stand-in where it is missing);
- the script's rehearsal (``--device cpu --smoke``) runs in a fresh interpreter where the
  project is *not* installed (no site-packages ``.pth`` files: the editable install is not
  seen), the repository only on ``PYTHONPATH``, and tqdm, yaml, matplotlib, scipy, pytest,
  papermill and Jupyter made unimportable;
- ``benchmarks/cuda_graphs.py`` without capture (the path that can be tested
  here) gives bitwise the histories of :func:`grok_lib.paper_a.train.train_sweep` on the
  CPU, with either recorder, resumed or not. The capture itself needs CUDA: the last test
  runs only where there is one (and ``gpu_check.py`` measures it).
"""

import dataclasses
import json
import os
import site
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ast_imports import imports_of
import torch

from grok_lib.config import ConfigError
from benchmarks import cuda_graphs, gpu_check
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


def transitive_imports(start: Path) -> tuple[set[str], set[str]]:
    """(repository modules reached, top-level names of everything else imported) from ``start``."""
    seen, outside, todo = set(), set(), [(start, "benchmarks")]
    while todo:
        path, package = todo.pop()
        for name in imports_of(path, package):
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
    assert {"grok_lib.paper_a.train", "benchmarks.cuda_graphs", "grok_lib.store",
            "benchmarks.bench_sweep", "grok_lib.paper_a.dln.train"} <= reached  # the walk does go deep
    foreign = sorted(outside - set(sys.stdlib_module_names) - ALLOWED - {"__future__"})
    assert not foreign, f"gpu_check.py needs {foreign}, which a bare GPU machine may not have"


def test_reading_the_chapter_declarations_imports_nothing_beyond_torch_and_numpy():
    """Step 6 reads the figure declarations (each chapter module's CHAPTER, reached through import_module, which the
    import walk above does not follow); they name matplotlib and the style with chapters.deferred, imported only when a
    figure is drawn.
    So check it in a process: reading Part A's declarations, as step 6 does, adds no module outside the standard
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
    assert list(report["steps"]) == ["1 device", "2 checks", "3 sweep benchmark", "4 recorded step", "5 paper sweep"]
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
    """Step 6 compares the GPU sweep with the committed CPU numbers of each figure of the default weight-decay sweep."""
    names = gpu_check.default_sweep_numbers()
    assert "paper_a/fig1_loss_curves" in names and "paper_a/dln_fast_clock" not in names
    assert "paper_a/fig1_paper_settings" not in names
    assert all(gpu_check.figure_numbers.committed(n) for n in names)
