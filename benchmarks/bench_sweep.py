"""Benchmark: a stacked sweep against its members run one by one, the step's FLOP/s against
the machine's matmul throughput, and memory per member.

All in one process (memory: in two child processes), same configs, same data:

(a) the 5-member Figure 1 sweep (weight decays 0.6 ... 1.0) as one stacked step, against
    five solo steps (each a stack of one: the same code), timed alternately; the ratio is
    the speed-up of stacking. The first member's losses must agree bitwise first.
(b) the training step's achieved FLOP/s (matrix products counted analytically; the
    gathers, scatter-adds and elementwise work are not counted) against the best FLOP/s of
    a plain fp32 matmul at the step's own shapes, measured here: the fraction of the
    machine's matmul throughput the whole step achieves.
(c) peak memory per member: the largest resident-set growth (CPU, sampled while the
    activations are alive) or allocator peak (CUDA) of a 1-member and an M-member stack over
    a few steps, each in a fresh child process; per member = the difference / (M - 1).

    .venv/bin/python benchmarks/bench_sweep.py [--device cpu|cuda] [--members 5] [--steps 10] [--json out.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

from pathlib import Path

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy and torch load (grok_lib/arithmetic.py)
import torch

from grok_lib.paper_a.config import sweep as paper_a_sweep
from grok_lib.paper_a.train import StackRun

ROOT = Path(__file__).resolve().parent.parent


def step_fn(run):
    def step():
        losses, _, _ = run.losses_and_patterns()
        run.opt.zero_grad()
        losses.sum().backward()
        run.opt.step()
        return losses.detach()
    return step


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def timed(fn, device, repeats):
    sync(device)
    t0 = time.perf_counter()
    for _ in range(repeats):
        fn()
    sync(device)
    return (time.perf_counter() - t0) / repeats


def step_flops(config, n_train: int) -> float:
    """Matrix-product FLOPs of one training step of one member (forward + backward)."""
    p, d, h, n = config.p, config.d_embed, config.width, n_train
    forward = 2 * p * d * h + 2 * n * h * p  # E W^T, then relu(pre) U^T
    backward = 2 * (2 * n * h * p) + 2 * (2 * p * d * h)  # grads of U and h; grads of E and W
    return float(forward + backward)


def matmul_peak(config, n_train: int, device: str, repeats: int) -> float:
    """Best fp32 FLOP/s of torch.mm at the step's shapes (n x h @ h x p and p x d @ d x h)."""
    best = 0.0
    for m, k, n in ((n_train, config.width, config.p), (config.p, config.d_embed, config.width),
                    (config.p, n_train, config.width)):
        a = torch.randn(m, k, device=device)
        b = torch.randn(k, n, device=device)
        torch.mm(a, b)
        seconds = min(timed(lambda: torch.mm(a, b), device, repeats) for _ in range(3))
        best = max(best, 2 * m * k * n / seconds)
    return best


def rss_bytes() -> int:
    """Resident set size of this process now (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def measure_memory(members: int, device: str, steps: int) -> float:
    """Peak bytes a ``members``-member stack adds to the process over ``steps`` steps: CUDA
    allocator peak, or on the CPU the largest resident-set growth, sampled while the
    activations are alive (after the forward pass) and after each step."""
    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
    else:
        base = rss_bytes()
    run = StackRun(configs(members, device), device)
    peak = 0
    for _ in range(steps):
        losses, _, _ = run.losses_and_patterns()
        peak = max(peak, rss_bytes() - base if device == "cpu" else 0)
        run.opt.zero_grad()
        losses.sum().backward()
        run.opt.step()
        peak = max(peak, rss_bytes() - base if device == "cpu" else 0)
    if device == "cuda":
        peak = torch.cuda.max_memory_allocated() - base
    return float(peak)


def peak_memory(members: int, device: str, steps: int) -> float:
    """:func:`measure_memory` in a fresh child process (so one measurement cannot inflate the next)."""
    code = ("import sys; sys.argv = ['x']; from benchmarks.bench_sweep import measure_memory; "
            f"print(measure_memory({members}, {device!r}, {steps}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(ROOT), env=os.environ | {"PYTHONPATH": str(ROOT)})
    return float(out.stdout.strip().splitlines()[-1])


def configs(members: int, device: str):
    sweep = paper_a_sweep("default", device=device)
    return [dataclasses.replace(c, weight_decay=0.6 + 0.1 * (i % 5)) for i, c in
            enumerate(sweep * (members // len(sweep) + 1))][:members]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--members", type=int, default=5)
    ap.add_argument("--steps", type=int, default=10, help="timed steps per repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    if args.members < 2:
        ap.error("--members must be at least 2")
    if args.device == "cuda" and not torch.cuda.is_available():
        ap.error("--device cuda: no CUDA device here")
    device = args.device
    cs = configs(args.members, device)
    stacked = StackRun(cs, device)
    solos = [StackRun([c], device) for c in cs]
    n_train = len(stacked.train.a)

    # (a) correctness first, then alternate timings
    st, so = step_fn(stacked), step_fn(solos[0])
    for _ in range(3):
        a, b = st()[0], so()[0]
        if device == "cpu" and not torch.equal(a, b):
            raise SystemExit(f"stacked member 0 and its solo run disagree: {a.item()} vs {b.item()}")
    solo_steps = [step_fn(r) for r in solos]
    t_stacked, t_solo = [], []
    for _ in range(args.repeats):
        t_stacked.append(timed(st, device, args.steps))
        t_solo.append(timed(lambda: [s() for s in solo_steps], device, args.steps))
    ts, t5 = statistics.median(t_stacked), statistics.median(t_solo)

    # (b) achieved FLOP/s against the measured matmul throughput
    flops = step_flops(cs[0], n_train) * len(cs)
    peak = matmul_peak(cs[0], n_train, device, repeats=20)

    # (c) memory per member
    mem1, memm = peak_memory(1, device, 3), peak_memory(len(cs), device, 3)
    per_member = (memm - mem1) / (len(cs) - 1)

    machine = torch.cuda.get_device_name() if device == "cuda" else f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} threads"
    result = {
        "date": time.strftime("%Y-%m-%d"), "device": device, "machine": machine, "torch": torch.__version__,
        "members": len(cs), "width": cs[0].width, "train_frac": cs[0].train_frac, "n_train_rows": n_train,
        "stacked_ms_per_step": ts * 1e3, "solo_ms_per_step_all_members": t5 * 1e3, "stacking_speedup": t5 / ts,
        "step_gflops_per_s": flops / ts / 1e9, "matmul_gflops_per_s": peak / 1e9, "fraction_of_matmul": flops / ts / peak,
        "peak_memory_1_member_mb": mem1 / 2**20, f"peak_memory_{len(cs)}_members_mb": memm / 2**20,
        "memory_per_member_mb": per_member / 2**20,
    }
    width = max(map(len, result))
    for k, v in result.items():
        print(f"{k:<{width}}  {v:.3f}" if isinstance(v, float) else f"{k:<{width}}  {v}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
