"""The run store: a training history cached under a key derived from its config.

Layout of the store folder (``paths.store_dir()``), per run key ``K``:

- ``K.npz``        the entry: the finished history (plain arrays, see :mod:`grok_lib.history`)
                   and, as its member ``sha256``, the SHA-256 of all its other arrays. One file,
                   so one rename commits it: a reader sees the whole entry or none.
- ``K.json``       the sidecar, for people and for the facts of how the run was carried out
                   (wall time, resumed or stacked, library version: :data:`history.RUN_FACTS`):
                   config, full metadata and the same SHA-256. Written after ``K.npz``; an
                   entry is valid without it (only those facts are then unknown).
- ``K.ckpt.npz``   the latest checkpoint of an unfinished run, with its key and the SHA-256 of
                   its arrays; removed when the run finishes.
- ``K.lock``       held (``flock``) by the process training ``K``; removed when it is done.
- ``.K.*.tmp``     a write in progress (removed by the next process that takes ``K``'s lock).

The store is only the cache. How a config is trained, which code is hashed into its key,
whether it may train in a group with others, whether a finished run diverged and whether a
checkpoint fits its configs is its row in the table of run kinds (:mod:`grok_lib.kinds`).
The key hashes the kind, the config's canonical JSON (less the fields that do not change
the numbers), the resolved device, and the source of the kind's modules, so editing a
trainer invalidates its old entries but editing a plot does not.

What the store guarantees:

- *Atomic, deterministic entries.* Every file is written to a temporary file in the same
  folder and renamed into place; the same run gives the same ``K.npz`` bytes.
- *Damage is found.* A corrupt entry (checksum mismatch, unreadable file, wrong key) is
  reported and recomputed; a checkpoint that fails its checksum, belongs to another key
  or does not fit its configs (the kind's ``check_resume``) is reported and discarded.
- *One writer per key.* Training a key happens under its lock; a second process asking
  for the same key waits, then uses the first one's entry instead of training again.
- *Shared folders.* Files and folders are created with the mode the umask allows (as
  ``open`` and ``mkdir`` do), so a group-writable folder with ``umask 002`` is shared by
  the group. An entry this user may not read is an error (not "corrupt": it is not
  replaced), and so is a folder that cannot be written when a run must be trained: both
  before anything is trained (:class:`StoreError`).
- *Diverged runs are not results.* A run the kind's ``check`` rejects is stored with
  ``meta["diverged"]`` (so it is not retrained) and :func:`grok_lib.runs.run_all` /
  :meth:`RunStore.get` raise :class:`grok_lib.plans.DivergedError` for it.

Beside it: :mod:`grok_lib.plans` (a config's kind, device and key; groups; divergence),
:mod:`grok_lib.runs` (many configs at once: read, train what is missing, in processes),
:mod:`grok_lib.locks` (the per-key locks) and :mod:`grok_lib.atomic` (the atomic writes every file of the
store goes through).
"""

from __future__ import annotations

import json
import os
import time
import warnings
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from . import __version__, arithmetic, paths
from .atomic import atomic_write, sha256, temp_path
from .guard import protected_folder
from .history import RUN_FACTS, History, content_digest, load_npz, npz_bytes, stamped
from .kinds import code_version
from .locks import StoreError, locked
from .plans import Plan, plan, raise_if_diverged

#: A temporary file not renamed into place after this long is left over by a killed process.
STALE_TEMP_SECONDS = 24 * 3600


def history_problem(history: History) -> Optional[str]:
    """Why ``history`` is not a well-formed history (a metric without one value per step), or None."""
    n = len(history.steps)
    if n == 0 or np.any(np.diff(history.steps) <= 0):
        return "its recorded steps are empty or not increasing"
    bad = sorted(k for k, v in history.metrics.items() if np.shape(v) != (n,))
    return f"metrics {', '.join(bad)} do not have one value per recorded step" if bad else None


class RunStore:
    """Histories on disk, keyed by config; see the module docstring for the layout."""

    def __init__(self, root: Optional[Path] = None):
        self.root = Path(root) if root is not None else paths.store_dir()
        self._writable = False

    def _paths(self, key: str) -> tuple[Path, Path, Path]:
        return self.root / f"{key}.npz", self.root / f"{key}.json", self.root / f"{key}.ckpt.npz"

    @property
    def label(self) -> str:
        """The store as messages name it (``GROK_STORE=...`` when it comes from there)."""
        return paths.store_label(self.root)

    # -- the folder --------------------------------------------------------------------
    def check(self, writable: bool = False) -> None:
        """A :class:`StoreError` unless the folder can serve reads (and, if ``writable``, writes).

        Reading needs only that the store is not a file; a missing folder is an empty store.
        Writing creates the folder if needed and writes and removes a probe file in it, so a
        read-only or foreign folder fails here, before anything is trained. Temporary files
        left over by killed processes (older than a day) are removed on the way.
        """
        folder = protected_folder(self.root)
        if folder is not None:  # a relative GROK_STORE read from inside notebooks/, a store set inside the book
            raise StoreError(f"{self.label} lies inside the book's {folder}/ folder: set GROK_STORE to a folder "
                             f"outside it, or unset it to use {paths.ROOT / '.cache' / 'runs'}")
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.label} is a file, not a folder: set GROK_STORE to a folder "
                             f"(created if missing) or unset it")
        if not writable or self._writable:
            return
        probe = temp_path(self.root / ".probe")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            probe.unlink()
        except OSError as err:
            raise StoreError(f"{self.label} cannot be written ({err.strerror or err}) and runs need training: "
                             f"set GROK_STORE to a folder you can write") from None
        self._writable = True
        self._remove_stale_temp()

    def _remove_stale_temp(self) -> None:
        now = time.time()
        for tmp in self.root.glob(".*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_TEMP_SECONDS:
                    tmp.unlink()
            except OSError:
                pass  # gone already, or another user's: not ours to remove

    def _remove_temp_of(self, keys: Sequence[str]) -> None:
        """Remove every temporary file of ``keys``: only their lock holder (us) writes them."""
        for key in keys:
            for tmp in self.root.glob(f".{key}.*.tmp"):
                try:
                    tmp.unlink()
                except OSError:
                    pass

    # -- finished histories --------------------------------------------------------
    def has(self, key: str) -> bool:
        """Whether an entry is stored under ``key`` (not checked for damage)."""
        return self._paths(key)[0].exists()

    def examine(self, key: str) -> tuple[Optional[History], Optional[str]]:
        """(the stored history of ``key``, None); (None, None) if absent; (None, why) if damaged.

        A :class:`StoreError` if the entry exists but this user may not read it, or a folder stands
        where the entry or its sidecar belongs: neither is known to be damage, so neither is
        reported as corrupt nor replaced.
        """
        data_path, meta_path, _ = self._paths(key)
        for path in (data_path, meta_path):  # not a file the store wrote, so not one it may replace
            if path.is_dir():
                raise StoreError(f"{self.label}: {path.name} is a folder, not a run entry; remove it to train run {key}")
        try:
            data = data_path.read_bytes()
        except FileNotFoundError:
            return None, None
        except PermissionError as err:
            raise self._unreadable(data_path, err) from None
        except OSError as err:
            return None, str(err)
        try:
            arrays = load_npz(data)
            if "sha256" not in arrays:  # not an entry this store writes (an unfinished or foreign file)
                raise ValueError("no checksum")
            digest = str(arrays.pop("sha256"))
            if content_digest(arrays) != digest:
                raise ValueError("checksum mismatch")
            history = History.from_arrays(arrays)
            history.meta.update(self._run_facts(meta_path, digest))
            if history.meta.get("key", key) != key:
                raise ValueError(f"it holds run {history.meta['key']}")
            problem = history_problem(history)
            if problem:
                raise ValueError(problem)
        except PermissionError as err:
            raise self._unreadable(meta_path, err) from None
        except FileNotFoundError:
            return None, f"{meta_path.name} is missing"
        except Exception as err:  # any damage means: recompute
            return None, str(err) or type(err).__name__
        return history, None

    def _unreadable(self, path: Path, err: OSError) -> StoreError:
        try:
            st = path.stat()
            owner = f"owner uid {st.st_uid}, mode {st.st_mode & 0o777:o}"
        except OSError:
            owner = "owner unknown"
        return StoreError(f"{self.label}: entry {path.name} is not readable by this user ({err.strerror}; {owner}); "
                          f"ask its owner to make the store group-readable (chmod -R g+rwX, umask 002) "
                          f"or set GROK_STORE to another folder")

    @staticmethod
    def _run_facts(meta_path: Path, digest: str) -> dict:
        """The run facts of the sidecar, if it belongs to the entry with checksum ``digest``."""
        try:
            record = json.loads(meta_path.read_text())
        except (OSError, ValueError):
            return {}
        if not isinstance(record, dict) or record.get("sha256") != digest:
            return {}
        return {k: v for k, v in record.get("meta", {}).items() if k in RUN_FACTS}

    def load(self, key: str) -> Optional[History]:
        """The stored history of ``key``; None if absent; None with a warning if corrupt
        (a :class:`StoreError` if this user may not read it)."""
        history, problem = self.examine(key)
        if problem is not None:
            warnings.warn(f"run store: entry {key} is corrupt ({problem}); recomputing it", stacklevel=2)
        return history

    def save(self, key: str, history: History) -> None:
        """Commit ``history`` as the entry ``key`` (one rename), then its sidecar."""
        data_path, meta_path, _ = self._paths(key)
        arrays = history.arrays()
        digest = content_digest(arrays)
        atomic_write(data_path, npz_bytes(arrays | {"sha256": np.array(digest)}))
        record = {"sha256": digest, "config": history.config, "meta": history.meta}
        atomic_write(meta_path, json.dumps(record, indent=1, sort_keys=True).encode())

    # -- checkpoints ------------------------------------------------------------------
    def save_checkpoint(self, key: str, arrays: dict[str, np.ndarray]) -> None:
        """Save a checkpoint of ``key`` (the trainer's arrays, plus the key and their checksum)."""
        arrays = dict(arrays) | {"store/key": np.array(key)}
        digest = content_digest(arrays)
        atomic_write(self._paths(key)[2], npz_bytes(arrays | {"store/sha256": np.array(digest)}))

    def load_checkpoint(self, key: str, group: Optional[Sequence[Plan]] = None) -> Optional[dict[str, np.ndarray]]:
        """The arrays of ``key``'s checkpoint, or None. A checkpoint that is unreadable, fails its
        checksum, belongs to another key or (with ``group``) does not fit the group's configs
        (the kind's ``check_resume``) is reported, removed, and None is returned: the run starts over."""
        ckpt_path = self._paths(key)[2]
        if ckpt_path.is_dir():  # not a file the store wrote, so not one it may delete
            raise StoreError(f"{self.label}: {ckpt_path.name} is a folder, not a checkpoint; remove it to train run {key}")
        try:
            data = ckpt_path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            arrays = load_npz(data)
            digest = arrays.pop("store/sha256", None)
            if digest is None:
                raise ValueError("it has no checksum")
            if content_digest(arrays) != str(digest):
                raise ValueError("checksum mismatch")
            owner = str(arrays.pop("store/key", ""))
            if owner != key:
                raise ValueError(f"it belongs to run {owner or 'unknown'}")
            if group:
                problem = group[0].kind.check_resume([p.config for p in group], arrays)
                if problem:
                    raise ValueError(problem)
            return arrays
        except Exception as err:
            warnings.warn(f"run store: checkpoint {ckpt_path.name} is unusable ({err}); discarding it and "
                          f"starting over", stacklevel=2)
            ckpt_path.unlink(missing_ok=True)
            return None

    # -- training ---------------------------------------------------------------------
    def train_group(self, group: Sequence[Plan], progress: bool = True, callbacks: Sequence[Callable] = ()) -> list[History]:
        """Train the planned configs of ``group`` (one kind, one device) together and store each.

        Runs under the locks of the group's keys: members another process stored meanwhile
        are read, not trained. A group of one checkpoints under its own key; a larger group
        under a key of its own (the hash of its members' keys), so an interrupted group
        resumes as a whole. Each finished history is checked by its kind (``check``) and
        stored, with ``meta["diverged"]`` if it diverged.
        """
        self.check(writable=True)
        kind, device = group[0].kind, group[0].device
        with locked(self.root, [p.key for p in group], self.label, progress):
            done = {}
            for p in group:
                history, _ = self.examine(p.key)  # damage is reported by whoever read it first
                if history is not None:
                    done[p.key] = history
            todo = [p for p in group if p.key not in done]
            if todo:
                keys = [p.key for p in todo]
                ckpt_key = keys[0] if len(keys) == 1 else "stack-" + sha256(",".join(keys).encode())[:20]
                self._remove_temp_of([*keys, ckpt_key])
                with arithmetic.one_thread():  # the same numbers in any process (MKL's CNR needs a fixed count)
                    histories = kind.train(
                        [p.config for p in todo],
                        device=device,
                        resume=self.load_checkpoint(ckpt_key, todo),
                        on_checkpoint=lambda arrays: self.save_checkpoint(ckpt_key, arrays),
                        progress=progress,
                        callbacks=callbacks,
                    )
                for p, history in zip(todo, histories):
                    problem = history_problem(history)
                    if problem:
                        raise RuntimeError(f"run {p.key}: the trainer returned a broken history ({problem})")
                    history.meta.update(key=p.key, kind=kind.name, code=code_version(kind), grok_lib=__version__,
                                        arithmetic=arithmetic.describe())
                    diverged = kind.check(p.config, history)
                    if diverged:
                        history.meta["diverged"] = diverged
                    self.save(p.key, history)
                    done[p.key] = history
                self._paths(ckpt_key)[2].unlink(missing_ok=True)
        return [done[p.key] for p in group]

    def get(self, planned: Plan, progress: bool = True, callbacks: Sequence[Callable] = ()) -> History:
        """The history of a planned config: from the store if present, else trained (resuming a
        checkpoint); a :class:`DivergedError` if the run diverged."""
        history = self.load(planned.key)
        if history is None:
            history = self.train_group([planned], progress, callbacks)[0]
        raise_if_diverged([planned], [history])
        return stamped([history], [planned.config])[0]

    def get_or_run(self, config, callbacks: Sequence[Callable] = (), progress: bool = True) -> History:
        """The history of ``config``: from the store if present, else trained (resuming a checkpoint)."""
        return self.get(plan(config), progress, callbacks)
