"""The modular-addition task: all p^2 pairs (a, b) labelled (a + b) mod p.

The model sees z = E[a] + E[b], so (a, b) and (b, a) are the same input. Two ways to split:

- ``unordered`` (the book's default): the split is made over unordered pairs {a, b}, so a
  pair and its mirror are always on the same side.
- ``ordered`` (the usual recipe, e.g. Nanda et al.): ``round(train_frac * p^2)`` ordered
  pairs train. A test pair whose mirror trained is an input the model has seen (with its
  answer): at train_frac 0.3 the training set covers 1 - 0.7^2 = 51% of the unordered
  pairs, and about 30% of the test pairs are mirrors of training pairs.

Either way each side is a list of unordered pairs a <= b, each with the number of its
ordered pairs on that side (``count``: 1 or 2) and a weight proportional to it, so a
weighted mean over the rows equals the plain mean over that side's ordered pairs. Under
``ordered`` one unordered pair can be a row of both sides (that is the mirror leakage).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..config import ConfigError
from .config import SPLITS


@dataclass(frozen=True)
class Split:
    """One side of the split, as unordered pairs a <= b with their labels and weights."""

    a: torch.Tensor  # (n,) int64, first token
    b: torch.Tensor  # (n,) int64, second token (a <= b)
    y: torch.Tensor  # (n,) int64, (a + b) mod p
    weight: torch.Tensor  # (n,) float64, ordered pairs each row stands for, normalised to sum 1
    count: torch.Tensor  # (n,) int64, the number of ordered pairs (on this side) each row stands for

    @property
    def n_unordered(self) -> int:
        return int(self.a.numel())

    @property
    def n_ordered(self) -> int:
        return int(self.count.sum())

    def to(self, device) -> "Split":
        return Split(*(t.to(device) for t in (self.a, self.b, self.y, self.weight, self.count)))


def unordered_pairs(p: int) -> np.ndarray:
    """All pairs a <= b of tokens 0..p-1, shape (p(p+1)/2, 2), in lexicographic order."""
    a, b = np.triu_indices(p)
    return np.stack([a, b], axis=1).astype(np.int64)



def _side(pairs: np.ndarray, count: np.ndarray, p: int) -> Split:
    """The rows ``pairs`` (a <= b) that stand for ``count`` > 0 ordered pairs each."""
    keep = count > 0
    a = torch.from_numpy(pairs[keep, 0].copy())
    b = torch.from_numpy(pairs[keep, 1].copy())
    n = torch.from_numpy(count[keep].astype(np.int64))
    w = n.to(torch.float64)
    return Split(a=a, b=b, y=(a + b) % p, weight=w / w.sum(), count=n)


def mirror_count(pairs: np.ndarray) -> np.ndarray:
    """Ordered pairs per unordered pair a <= b: 1 on the diagonal, 2 off it."""
    return np.where(pairs[:, 0] == pairs[:, 1], 1, 2).astype(np.int64)


def make_split(p: int, train_frac: float, seed: int, split: str = "unordered") -> tuple[Split, Split]:
    """A seeded train/test split: ``round(train_frac * n)`` of the n unordered pairs train
    (``split="unordered"``), or ``round(train_frac * p^2)`` of the ordered pairs (``"ordered"``)."""
    if split not in SPLITS:
        raise ConfigError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 2:
        raise ConfigError(f"p must be an integer >= 2, got {p!r}")
    if not 0.0 < train_frac < 1.0:
        raise ConfigError(f"train_frac must be a number in (0, 1), got {train_frac!r}")
    pairs = unordered_pairs(p)
    total = mirror_count(pairs)
    n = len(pairs) if split == "unordered" else p * p
    n_train = int(round(train_frac * n))
    if not 0 < n_train < n:
        raise ConfigError(f"train_frac={train_frac} leaves an empty side for p={p} ({n} {split} pairs)")
    chosen = np.random.default_rng(seed).permutation(n)[:n_train]
    if split == "unordered":
        train = np.zeros(len(pairs), dtype=np.int64)
        train[chosen] = total[chosen]
    else:  # ordered pair k is (k // p, k % p); count it on its unordered row
        a, b = chosen // p, chosen % p
        row = row_of(np.minimum(a, b), np.maximum(a, b), p)
        train = np.bincount(row, minlength=len(pairs)).astype(np.int64)
    return _side(pairs, train, p), _side(pairs, total - train, p)


def row_of(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """The index of the unordered pair (a, b), a <= b, in :func:`unordered_pairs` (row-major upper triangle)."""
    return a * p - a * (a - 1) // 2 + (b - a)
