"""A training history: the recorded steps and one float array per metric, plus the config.

Saved as a single ``.npz`` of plain arrays (config and metadata as JSON strings), loaded
with ``allow_pickle=False``: no pickles anywhere. The bytes are a function of the numbers
alone: the zip members carry a fixed timestamp, and the facts of *how* a run was carried
out (:data:`RUN_FACTS`: its wall time, whether it was resumed or stacked, the library
version) are left out of them (the run store keeps those in its JSON sidecar), so the
same run always gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace
from typing import Optional

import numpy as np

from .config import from_dict

#: Meta entries that say how a run was carried out, not what it computed (the arithmetic's id is
#: in the run key; its description, with thread counts, is a fact of the run): kept out of
#: :meth:`History.to_bytes` (so equal runs give equal bytes) and out of content digests.
RUN_FACTS = ("seconds", "setup_seconds", "seconds_sim", "resumed_from", "stacked_with", "grok_lib", "arithmetic")

#: The timestamp of every zip member (the earliest a zip can hold): bytes do not depend on the clock.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """``arrays`` as the bytes of an uncompressed ``.npz`` file (plain arrays, no pickles), with
    members in sorted order and a fixed timestamp: equal arrays give equal bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.external_attr = 0o644 << 16
            with z.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asanyarray(arrays[name]), allow_pickle=False)
    return buf.getvalue()


def load_npz(data: bytes) -> dict[str, np.ndarray]:
    """The arrays of ``.npz`` bytes (every member read, so a damaged member fails here, not later).

    A ``ValueError`` that says what is wrong if the bytes are not an ``.npz`` at all (numpy
    alone would call them "pickled data").
    """
    if not data.startswith(b"PK"):
        raise ValueError(f"not an .npz file (starts with {data[:8]!r})")
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def content_digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of the arrays themselves (name, dtype, shape and bytes of each, in name order):
    the same for the same numbers whatever file they were read from."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


@dataclass
class History:
    steps: np.ndarray  # (n,) int64, the recorded steps (0 = before any update)
    metrics: dict[str, np.ndarray]  # name -> (n,) float64 array
    config: dict  # the run's config, as a plain dict
    meta: dict = field(default_factory=dict)  # store key, resolved device, library version
    snapshot_steps: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # (k,)
    snapshots: dict[str, np.ndarray] = field(default_factory=dict)  # block -> (k, *shape) weights
    # The config's dataclass, stamped by whoever knows it (the store, a recorded set: see
    # :func:`stamped`); not saved, so the bytes stay a function of the numbers.
    config_type: Optional[type] = field(default=None, repr=False, compare=False)

    @property
    def cfg(self):
        """The run's config as its frozen dataclass (``h.cfg.weight_decay``), rebuilt from
        :attr:`config` and checked by the class as any config is. A history built by hand
        (the tests' synthetic ones) has no type: its ``cfg`` reads the plain dict by attribute."""
        if self.config_type is None:
            return SimpleNamespace(**self.config)
        return typed(self.config_type, self.config)

    def snapshot(self, block: str, step: int) -> np.ndarray:
        """The weights of ``block`` at the kept step closest to ``step``."""
        i = int(np.argmin(np.abs(self.snapshot_steps - step)))
        return self.snapshots[block][i]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.metrics[name]

    def final(self, name: str) -> float:
        return float(self.metrics[name][-1])

    def at(self, name: str, step: int) -> float:
        """The metric at the last recorded step <= ``step`` (the first one if none is); NaN if
        ``step`` is past the run's last step (a shorter run has no value there, and its last
        value must not stand in for one)."""
        if step > self.steps[-1]:
            return math.nan
        i = int(np.searchsorted(self.steps, step, side="right")) - 1
        return float(self.metrics[name][max(i, 0)])

    def arrays(self) -> dict[str, np.ndarray]:
        """The history as plain arrays (what :meth:`to_bytes` writes): metrics, snapshots, steps,
        the config and the meta less :data:`RUN_FACTS`, as JSON strings."""
        arrays = {f"m/{k}": np.asarray(v, dtype=np.float64) for k, v in self.metrics.items()}
        arrays |= {f"s/{k}": np.asarray(v) for k, v in self.snapshots.items()}
        arrays["steps"] = np.asarray(self.steps, dtype=np.int64)
        arrays["snapshot_steps"] = np.asarray(self.snapshot_steps, dtype=np.int64)
        arrays["config"] = np.array(json.dumps(self.config, sort_keys=True))
        meta = {k: v for k, v in self.meta.items() if k not in RUN_FACTS}
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        return arrays

    def to_bytes(self) -> bytes:
        return npz_bytes(self.arrays())

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "History":
        return cls(
            steps=arrays["steps"],
            metrics={k[2:]: v for k, v in arrays.items() if k.startswith("m/")},
            config=json.loads(str(arrays["config"])),
            meta=json.loads(str(arrays["meta"])),
            snapshot_steps=arrays["snapshot_steps"],
            snapshots={k[2:]: v for k, v in arrays.items() if k.startswith("s/")},
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> "History":
        return cls.from_arrays(load_npz(data))


def typed(config_type: type, config: dict):
    """``config`` (a plain dict, as a history keeps it) as an instance of ``config_type``."""
    return _typed(config_type, json.dumps(config, sort_keys=True))


@lru_cache(maxsize=4096)
def _typed(config_type: type, config_json: str):
    # Cached by value: the figures read ``h.cfg`` in loops over hundreds of histories.
    return from_dict(config_type, json.loads(config_json))


def stamped(histories: list[History], configs) -> list[History]:
    """``histories`` with each one's config type set from the config it was asked for
    (the store and the recorded sets call this; a figure then reads ``h.cfg``)."""
    for history, config in zip(histories, configs, strict=True):
        history.config_type = type(config)
    return histories
