"""A training history: the recorded steps and one float array per metric, plus the config.

Saved as a single ``.npz`` of plain arrays (config and metadata as JSON strings), loaded
with ``allow_pickle=False``: no pickles anywhere.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import numpy as np


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """``arrays`` as the bytes of an uncompressed ``.npz`` file (plain arrays, no pickles)."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


@dataclass
class History:
    steps: np.ndarray  # (n,) int64, the recorded steps (0 = before any update)
    metrics: dict[str, np.ndarray]  # name -> (n,) float64 array
    config: dict  # the run's config, as a plain dict
    meta: dict = field(default_factory=dict)  # store key, resolved device, library version
    snapshot_steps: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # (k,)
    snapshots: dict[str, np.ndarray] = field(default_factory=dict)  # block -> (k, *shape) weights

    def snapshot(self, block: str, step: int) -> np.ndarray:
        """The weights of ``block`` at the kept step closest to ``step``."""
        i = int(np.argmin(np.abs(self.snapshot_steps - step)))
        return self.snapshots[block][i]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.metrics[name]

    def final(self, name: str) -> float:
        return float(self.metrics[name][-1])

    def at(self, name: str, step: int) -> float:
        """The metric at the last recorded step <= ``step`` (the first one if none is)."""
        i = int(np.searchsorted(self.steps, step, side="right")) - 1
        return float(self.metrics[name][max(i, 0)])

    def to_bytes(self) -> bytes:
        arrays = {f"m/{k}": np.asarray(v, dtype=np.float64) for k, v in self.metrics.items()}
        arrays |= {f"s/{k}": np.asarray(v) for k, v in self.snapshots.items()}
        arrays["steps"] = np.asarray(self.steps, dtype=np.int64)
        arrays["snapshot_steps"] = np.asarray(self.snapshot_steps, dtype=np.int64)
        arrays["config"] = np.array(json.dumps(self.config, sort_keys=True))
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        return npz_bytes(arrays)

    @classmethod
    def from_bytes(cls, data: bytes) -> "History":
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            return cls(
                steps=z["steps"],
                metrics={k[2:]: z[k] for k in z.files if k.startswith("m/")},
                config=json.loads(str(z["config"])),
                meta=json.loads(str(z["meta"])),
                snapshot_steps=z["snapshot_steps"],
                snapshots={k[2:]: z[k] for k in z.files if k.startswith("s/")},
            )
