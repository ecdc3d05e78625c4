"""Train a chapter's runs (or a whole part's) on a Dask cluster, into the run store the notebooks read.

    .venv/bin/python scripts/sweep_on_dask.py [--chapter PART/STEM | --part PART] [--profile ci|default]
                                              [--workers N | --scheduler ADDRESS] [--store FOLDER]

Without ``--scheduler`` it starts a LocalCluster of ``--workers`` worker processes (one thread each) on
this machine; with ``--scheduler tcp://host:8786`` it uses a cluster that is already running (its workers
started with ``dask worker`` or by dask-jobqueue: DEVELOPING.md, "On a cluster (Dask)"). Either way the
runs are trained by :func:`grok_lib.distributed.run_all_on` (one task per stack of missing runs) and land
in ``--store`` under the same keys as in-process runs, so the notebooks then read them from there. Runs
already in the store are not trained again. Default: Figure 1's weight-decay sweep
(``paper_a/fig1_loss_curves``) at the book's ``default`` profile, into the usual run store.

Every input is checked before a cluster starts (a one-line error naming the option and what it takes); then,
before anything is sent, every worker is asked for its arithmetic and whether it sees the store folder.
"""

from __future__ import annotations

# grok_lib first, before Dask: importing it pins the arithmetic (grok_lib/arithmetic.py sets MKL's, ATen's,
# OpenBLAS's and numpy's variables before numpy or torch loads). dask.distributed loads numpy, so imported first
# it would leave this process in other arithmetic: its run keys would not be the book's, and every task sent to
# a worker (which inherits the pins) would be refused as computed in another arithmetic.
import grok_lib  # noqa: F401  (first: see above)

import argparse
import dataclasses
import os
import sys
import threading
import time
from pathlib import Path

from grok_lib import arithmetic
from grok_lib.arithmetic import arithmetic_id
from grok_lib.chapters import book_chapters, book_configs, chapter, chapters, flat
from grok_lib.config import ConfigError
from grok_lib.paths import parts
from grok_lib.plans import plan
from grok_lib.runs import distinguishing, missing_groups, task_label
from grok_lib.store import RunStore, StoreError

PROFILES = ("ci", "default")
DEFAULT_CHAPTER = "paper_a/fig1_loss_curves"
#: How long to wait for the first worker of an existing cluster (a SLURM job may queue).
WAIT_FOR_WORKERS_S = 300


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def chapter_names() -> list[str]:
    return [f"{c.notebook.split('/')[1]}/{c.stem}" for c in chapters()]


def parse(argv: list[str]) -> argparse.Namespace:
    ap = Parser(prog="sweep_on_dask.py", description="Train a chapter's runs on a Dask cluster into the run store.")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--chapter", default=None, metavar="PART/STEM",
                       help=f"the runs of one chapter (notebooks/PART/STEM.ipynb) and its claims (default: {DEFAULT_CHAPTER})")
    which.add_argument("--part", default=None, help=f"every run of one part's chapters ({', '.join(parts())})")
    ap.add_argument("--profile", default="default", help=f"the runs' profile: {' or '.join(PROFILES)} (default: default)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="an existing cluster's scheduler, e.g. tcp://host:8786 (default: start a LocalCluster)")
    where.add_argument("--workers", type=int, default=None,
                       help="worker processes of the LocalCluster, one thread each (default: one per core)")
    ap.add_argument("--store", type=Path, default=None,
                    help="the run store folder, seen by every worker (default: GROK_STORE, else .cache/runs)")
    args = ap.parse_args(argv)
    if args.profile not in PROFILES:
        ap.error(f"--profile must be one of {', '.join(PROFILES)}; got {args.profile!r}")
    if args.part is not None and args.part not in parts():
        ap.error(f"--part must be one of {', '.join(parts())}; got {args.part!r}")
    if args.chapter is not None and args.chapter not in chapter_names():
        ap.error(f"--chapter must be one of {', '.join(chapter_names())}; got {args.chapter!r}")
    if args.workers is not None and args.workers < 1:
        ap.error(f"--workers must be a positive integer; got {args.workers}")
    if args.scheduler is not None and "://" not in args.scheduler:
        ap.error(f"--scheduler must be a scheduler address such as tcp://host:8786; got {args.scheduler!r}")
    return args


def selected(args) -> tuple[str, list, dict]:
    """What is trained: its name, its configs (on the CPU: device='cpu' where a config has a device) and, for
    the progress lines, each config's chapters."""
    if args.part:
        name, configs, needed = args.part, book_configs(args.profile, args.part), book_chapters(args.profile, args.part)
    else:
        name = args.chapter or DEFAULT_CHAPTER
        part, stem = name.split("/")
        own = chapter(part, stem).runs(args.profile)
        configs = list(dict.fromkeys(flat(own) + chapter(part, stem).claim_runs(own)))
        needed = {c: [name] for c in configs}

    def on_cpu(c):  # 'auto' would resolve on each machine by itself; the book's runs are CPU runs (same key)
        return dataclasses.replace(c, device="cpu") if getattr(c, "device", "cpu") == "auto" else c

    return name, [on_cpu(c) for c in configs], {on_cpu(c): v for c, v in needed.items()}


def worker_facts(root: str) -> tuple[str, bool]:
    """Run on each worker: its arithmetic and whether it sees the run store folder."""
    from grok_lib.arithmetic import arithmetic_id as worker_arithmetic

    return worker_arithmetic(), os.path.isdir(root)


def check_workers(client, root: str) -> int:
    """The number of workers, after checking that each computes in this process's arithmetic and sees ``root``."""
    try:
        facts = client.run(worker_facts, root)
    except ModuleNotFoundError as err:
        raise SystemExit(f"sweep_on_dask.py: error: a worker cannot import {err.name}: start the workers in this "
                         f"repository's environment (.venv, or grok_lib installed)") from None
    ours = arithmetic_id()
    other = {w: a for w, (a, _) in facts.items() if a != ours}
    if other and not arithmetic_id().startswith("pinned-") and arithmetic.mode() == "pinned":
        raise SystemExit(f"sweep_on_dask.py: error: this process computes in other arithmetic ({ours}), not the "
                         f"pinned one: was numpy or torch loaded before grok_lib?")
    if other:
        w, a = next(iter(other.items()))
        raise SystemExit(f"sweep_on_dask.py: error: {len(other)} of {len(facts)} worker(s) compute in other arithmetic "
                         f"({w}: {a}; here: {ours}): start each worker with the pins exported "
                         f"(export $(python3.11 grok_lib/arithmetic.py --env)) and the same GROK_ARITHMETIC")
    blind = [w for w, (_, sees) in facts.items() if not sees]
    if blind:
        raise SystemExit(f"sweep_on_dask.py: error: {len(blind)} of {len(facts)} worker(s) do not see the run store "
                         f"{root} ({blind[0]}): give --store a folder on a filesystem every worker shares")
    return len(facts)


def watch(tasks: list, store: RunStore, labels: list[str], t0: float, stop: threading.Event) -> None:
    """Print a line as each task's runs land in the store (while run_all_on waits for the cluster)."""
    pending = dict(enumerate(tasks))
    done, stopping = 0, False
    while pending and not stopping:
        stopping = stop.wait(0.5)  # once more after the stop: what landed last
        for i in [i for i, task in pending.items() if all(store.has(p.key) for p in task)]:
            done += 1
            pending_task = pending.pop(i)
            print(f"  [{done}/{len(tasks)}] landed: {labels[i]} -> {', '.join(p.key for p in pending_task)} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)


def main(argv: list[str]) -> int:
    args = parse(argv)
    t0 = time.perf_counter()
    try:
        store = RunStore(args.store.expanduser().resolve() if args.store else None)
        store.check(writable=True)  # creates the folder; a file, or a folder in the book, is refused here
        name, configs, needed = selected(args)
        plans = [plan(c) for c in configs]
    except (ConfigError, StoreError) as err:
        where = "--store: " if isinstance(err, StoreError) and args.store else ""
        print(f"sweep_on_dask.py: error: {where}{err}", file=sys.stderr)
        return 2
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print("sweep_on_dask.py: error: Dask is not installed: `make cluster-env` installs it (the cluster extra, "
              "pinned in requirements-cluster.lock)", file=sys.stderr)
        return 2
    from grok_lib.distributed import run_all_on

    tasks = missing_groups(plans, store)
    devices = sorted({p.device for p in plans})
    print(f"{name}: {len(plans)} runs (profile {args.profile}, device {', '.join(devices)}), "
          f"{sum(map(len, tasks))} to train in {len(tasks)} task(s), into the run store {store.root}", flush=True)
    if not tasks:  # nothing to send: no cluster is started
        print(f"{len(plans)} runs of {name} are in the run store {store.root} (all there already)", flush=True)
        return 0
    fields = distinguishing([p for task in tasks for p in task], needed)
    labels = [task_label(task, fields, needed) for task in tasks]

    cluster = None
    if args.scheduler:
        print(f"connecting to the cluster at {args.scheduler} ...", flush=True)
        try:
            client = Client(args.scheduler, timeout=30)
            client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS_S)
        except (OSError, TimeoutError) as err:
            print(f"sweep_on_dask.py: error: no worker at {args.scheduler} ({type(err).__name__}: {err})",
                  file=sys.stderr)
            return 1
    else:
        workers = args.workers or os.cpu_count() or 1
        print(f"starting a LocalCluster of {workers} worker process(es), one thread each ...", flush=True)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster)
    try:
        with client:
            n = check_workers(client, str(store.root))
            print(f"{n} worker(s) at {args.scheduler or cluster.scheduler_address}, arithmetic {arithmetic_id()}",
                  flush=True)
            for i, label in enumerate(labels, 1):
                print(f"  task {i}: {label}", flush=True)
            stop = threading.Event()
            watcher = threading.Thread(target=watch, args=(tasks, store, labels, time.perf_counter(), stop), daemon=True)
            watcher.start()
            try:
                histories = run_all_on(client, configs, store_root=store.root)
            finally:
                stop.set()
                watcher.join()
    finally:
        if cluster is not None:
            cluster.close()
    print(f"{len(histories)} runs of {name} are in the run store {store.root} "
          f"({sum(map(len, tasks))} trained on the cluster, {time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":  # the LocalCluster's worker processes are spawned: they import this file, and must not run it
    sys.exit(main(sys.argv[1:]))
