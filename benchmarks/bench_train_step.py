"""Benchmark: grok_lib's training step against a straightforward PyTorch implementation.

Both run in this process, on the same data and from the same initial weights:

- straightforward: nn.Embedding + nn.Linear, every ordered training pair (a, b) gathered
  and projected per sample, F.cross_entropy, torch.optim.AdamW;
- grok_lib: the one-hot structure made explicit (E W^T formed once per step, p x width,
  then gathered per pair and scatter-added back in the backward pass), each unordered
  pair once with weight 2 (the model is symmetric in a and b), cross-entropy in float64.

The two compute the same loss; the benchmark first checks that their losses agree over
the first steps, then times both alternately and prints the speed ratio.

    .venv/bin/python benchmarks/bench_train_step.py [--width 512] [--train-frac 0.3] [--steps 60]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy and torch load (grok_lib/arithmetic.py)
import torch
import torch.nn.functional as F
from torch import nn

from grok_lib.paper_a.metrics import cross_entropy64
from grok_lib.paper_a.model import ModAddMLP
from grok_lib.paper_a.task import make_split


class Straightforward(nn.Module):
    """The textbook model: per-sample embedding lookup and linear layers."""

    def __init__(self, p: int, d: int, width: int):
        super().__init__()
        self.emb = nn.Embedding(p, d)
        self.hidden = nn.Linear(d, width)
        self.head = nn.Linear(width, p, bias=False)

    def forward(self, a, b):
        return self.head(torch.relu(self.hidden(self.emb(a) + self.emb(b))))


def ordered_pairs(split):
    """Every ordered pair of a side: (a, b) and, when a != b, (b, a)."""
    off = split.a != split.b
    return torch.cat([split.a, split.b[off]]), torch.cat([split.b, split.a[off]])


def build(p, d, width, frac, lr, wd):
    train, _ = make_split(p, frac, seed=0)
    fast = ModAddMLP(p, d, width, seed=0)
    slow = Straightforward(p, d, width)
    with torch.no_grad():  # identical starting weights
        slow.emb.weight.copy_(fast.E)
        slow.hidden.weight.copy_(fast.W)
        slow.hidden.bias.copy_(fast.b)
        slow.head.weight.copy_(fast.U)
    adam = dict(lr=lr, betas=(0.9, 0.98), weight_decay=wd)
    a, b = ordered_pairs(train)
    y = (a + b) % p

    fast_opt = torch.optim.AdamW(fast.parameters(), **adam)
    slow_opt = torch.optim.AdamW(slow.parameters(), **adam)

    def fast_step():
        loss = cross_entropy64(fast(train.a, train.b), train.y, train.weight)
        fast_opt.zero_grad(set_to_none=True)
        loss.backward()
        fast_opt.step()
        return loss.item()

    def slow_step():
        loss = F.cross_entropy(slow(a, b), y)
        slow_opt.zero_grad(set_to_none=True)
        loss.backward()
        slow_opt.step()
        return loss.item()

    return fast_step, slow_step, int(a.numel()), train.n_unordered


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p", type=int, default=113)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--width", type=int, default=512)
    ap.add_argument("--train-frac", type=float, default=0.3)
    ap.add_argument("--steps", type=int, default=60, help="timed steps per implementation")
    ap.add_argument("--check-steps", type=int, default=20, help="steps over which the losses must agree")
    args = ap.parse_args()

    fast_step, slow_step, n_ordered, n_unordered = build(args.p, args.d, args.width, args.train_frac, 1e-3, 1.0)
    print(f"machine: {platform.processor() or platform.machine()}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads")
    print(f"p={args.p} d={args.d} width={args.width} train_frac={args.train_frac}: "
          f"{n_ordered} ordered training pairs ({n_unordered} unordered)")

    worst = 0.0
    for _ in range(args.check_steps):
        lf, ls = fast_step(), slow_step()
        worst = max(worst, abs(lf - ls) / abs(ls))
    print(f"losses agree over the first {args.check_steps} steps: max relative difference {worst:.1e}")
    if worst > 1e-4:
        raise SystemExit(f"FAIL: the two implementations disagree (relative difference {worst:.1e} > 1e-4)")

    times = {"grok_lib": [], "straightforward": []}
    for _ in range(args.steps):  # alternate, so drift in machine load hits both alike
        for name, step in (("grok_lib", fast_step), ("straightforward", slow_step)):
            t0 = time.perf_counter()
            step()
            times[name].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    print(f"straightforward: {med['straightforward']:.1f} ms/step (median of {args.steps})")
    print(f"grok_lib:        {med['grok_lib']:.1f} ms/step")
    print(f"speed ratio:     {med['straightforward'] / med['grok_lib']:.2f}x")


if __name__ == "__main__":
    main()
