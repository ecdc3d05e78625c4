"""The run store: a training history cached under a key derived from its config.

Layout of the store folder (``paths.store_dir()``), per run key ``K``:

- ``K.npz``        the finished history (plain arrays, see :mod:`grok_lib.history`)
- ``K.json``       the config, metadata and the SHA-256 of ``K.npz``
- ``K.ckpt.npz``   the latest checkpoint of an unfinished run (removed when it finishes)

The key hashes the config's canonical JSON (fields that do not change the numbers are
left out), the resolved device, and the source code of the modules that produce the
numbers, so editing the trainer invalidates old entries but editing a plot does not.
Every write goes to a temporary file that is then renamed into place, so a killed
process never leaves a half-written entry. A corrupt entry (checksum mismatch,
unreadable file) is reported and recomputed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
import warnings
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from . import __version__, paths
from .config import NOT_IN_KEY, ConfigError, ModAddConfig, resolve_device
from .deep_linear import DeepLinearConfig, train_deep_linear
from .history import History, npz_bytes
from .stacked import stack_signature
from .train import Callback, TrainState, train, train_sweep

#: Modules whose source determines a history's numbers (their hash is in every key).
NUMERIC_MODULES = ("task.py", "model.py", "stacked.py", "metrics.py", "train.py")
#: The same for the deep linear networks (numpy, CPU only, no checkpoints: a run takes seconds).
LINEAR_MODULES = ("deep_linear.py",)

RunConfig = ModAddConfig | DeepLinearConfig


def code_version(modules: Sequence[str] = NUMERIC_MODULES) -> str:
    """A short hash of the source of ``modules`` (by default :data:`NUMERIC_MODULES`)."""
    h = hashlib.sha256()
    for name in modules:
        h.update(name.encode())
        h.update((Path(__file__).parent / name).read_bytes())
    return h.hexdigest()[:12]


def run_key(config: RunConfig, device: str) -> str:
    """The store key of ``config`` run on ``device`` (``cpu`` or ``cuda``)."""
    values = {k: v for k, v in config.to_dict().items() if k not in NOT_IN_KEY}
    values["device"] = device
    record = {"config": values, "code": code_version()}
    if isinstance(config, DeepLinearConfig):
        record = {"config": values, "code": code_version(LINEAR_MODULES), "model": "deep_linear"}
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
    def save_checkpoint(self, key: str, state: TrainState) -> None:
        atomic_write(self._paths(key)[2], npz_bytes(state.to_arrays()))

    def load_checkpoint(self, key: str) -> Optional[TrainState]:
        ckpt_path = self._paths(key)[2]
        if not ckpt_path.exists():
            return None
        try:
            with np.load(ckpt_path, allow_pickle=False) as z:
                return TrainState.from_arrays({k: z[k] for k in z.files})
        except Exception as err:
            warnings.warn(f"run store: checkpoint {ckpt_path.name} is unreadable ({err}); starting over", stacklevel=2)
            return None

    # -- the one entry point notebooks use ----------------------------------------------
    def get_or_run(self, config: RunConfig, callbacks: Sequence[Callback] = (), progress: bool = True) -> History:
        """The history of ``config``: from the store if present, else trained (resuming a checkpoint)."""
        if isinstance(config, DeepLinearConfig):
            return self._get_or_run_linear(config, progress)
        device = resolve_device(config.device)
        key = run_key(config, device)
        history = self.load(key)
        if history is not None:
            return history
        resume = self.load_checkpoint(key)
        history = train(
            config,
            callbacks,
            resume=resume,
            on_checkpoint=lambda state: self.save_checkpoint(key, state),
            progress=progress,
            device=device,
        )
        history.meta.update(key=key, code=code_version(), grok_lib=__version__)
        self.save(key, history)
        return history


    def has(self, key: str) -> bool:
        """Whether a finished history is stored under ``key`` (not checked for damage)."""
        data_path, meta_path, _ = self._paths(key)
        return data_path.exists() and meta_path.exists()

    def run_stack(self, configs: Sequence[ModAddConfig], progress: bool = True) -> list[History]:
        """Train ``configs`` as one stacked sweep (see :mod:`grok_lib.stacked`) and store each member.

        The stack checkpoints under a key of its own (the hash of its members' keys), so an
        interrupted sweep resumes as a whole.
        """
        device = resolve_device(configs[0].device)
        keys = [run_key(c, device) for c in configs]
        stack_key = "stack-" + hashlib.sha256(",".join(keys).encode()).hexdigest()[:20]
        histories = train_sweep(
            configs,
            resume=self.load_checkpoint(stack_key),
            on_checkpoint=lambda state: self.save_checkpoint(stack_key, state),
            progress=progress,
            device=device,
        )
        for key, history in zip(keys, histories):
            history.meta.update(key=key, code=code_version(), grok_lib=__version__)
            self.save(key, history)
        self._paths(stack_key)[2].unlink(missing_ok=True)
        return histories

    def _get_or_run_linear(self, config: DeepLinearConfig, progress: bool) -> History:
        key = run_key(config, "cpu")
        history = self.load(key)
        if history is None:
            history = train_deep_linear(config, progress=progress)
            history.meta.update(key=key, code=code_version(LINEAR_MODULES), grok_lib=__version__)
            self.save(key, history)
        return history


#: Members per stack when :func:`run_all` chooses (``stack="auto"``), by device. Measured with
#: benchmarks/bench_sweep.py: on the 2-core CPU a 5-member stack of the default profile runs at
#: 0.80-0.96x the speed of its five members one by one (its M x n x width activations no longer
#: fit the cache), so the CPU trains members one at a time; a GPU takes the whole sweep at once.
AUTO_STACK = {"cpu": 1, "cuda": 64}


def stack_groups(configs: Sequence[ModAddConfig], max_members: int) -> list[list[ModAddConfig]]:
    """``configs`` grouped into stacks of at most ``max_members`` configs that differ only in
    weight decay, seed or lr."""
    groups: dict[tuple, list[ModAddConfig]] = {}
    for c in configs:
        groups.setdefault(stack_signature(c), []).append(c)
    return [g[i:i + max_members] for g in groups.values() for i in range(0, len(g), max_members)]


def missing_stacks(configs: Sequence[RunConfig], store: RunStore, stack: int | str = "auto") -> list[list[ModAddConfig]]:
    """The stacks to train so that every MLP config of ``configs`` is in ``store`` (duplicates once).

    ``stack``: members per stack, or "auto" for :data:`AUTO_STACK` of the configs' device.
    """
    todo = {}
    for c in configs:
        if isinstance(c, ModAddConfig):
            key = run_key(c, resolve_device(c.device))
            if not store.has(key):
                todo.setdefault(key, c)
    if stack == "auto":
        devices = {resolve_device(c.device) for c in todo.values()}
        stack = min((AUTO_STACK[d] for d in devices), default=1)
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
        raise ConfigError(f"stack must be a positive integer or 'auto', got {stack!r}")
    return stack_groups(list(todo.values()), stack)


def run_all(configs: Sequence[RunConfig], store: Optional[RunStore] = None, progress: bool = True,
            stack: int | str = "auto", workers: int = 1) -> list[History]:
    """Histories of several configs, in order; each is validated before any is trained.

    Missing MLP runs that differ only in weight decay, seed or lr are trained together in
    stacks of ``stack`` members ("auto": :data:`AUTO_STACK` for the device). With
    ``workers`` > 1 the missing stacks and deep-linear runs are trained by that many
    processes at once (see :func:`train_missing`). The numbers depend on neither (bitwise
    on the CPU); only the speed does.
    """
    store = store or RunStore()
    _need_workers(workers)
    for c in configs:  # fail fast: a bad device stops the sweep before any training
        if isinstance(c, ModAddConfig):
            resolve_device(c.device)
    if workers > 1:
        train_missing(configs, store, workers, stack, progress)
    for group in missing_stacks(configs, store, stack):
        store.run_stack(group, progress=progress)
    return [store.get_or_run(c, progress=progress) for c in configs]


def train_task(configs: list[RunConfig], root: str, threads: Optional[int] = None) -> list[str]:
    """One task of :func:`missing_tasks` (one stack, or one deep-linear run), trained into the
    store at ``root`` in this process with ``threads`` torch threads (None: leave as is);
    returns the keys written. What worker processes and cluster workers run."""
    import torch

    if threads is not None:
        torch.set_num_threads(threads)
    store = RunStore(Path(root))
    if isinstance(configs[0], DeepLinearConfig):
        return [store.get_or_run(configs[0], progress=False).meta["key"]]
    return [h.meta["key"] for h in store.run_stack(configs, progress=False)]


def missing_tasks(configs: Sequence[RunConfig], store: RunStore, stack: int | str = "auto") -> list[list[RunConfig]]:
    """Everything to train so that ``configs`` are all in ``store``: the missing MLP stacks
    (largest first), then the missing deep-linear runs, one task each."""
    tasks: list[list[RunConfig]] = sorted(missing_stacks(configs, store, stack),
                                          key=lambda g: -len(g) * g[0].epochs * g[0].width)
    linear = {run_key(c, "cpu"): c for c in configs if isinstance(c, DeepLinearConfig)}
    return tasks + [[c] for k, c in linear.items() if not store.has(k)]


def train_missing(configs: Sequence[RunConfig], store: RunStore, workers: int, stack: int | str = "auto",
                  progress: bool = True) -> None:
    """Train every missing run of ``configs`` with ``workers`` processes at once, into ``store``.

    The tasks are those of :func:`missing_tasks`; each process gets ``cpu_count // workers``
    torch threads. On the 2-core CPU two one-thread processes train 1.3x faster than one
    two-thread process, and numbers do not depend on the thread count (checked: bitwise
    equal weights). Processes are started fresh ("spawn"), never forked from a process
    whose thread pools are running.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    _need_workers(workers)
    tasks = missing_tasks(configs, store, stack)
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
