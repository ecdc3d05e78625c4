"""Train Paper B's sparse alpha sweep at the paper's lambda and step as one stacked computation, resumable across
sessions: each call continues where the last one stopped.

    .venv/bin/python scripts/train_stacked_sweep.py --out /data/sweep_1e5 --hours 2.5        # the paper's d and n
    .venv/bin/python scripts/train_stacked_sweep.py --out /tmp/small --d 4000 --n 128 --hours 1

The sweep is the sparse chapter's alpha sweep (16 ... 16,384) on the default profile's data settings with the
paper's lambda = 1e-3 and step cap 0.01, each member to 2 ln(alpha) / lambda of continuous time (the sparse
horizon, as ``recorded/paper_b/sparse_paper_lambda``); ``--d`` and ``--n`` set its size (default: the paper's
d = 10^5 and n = 256, 1.94 million steps for alpha = 16,384: about 25 hours of the book's CPU at 46 ms a stacked
step, ``benchmarks/README.md``). It trains with :func:`grok_lib.paper_b.diagonal_sweep.train_sweep` in float64.

``--out`` holds ``state.npz`` (the last checkpoint, written atomically every ``--every`` steps) and ``sweep.json``
(the sweep's configs and the arithmetic it runs in). A call with a ``state.npz`` resumes it; one in another
arithmetic is refused (a resumed sweep is bitwise the sweep run straight through only in the same arithmetic).
``--hours`` stops at the first checkpoint after that long. When the sweep is done, each member's history is
``<j>.npz`` in config order (plain arrays, no pickles) and ``state.npz`` is removed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy loads (grok_lib/arithmetic.py)
from grok_lib.atomic import atomic_write
from grok_lib.config import ConfigError, need_int, need_real
from grok_lib.paper_b import config as pb, diagonal_sweep

#: The chapter's alpha sweep (the default profile's), trained at the paper's lambda and step.
ALPHAS = pb.SWEEPS["default"]["sparse"]["alpha"]
#: float64 only: float32 changes four of the sparse chapter's verdicts (benchmarks/README.md).
DTYPE = "float64"


def sweep_configs(d: int, n: int, n_test: int, data_seed: int, horizon: float) -> list:
    """The members: the default profile's sparse config at the paper profile's lambda and lr, with ``d``, ``n``,
    ``n_test`` and ``data_seed``, each to ``horizon`` ln(alpha) / lambda (no beta snapshots: d-vectors at d = 1e5)."""
    paper, default = pb.PROFILES["paper"]["sparse"], pb.PROFILES["default"]["sparse"]
    base = replace(default, d=d, n_train=n, n_test=n_test, data_seed=data_seed, weight_decay=paper.weight_decay,
                   lr=paper.lr, n_snapshots=0)
    return [replace(c, steps=pb.steps_for(c, horizon)) for c in (replace(base, alpha=a) for a in ALPHAS)]


def check_out(out: Path, configs: list) -> None:
    """``out``'s sweep.json must name these configs and this arithmetic (written on the first call: the checkpoint's
    own signature, :func:`diagonal_sweep.signature`, which a resume checks again)."""
    described = json.loads(diagonal_sweep.signature(configs, DTYPE))
    path = out / "sweep.json"
    if not path.exists():
        atomic_write(path, (json.dumps(described, indent=1, sort_keys=True) + "\n").encode())
        return
    held = json.loads(path.read_text())
    if held["configs"] != described["configs"]:
        raise ConfigError(f"--out {out} holds another sweep (its sweep.json names other configs); use another folder")
    if held["arithmetic"] != described["arithmetic"]:
        raise ConfigError(f"--out {out} was trained in arithmetic {held['arithmetic']}, this machine computes in "
                          f"{described['arithmetic']}: resume it where it started")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="the sweep's folder (checkpoint, then histories)")
    ap.add_argument("--d", type=int, default=100_000, help="input dimension (default: the paper's 1e5)")
    ap.add_argument("--n", type=int, default=256, help="training samples (default: the paper's 256)")
    ap.add_argument("--n-test", type=int, default=pb.PROFILES["default"]["sparse"].n_test, help="test samples")
    ap.add_argument("--data-seed", type=int, default=0)
    ap.add_argument("--horizon", type=float, default=pb.HORIZON["sparse"], help="run length in ln(alpha) / lambda")
    ap.add_argument("--every", type=int, default=10_000, help="steps between checkpoints")
    ap.add_argument("--hours", type=float, default=None, help="stop at the first checkpoint after this long")
    args = ap.parse_args(argv)
    try:
        need_int("--every", args.every, 1)
        if args.hours is not None:
            need_real("--hours", args.hours, 0.0, 1e4, lo_open=False, hi_open=True)
        configs = sweep_configs(args.d, args.n, args.n_test, args.data_seed, args.horizon)
        out = args.out
        check_out(out, configs)
        if all((out / f"{j}.npz").exists() for j in range(len(configs))):
            print(f"{out}: the sweep is done ({len(configs)} histories)")
            return 0
    except ConfigError as err:
        print(f"train_stacked_sweep.py: {err}", file=sys.stderr)
        return 2
    state_path = out / "state.npz"
    resume = diagonal_sweep.load_state(state_path) if state_path.exists() else None
    longest = max(c.steps for c in configs)
    print(f"{len(configs)} members, d = {args.d}, n = {args.n}, {longest:,} steps; "
          + (f"resuming at step {resume.step:,}" if resume else "starting"), flush=True)
    t0 = time.perf_counter()
    saved = {}

    def save(state):
        diagonal_sweep.save_state(state_path, state)
        saved["step"] = state.step

    histories = diagonal_sweep.train_sweep(
        configs, DTYPE, resume=resume, on_checkpoint=save, checkpoint_every=args.every,
        stop_after=None if args.hours is None else args.hours * 3600)
    if histories is None:
        print(f"stopped at step {saved['step']:,} of {longest:,} after {time.perf_counter() - t0:.0f} s; "
              "run again to go on")
        return 0
    for j, h in enumerate(histories):
        atomic_write(out / f"{j}.npz", h.to_bytes())
    state_path.unlink(missing_ok=True)
    print(f"done: {len(histories)} histories in {out} ({time.perf_counter() - t0:.0f} s this call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
