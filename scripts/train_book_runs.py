"""Train every run the book needs (default profile) into the run store, N processes at once.

`make notebooks` and `make test` call this first; the notebooks then find every run in the
store. Runs already there are skipped, so a warm call costs a second.

    .venv/bin/python scripts/train_book_runs.py [--workers N] [--part paper_a]   # default: one per core, every part
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from grok_lib.chapters import book_chapters, book_configs
from grok_lib.paths import parts
from grok_lib.runs import missing_groups, train_missing
from grok_lib.store import RunStore


def main() -> int:
    ap = argparse.ArgumentParser(description="Train every run the book needs into the run store.")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: CPU cores)")
    ap.add_argument("--part", choices=parts(), help="only this part's runs (default: every part's)")
    args = ap.parse_args()
    if args.workers < 1:
        ap.error(f"--workers must be a positive integer, got {args.workers}")
    t0 = time.perf_counter()
    configs = book_configs("default", args.part)  # the chapters' runs (their declarations: grok_lib.chapters)
    store = RunStore()
    if args.workers > 1:
        train_missing(configs, store, args.workers, chapters=book_chapters("default", args.part))
    for group in missing_groups(configs, store):  # what is left (all of it with one worker)
        store.train_group(group)
    # only trained here, not loaded: the notebooks load what they need
    print(f"{len(configs)} runs of the book are in the store ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
