"""The conditional ReLU reduction (Paper A, Sec. 5): where the training set's activation
patterns stay fixed, the ReLU network is linear in its active coordinates.

Paper A assumes the patterns freeze; its referee noted this is never checked. Here it is
measured: how many on/off bits change between recorded steps (``churn`` in a history),
when (if ever) they stop changing, and how far the reduced model - today's weights with
an older pattern held fixed - is from the real network.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ..history import History
from .task import make_split

#: Patterns count as frozen once fewer than this fraction of bits flip per 50 epochs.
FROZEN_CHURN = 1e-3
#: The window the churn rate is expressed in (the regular recording interval).
CHURN_WINDOW = 50


def churn_rate(history: History, window: int = CHURN_WINDOW) -> np.ndarray:
    """Bits flipped per ``window`` epochs: the recorded churn scaled by window / (epochs since the last record).

    The recording intervals differ (log-spaced early, regular later), so the raw churn is
    not comparable between records; this rate is. NaN at the first record.
    """
    gaps = np.diff(history.steps, prepend=history.steps[0]).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(gaps > 0, history["churn"] * window / gaps, np.nan)


def frozen_epoch(history: History, threshold: float = FROZEN_CHURN) -> float:
    """First recorded epoch from which the churn rate stays below ``threshold`` to the end (NaN if never)."""
    churn = np.nan_to_num(churn_rate(history), nan=np.inf)
    above = np.flatnonzero(churn >= threshold)
    if above.size == 0:
        return float(history.steps[0])
    last = above[-1]
    return float(history.steps[last + 1]) if last + 1 < len(history.steps) else math.nan


def _weights(history: History, step: int) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(history.snapshot(k, step)).to(torch.float64) for k in ("E", "W", "b", "U")}


def _preactivation(w: dict, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    ew = w["E"] @ w["W"].T
    return ew[a] + ew[b] + w["b"]


def reduction_error(history: History, pattern_step: int, weight_step: int) -> dict[str, float]:
    """The reduced model at ``weight_step`` with the training-set pattern of ``pattern_step``.

    Returns the fraction of pattern bits that differ, the relative error of the reduced
    logits against the real network's, and the fraction of training pairs on which both
    predict the same class.
    """
    cfg = history.cfg
    train, _ = make_split(cfg.p, cfg.train_frac, cfg.data_seed, cfg.split)
    pattern = _preactivation(_weights(history, pattern_step), train.a, train.b) > 0
    w = _weights(history, weight_step)
    pre = _preactivation(w, train.a, train.b)
    real = torch.relu(pre) @ w["U"].T
    reduced = (pre * pattern) @ w["U"].T  # linear on the coordinates active at pattern_step
    return {
        "bits_changed": float((pattern != (pre > 0)).double().mean()),
        "rel_logit_error": float((reduced - real).norm() / real.norm()),
        "same_prediction": float((reduced.argmax(1) == real.argmax(1)).double().mean()),
    }
