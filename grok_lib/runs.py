"""Histories of many configs, what every notebook's sweep calls: each read from the run store, the
missing ones trained (in groups that stack, optionally in worker processes) and written there."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional, Sequence

from .arithmetic import arithmetic_id
from .config import ConfigError
from .history import History, stamped
from .plans import Plan, groups, largest_first, plan, raise_if_diverged
from .store import RunStore


def missing_groups(configs: Sequence, store: RunStore, stack: int | str = "auto") -> list[list[Plan]]:
    """The groups to train so that every config (or plan) of ``configs`` is in ``store``
    (duplicates once), largest first."""
    todo: dict[str, Plan] = {}
    for c in configs:
        p = c if isinstance(c, Plan) else plan(c)
        if p.key not in todo and not store.has(p.key):
            todo[p.key] = p
    return largest_first(groups(list(todo.values()), stack))


def run_all(configs: Sequence, store: Optional[RunStore] = None, progress: bool = True,
            stack: int | str = "auto", workers: int = 1) -> list[History]:
    """Histories of several configs (or plans), in order.

    Before anything is trained or written: each config is planned (validated, device
    resolved, key computed) once, the store folder is checked, every stored entry is read
    (a damaged one is reported and trained again; one this user may not read is a
    :class:`StoreError`), and if anything must be trained the folder must be writable.
    Missing runs of a kind that stacks are trained together in groups of ``stack`` members
    ("auto": the kind's choice for the device). With ``workers`` > 1 the missing groups are
    trained by that many processes at once (see :func:`train_missing`). The numbers depend
    on neither (bitwise on the CPU); only the speed does. A :class:`DivergedError` if a run
    diverged (it stays stored as diverged).
    """
    store = store or RunStore()
    _need_workers(workers)
    plans = [c if isinstance(c, Plan) else plan(c) for c in configs]
    store.check()
    found: dict[str, History] = {}
    unique = list({p.key: p for p in plans}.values())
    for p in unique:
        history = store.load(p.key)
        if history is not None:
            found[p.key] = history
    missing = [p for p in unique if p.key not in found]
    if missing:
        store.check(writable=True)
        todo = largest_first(groups(missing, stack))
        if workers > 1 and len(todo) > 1:
            _train_in_processes(todo, store, workers, progress)
            for p in missing:
                history, _ = store.examine(p.key)
                if history is not None:
                    found[p.key] = history
            todo = largest_first(groups([p for p in missing if p.key not in found], stack))
        for group in todo:
            for p, history in zip(group, store.train_group(group, progress=progress)):
                found[p.key] = history
    histories = stamped([found[p.key] for p in plans], [p.config for p in plans])
    raise_if_diverged(plans, histories)
    return histories


def train_task(configs: list, root: str, threads: Optional[int] = None, arithmetic: Optional[str] = None) -> list[str]:
    """One task of :func:`missing_groups` (the configs of one group), trained into the store at
    ``root`` in this process with ``threads`` torch threads (None: leave as is); returns the
    keys written. What worker processes and cluster workers run. ``arithmetic``: the id of the
    asking process's arithmetic; a worker in another one would write entries under keys the asker
    never reads, so it refuses in one line."""
    if arithmetic is not None and arithmetic != arithmetic_id():
        raise RuntimeError(f"this worker computes in arithmetic {arithmetic_id()}, not the asking process's "
                           f"{arithmetic}: start it with the same GROK_ARITHMETIC and pins (grok_lib/arithmetic.py)")
    if threads is not None:
        import torch

        torch.set_num_threads(threads)
    store = RunStore(Path(root))
    return [h.meta["key"] for h in store.train_group([plan(c) for c in configs], progress=False)]


def train_missing(configs: Sequence, store: RunStore, workers: int, stack: int | str = "auto",
                  progress: bool = True) -> None:
    """Train every missing run of ``configs`` with ``workers`` processes at once, into ``store``.

    The tasks are the groups of :func:`missing_groups`; each process gets ``cpu_count // workers``
    torch threads. On the 2-core CPU two one-thread processes train 1.3x faster than one
    two-thread process, and numbers do not depend on the thread count (checked: bitwise
    equal weights). Processes are started fresh ("spawn"), never forked from a process
    whose thread pools are running.
    """
    _need_workers(workers)
    _train_in_processes(missing_groups(configs, store, stack), store, workers, progress)


def _train_in_processes(tasks: list[list[Plan]], store: RunStore, workers: int, progress: bool) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if not tasks:
        return
    store.check(writable=True)
    workers = min(workers, len(tasks))
    threads = max(1, (os.cpu_count() or 1) // workers)
    if progress:
        print(f"training {len(tasks)} missing run(s)/stack(s) in {workers} processes x {threads} thread(s) ...",
              flush=True)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(train_task, [p.config for p in task], str(store.root), threads, arithmetic_id())
                   for task in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            keys = future.result()  # raises a worker's error here
            if progress:
                print(f"  [{done}/{len(tasks)}] {', '.join(keys)} ({time.perf_counter() - t0:.0f} s)", flush=True)


def _need_workers(workers) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer, got {workers!r}")
