"""Train Paper B's sparse alpha sweep at the paper's lambda and step as one stacked computation, resumable across
sessions: each call continues where the last one stopped.

    .venv/bin/python scripts/train_stacked_sweep.py --out /data/sweep_1e5 --hours 2.5        # the paper's d and n
    .venv/bin/python scripts/train_stacked_sweep.py --out /tmp/small --d 4000 --n 128 --hours 1
    .venv/bin/python scripts/train_stacked_sweep.py --out /data/sweep_1e5 --record            # into recorded/

The sweep is the sparse chapter's alpha sweep (16 ... 16,384) on the default profile's data settings with the
paper's lambda = 1e-3 and step cap 0.01, each member to 2 ln(alpha) / lambda of continuous time (the sparse
horizon, as ``recorded/paper_b/sparse_paper_lambda``); ``--d`` and ``--n`` set its size (default: the paper's
d = 10^5 and n = 256, 1.94 million steps for alpha = 16,384: about 25 hours of the book's CPU at 46 ms a stacked
step, ``benchmarks/README.md``). It trains with :func:`grok_lib.paper_b.diagonal_sweep.train_sweep` in float64.

``--out`` is the sweep's folder (:mod:`grok_lib.paper_b.sweep_folder`): ``state.npz`` (the last checkpoint, written
atomically every ``--every`` steps) and ``sweep.json`` (the sweep's configs and the arithmetic it runs in). A call with
a ``state.npz`` resumes it; one in another arithmetic is refused (a resumed sweep is bitwise the sweep run straight
through only in the same arithmetic). ``--hours`` stops at the first checkpoint after that long. When the sweep is
done, each member's history is ``<j>.npz`` in config order (plain arrays, no pickles) and ``state.npz`` is removed.
The sweep's configs are :func:`grok_lib.paper_b.recordings.sparse_paper_lambda_sweep`.

``--record`` trains nothing: it writes the recorded set ``recorded/paper_b/sparse_paper_d`` (the paper's size, the
defaults above) from the folder as far as the sweep has gone, done or not (the set's manifest says how far), on the
arithmetic the sweep was trained in; the sparse page reads it. Training runs numpy's OpenBLAS in one thread
(:func:`grok_lib.blas.one_thread`): the products give the same bits with two, the records' norms do not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy loads (grok_lib/arithmetic.py)
from grok_lib.config import ConfigError, need_int, need_real
from grok_lib import blas
from grok_lib.guard import book_writes
from grok_lib.paper_b import config as pb, diagonal_sweep, recordings, sweep_folder

#: float64 only: float32 changes four of the sparse chapter's verdicts (benchmarks/README.md).
DTYPE = "float64"


#: The recorded set ``--record`` writes.
RECORDED = "paper_b/sparse_paper_d"


def record(out: Path, configs: list) -> int:
    """``--record``: the set :data:`RECORDED` from the folder ``out`` (the paper's size only)."""
    if configs != recordings.sparse_paper_d():
        raise ConfigError(f"--record writes {RECORDED}, the paper's size: leave --d, --n, --n-test, --data-seed and "
                          f"--horizon at their defaults")
    with book_writes():  # recording a set is the one way into recorded/
        folder, sweep = sweep_folder.record(out, RECORDED, recordings.RECORDINGS[RECORDED][0], configs, DTYPE)
    state = "done" if sweep["done"] else f"standing at step {sweep['through_step']:,} of {sweep['last_step']:,}"
    print(f"recorded {RECORDED} in {folder}: {len(configs)} members, {state}")
    return 0


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
    ap.add_argument("--record", action="store_true",
                    help=f"train nothing: write recorded/{RECORDED} from the folder as far as the sweep has gone")
    args = ap.parse_args(argv)
    try:
        need_int("--every", args.every, 1)
        if args.hours is not None:
            need_real("--hours", args.hours, 0.0, 1e4, lo_open=False, hi_open=True)
        configs = recordings.sparse_paper_lambda_sweep(args.d, args.n, args.n_test, args.data_seed, args.horizon)
        out = args.out
        if args.record:
            return record(out, configs)
        out.mkdir(parents=True, exist_ok=True)
        sweep_folder.check(out, configs, DTYPE)
        if sweep_folder.finished(out, len(configs)) is not None:
            print(f"{out}: the sweep is done ({len(configs)} histories)")
            return 0
    except ConfigError as err:
        print(f"train_stacked_sweep.py: {err}", file=sys.stderr)
        return 2
    state = out / "state.npz"
    longest = max(c.steps for c in configs)
    resuming = state.exists() and diagonal_sweep.load_state(state).step
    print(f"{len(configs)} members, d = {args.d}, n = {args.n}, {longest:,} steps; "
          + (f"resuming at step {resuming:,}" if resuming else "starting"), flush=True)
    try:
        with blas.one_thread():  # the sweep's numbers whatever OPENBLAS_NUM_THREADS says (its reductions' last bits)
            histories, info = sweep_folder.train(out, configs, DTYPE, args.every,
                                                 None if args.hours is None else args.hours * 3600)
    except ConfigError as err:  # the folder names other code (sweep_folder.adopt_code)
        print(f"train_stacked_sweep.py: {err}", file=sys.stderr)
        return 2
    if histories is None:
        print(f"stopped at step {info['stopped_at']:,} of {longest:,} after {info['seconds']:.0f} s; run again to go on")
        return 0
    print(f"done: {len(histories)} histories in {out} ({info['seconds']:.0f} s this call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
