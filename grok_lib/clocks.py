"""Clocks read off any training history: stopping times on its recording schedule.

- the fast (classification) clock, Paper A eq. 2.1: T_cls(eps) = inf{t : L_CE(t) <= eps}, on the train loss;
- the grokking epoch: the first recorded step at which test accuracy reaches ``acc``.

Each is a first crossing (:func:`first_crossing`), NaN when the run never crosses. A
paper's own clocks (Paper A's stable-rank clock, say) live in its package.
"""

from __future__ import annotations

import math

import numpy as np

from .history import History


def first_crossing(steps, values, threshold: float, below: bool = True) -> float:
    """The first recorded step at which ``values`` is <= threshold (or >= if not ``below``).

    NaN if it never happens. This is the stopping time inf{t : value_t <= threshold}
    read on the recording schedule, so it is exact up to that schedule's spacing.
    """
    steps, values = np.asarray(steps), np.asarray(values, dtype=float)
    hit = values <= threshold if below else values >= threshold
    idx = np.flatnonzero(hit)
    return float(steps[idx[0]]) if idx.size else math.nan


def t_cls(history: History, eps: float) -> float:
    """Fast clock: first recorded step with train cross-entropy <= ``eps``."""
    return first_crossing(history.steps, history["train_loss"], eps)


def grokking_epoch(history: History, acc: float = 0.95) -> float:
    """First recorded step with test accuracy >= ``acc`` (95% by default)."""
    return first_crossing(history.steps, history["test_acc"], acc, below=False)
