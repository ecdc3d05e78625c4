"""The run store: a training history cached under a key derived from its config.

Layout of the store folder (``paths.store_dir()``), per run key ``K``:

- ``K.npz``        the finished history (plain arrays, see :mod:`grok_lib.history`)
- ``K.json``       the config, metadata and the SHA-256 of ``K.npz``
- ``K.ckpt.npz``   the latest checkpoint of an unfinished run (removed when it finishes)

The store is only the cache. How a config is trained, which code is hashed into its key
and whether it may train in a group with others is its row in the table of run kinds
(:mod:`grok_lib.kinds`). The key hashes the kind, the config's canonical JSON (less the
fields that do not change the numbers), the resolved device, and the source of the
kind's modules, so editing a trainer invalidates its old entries but editing a plot
does not. Every write goes to a temporary file that is then renamed into place, so a
killed process never leaves a half-written entry. A corrupt entry (checksum mismatch,
unreadable file) is reported and recomputed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from . import __version__, paths
from .config import ConfigError
from .history import History, npz_bytes
from .kinds import RunKind, code_version, kind_of


@dataclass(frozen=True)
class Plan:
    """One config, planned once: its run kind, resolved device and store key."""

    config: object
    kind: RunKind
    device: str
    key: str


def plan(config) -> Plan:
    """Resolve ``config``'s kind and device and compute its key (once)."""
    kind = kind_of(config)
    device = kind.device(config)
    return Plan(config, kind, device, run_key(config, device, kind))


def run_key(config, device: str, kind: Optional[RunKind] = None) -> str:
    """The store key of ``config`` run on ``device`` (``cpu`` or ``cuda``)."""
    kind = kind or kind_of(config)
    values = {k: v for k, v in config.to_dict().items() if k not in kind.not_in_key}
    values["device"] = device
    record = {"kind": kind.name, "config": values, "code": code_version(kind)}
    payload = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class RunStore:
    """Histories on disk, keyed by config; see the module docstring for the layout."""

    def __init__(self, root: Optional[Path] = None):
        self.root = Path(root) if root is not None else paths.store_dir()

    def _paths(self, key: str) -> tuple[Path, Path, Path]:
        return self.root / f"{key}.npz", self.root / f"{key}.json", self.root / f"{key}.ckpt.npz"

    # -- finished histories --------------------------------------------------------
    def has(self, key: str) -> bool:
        """Whether a finished history is stored under ``key`` (not checked for damage)."""
        data_path, meta_path, _ = self._paths(key)
        return data_path.exists() and meta_path.exists()

    def load(self, key: str) -> Optional[History]:
        """The stored history of ``key``; None if absent; None with a warning if corrupt."""
        data_path, meta_path, _ = self._paths(key)
        if not data_path.exists() or not meta_path.exists():
            return None
        try:
            record = json.loads(meta_path.read_text())
            data = data_path.read_bytes()
            if sha256(data) != record["sha256"]:
                raise ValueError("checksum mismatch")
            return History.from_bytes(data)
        except Exception as err:  # any damage means: recompute
            warnings.warn(f"run store: entry {key} is corrupt ({err}); recomputing it", stacklevel=2)
            return None

    def save(self, key: str, history: History) -> None:
        data_path, meta_path, ckpt_path = self._paths(key)
        data = history.to_bytes()
        atomic_write(data_path, data)
        record = {"sha256": sha256(data), "config": history.config, "meta": history.meta}
        atomic_write(meta_path, json.dumps(record, indent=1, sort_keys=True).encode())
        ckpt_path.unlink(missing_ok=True)

    # -- checkpoints ------------------------------------------------------------------
    def save_checkpoint(self, key: str, arrays: dict[str, np.ndarray]) -> None:
        atomic_write(self._paths(key)[2], npz_bytes(arrays))

    def load_checkpoint(self, key: str) -> Optional[dict[str, np.ndarray]]:
        ckpt_path = self._paths(key)[2]
        if not ckpt_path.exists():
            return None
        try:
            with np.load(ckpt_path, allow_pickle=False) as z:
                return {k: z[k] for k in z.files}
        except Exception as err:
            warnings.warn(f"run store: checkpoint {ckpt_path.name} is unreadable ({err}); starting over", stacklevel=2)
            return None

    # -- training ---------------------------------------------------------------------
    def train_group(self, group: Sequence[Plan], progress: bool = True, callbacks: Sequence[Callable] = ()) -> list[History]:
        """Train the planned configs of ``group`` (one kind, one device) together and store each.

        A group of one checkpoints under its own key; a larger group under a key of its own
        (the hash of its members' keys), so an interrupted group resumes as a whole.
        """
        kind, device = group[0].kind, group[0].device
        keys = [p.key for p in group]
        ckpt_key = keys[0] if len(keys) == 1 else "stack-" + hashlib.sha256(",".join(keys).encode()).hexdigest()[:20]
        histories = kind.train(
            [p.config for p in group],
            device=device,
            resume=self.load_checkpoint(ckpt_key),
            on_checkpoint=lambda arrays: self.save_checkpoint(ckpt_key, arrays),
            progress=progress,
            callbacks=callbacks,
        )
        for key, history in zip(keys, histories):
            history.meta.update(key=key, code=code_version(kind), grok_lib=__version__)
            self.save(key, history)
        self._paths(ckpt_key)[2].unlink(missing_ok=True)
        return histories

    def get(self, planned: Plan, progress: bool = True, callbacks: Sequence[Callable] = ()) -> History:
        """The history of a planned config: from the store if present, else trained (resuming a checkpoint)."""
        history = self.load(planned.key)
        return history if history is not None else self.train_group([planned], progress, callbacks)[0]

    def get_or_run(self, config, callbacks: Sequence[Callable] = (), progress: bool = True) -> History:
        """The history of ``config``: from the store if present, else trained (resuming a checkpoint)."""
        return self.get(plan(config), progress, callbacks)


def groups(plans: Sequence[Plan], stack: int | str = "auto") -> list[list[Plan]]:
    """``plans`` grouped by kind, device and stack signature, at most ``stack`` members per group
    ("auto": the kind's ``max_group`` for the device); kinds without a signature train alone."""
    if stack != "auto" and (isinstance(stack, bool) or not isinstance(stack, int) or stack < 1):
        raise ConfigError(f"stack must be a positive integer or 'auto', got {stack!r}")
    by_signature: dict[tuple, list[Plan]] = {}
    for p in plans:
        signature = p.kind.stack_signature(p.config) if p.kind.stack_signature else p.key
        by_signature.setdefault((p.kind.name, p.device, signature), []).append(p)
    out = []
    for members in by_signature.values():
        size = members[0].kind.max_group[members[0].device] if stack == "auto" else stack
        size = size if members[0].kind.stack_signature else 1
        out += [members[i:i + size] for i in range(0, len(members), size)]
    return out


def missing_groups(configs: Sequence, store: RunStore, stack: int | str = "auto") -> list[list[Plan]]:
    """The groups to train so that every config (or plan) of ``configs`` is in ``store``
    (duplicates once), largest first."""
    todo: dict[str, Plan] = {}
    for c in configs:
        p = c if isinstance(c, Plan) else plan(c)
        if p.key not in todo and not store.has(p.key):
            todo[p.key] = p
    return sorted(groups(list(todo.values()), stack), key=lambda g: -len(g) * g[0].kind.cost(g[0].config))


def run_all(configs: Sequence, store: Optional[RunStore] = None, progress: bool = True,
            stack: int | str = "auto", workers: int = 1) -> list[History]:
    """Histories of several configs, in order; each is planned (validated, device resolved,
    key computed) once, before any is trained.

    Missing runs of a kind that stacks are trained together in groups of ``stack`` members
    ("auto": the kind's choice for the device). With ``workers`` > 1 the missing groups are
    trained by that many processes at once (see :func:`train_missing`). The numbers depend
    on neither (bitwise on the CPU); only the speed does.
    """
    store = store or RunStore()
    _need_workers(workers)
    plans = [plan(c) for c in configs]
    if workers > 1:
        train_missing(plans, store, workers, stack, progress)
    for group in missing_groups(plans, store, stack):
        store.train_group(group, progress=progress)
    return [store.get(p, progress=progress) for p in plans]


def train_task(configs: list, root: str, threads: Optional[int] = None) -> list[str]:
    """One task of :func:`missing_groups` (the configs of one group), trained into the store at
    ``root`` in this process with ``threads`` torch threads (None: leave as is); returns the
    keys written. What worker processes and cluster workers run."""
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
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    _need_workers(workers)
    tasks = [[p.config for p in g] for g in missing_groups(configs, store, stack)]
    if not tasks:
        return
    workers = min(workers, len(tasks))
    threads = max(1, (os.cpu_count() or 1) // workers)
    if progress:
        print(f"training {len(tasks)} missing run(s)/stack(s) in {workers} processes x {threads} thread(s) ...",
              flush=True)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(train_task, task, str(store.root), threads) for task in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            keys = future.result()  # raises a worker's error here
            if progress:
                print(f"  [{done}/{len(tasks)}] {', '.join(keys)} ({time.perf_counter() - t0:.0f} s)", flush=True)


def _need_workers(workers) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer, got {workers!r}")
