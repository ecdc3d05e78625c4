"""The modular-addition task: all p^2 pairs (a, b) labelled (a + b) mod p.

The model sees z = E[a] + E[b], so (a, b) and (b, a) are the same input. The split is
therefore made over *unordered* pairs {a, b}: a pair and its mirror are always on the
same side (splitting them would put test answers in the training set). Each unordered
pair stands for its ordered pairs with a weight (2 if a != b, else 1), so a weighted
mean over unordered pairs equals the plain mean over all ordered pairs of that side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..config import ConfigError


@dataclass(frozen=True)
class Split:
    """One side of the split, as unordered pairs a <= b with their labels and weights."""

    a: torch.Tensor  # (n,) int64, first token
    b: torch.Tensor  # (n,) int64, second token (a <= b)
    y: torch.Tensor  # (n,) int64, (a + b) mod p
    weight: torch.Tensor  # (n,) float64, ordered pairs each row stands for, normalised to sum 1

    @property
    def n_unordered(self) -> int:
        return int(self.a.numel())

    @property
    def n_ordered(self) -> int:
        return int(torch.where(self.a == self.b, 1, 2).sum())

    def to(self, device) -> "Split":
        return Split(*(t.to(device) for t in (self.a, self.b, self.y, self.weight)))


def unordered_pairs(p: int) -> np.ndarray:
    """All pairs a <= b of tokens 0..p-1, shape (p(p+1)/2, 2), in lexicographic order."""
    a, b = np.triu_indices(p)
    return np.stack([a, b], axis=1).astype(np.int64)


def _side(pairs: np.ndarray, p: int) -> Split:
    a = torch.from_numpy(pairs[:, 0].copy())
    b = torch.from_numpy(pairs[:, 1].copy())
    w = torch.where(a == b, 1.0, 2.0).to(torch.float64)
    return Split(a=a, b=b, y=(a + b) % p, weight=w / w.sum())


def make_split(p: int, train_frac: float, seed: int) -> tuple[Split, Split]:
    """A seeded train/test split of the unordered pairs; ``round(train_frac * n)`` go to train."""
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 2:
        raise ConfigError(f"p must be an integer >= 2, got {p!r}")
    if not 0.0 < train_frac < 1.0:
        raise ConfigError(f"train_frac must be a number in (0, 1), got {train_frac!r}")
    pairs = unordered_pairs(p)
    n_train = int(round(train_frac * len(pairs)))
    if not 0 < n_train < len(pairs):
        raise ConfigError(
            f"train_frac={train_frac} leaves an empty side for p={p} ({len(pairs)} unordered pairs)"
        )
    order = np.random.default_rng(seed).permutation(len(pairs))
    train, test = np.sort(order[:n_train]), np.sort(order[n_train:])
    return _side(pairs[train], p), _side(pairs[test], p)
