"""The GPU check: one command, run from the repository root on a bare CUDA machine.

    python3 benchmarks/gpu_check.py OUT_DIR                         # on the GPU, about 7 minutes at most
    python3 benchmarks/gpu_check.py OUT_DIR --parts b --budget-min 9  # Part B's paper-scale runs only
    python3 benchmarks/gpu_check.py OUT_DIR --device cpu --smoke    # the rehearsal: tiny sizes, seconds

It needs only the standard library, torch >= 2.11 and numpy, with the repository on the
path (this script puts it there): no install step, no virtualenv, no Jupyter, no network.
tqdm is imported by the trainers; where it is missing a silent stand-in is used.

In order, writing OUT_DIR/report.json and OUT_DIR/report.md after every step (a run cut
off anywhere still leaves its numbers):

1. device facts (versions, GPU, memory, fp32 matmul settings);
2. checks on the device: no host reads between recorded steps (eager and captured
   trainers), host synchronisations per unrecorded step (CUDA's sync debug mode), each
   member of a stack against its solo run (float64 to 1e-10; float32 bitwise on the CPU),
   and the captured trainer against the eager one, metric by metric;
3. the sweep benchmark at the default and paper profiles: 5-member stacked step against
   5 solo steps, eager and captured; FLOP/s against fp32 matmul at the step's shapes,
   measured here; memory per member;
4. the cost of one recorded step, per recorder;
5. the paper settings of Figures 1 and 3 (5 weight decays x 15,000 epochs, width 512) as
   one stacked sweep, eager and captured: wall time per sweep and the key numbers (T_cls,
   T_grok, T_rep, stable-rank peak and end) beside the CPU's recorded values. The first
   complete sweep is written to OUT_DIR/runs in the run store's format (compact: the
   snapshots the figures read only). With Part B in the check it has half the time left;
6. Part B's modular addition at the paper's settings (p = 97, width 1024, lr 0.002, the alpha sweep and the
   lambda grid, 10^6 GD steps a run; benchmarks/paper_b_runs.py), each run the store's trainer with its step
   replayed as a CUDA graph; complete runs written to OUT_DIR/runs in the run store's format. Half of Part B's time;
7. Part B's sparse alpha sweep at the paper's d = 10^5 and lambda (1.94 million steps, one stacked computation on
   the device), started or continued in OUT_DIR/sparse_sweep (copy a previous check's there to go on) until it
   is done or the time is up;
8. with time left: the default profile on the device against the committed CPU figure
   numbers (the ``numbers`` of book/figure_files/paper_a/<figure>.json), within the regression tolerances.

``--parts`` picks the papers: ``a`` (steps 2-5 and 8), ``b`` (steps 6 and 7) or both (the default).
A time budget (--budget-min, default 7) stops it cleanly: a sweep stops at a recorded step,
a step that does not fit is skipped, and the report says what was skipped. Exit status: 0
if every check that ran passed, 1 if one failed, 2 if the device is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
import traceback
import types
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grok_lib  # noqa: E402,F401  before numpy and torch: it pins the arithmetic (grok_lib/arithmetic.py)

#: The oldest torch this script claims to run on (the GPU machines' preinstalled one).
OLDEST_TORCH = (2, 11)
#: Members of the benchmark stacks and of the paper sweep (Figures 1 and 3).
MEMBERS = 5


def ensure_tqdm() -> str:
    """Import tqdm, or put a silent stand-in in its place (the trainers only draw progress bars)."""
    try:
        import tqdm

        return f"tqdm {getattr(tqdm, '__version__', '?')}"
    except ImportError:
        class _Bar:
            def __init__(self, iterable=None, *args, **kwargs):
                self.iterable = iterable

            def __iter__(self):  # tqdm(range(n)) in Part B's trainers
                return iter(self.iterable)

            def update(self, *args, **kwargs):
                pass

            def set_postfix(self, *args, **kwargs):
                pass

            def close(self):
                pass

        stub = types.ModuleType("tqdm")
        stub.tqdm = _Bar
        sys.modules["tqdm"] = stub
        return "missing: a silent stand-in was used"


TQDM = ensure_tqdm()

import numpy as np  # noqa: E402
import torch  # noqa: E402

from benchmarks import bench_sweep, cuda_graphs, paper_b_runs  # noqa: E402
from grok_lib import figure_numbers  # noqa: E402
from grok_lib.history import History  # noqa: E402
from grok_lib import chapters  # noqa: E402
from grok_lib.paper_a import curve_numbers, train as train_module  # noqa: E402
from grok_lib.paper_a.config import profile_config, sweep, weight_decay_sweep  # noqa: E402
from benchmarks.cuda_graphs import CapturedStep, frozen_from, train_sweep_captured  # noqa: E402
from grok_lib.paper_a.train import StackRun, record_schedule, train, train_sweep  # noqa: E402
from grok_lib.plans import run_key  # noqa: E402
from grok_lib.store import RunStore


class OutOfTime(Exception):
    """The time budget ran out inside a sweep."""


# --- the report ------------------------------------------------------------------------------------------
class Report:
    """report.json and report.md in OUT_DIR, rewritten after every step."""

    def __init__(self, out: Path, args, budget_s: float):
        self.out, self.t0, self.budget_s = out, time.perf_counter(), budget_s
        self.data = {"command": " ".join([Path(sys.executable).name, *sys.argv]),
                     "started": time.strftime("%Y-%m-%d %H:%M:%S"), "device": args.device, "smoke": args.smoke,
                     "budget_s": budget_s, "steps": {}, "skipped": [], "failures": [], "warnings": []}
        self.write()

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def left(self) -> float:
        return self.budget_s - self.elapsed()

    def deadline(self, share: float = 1.0, reserve: float = 0.0) -> float:
        """A ``time.perf_counter()`` value: ``share`` of the time left (less ``reserve`` s) from now."""
        return time.perf_counter() + max(0.0, share * (self.left() - reserve))

    def put(self, step: str, key: str, value) -> None:
        self.data["steps"].setdefault(step, {})[key] = value
        self.write()

    def skip(self, what: str, why: str) -> None:
        self.data["skipped"].append({"what": what, "why": why})
        log(f"  skipped {what}: {why}")
        self.write()

    def fail(self, what: str, message: str) -> None:
        self.data["failures"].append({"what": what, "message": message})
        log(f"  FAILED {what}: {message.splitlines()[-1] if message else ''}")
        self.write()

    def warn(self, what: str, message: str) -> None:
        self.data["warnings"].append({"what": what, "message": message})
        log(f"  note {what}: {message}")
        self.write()

    def write(self) -> None:
        self.data["elapsed_s"] = round(self.elapsed(), 1)
        for name, text in (("report.json", json.dumps(self.data, indent=1, default=_json_default)),
                           ("report.md", render_markdown(self.data))):
            tmp = self.out / f".{name}.tmp"
            tmp.write_text(text)
            os.replace(tmp, self.out / name)


def _json_default(x):
    if isinstance(x, (np.floating, np.integer)):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def log(message: str) -> None:
    print(message, flush=True)


def clean(x):
    """JSON-safe numbers: NaN becomes None, numpy scalars become Python ones."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, (np.floating, float)):
        return None if math.isnan(float(x)) else float(x)
    if isinstance(x, np.integer):
        return int(x)
    return x


# --- helpers ---------------------------------------------------------------------------------------------
def guarded(report: "Report", name: str, fn, *args):
    """``fn(*args)``; an exception is reported as a failure of ``name`` (and None returned)."""
    try:
        return fn(*args)
    except Exception:
        report.fail(name, traceback.format_exc()[-3000:])
        free(report.data["device"])
        return None


def sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def free(device: str) -> None:
    gc.collect()
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.empty_cache()


def max_rel_diff(a, b) -> float:
    """The largest |a - b| / |a| over finite entries (0 where both are 0; NaNs must match)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return math.inf
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return math.inf
    ok = ~np.isnan(a)
    if not ok.any():
        return 0.0
    diff = np.abs(a[ok] - b[ok])
    scale = np.abs(a[ok])
    rel = np.where(diff == 0, 0.0, diff / np.where(scale == 0, np.inf, scale))
    rel = np.where((diff > 0) & (scale == 0), np.inf, rel)
    return float(rel.max())


def compare_histories(a: list[History], b: list[History]) -> dict:
    """Bitwise equality and the worst relative difference of two sweeps' histories, metric by metric."""
    worst, worst_name, bitwise = 0.0, None, True
    for ha, hb in zip(a, b):
        if ha.steps.tolist() != hb.steps.tolist():
            return {"bitwise": False, "max_rel_diff": math.inf, "worst": "recorded steps differ"}
        pairs = [(f"metric {k}", ha[k], hb[k]) for k in ha.metrics]
        pairs += [(f"snapshot {k}", ha.snapshots[k], hb.snapshots[k]) for k in ha.snapshots if k in hb.snapshots]
        for name, x, y in pairs:
            if not np.array_equal(x, y, equal_nan=True):
                bitwise = False
                d = max_rel_diff(x, y)
                if d > worst or worst_name is None:
                    worst, worst_name = d, name
    return {"bitwise": bitwise, "max_rel_diff": worst, "worst": worst_name}


def budget_callback(deadline: float, rows: dict):
    """A train_sweep callback that keeps the rows and raises OutOfTime past ``deadline``."""
    def cb(step, row):
        member = row["member"]
        rows.setdefault(member, []).append((step, row))
        if member == 0 and time.perf_counter() > deadline and len(rows[0]) > 1:
            raise OutOfTime(step)
    return cb


def partial_histories(rows: dict, configs) -> list[History]:
    """Histories from a stopped eager sweep's callback rows (the members' complete recorded steps)."""
    n = min(len(v) for v in rows.values()) if rows else 0
    out = []
    for i, c in enumerate(configs):
        kept = rows.get(i, [])[:n]
        names = [k for k in (kept[0][1] if kept else {}) if k != "member"]
        out.append(History(steps=np.array([s for s, _ in kept], dtype=np.int64),
                           metrics={k: np.array([r[k] for _, r in kept], dtype=np.float64) for k in names},
                           config=c.to_dict(), meta={"stopped_at": int(kept[-1][0]) + 1 if kept else 0}))
    return out


# --- counting host reads and synchronisations ------------------------------------------------------------
HOST_READS = ("item", "__float__", "__int__", "__bool__", "tolist", "cpu", "numpy")


@contextlib.contextmanager
def counted_host_reads(counter: dict):
    """Count every Tensor host read while ``counter["active"]`` (tests/paper_a/test_host_sync.py uses it too)."""
    originals = {name: getattr(torch.Tensor, name) for name in HOST_READS}

    def wrap(name, fn):
        def counted(self, *args, **kwargs):
            if counter["active"]:
                counter[name] = counter.get(name, 0) + 1
            return fn(self, *args, **kwargs)
        return counted

    for name, fn in originals.items():
        setattr(torch.Tensor, name, wrap(name, fn))
    try:
        yield counter
    finally:
        for name, fn in originals.items():
            setattr(torch.Tensor, name, fn)


@contextlib.contextmanager
def patched(obj, name, value):
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def host_reads_outside_recording(run_sweep) -> dict:
    """Host reads made by ``run_sweep()`` outside the recording, snapshot and checkpoint code, with
    the GPU's policy (no NaN check on unrecorded steps)."""
    counter = {"active": False}

    def paused(fn):
        def inner(*args, **kwargs):
            active, counter["active"] = counter["active"], False
            try:
                return fn(*args, **kwargs)
            finally:
                counter["active"] = active
        return inner

    with contextlib.ExitStack() as stack:
        for module in (train_module, cuda_graphs):
            stack.enter_context(patched(module, "checks_every_step", lambda device: False))
            stack.enter_context(patched(module, "check_finite", paused(module.check_finite)))
        for name in ("record", "record_updates", "snapshot", "state"):
            stack.enter_context(patched(StackRun, name, paused(getattr(StackRun, name))))
        for name in ("record_batched", "record_updates_batched"):
            stack.enter_context(patched(cuda_graphs, name, paused(getattr(cuda_graphs, name))))
        stack.enter_context(counted_host_reads(counter))
        counter["active"] = True
        histories = run_sweep()
        counter["active"] = False
    reads = {k: v for k, v in counter.items() if k != "active"}
    return {"host_reads": reads, "recorded_steps": len(histories[0].steps)}


def syncs_per_step(step, n: int) -> dict:
    """Synchronising CUDA calls per call of ``step()`` (torch.cuda's sync debug mode)."""
    torch.cuda.synchronize()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            for _ in range(n):
                step()
        finally:
            torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()
    msgs = [str(w.message) for w in caught if "synchroniz" in str(w.message).lower()]
    return {"per_step": len(msgs) / n, "example": msgs[0][:200] if msgs else None}


# --- 1. device facts ---------------------------------------------------------------------------------------
def device_facts(report: Report, device: str) -> None:
    facts = {"python": platform.python_version(), "platform": platform.platform(), "torch": torch.__version__,
             "torch_cuda": torch.version.cuda, "numpy": np.__version__, "tqdm": TQDM,
             "cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads(),
             "cuda_available": torch.cuda.is_available(), "repository": str(ROOT),
             "grok_lib_from": str(Path(sys.modules["grok_lib"].__file__).parent)}
    version = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
    if version < OLDEST_TORCH:
        report.warn("torch", f"torch {torch.__version__} is older than the oldest this check claims "
                             f"({'.'.join(map(str, OLDEST_TORCH))})")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, read in (("float32_matmul_precision", torch.get_float32_matmul_precision),
                           ("cuda_matmul_allow_tf32", lambda: bool(torch.backends.cuda.matmul.allow_tf32))):
            try:
                facts[name] = read()
            except Exception as err:  # a setting renamed in a later torch
                facts[name] = f"unreadable: {err}"
    facts["CUBLAS_WORKSPACE_CONFIG"] = os.environ.get("CUBLAS_WORKSPACE_CONFIG")
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        facts |= {"gpu": props.name, "gpu_count": torch.cuda.device_count(),
                  "compute_capability": f"{props.major}.{props.minor}", "sm_count": props.multi_processor_count,
                  "gpu_memory_gib": round(props.total_memory / 2**30, 1),
                  "cudnn": torch.backends.cudnn.version()}
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            full = subprocess.run([smi], capture_output=True, text=True, timeout=30)
            (report.out / "nvidia-smi.txt").write_text(full.stdout + full.stderr)
            query = subprocess.run([smi, "--query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit",
                                    "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
            facts["nvidia_smi"] = query.stdout.strip() or query.stderr.strip()
        except (OSError, subprocess.SubprocessError) as err:
            facts["nvidia_smi"] = f"failed: {err}"
    for k, v in facts.items():
        report.put("1 device", k, v)


# --- 2. checks -----------------------------------------------------------------------------------------------
def stack_configs(dtype: str, epochs: int, eval_every: int):
    """Three members that differ in weight decay, init seed and learning rate (as tests/test_stacked.py)."""
    base = profile_config("ci", epochs=epochs, eval_every=eval_every, dtype=dtype)
    return [dataclasses.replace(base, weight_decay=0.5), dataclasses.replace(base, weight_decay=1.0, init_seed=3),
            dataclasses.replace(base, weight_decay=0.0, lr=3e-3)]


def checks(report: Report, device: str, smoke: bool) -> None:
    """Each check on its own: one that raises is reported and the others still run."""
    # The smoke run takes beta2 = 0.9, so that the AdamW scalars settle (and replays start) by step ~160.
    short = {"epochs": 300, "beta2": 0.9} if smoke else {"epochs": 1000}
    for name, fn in (("host reads", check_host_reads), ("synchronisations", check_syncs),
                     ("stacked equals solo", check_stacked), ("captured equals eager", check_captured)):
        guarded(report, f"check: {name}", fn, report, device, smoke, short)


def check_host_reads(report: Report, device: str, smoke: bool, short: dict) -> None:
    """(a) host reads between recorded steps, eager and captured trainers."""
    step, cuda = "2 checks", device == "cuda"
    host_config = [profile_config("ci", eval_every=100, **short)]
    for name, fn in (("eager", lambda: train_sweep(host_config, progress=False, device=device)),
                     ("captured" if cuda else "static step (uncaptured: cpu)",
                      lambda: train_sweep_captured(host_config, device=device, capture=cuda))):
        result = host_reads_outside_recording(fn)
        result["ok"] = result["host_reads"] == {}
        report.put(step, f"host reads between recorded steps, {name}", result)
        if not result["ok"]:
            report.fail(f"host reads ({name})", f"host reads outside the recorded steps: {result['host_reads']}")


def check_syncs(report: Report, device: str, smoke: bool, short: dict) -> None:
    """(b) synchronisations per unrecorded step, CUDA's own count."""
    step, cuda = "2 checks", device == "cuda"
    if cuda:
        configs = weight_decay_sweep(profile_config("ci"))  # 5 members, per-member weight decays
        run = StackRun(configs, device)
        eager = bench_sweep.step_fn(run)
        for _ in range(3):
            eager()
        result = {"eager": syncs_per_step(eager, 20)}
        run.opt.step_count = max(run.opt.step_count, frozen_from(configs) - 1)
        captured = CapturedStep(run, configs, capture=True)
        result["captured"] = syncs_per_step(captured, 20)
        report.put(step, "host synchronisations per unrecorded step (5-member stack)", result)
        if result["eager"]["per_step"] > 0:
            report.warn("eager step", f"{result['eager']['per_step']:g} host synchronisations per unrecorded step: "
                                      "StackedAdamW makes its per-member decay tensors from Python lists at every "
                                      "step (torch.tensor(..., device=cuda), a blocking copy); the captured step "
                                      "makes them once")
        if result["captured"]["per_step"] > 0:
            report.fail("captured step", f"{result['captured']['per_step']} synchronisations per replay")
        del run, eager, captured
        free(device)
    else:
        report.skip("synchronisations per step", "CUDA's sync debug mode needs a CUDA device")


def check_stacked(report: Report, device: str, smoke: bool, short: dict) -> None:
    """(c) each member of a stack against its solo run, on this device."""
    step, cuda = "2 checks", device == "cuda"
    for dtype in ("float64", "float32"):
        configs = stack_configs(dtype, epochs=60 if smoke else 120, eval_every=20)
        stacked = train_sweep(configs, progress=False, device=device)
        solos = [train(c, progress=False, device=device) for c in configs]
        worst = max(max(max_rel_diff(s["train_loss"], h["train_loss"]) for s, h in zip(solos, stacked)),
                    max(max_rel_diff(s.snapshots[k][-1], h.snapshots[k][-1]) for s, h in zip(solos, stacked)
                        for k in s.snapshots))
        bitwise = compare_histories(solos, stacked)["bitwise"]
        result = {"bitwise": bitwise, "max_rel_diff_losses_and_final_weights": worst}
        if dtype == "float64":
            result["ok"] = worst <= 1e-10
            result["criterion"] = "<= 1e-10 relative"
        elif not cuda:
            result["ok"] = bitwise
            result["criterion"] = "bitwise on the CPU"
        else:
            result["ok"] = True
            result["criterion"] = "reported only (bmm and mm may take different kernels on a GPU)"
        if cuda and dtype == "float64":
            cpu = train_sweep(configs, progress=False, device="cpu")
            result["max_rel_diff_against_cpu"] = max(max_rel_diff(c["train_loss"], h["train_loss"])
                                                     for c, h in zip(cpu, stacked))
        report.put(step, f"stacked equals solo, {dtype}", result)
        if not result["ok"]:
            report.fail(f"stacked equals solo ({dtype})", f"max relative difference {worst:.3g}")


def check_captured(report: Report, device: str, smoke: bool, short: dict) -> None:
    """(d) the captured trainer against the eager one, every metric and snapshot."""
    step, cuda = "2 checks", device == "cuda"
    configs = [dataclasses.replace(c, **short) for c in stack_configs("float32", epochs=1000, eval_every=50)]
    eager = train_sweep(configs, progress=False, device=device)
    for recorder in ("eager", "batched"):
        captured = train_sweep_captured(configs, device=device, capture=cuda, recorder=recorder)
        result = compare_histories(eager, captured)
        result["replayed_from_step"] = captured[0].meta["replayed_from_step"]
        result["captured"] = captured[0].meta["captured"]
        result["ok"] = result["bitwise"] or cuda
        result["criterion"] = "bitwise on the CPU; on a GPU reported (bitwise is the aim)"
        report.put(step, f"captured trainer equals eager, recorder {recorder}", result)
        if not result["ok"]:
            report.fail(f"captured equals eager ({recorder})", f"{result['worst']}: {result['max_rel_diff']:.3g}")
        elif not result["bitwise"]:
            report.warn(f"captured vs eager ({recorder})",
                        f"not bitwise on {device}: worst {result['worst']} at {result['max_rel_diff']:.3g} relative")


# --- 3. the sweep benchmark ---------------------------------------------------------------------------------
def timed_median(fns: dict, device: str, steps: int, repeats: int) -> dict:
    """Median seconds per call of each fn, the fns timed alternately."""
    times = {k: [] for k in fns}
    for _ in range(repeats):
        for k, fn in fns.items():
            times[k].append(bench_sweep.timed(fn, device, steps))
    return {k: statistics.median(v) for k, v in times.items()}


def peak_memory(configs, device: str, steps: int = 3) -> float:
    """Peak bytes a stack of ``configs`` adds over ``steps`` eager steps (CUDA allocator peak; on the
    CPU the resident-set growth in this process, rough)."""
    free(device)
    if device == "cuda":
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
    else:
        base = bench_sweep.rss_bytes()
    run = StackRun(configs, device)
    step = bench_sweep.step_fn(run)
    peak = 0
    for _ in range(steps):
        step()
        peak = max(peak, bench_sweep.rss_bytes() - base if device == "cpu" else 0)
    if device == "cuda":
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
    del run, step
    free(device)
    return float(peak)


def step_times(configs, device: str, steps: int, repeats: int):
    """(training rows, member 0 of the stack bitwise its solo run, median s per step of the eager and
    captured stacked step and of the members' solo steps one after the other, s to capture them all)."""
    stacked = StackRun(configs, device)
    solos = [StackRun([c], device) for c in configs]
    st, so = bench_sweep.step_fn(stacked), bench_sweep.step_fn(solos[0])
    agree = all([torch.equal(st()[0], so()[0]) for _ in range(3)])
    solo_steps = [bench_sweep.step_fn(r) for r in solos]
    fns = {"eager_stacked": st, "eager_solo_all": lambda: [s() for s in solo_steps]}
    settle = frozen_from(configs)
    for r in (stacked, *solos):  # the timings do not depend on the scalars' values
        r.opt.step_count = max(r.opt.step_count, settle - 1)
    t = time.perf_counter()
    cap_stacked = CapturedStep(stacked, configs, capture=device == "cuda")
    cap_solos = [CapturedStep(r, [c], capture=device == "cuda") for r, c in zip(solos, configs)]
    capture_s = time.perf_counter() - t
    fns |= {"captured_stacked": cap_stacked, "captured_solo_all": lambda: [s() for s in cap_solos]}
    return len(stacked.train.a), agree, timed_median(fns, device, steps, repeats), capture_s


def benchmark(report: Report, device: str, smoke: bool) -> dict:
    """Per profile: ms per step eager/captured, stacked/solo; FLOP/s; memory per member."""
    cuda = device == "cuda"
    steps, repeats = (3, 2) if smoke else (10, 3)
    out = {}
    for profile in (("ci",) if smoke else ("default", "paper")):
        if report.left() < 30:
            report.skip(f"benchmark, {profile} profile", f"{report.left():.0f} s left of the budget")
            continue
        configs = weight_decay_sweep(profile_config(profile))
        n_train, agree, t_step, capture_s = step_times(configs, device, steps, repeats)
        free(device)
        flops = bench_sweep.step_flops(configs[0], n_train) * len(configs)
        onehot = 2.0 * n_train * configs[0].p * configs[0].width * len(configs)  # the GPU's dense pair-sum backward
        peak = bench_sweep.matmul_peak(configs[0], n_train, device, repeats=20)
        mem1, memm = peak_memory(configs[:1], device), peak_memory(configs, device)
        c = configs[0]
        result = {
            "shape": f"p={c.p}, d={c.d_embed}, width={c.width}, train_frac={c.train_frac}, {n_train} training rows, "
                     f"{len(configs)} members",
            "member0_stacked_equals_solo_bitwise": agree,
            **{f"{k}_ms": v * 1e3 for k, v in t_step.items()},
            "stacking_speedup_eager": t_step["eager_solo_all"] / t_step["eager_stacked"],
            "stacking_speedup_captured": t_step["captured_solo_all"] / t_step["captured_stacked"],
            "capture_speedup_stacked": t_step["eager_stacked"] / t_step["captured_stacked"],
            "captured": cuda,
            "capture_and_warmup_s": capture_s,
            "step_gflop_counted": flops / 1e9,
            "step_gflop_with_onehot_backward": (flops + (onehot if cuda else 0.0)) / 1e9,
            "matmul_gflops_per_s": peak / 1e9,
            "eager_stacked_gflops_per_s": flops / t_step["eager_stacked"] / 1e9,
            "captured_stacked_gflops_per_s": flops / t_step["captured_stacked"] / 1e9,
            "fraction_of_matmul_eager": flops / t_step["eager_stacked"] / peak,
            "fraction_of_matmul_captured": flops / t_step["captured_stacked"] / peak,
            "memory_1_member_mb": mem1 / 2**20, f"memory_{len(configs)}_members_mb": memm / 2**20,
            "memory_per_member_mb": (memm - mem1) / (len(configs) - 1) / 2**20,
            "memory_measure": "CUDA allocator peak" if cuda else "resident-set growth in this process (rough)",
            "unrecorded_steps_of_a_sweep_s": {"eager": t_step["eager_stacked"] * c.epochs,
                                              "captured": t_step["captured_stacked"] * c.epochs},
        }
        report.put("3 sweep benchmark", profile, clean(result))
        out[profile] = result
    return out


# --- 4. the cost of a recorded step ---------------------------------------------------------------------------
def recording_cost(report: Report, device: str, smoke: bool) -> str:
    """ms per recorded step for each recorder; returns the fastest (used by the captured sweeps)."""
    if report.left() < 20:
        report.skip("recorded step", f"{report.left():.0f} s left of the budget")
        return "eager"
    configs = sweep("ci" if smoke else "paper")
    run = StackRun(configs, device)

    def prepared():
        losses, logits, pre = run.losses_and_patterns()
        run.opt.zero_grad()
        losses.sum().backward()
        return losses, logits, pre

    variants = {"eager": lambda args: run.record(*args),
                "batched": lambda args: cuda_graphs.record_batched(run, *args)}
    if device == "cuda":
        variants["batched, SVDs on the host"] = lambda args: cuda_graphs.record_batched(run, *args, svd_device="cpu")
    args = prepared()
    result, rows = {}, {}
    for name, fn in variants.items():
        run.prev_pattern = [None] * len(configs)  # each variant's first rows start alike
        rows[name] = fn(args)  # warm-up (and the rows to compare)
        times = []
        for _ in range(2 if smoke else 3):
            sync(device)
            t = time.perf_counter()
            fn(args)
            sync(device)
            times.append(time.perf_counter() - t)
        result[name] = {"ms": 1e3 * min(times)}
    for name in variants:
        result[name]["max_rel_diff_to_eager"] = max(
            max_rel_diff([r[k] for r in rows["eager"]], [r[k] for r in rows[name]]) for k in rows["eager"][0])
    c = configs[0]
    n_recorded = len(record_schedule(c.epochs, c.eval_every))
    for name in variants:
        result[name]["whole_sweep_s"] = result[name]["ms"] * n_recorded / 1e3
    report.put("4 recorded step", "recorded steps per sweep", n_recorded)
    for name, value in result.items():
        report.put("4 recorded step", name, clean(value))
    best = min(("eager", "batched"), key=lambda n: result[n]["ms"])
    report.put("4 recorded step", "recorder used by the captured sweeps", best)
    return best


# --- 5. the paper sweep -----------------------------------------------------------------------------------------
def key_numbers(h: History) -> dict:
    """T_cls, T_grok, T_rep and the stable ranks' peaks and ends of one run."""
    row = curve_numbers.clock_table_row(h)
    row["T_cls(1e-3)"] = curve_numbers.fig1_key_numbers(h)["T_cls(1e-3)"]
    for name in ("E", "W", "U", "EW"):
        s = h[f"srank_{name}"]
        row[f"srank_{name} peak"] = float(s.max())
        row[f"srank_{name} peak epoch"] = int(h.steps[int(s.argmax())])
        row[f"srank_{name} end"] = float(s[-1])
    row["final test_acc"] = float(h["test_acc"][-1])
    row["final train_loss"] = float(h["train_loss"][-1])
    row["last step"] = int(h.steps[-1])
    return clean(row)


def cpu_recorded_numbers() -> dict:
    """The committed CPU values (default profile) that match a key number, per weight decay tag."""
    out = {}
    for figure in ("fig1_loss_curves", "fig3_stable_rank"):
        for key, value in (figure_numbers.committed(f"paper_a/{figure}") or {}).items():
            tag, name = key.split("/", 1)
            if name.startswith("T_") or name == "srank_E@4500":
                out.setdefault(tag, {})[name.replace("srank_E@4500", "srank_E end")] = value
    return out


def compact(h: History, keep: str) -> History:
    """``h`` with only the snapshots the book's figures read (``keep`` = "figures"), none, or all."""
    if keep == "all":
        return h
    end = int(h.steps[-1])
    figures = {0, curve_numbers.MEMORISING_EPOCH, curve_numbers.PATTERN_EPOCH, end - 500, end}
    wanted = figures if keep == "figures" else set()
    idx = [i for i, s in enumerate(h.snapshot_steps.tolist()) if s in wanted]
    meta = dict(h.meta, compact=f"snapshots kept: {[int(h.snapshot_steps[i]) for i in idx]}")
    return History(steps=h.steps, metrics=h.metrics, config=h.config, meta=meta,
                   snapshot_steps=h.snapshot_steps[idx], snapshots={k: v[idx] for k, v in h.snapshots.items()})


def write_runs(report: Report, histories, configs, device: str, keep: str, mode: str, profile: str) -> None:
    store = RunStore(report.out / "runs")
    keys = []
    for c, h in zip(configs, histories):
        key = run_key(c, device)
        h = compact(h, keep)
        h.meta.update(key=key, recorded_by="benchmarks/gpu_check.py", mode=mode, profile=profile,
                      gpu=torch.cuda.get_device_name() if device == "cuda" else platform.processor())
        store.save(key, h)
        keys.append(key)
    report.put("5 paper sweep" if profile != "default" else DEFAULT_STEP,
               "written to runs/", {"mode": mode, "keys": keys, "snapshots": keep})


def run_mode(report: Report, configs, device: str, mode: str, recorder: str, deadline: float):
    """One sweep in ``mode``: (histories, seconds, stopped_at or None, timings)."""
    t = time.perf_counter()
    timings: dict = {}
    if mode == "eager":
        rows: dict = {}
        try:
            histories = train_sweep(configs, [budget_callback(deadline, rows)], progress=False, device=device)
            stopped = None
        except OutOfTime as stop:
            histories, stopped = partial_histories(rows, configs), int(stop.args[0])
    else:
        histories = train_sweep_captured(configs, device=device, capture=device == "cuda", recorder=recorder,
                                         deadline=deadline, timings=timings)
        stopped = histories[0].meta.get("stopped_at")
    sync(device)
    return histories, time.perf_counter() - t, stopped, timings


def sweep_and_report(report: Report, step: str, configs, device: str, modes, recorder: str, keep: str,
                     profile: str, reserve: float) -> dict:
    """Train ``configs`` once per mode (within the budget), report times and key numbers; returns
    the complete sweeps by mode."""
    complete = {}
    c0 = configs[0]
    report.put(step, "settings", f"{profile} profile: p={c0.p}, width={c0.width}, train_frac={c0.train_frac}, "
                                 f"{c0.epochs} epochs, weight decays {[c.weight_decay for c in configs]}, "
                                 f"one stacked sweep")
    for i, mode in enumerate(modes):
        if report.left() - reserve < 10:
            report.skip(f"{profile} sweep, {mode}", f"{report.left():.0f} s left of the budget")
            continue
        share = 1.0 if i == len(modes) - 1 else 0.5
        deadline = report.deadline(share, reserve)
        log(f"  {profile} sweep, {mode}: at most {deadline - time.perf_counter():.0f} s")
        got = guarded(report, f"{profile} sweep, {mode}", run_mode, report, configs, device, mode, recorder, deadline)
        if got is None:
            continue
        histories, seconds, stopped, timings = got
        result = {"wall_s": seconds, "epochs_done": c0.epochs if stopped is None else stopped,
                  "s_per_1000_epochs": 1e3 * seconds / max(1, c0.epochs if stopped is None else stopped)}
        if mode != "eager":
            result["recorder"] = recorder
            result["captured"] = histories[0].meta.get("captured")
            result["timings"] = timings
        if stopped is not None:
            result["stopped_by_budget_at_epoch"] = stopped
            report.warn(f"{profile} sweep, {mode}", f"stopped by the time budget at epoch {stopped} of {c0.epochs}")
        result["key_numbers"] = {f"wd={h.config['weight_decay']:g}": key_numbers(h) for h in histories
                                 if len(h.steps)}
        report.put(step, f"mode {mode}", clean(result))
        if stopped is None:
            complete[mode] = histories
            if len(complete) == 1:
                write_runs(report, histories, configs, device, keep, mode, profile)
        free(device)
    if len(complete) == 2:
        a, b = complete.values()
        report.put(step, f"{' vs '.join(complete)}", clean(compare_histories(a, b)))
    return complete


# --- 8. the default profile against the CPU ----------------------------------------------------------------------
DEFAULT_STEP = "8 default profile against the CPU"


def default_against_cpu(report: Report, device: str, mode: str, recorder: str, keep: str, estimate_s: float) -> None:
    step = DEFAULT_STEP
    if report.left() < 1.3 * estimate_s + 10:
        report.skip("default profile against the CPU",
                    f"needs about {estimate_s:.0f} s, {report.left():.0f} s left of the budget")
        return
    configs = sweep("default")
    complete = sweep_and_report(report, step, configs, device, [mode], recorder, keep, "default", reserve=5)
    if mode not in complete:
        return
    histories = complete[mode]
    for name, reduce in default_sweep_numbers().items():
        expected = figure_numbers.committed(name)
        if not expected:
            report.put(step, name, "no committed CPU numbers")
            continue
        problems = figure_numbers.compare(expected, reduce(histories))
        report.put(step, name, {"values": len(expected), "outside_tolerance": len(problems),
                                "first_problems": problems[:12]})


def default_sweep_numbers() -> dict:
    """Figure name -> its key-number reduction, for Part A's figures drawn from the default weight-decay sweep
    (read from the chapter declarations; the recorded-set and deep-linear figures are not this sweep's)."""
    return {name: f.numbers for name, (c, f) in chapters.figures("paper_a").items()
            if not f.sets and c.runs is sweep}


# --- the markdown ------------------------------------------------------------------------------------------------
def fmt(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v == 0:
            return "0"
        if math.isinf(v):
            return "inf"
        return f"{v:.4g}" if abs(v) < 1e5 else f"{v:.3e}"
    return str(v)


def render_markdown(data: dict) -> str:
    lines = [f"# GPU check ({'smoke, ' if data['smoke'] else ''}device {data['device']})", "",
             f"`{data['command']}`, started {data['started']}, {data.get('elapsed_s', 0):.0f} s of a "
             f"{data['budget_s']:.0f} s budget.", ""]
    if data.get("finished"):
        lines += [f"**Finished**: {data['finished']}.", ""]
    else:
        lines += ["**Still running or cut off**: the numbers below are those written so far.", ""]
    if data["failures"]:
        lines += ["## Failures", ""] + [f"- **{f['what']}**: {f['message']}" for f in data["failures"]] + [""]
    for name, section in data["steps"].items():
        lines += [f"## {name}", ""]
        if name in ("5 paper sweep", DEFAULT_STEP):
            lines += render_sweep(section)
            continue
        if name == paper_b_runs.STEP:
            lines += paper_b_runs.render(section, fmt)
            continue
        if name == paper_b_runs.SPARSE_STEP:
            lines += paper_b_runs.render_sparse(section, fmt)
            continue
        for key, value in section.items():
            if isinstance(value, dict):
                lines += ["", f"**{key}**", ""]
                lines += [f"- {k}: {fmt(v) if not isinstance(v, dict) else json.dumps(v)}" for k, v in value.items()]
                lines += [""]
            else:
                lines += [f"- {key}: {fmt(value)}"]
        lines += [""]
    if data["warnings"]:
        lines += ["## Notes", ""] + [f"- {w['what']}: {w['message']}" for w in data["warnings"]] + [""]
    lines += ["## Skipped", ""]
    lines += [f"- {s['what']}: {s['why']}" for s in data["skipped"]] or ["- nothing"]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines) + "\n")


KEY_COLUMNS = ("T_cls(1e-3)", "T_cls(1e-06)", "T_grok(95%)", "T_rep",
               "srank_E peak", "srank_E peak epoch", "srank_E end", "final test_acc")
CPU_COLUMNS = {"T_cls(1e-3)": "T_cls(1e-3)", "T_cls(1e-06)": "T_cls(1e-6)", "T_grok(95%)": "T_grok(95%)",
               "T_rep": "T_rep", "srank_E end": "srank_E end"}


def render_sweep(section: dict) -> list[str]:
    lines = []
    cpu = section.get("cpu recorded values")
    for key, value in section.items():
        if key.startswith("mode ") and isinstance(value, dict):
            lines += [f"**{key}**: {fmt(value.get('wall_s'))} s wall, {value.get('epochs_done')} epochs, "
                      f"{fmt(value.get('s_per_1000_epochs'))} s per 1,000 epochs"
                      + (f"; recorder {value['recorder']}, captured {fmt(value.get('captured'))}" if 'recorder' in value else ""),
                      ""]
            if value.get("timings"):
                lines += [f"timings: {json.dumps(clean(value['timings']))}", ""]
            rows = value.get("key_numbers", {})
            if rows:
                lines += ["| λ | " + " | ".join(KEY_COLUMNS) + (" | CPU default profile: " + ", ".join(
                    CPU_COLUMNS.values()) if cpu else "") + " |",
                          "|---" * (len(KEY_COLUMNS) + 1 + (1 if cpu else 0)) + "|"]
                for tag, row in rows.items():
                    cells = [fmt(row.get(c)) for c in KEY_COLUMNS]
                    if cpu:
                        ref = cpu.get(tag, {})
                        cells.append(", ".join(fmt(ref.get(c)) for c in CPU_COLUMNS.values()))
                    lines += [f"| {tag} | " + " | ".join(cells) + " |"]
                lines += [""]
        elif key == "cpu recorded values":
            continue
        elif isinstance(value, dict):
            lines += [f"**{key}**: " + ", ".join(f"{k} {fmt(v) if not isinstance(v, (list, dict)) else v}"
                                                for k, v in value.items()), ""]
        else:
            lines += [f"- {key}: {fmt(value)}", ""]
    if cpu is not None:
        lines += ["CPU values: the committed figure numbers of the **default** profile (width 256, 4,500 epochs, "
                  "book/figure_files/paper_a). CPU values of the paper profile are not recorded, so the paper "
                  "columns have no CPU counterpart of the same settings.", ""]
    return lines


# --- main ----------------------------------------------------------------------------------------------------------
PARTS = ("a", "b", "a,b")
#: With both papers in the check, Part B keeps this share of the time left when Part A's paper sweep starts.
PART_B_SHARE = 0.5
#: Of Part B's time, the sparse sweep (step 7) keeps this share when the modular-addition runs (step 6) start.
SPARSE_SHARE = 0.5


def part_a(report: Report, device: str, smoke: bool, keep: str, section, reserve_share: float) -> tuple[dict, str]:
    """Steps 2-5 (Part A's checks, benchmarks and paper sweep); step 5 leaves ``reserve_share`` of the time left.
    Returns what step 8 estimates its time from: the benchmark's numbers and the recorder used."""
    section("2 checks", checks, report, device, smoke)
    bench = section("3 sweep benchmark", benchmark, report, device, smoke) or {}
    recorder = section("4 recorded step", recording_cost, report, device, smoke) or "eager"
    free(device)
    step = "5 paper sweep"
    configs = sweep("ci", epochs=1000) if smoke else sweep("paper")
    report.put(step, "cpu recorded values", cpu_recorded_numbers())
    section(step, sweep_and_report, report, step, configs, device, ["eager", "captured"], recorder, keep,
            "ci" if smoke else "paper", reserve_share * report.left())
    free(device)
    return bench, recorder


def default_step(report: Report, device: str, smoke: bool, keep: str, section, bench: dict, recorder: str) -> None:
    """Step 8, with the time left: the default profile against the committed CPU numbers."""
    if smoke:
        report.skip("default profile against the CPU", "smoke run (the default profile takes minutes on a CPU)")
        return
    verified = [c for c in report.data["steps"].get("2 checks", {}).values()
                if isinstance(c, dict) and "replayed_from_step" in c]
    fast = "captured" if verified and all(c["bitwise"] for c in verified) else "eager"
    per_step = bench.get("default", {}).get(f"{fast}_stacked_ms", 50.0) / 1e3
    recorded = report.data["steps"].get("4 recorded step", {}).get(recorder, {}).get("ms", 50.0) / 1e3
    default = profile_config("default")
    estimate = (per_step * default.epochs  # the steps, then the recorded ones (measured at the paper's width)
                + recorded * len(record_schedule(default.epochs, default.eval_every)))
    section(DEFAULT_STEP, default_against_cpu, report, device, fast, recorder, keep, estimate)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for report.md, report.json and runs/ (created)")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--smoke", action="store_true", help="tiny sizes (a rehearsal in seconds)")
    ap.add_argument("--budget-min", type=float, default=7.0, help="stop cleanly after this many minutes (default 7)")
    ap.add_argument("--parts", default="a,b", choices=PARTS,
                    help="the papers whose runs are checked: a (steps 2-5, 8), b (steps 6, 7) or a,b (default)")
    ap.add_argument("--snapshots", default="figures", choices=("figures", "none", "all"),
                    help="weight snapshots kept in runs/: those the figures read (default), none, all")
    args = ap.parse_args(argv)
    if not args.budget_min > 0 or math.isinf(args.budget_min):
        ap.error(f"--budget-min must be a positive number of minutes, got {args.budget_min!r}")
    parts = set(args.parts.split(","))
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.environ["GROK_STORE"] = str(out / "store")  # nothing here uses the store; never the repository's
    report = Report(out, args, 60 * args.budget_min)
    device, smoke = args.device, args.smoke
    log(f"GPU check: device {device}{' (smoke)' if smoke else ''}, parts {args.parts}, budget {args.budget_min:g} "
        f"min, writing {out}")

    def section(name, fn, *a):
        log(f"[{report.elapsed():5.0f} s] {name}")
        return guarded(report, name, fn, *a)

    section("1 device facts", device_facts, report, device)
    if device == "cuda" and not torch.cuda.is_available():
        report.fail("device", "no CUDA device visible to torch (torch.cuda.is_available() is False)")
        report.data["finished"] = "stopped: no CUDA device"
        report.write()
        return 2
    if "a" in parts:
        bench, recorder = part_a(report, device, smoke, args.snapshots, section, PART_B_SHARE if "b" in parts else 0.0)
    if "b" in parts:
        sparse_share = 0.0 if paper_b_runs.sparse_done(report.out) else SPARSE_SHARE
        section(paper_b_runs.STEP, paper_b_runs.modadd_paper, report, device, smoke, sparse_share * report.left())
        free(device)
        section(paper_b_runs.SPARSE_STEP, paper_b_runs.sparse_paper, report, device, smoke)
        free(device)
    if "a" in parts:
        default_step(report, device, smoke, args.snapshots, section, bench, recorder)
    report.data["finished"] = f"{'with failures' if report.data['failures'] else 'all checks that ran passed'}"
    report.write()
    log(f"[{report.elapsed():5.0f} s] done: {out / 'report.md'}")
    return 1 if report.data["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
