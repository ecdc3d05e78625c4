"""Histories of many configs, what every notebook's sweep calls: each read from the run store, the
missing ones trained (in groups that stack, optionally in worker processes) and written there."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional, Sequence

from .arithmetic import arithmetic_id
from .config import ConfigError, aligned_dicts
from .history import History, stamped
from .plans import Plan, groups, largest_first, plan, raise_if_diverged
from .store import RunStore

#: While no task finishes, the training step says what is running this often (a book's largest runs take minutes).
HEARTBEAT_SECONDS = 60.0


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
        if progress:
            print(f"{len(missing)} of {len(unique)} run(s) are not in the run store: training them "
                  f"(about {_minutes(sum(estimated_seconds(g) for g in todo))} on one core of the book's CPU) ...",
                  flush=True)
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
                  progress: bool = True, chapters: Optional[dict] = None) -> None:
    """Train every missing run of ``configs`` with ``workers`` processes at once, into ``store``.

    The tasks are the groups of :func:`missing_groups`; each process gets ``cpu_count // workers``
    torch threads. On the 2-core CPU two one-thread processes train 1.3x faster than one
    two-thread process, and numbers do not depend on the thread count (checked: bitwise
    equal weights). Processes are started fresh ("spawn"), never forked from a process
    whose thread pools are running. With ``progress`` each finished task prints a line that a person
    can read (:func:`task_label`: ``chapters`` maps a config to the chapter that needs it), the time so
    far and an estimate of the time left (the run kinds' costs per step, scaled by what the finished
    tasks took).
    """
    _need_workers(workers)
    _train_in_processes(missing_groups(configs, store, stack), store, workers, progress, chapters)


def distinguishing(plans: Sequence[Plan], chapters: Optional[dict] = None) -> dict[tuple, tuple[str, ...]]:
    """Per chapter (the first that needs a run, ``chapters``: config -> chapters) and run kind, the config fields
    whose values differ among ``plans`` of that chapter and kind: what tells its runs apart."""
    groups: dict[tuple, list] = {}
    for p in plans:
        groups.setdefault(_group(p, chapters or {}), []).append(p.config)
    out = {}
    for group, configs in groups.items():
        dicts = aligned_dicts(configs)  # a field added later counts at its default where a config leaves it out
        out[group] = tuple(k for k in dicts[0] if len({repr(d[k]) for d in dicts}) > 1)
    return out


def _group(p: Plan, chapters: dict) -> tuple:
    return (next(iter(chapters.get(p.config, ())), ""), p.kind.name)


def task_label(task: Sequence[Plan], fields: dict[tuple, tuple[str, ...]], chapters: dict) -> str:
    """One line for a task: the chapter(s) that need it, its kind and its distinguishing settings per member."""
    def member(p: Plan) -> str:
        d = {k: getattr(p.config, k) for k in fields[_group(p, chapters)]}
        shown = " ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in d.items())
        return shown or "one run"

    where = sorted({c for p in task for c in chapters.get(p.config, ())})
    head = f"{', '.join(where)}: " if where else ""
    return f"{head}{task[0].kind.name} " + "; ".join(member(p) for p in task)


def estimated_seconds(task: Sequence[Plan]) -> float:
    """The run kinds' estimate of a task's time on this CPU (cost per step x steps; relative use only)."""
    return sum(p.kind.seconds(p.config.to_dict()) + 1.0 for p in task)  # + a second of setup per run


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _train_in_processes(tasks: list[list[Plan]], store: RunStore, workers: int, progress: bool,
                        chapters: Optional[dict] = None) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    if not tasks:
        return
    store.check(writable=True)
    workers = min(workers, len(tasks))
    threads = max(1, (os.cpu_count() or 1) // workers)
    if progress:
        print(f"training {len(tasks)} missing run(s)/stack(s) in {workers} processes x {threads} thread(s) ...",
              flush=True)
    t0 = time.perf_counter()
    chapters = chapters or {}
    fields = distinguishing([p for task in tasks for p in task], chapters)
    estimate = {i: estimated_seconds(task) for i, task in enumerate(tasks)}
    left = sum(estimate.values())
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(train_task, [p.config for p in task], str(store.root), threads, arithmetic_id()): i
                   for i, task in enumerate(tasks)}
        pending, done = set(futures), 0
        while pending:
            finished, pending = wait(pending, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
            elapsed = time.perf_counter() - t0
            if not finished:  # the largest tasks come first and take minutes: say what is running meanwhile
                running = [task_label(tasks[futures[f]], fields, chapters) for f in pending if f.running()]
                if progress:
                    print(f"  ... {_minutes(elapsed)} in, {done}/{len(tasks)} done; training: "
                          f"{' | '.join(running[:workers]) or 'starting'}", flush=True)
                continue
            for future in finished:
                future.result()  # raises a worker's error here
                i, done = futures[future], done + 1
                left -= estimate[i]
                rate = elapsed / max(sum(estimate.values()) - left, 1e-9)  # seconds per estimated second, so far
                eta = f", about {_minutes(rate * left)} left" if done < len(tasks) else ""
                if progress:
                    print(f"  [{done}/{len(tasks)}] {task_label(tasks[i], fields, chapters)} "
                          f"({_minutes(elapsed)} in{eta})", flush=True)


def _need_workers(workers) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer, got {workers!r}")
