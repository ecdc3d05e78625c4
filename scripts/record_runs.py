"""Record (or re-record) the runs too long for ``make book``: train them through the run store
and write them under ``recorded/<set>/`` (see :mod:`grok_lib.recorded`).

    .venv/bin/python scripts/record_runs.py --list
    .venv/bin/python scripts/record_runs.py paper_a/paper_unordered [more sets] [--workers N]
    .venv/bin/python scripts/record_runs.py --all      # every set but those recorded from a sweep's folder

Training goes through the run store, so an interrupted recording resumes from its checkpoints.
Run it on the CPU machine the book is built on (the committed notebooks read the recordings)
and commit ``recorded/``; ``tests/test_recorded.py`` then checks them against today's code.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from grok_lib import recorded
from grok_lib.guard import book_writes
from grok_lib.runs import run_all
from grok_lib.store import RunStore


def main() -> int:
    known = recorded.definitions()
    ap = argparse.ArgumentParser(description="Record the long runs the book reads instead of training.")
    ap.add_argument("sets", nargs="*", help=f"sets to record, of: {', '.join(known)}")
    ap.add_argument("--all", action="store_true", help="record every set")
    ap.add_argument("--list", action="store_true", help="list the sets and exit")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: CPU cores)")
    args = ap.parse_args()
    if args.list:
        for name, (description, configs, _) in known.items():
            how = f"; recorded with {recorded.record_command(name)}" if recorded.recorded_elsewhere(name) else ""
            print(f"{name}: {description} ({len(configs())} runs{how})")
        return 0
    names = [n for n in known if not recorded.recorded_elsewhere(n)] if args.all else args.sets
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        ap.error(f"sets must be some of {', '.join(known)} (or --all), got {', '.join(unknown) or 'none'}")
    elsewhere = [n for n in names if recorded.recorded_elsewhere(n)]
    if elsewhere:  # a sweep of many hours over several sessions: its own script trains and records it
        ap.error(f"{elsewhere[0]} is recorded from its sweep's folder: {recorded.record_command(elsewhere[0])}")
    if args.workers < 1:
        ap.error(f"--workers must be a positive integer, got {args.workers}")
    configs = {n: known[n][1]() for n in names}  # every config validated before anything trains
    t0 = time.perf_counter()
    everything = [c for cs in configs.values() for c in cs]
    histories = iter(run_all(everything, RunStore(), workers=args.workers))
    threads = max(1, (os.cpu_count() or 1) // args.workers) if args.workers > 1 else "default"
    for name, cs in configs.items():
        description, _, blocks = known[name]
        with book_writes():  # recording a set is the one way into recorded/
            folder = recorded.write(name, description, cs, [next(histories) for _ in cs], threads=threads,
                                    blocks=blocks)
        print(f"recorded {name}: {len(cs)} runs in {folder}")
    print(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
