"""Benchmark: Paper B's alpha sweep of sparse diagonal nets as one computation against its members one by one.

In one process, on the same data and from the same weights:

(a) the member-by-member step: what :func:`grok_lib.paper_b.diagonal.train` does per step and member (two
    matrix-vector products over the n x d training matrix X, the stable step's bound, the update), M times;
(b) the stacked step of :mod:`grok_lib.paper_b.diagonal_sweep` (two matrix products over X for all M members
    at once, padded to its fixed block), in float64 and in float32.

Before timing, the stacked float64 step must agree with the member-by-member one over the first steps (relative
1e-10). The ratios (a) / (b) are the speed-up. The floor: a step must read X at least twice (X beta and X^T r),
so the step cannot be faster than 2 n d x bytes-per-number / the memory bandwidth, measured here as the best of
a few single-threaded float64 matrix-vector products streaming a 256 MB matrix; at small d, X sits in the cache
and the floor is far below the step.

    .venv/bin/python benchmarks/bench_diagonal_sweep.py [--d 4000] [--n 128] [--steps 200] [--json out.json]
    .venv/bin/python benchmarks/bench_diagonal_sweep.py --compare-dtypes

``--compare-dtypes`` answers whether float32 may stand in for float64: it trains the sparse chapter's default
sweeps (alpha and lambda) one by one, stacked in float64 and stacked in float32, grades the chapter's claims on each
(:func:`grok_lib.paper_b.chapters.sparse_classification.evaluate_sparse`) and prints the verdicts side by side (about 40 s).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from dataclasses import replace

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy loads (grok_lib/arithmetic.py)
import numpy as np

from grok_lib.paper_b import diagonal, diagonal_sweep, run_sets
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter
from grok_lib.paper_b.config import PROFILES, SparseConfig

#: The alpha sweep of the book's sparse chapter, at the paper's lambda and step (Fig. 1a).
ALPHAS = (16.0, 128.0, 1024.0, 2048.0, 16384.0)


def configs(d: int, n: int, members: int) -> list:
    base = replace(PROFILES["default"]["sparse"], d=d, n_train=n, n_test=100, weight_decay=1e-3, lr=0.01,
                   margins=False, n_snapshots=0)
    return [replace(base, alpha=a) for a in (ALPHAS * members)[:members]]


class OneByOne:
    """The one-by-one trainer's step for M members (diagonal.gradients + the stable bound + the update)."""

    def __init__(self, cs, x):
        self.cs, self.x = cs, x
        self.y = diagonal.make_data(cs[0])[1]
        self.uv = [diagonal.init_params(c) for c in cs]
        self.x_norm2 = float(np.linalg.eigvalsh(x @ x.T)[-1])
        self.col_norm2 = (x * x).sum(axis=0)

    def step(self):
        for c, (u, v) in zip(self.cs, self.uv):
            du, dv, g, s = diagonal.gradients(u, v, self.x, self.y, c.weight_decay)
            lr = min(c.lr, 1.0 / diagonal.smoothness_bound(u, v, g, s, self.x_norm2, self.col_norm2, c.weight_decay))
            u -= lr * du
            v -= lr * dv

    def losses(self):
        return np.array([diagonal.logistic_loss(self.y * (self.x @ (u * u - v * v))) for u, v in self.uv])


class Stacked:
    """The stacked step of diagonal_sweep for the same members, in ``dtype``."""

    def __init__(self, cs, x64, dtype):
        padded = diagonal_sweep._padded(list(cs))
        self.m = len(cs)
        self.x64, self.x = x64, x64.astype(dtype)
        self.y64 = diagonal.make_data(cs[0])[1]
        self.y = self.y64.astype(dtype)
        inits = [diagonal.init_params(c) for c in padded]
        self.u = np.stack([a for a, _ in inits]).astype(dtype)
        self.v = np.stack([b for _, b in inits]).astype(dtype)
        self.lam = np.array([c.weight_decay for c in padded])
        self.cap = np.array([c.lr for c in padded])
        self.dtype = np.dtype(dtype)
        self.x_norm2 = float(np.linalg.eigvalsh(x64 @ x64.T)[-1])
        self.col_norm2 = (x64 * x64).sum(axis=0)

    def step(self):
        u, v = self.u, self.v
        _, s, g = diagonal_sweep.products(u * u - v * v, self.x, self.y)
        lr = diagonal_sweep.step_sizes(self.cap, u, v, g, s, self.lam, self.x_norm2, self.col_norm2, True, self.m)
        lr_cast, lam = lr.astype(self.dtype)[:, None], self.lam.astype(self.dtype)[:, None]
        u -= lr_cast * (2 * u * g + lam * u)
        v -= lr_cast * (-2 * v * g + lam * v)

    def losses(self):
        beta = (self.u * self.u - self.v * self.v)[: self.m].astype(np.float64)
        return np.array([diagonal.logistic_loss(self.y64 * (self.x64 @ b)) for b in beta])


def seconds_per_step(stepper, steps: int, repeats: int = 3) -> float:
    """The best of ``repeats`` timings of ``steps`` steps, per step."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            stepper.step()
        best = min(best, (time.perf_counter() - t0) / steps)
    return best


def read_bandwidth(megabytes: int = 256, repeats: int = 5) -> float:
    """Bytes per second a single-threaded float64 matrix-vector product streams from a ``megabytes`` matrix (best of
    ``repeats``): the fastest read of a large matrix numpy does here (a plain sum is slower than memory)."""
    a = np.ones((megabytes * (1 << 20) // 8 // 1024, 1024))
    w = np.ones(1024)
    a @ w
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ w
        best = min(best, time.perf_counter() - t0)
    return a.nbytes / best


def compare_dtypes() -> dict:
    """The sparse chapter's verdicts on its default sweeps trained one by one, stacked in float64, stacked in float32."""
    import dataclasses

    groups = run_sets.sparse_configs("default")
    verdicts = {}
    for how in ("one by one", "float64", "float32"):
        trained = {}
        for name, cs in groups.items():
            if how == "one by one":
                trained[name] = [dataclasses.replace(diagonal.train(c, progress=False), config_type=SparseConfig)
                                 for c in cs]
            else:
                trained[name] = [dataclasses.replace(h, config_type=SparseConfig)
                                 for h in diagonal_sweep.train_sweep(cs, dtype=how, progress=False)]
        verdicts[how] = {r.claim.id: r.verdict for r in sparse_chapter.evaluate_sparse(trained)}
    print(f"{'claim':30s} {'one by one':16s} {'stacked float64':16s} stacked float32")
    for cid, v in verdicts["one by one"].items():
        print(f"{cid:30s} {v:16s} {verdicts['float64'][cid]:16s} {verdicts['float32'][cid]}")
    return verdicts


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=4000, help="input dimension (the book's sparse chapter: 4000)")
    ap.add_argument("--n", type=int, default=128, help="training points (the book's sparse chapter: 128)")
    ap.add_argument("--members", type=int, default=5, help="members of the sweep (alphas 16 ... 16384)")
    ap.add_argument("--steps", type=int, default=200, help="steps per timing")
    ap.add_argument("--json", help="write the numbers here too")
    ap.add_argument("--compare-dtypes", action="store_true", help="the sparse chapter's verdicts in float64 and float32")
    args = ap.parse_args(argv)
    if args.compare_dtypes:
        return compare_dtypes()
    cs = configs(args.d, args.n, args.members)
    x64 = diagonal.make_data(cs[0])[0]

    check_one, check_stack = OneByOne(cs, x64.copy()), Stacked(cs, x64, "float64")
    for _ in range(20):
        check_one.step()
        check_stack.step()
    worst = float(np.max(np.abs(check_stack.losses() - check_one.losses()) / check_one.losses()))
    if worst > 1e-10:
        raise SystemExit(f"the stacked step disagrees with the one-by-one step after 20 steps (relative {worst:.3g})")

    one = seconds_per_step(OneByOne(cs, x64), args.steps)
    f64 = seconds_per_step(Stacked(cs, x64, "float64"), args.steps)
    f32 = seconds_per_step(Stacked(cs, x64, "float32"), args.steps)
    bandwidth = read_bandwidth()
    floor64 = 2 * x64.nbytes / bandwidth
    out = {"d": args.d, "n": args.n, "members": args.members, "block": diagonal_sweep.BLOCK,
           "agreement_after_20_steps": worst, "one_by_one_s": one, "stacked_f64_s": f64, "stacked_f32_s": f32,
           "ratio_f64": one / f64, "ratio_f32": one / f32, "read_bandwidth_GBps": bandwidth / 1e9,
           "floor_f64_s": floor64, "floor_f32_s": floor64 / 2, "x_MB_f64": x64.nbytes / 1e6,
           "machine": platform.processor() or platform.machine()}
    print(f"{args.members} members, d = {args.d:,}, n = {args.n} (X: {x64.nbytes / 1e6:.1f} MB in float64); "
          f"stacked float64 agrees with one by one to {worst:.1e} after 20 steps")
    print(f"  one by one        {one * 1e3:8.3f} ms per step of all members")
    print(f"  stacked, float64  {f64 * 1e3:8.3f} ms   ratio {one / f64:.2f}x   floor {floor64 * 1e3:.3f} ms "
          f"({f64 / floor64:.1f}x the floor)")
    print(f"  stacked, float32  {f32 * 1e3:8.3f} ms   ratio {one / f32:.2f}x   floor {floor64 / 2 * 1e3:.3f} ms "
          f"({f32 / (floor64 / 2):.1f}x the floor)")
    print(f"  read bandwidth (one thread, 256 MB matrix-vector product): {bandwidth / 1e9:.1f} GB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
