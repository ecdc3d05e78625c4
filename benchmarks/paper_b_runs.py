"""Part B at the paper's own settings on a GPU: the GPU check's steps 6 and 7 (``benchmarks/gpu_check.py``).

Paper B's modular addition (Sec. 2) as the modular-addition chapter plans it at the ``paper`` profile
(:func:`grok_lib.paper_b.run_sets.modadd_configs`): p = 97, 40% of the pairs, width 1024, full-batch GD at lr 0.002,
the α sweep 1, 10, 100 at λ = 1e-4 and the λ grid 1e-4, 3e-4, 1e-3, 3e-3 at α = 1, data and init seed 0, 10^6 steps
each (the paper does not state its runs' length): six runs, the one both sweeps share trained once.

Each run is the run store's own trainer (:func:`grok_lib.paper_b.relu_net.train`) with its step replayed as a CUDA
graph (:class:`CapturedGD`: the same :func:`~grok_lib.paper_b.relu_net.gd_step`, captured once; where capture fails,
the error is reported and the run goes on eagerly). A complete run is written to ``OUT/runs`` in the run store's
format under the key the notebook computes for it on that machine (profile ``paper``, device ``cuda``): copied into
a store folder (``GROK_STORE``), the modular-addition notebook run there with ``-p profile paper`` reads these runs
instead of training them. A run the time budget cannot finish stops at a recorded step and is reported with its
numbers so far, never written; once a run has finished, a run whose estimate (that run's time per step) exceeds the
time left is skipped with the reason; runs already in ``OUT/runs`` (a previous lease's, copied there) are kept.

Why not stacked, as Part A's sweep is: the members would share no work (each has its own hidden layer), so a stack
only saves launches, and a captured step launches nothing from Python. The rehearsal (``--device cpu --smoke``)
trains the ``ci`` profile's plan uncaptured; ``tests/test_gpu_check.py`` holds its runs bitwise to the store's.

Step 7 goes on with Paper B's sparse classification at the paper's d = 10^5, n = 256, lambda = 1e-3 and step cap
0.01: the sparse chapter's alpha sweep 16 ... 16,384 as one stacked computation (:mod:`grok_lib.paper_b.diagonal_sweep`,
its arrays on the GPU, float64), each member to 2 ln(alpha) / lambda (1.94 million steps for the largest), 2,000 test
points as the CPU script's, and no margin classifiers (their linear program needs scipy and minutes per lease; no claim
of the sparse page reads the cosines). It has the time step 6 leaves, and it does not fit one lease: the sweep lives in
``OUT/sparse_sweep`` (:mod:`grok_lib.paper_b.sweep_folder`) and stops at a checkpoint when its time is up; copied into
the next check's OUT before it starts, it goes on from there, on the same GPU model only. Done, it holds each member's
history (``<j>.npz``, the run store's History format), which the step reads for the transition on the clock
lambda t / ln(alpha).
"""

from __future__ import annotations

import math
import platform
import time
import traceback
from dataclasses import replace
from typing import Callable, Optional

import grok_lib  # noqa: F401  before numpy and torch: it pins the arithmetic (grok_lib/arithmetic.py)
import numpy as np
import torch

from grok_lib.config import ConfigError
from grok_lib.history import History
from grok_lib.paper_b import recordings, relu_net, sweep_folder
from grok_lib.paper_b.run_sets import modadd_configs
from grok_lib.plans import run_key
from grok_lib.store import RunStore

#: The report's sections.
STEP = "6 Part B: modular addition at the paper's settings"
SPARSE_STEP = "7 Part B: the sparse sweep at the paper's d and lambda"
#: OUT's folder of the sparse sweep (:mod:`grok_lib.paper_b.sweep_folder`: its checkpoint, then its histories).
SPARSE_FOLDER = "sparse_sweep"
#: Steps between the sparse sweep's checkpoints (what a killed command loses; the deadline takes one of its own).
SPARSE_EVERY = 20_000
#: Seconds the sparse sweep leaves before the time is up: its last checkpoint (12.8 MB) and the report.
SPARSE_MARGIN_S = 10.0
#: The test-accuracy levels the modular-addition chapter reads its transition at (its onset and end).
LEVELS = (0.6, 0.9)
#: The report's entries: the replay check and the keys written.
REPLAY_CHECK, WRITTEN = "captured step equals eager (ci-size run, 300 steps)", "written to runs/"
#: A run is judged on its pace from this fraction of its steps on (2%: 20,000 steps, seconds on a GPU).
PACE_FROM = 0.02
#: A run starts only if its estimate (the last complete run's pace) times this, plus MARGIN_S, fits the time left.
SAFETY, MARGIN_S = 1.1, 5.0
#: On a GPU the replayed step may take other kernels than the eager one: their runs' metrics may differ this much.
REPLAY_RTOL = 1e-5


class CapturedGD:
    """:func:`relu_net.gd_step` as a :data:`relu_net.Stepper` that replays it as a CUDA graph.

    The first :attr:`WARMUP` steps run eagerly on a side stream (they are steps of the run, and they let autograd and
    cuBLAS make their workspaces before the capture, as torch's CUDA-graph notes ask); the next call captures the
    step once and every call from there replays it. Without ``capture`` (the CPU) every step is ``gd_step`` itself.
    A capture that raises is reported in :attr:`error` and the run continues eagerly (a capture runs no kernel, so
    the parameters are as the eager steps left them)."""

    WARMUP = 3

    def __init__(self, params: dict, rows: torch.Tensor, lr: float, lam: float, capture: bool):
        self.args = (params, rows, lr, lam)
        self.capture = capture
        self.graph: Optional[torch.cuda.CUDAGraph] = None
        self.error: Optional[str] = None
        self.calls = 0
        self.side = torch.cuda.Stream() if capture else None

    def __call__(self) -> None:
        if self.graph is None and self.capture and self.error is None and self.calls >= self.WARMUP:
            self._capture()
        if self.graph is not None:
            self.graph.replay()
        else:
            self._eager()
        self.calls += 1

    def _eager(self) -> None:
        if self.side is None:
            relu_net.gd_step(*self.args)
            return
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            relu_net.gd_step(*self.args)
        torch.cuda.current_stream().wait_stream(self.side)

    def _capture(self) -> None:
        graph, before = torch.cuda.CUDAGraph(), torch.cuda.current_stream()
        try:
            with torch.cuda.graph(graph):
                relu_net.gd_step(*self.args)
        except Exception as err:  # e.g. an op that synchronises with the host: the run goes on eagerly
            self.error = f"{type(err).__name__}: {err}"[:400]
            # an invalidated capture raises in capture_end, before torch puts the caller's stream back
            torch.cuda.set_stream(before)
            torch.cuda.synchronize()
            return
        self.graph = graph


def captured_stepper(capture: bool, made: list) -> relu_net.Stepper:
    """A stepper making :class:`CapturedGD` steps (each kept in ``made``, to read whether it captured)."""
    def make(params, rows, lr, lam):
        step = CapturedGD(params, rows, lr, lam, capture)
        made.append(step)
        return step
    return make


def planned(profile: str, device: str) -> list:
    """The modular-addition chapter's runs at ``profile`` on ``device``, each once, in the chapter's order (the α
    sweep, then the λ sweep)."""
    groups = modadd_configs(profile)
    return [replace(c, device=device) for c in dict.fromkeys(groups["alpha"] + groups["weight_decay"])]


def tag(config) -> str:
    return f"alpha={config.alpha:g}, wd={config.weight_decay:g}"


def first_at(values, level: float) -> Optional[int]:
    """The index of the first value >= ``level`` (None: never)."""
    hit = np.flatnonzero(np.asarray(values) >= level)
    return int(hit[0]) if hit.size else None


def run_numbers(h: History) -> dict:
    """What the chapter's claims read off a run, as plain numbers: the continuous time t (and λt) of the first
    recorded step at each test-accuracy level of :data:`LEVELS` (None: never), and the last recorded values."""
    lam = float(h.config["weight_decay"])
    out = {}
    for level in LEVELS:
        i = first_at(h["test_acc"], level)
        t = None if i is None else float(h["t"][i])
        out[f"t(test_acc>={level:g})"] = t
        out[f"lambda t(test_acc>={level:g})"] = None if t is None else lam * t
    for k in ("train_acc", "test_acc", "train_loss", "test_loss", "norm"):
        out[f"last {k}"] = float(h[k][-1])
    out["last step"] = int(h.steps[-1])
    return out


def train_one(config, device: str, deadline: float, capture: bool = True) -> tuple[History, dict]:
    """``config`` trained by the store's trainer, its step captured on CUDA (unless ``capture`` is False), stopped at
    the first recorded step past ``deadline`` (a ``time.perf_counter()`` value) or, from :data:`PACE_FROM` of its
    steps on, from which its pace so far cannot finish by then: (its history, how it was trained)."""
    made: list[CapturedGD] = []
    t0 = time.perf_counter()

    def stop(step: int) -> bool:
        now = time.perf_counter()
        if now > deadline:
            return True
        # the first steps' pace holds the setup and the capture: judge it only once it means something
        return step >= PACE_FROM * config.steps and now + (now - t0) / step * (config.steps - step) > deadline

    h = relu_net.train(config, progress=False, stepper=captured_stepper(device == "cuda" and capture, made),
                       stop=stop)
    if device == "cuda":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - t0
    done = int(h.meta.get("stopped_at", config.steps))
    how = {"complete": "stopped_at" not in h.meta, "steps_done": done, "of_steps": config.steps, "wall_s": seconds,
           "us_per_step": 1e6 * seconds / max(done, 1), "captured": made[0].graph is not None,
           "capture_error": made[0].error}
    return h, how


def replay_check(report, device: str) -> bool:
    """The captured step against the eager one on a short run (the ``ci`` profile's first run, 300 steps), metric by
    metric: bitwise on the CPU (no capture there), within :data:`REPLAY_RTOL` on a GPU. Returns whether the runs may
    capture: not where the capture failed or the replay differs (they then train eagerly on the device)."""
    config = replace(planned("ci", device)[0], steps=300, n_log=30)
    eager = relu_net.train(config, progress=False)
    captured, how = train_one(config, device, math.inf)
    worst = max(float(np.max(np.abs(eager[k] - captured[k]) / np.maximum(np.abs(eager[k]), 1e-300)))
                for k in eager.metrics)
    bitwise = all(np.array_equal(eager[k], captured[k]) for k in eager.metrics)
    ok = bitwise or (device == "cuda" and worst <= REPLAY_RTOL)
    report.put(STEP, REPLAY_CHECK, {
        "bitwise": bitwise, "max_rel_diff": worst, "captured": how["captured"], "capture_error": how["capture_error"],
        "ok": ok, "criterion": f"bitwise on the CPU; on a GPU within {REPLAY_RTOL:g} relative (bitwise is the aim)"})
    if not ok:
        report.fail("Part B captured step", f"the replayed step differs from the eager one on {device}: {worst:.3g} "
                                            "relative; the runs train eagerly")
    if how["capture_error"]:
        report.warn("Part B captured step", f"capture failed, the runs train eagerly: {how['capture_error']}")
    return ok and how["capture_error"] is None


def write_run(store: RunStore, key: str, h: History, device: str, how: dict) -> str:
    """``h`` into ``store`` under ``key`` (its config's on ``device``, as the notebook computes it on that machine)."""
    h.meta.update(key=key, recorded_by="benchmarks/gpu_check.py", stepper="captured" if how["captured"] else "eager",
                  gpu=torch.cuda.get_device_name() if device == "cuda" else platform.processor())
    store.save(key, h)
    return key


def modadd_paper(report, device: str, smoke: bool, reserve: float = 0.0) -> None:
    """Step 6: the chapter's modular-addition runs at the paper's settings (``ci`` in the smoke rehearsal), each while
    the budget (less ``reserve`` s) allows; complete ones written to ``OUT/runs``. A run that fails is reported and the
    next one tried; a run already in ``OUT/runs`` (an earlier check's, copied there: one lease may not hold them all)
    is kept, not trained again."""
    profile = "ci" if smoke else "paper"
    configs = planned(profile, device)
    c0 = configs[0]
    report.put(STEP, "settings", f"{profile} profile, modular addition: p={c0.p}, train_frac={c0.train_frac}, "
                                 f"width={c0.width}, lr={c0.lr:g}, {c0.steps:,} full-batch GD steps per run; "
                                 f"{len(configs)} runs: {'; '.join(tag(c) for c in configs)}")
    try:
        capture = replay_check(report, device)
    except Exception:
        report.fail("Part B captured step", traceback.format_exc()[-3000:])
        capture = False
    store, keys, per_step = RunStore(report.out / "runs"), [], None
    written = {"keys": keys, "profile": profile, "device": device}  # re-put as keys grows: report.json is rewritten
    report.put(STEP, WRITTEN, written)
    for c in configs:
        key = run_key(c, device)
        if store.load(key) is not None:  # a previous check's run, copied into OUT/runs: kept
            keys.append(key)
            report.put(STEP, WRITTEN, written)
            report.put(STEP, f"run {tag(c)}", "already in runs/ (an earlier check's); not trained again")
            continue
        left = report.left() - reserve
        need = None if per_step is None else SAFETY * per_step * c.steps + MARGIN_S
        if left < 10 or (need is not None and need > left):
            report.skip(f"Part B run {tag(c)}", (f"needs about {need:.0f} s at the last run's pace, " if need else "")
                        + f"{left:.0f} s left of the budget")
            continue
        try:
            h, how = train_one(c, device, time.perf_counter() + left, capture)
        except Exception:
            report.fail(f"Part B run {tag(c)}", traceback.format_exc()[-3000:])
            continue
        if how["complete"]:
            per_step = how["wall_s"] / c.steps
            keys.append(write_run(store, key, h, device, how))
            report.put(STEP, WRITTEN, written)
        else:
            report.warn(f"Part B run {tag(c)}", f"stopped at step {how['steps_done']:,} of {c.steps:,}: at its pace it "
                                                f"could not finish in the time left; not written to runs/")
        report.put(STEP, f"run {tag(c)}", {**how, "numbers": run_numbers(h)})


#: The columns of the step's table in report.md: (header, the run's entry, the key in it).
COLUMNS = (("complete", None, "complete"), ("steps done", None, "steps_done"), ("µs per step", None, "us_per_step"),
           ("captured", None, "captured"), ("t at test acc 0.6", "numbers", "t(test_acc>=0.6)"),
           ("t at 0.9", "numbers", "t(test_acc>=0.9)"), ("λt at 0.9", "numbers", "lambda t(test_acc>=0.9)"),
           ("last test acc", "numbers", "last test_acc"), ("last train loss", "numbers", "last train_loss"))


def render(section: dict, fmt: Callable[[object], str]) -> list[str]:
    """The step's part of report.md: the settings, the replay check, one table row per run, what was written."""
    lines = [f"- settings: {section.get('settings', '—')}", ""]
    check = section.get(REPLAY_CHECK)
    if check:
        lines += [f"- captured step against eager (ci-size run, 300 steps): bitwise {fmt(check['bitwise'])}, largest "
                  f"relative difference {fmt(check['max_rel_diff'])}, captured {fmt(check['captured'])}"
                  + (f", capture error: {check['capture_error']}" if check["capture_error"] else ""), ""]
    runs = {k[len("run "):]: v for k, v in section.items() if k.startswith("run ") and isinstance(v, dict)}
    kept = [k[len("run "):] for k, v in section.items() if k.startswith("run ") and isinstance(v, str)]
    if kept:
        lines += [f"- already in runs/ (an earlier check's), not trained again: {'; '.join(kept)}", ""]
    if runs:
        lines += ["| run | " + " | ".join(h for h, _, _ in COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
        for name, r in runs.items():
            cells = [fmt((r.get(where) or {}).get(key) if where else r.get(key)) for _, where, key in COLUMNS]
            lines += [f"| {name} | " + " | ".join(cells) + " |"]
        lines += ["", "t: continuous time (steps × lr); λt at 0.9 is what the chapter's claims compare over the λ "
                      "grid. A run that did not complete is not in runs/.", ""]
    written = section.get(WRITTEN)
    if written:
        lines += [f"- written to runs/ ({written['profile']} profile, device {written['device']}): "
                  f"{len(written['keys'])} run(s): {', '.join(written['keys']) or 'none'}", ""]
    return lines


def sparse_configs(smoke: bool) -> list:
    """The sparse sweep of step 7 (the smoke rehearsal: d = 400, n = 64, 200 test points, to 0.002 of the horizon)."""
    if smoke:
        return recordings.sparse_paper_lambda_sweep(400, 64, 200, horizon=0.002, margins=False)
    return recordings.sparse_paper_lambda_sweep(100_000, 256, 2000, margins=False)


def sweep_numbers(h: History) -> dict:
    """The clock lambda t / ln(alpha) at the first recorded step with test accuracy >= each level of :data:`LEVELS`
    (None: never), the test accuracy in the kernel phase (at clock 0.2) and at the end."""
    unit = math.log(float(h.config["alpha"])) / float(h.config["weight_decay"])
    clock, acc = np.asarray(h["t"]) / unit, np.asarray(h["test_acc"])
    out = {}
    for level in LEVELS:
        i = first_at(acc, level)
        out[f"clock at test_acc>={level:g}"] = None if i is None else float(clock[i])
    out["test_acc at clock 0.2"] = float(acc[int(np.argmin(np.abs(clock - 0.2)))]) if clock[-1] >= 0.2 else None
    out["last test_acc"], out["last clock"] = float(acc[-1]), float(clock[-1])
    return out


def sparse_done(out) -> bool:
    """Whether ``out`` (the check's folder) already holds the finished sparse sweep of step 7 (then step 6 keeps no
    time for it)."""
    return sweep_folder.finished(out / SPARSE_FOLDER, len(sparse_configs(smoke=False))) is not None


def sparse_paper(report, device: str, smoke: bool, reserve: float = 0.0) -> None:
    """Step 7: the sparse sweep in ``OUT/sparse_sweep``, started or continued, until it is done or the time left (less
    ``reserve`` s) is spent; its progress and pace, and when done each member's transition on the clock."""
    configs = sparse_configs(smoke)
    c0, longest = configs[0], max(c.steps for c in configs)
    report.put(SPARSE_STEP, "settings", f"d={c0.d}, n={c0.n_train}, {c0.n_test} test points, "
                                        f"lambda={c0.weight_decay:g}, "
                                        f"step cap {c0.lr:g} ({c0.lr_rule}), alphas {[c.alpha for c in configs]}, "
                                        f"{longest:,} steps for the largest, float64, arrays on {device}")
    left = report.left() - reserve
    if left < 30:
        report.skip("Part B sparse sweep", f"{left:.0f} s left of the budget")
        return
    every = 200 if smoke else SPARSE_EVERY
    try:
        histories, info = sweep_folder.train(report.out / SPARSE_FOLDER, configs, "float64", every,
                                             array_device=device, progress=False,
                                             stop_at=time.perf_counter() + left - SPARSE_MARGIN_S)
    except ConfigError as err:  # a previous lease's folder from another GPU, torch or arithmetic: not to be mixed
        report.skip("Part B sparse sweep", str(err))
        return
    done = info["stopped_at"] or longest
    steps = done - info["started_at"]
    result = {**info, "of_steps": longest, "done": histories is not None,
              "ms_per_step_this_call": 1e3 * info["seconds"] / max(steps, 1)}
    if histories is None and steps > 0:
        result["calls_of_this_length_left"] = math.ceil((longest - done) / steps)
    report.put(SPARSE_STEP, "this call", result)
    if histories is not None:
        report.put(SPARSE_STEP, "members", {f"alpha={h.config['alpha']:g}": sweep_numbers(h) for h in histories})


def render_sparse(section: dict, fmt: Callable[[object], str]) -> list[str]:
    """Step 7's part of report.md: the settings, this call's progress and pace, and when done a row per member."""
    lines = [f"- settings: {section.get('settings', '—')}", ""]
    call = section.get("this call")
    if call:
        lines += [f"- this call: steps {call['started_at']:,} to {call['stopped_at'] or call['of_steps']:,} of "
                  f"{call['of_steps']:,} in {fmt(call['seconds'])} s ({fmt(call['ms_per_step_this_call'])} ms a step, "
                  f"setup included); " + ("the sweep is done" if call["done"] else
                                          "stopped at a checkpoint, about "
                                          f"{call.get('calls_of_this_length_left', '?')} "
                                          f"more call(s) of this length to go (copy {SPARSE_FOLDER}/ into the next "
                                          f"check's folder)"), ""]
    members = section.get("members")
    if members:
        names = list(next(iter(members.values())))
        lines += ["| member | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
        lines += [f"| {m} | " + " | ".join(fmt(row[k]) for k in names) + " |" for m, row in members.items()]
        lines += ["", "clock: λt / ln α, the theory's clock (its transition window is (1 ± c) of it); the sparse "
                      "page compares the book's runs on it with the paper's Fig. 1a.", ""]
    return lines
