"""Paper A's clocks, read off a training history.

- fast (classification) clock, eq. 2.1: T_cls(eps) = inf{t : L_CE(t) <= eps}, on the train loss;
- grokking epoch: the first recorded epoch at which test accuracy reaches ``acc``.

Each is a first crossing on the recording schedule (see :func:`metrics.first_crossing`),
NaN when the run never crosses.
"""

from __future__ import annotations

import numpy as np

from .history import History
from .metrics import first_crossing


def t_cls(history: History, eps: float) -> float:
    """Fast clock: first epoch with train cross-entropy <= ``eps``."""
    return first_crossing(history.steps, history["train_loss"], eps)


def grokking_epoch(history: History, acc: float = 0.95) -> float:
    """First epoch with test accuracy >= ``acc`` (95% by default)."""
    return first_crossing(history.steps, history["test_acc"], acc, below=False)


def fig1_key_numbers(history: History) -> dict:
    """The key numbers of one Figure 1 run (the table the notebook prints and nbval checks)."""
    return {
        "weight_decay": history.config["weight_decay"],
        "T_cls(1e-3)": t_cls(history, 1e-3),
        "T_cls(1e-6)": t_cls(history, 1e-6),
        "T_grok(95%)": grokking_epoch(history, 0.95),
        "final_train_loss": history.final("train_loss"),
        "final_test_loss": history.final("test_loss"),
        "final_test_acc": history.final("test_acc"),
    }


#: The slow clock's threshold, as a fraction of the stable rank's peak (see :func:`t_rep`).
T_REP_FRACTION = 0.8


def t_rep(history: History, matrix: str = "E", fraction: float = T_REP_FRACTION) -> float:
    """Slow (representation) clock, eq. 2.2, with S = the stable rank of ``matrix``.

    Paper A does not give its threshold. Here T_rep is the first recorded epoch *after
    the peak* of srank at which srank <= ``fraction`` x peak (by default: fallen 20%
    below its peak). NaN if the fall never gets that far.
    """
    srank = history[f"srank_{matrix}"]
    peak = int(np.argmax(srank))
    return first_crossing(history.steps[peak:], srank[peak:], fraction * srank[peak])


def clock_table_row(history: History, matrix: str = "E") -> dict:
    """T_cls at three levels, T_rep, the grokking epoch and the clock ratio, for one run."""
    row = {"weight_decay": history.config["weight_decay"]}
    for eps in (1e-2, 1e-4, 1e-6):
        row[f"T_cls({eps:.0e})"] = t_cls(history, eps)
    row["T_rep"] = t_rep(history, matrix)
    row["T_grok(95%)"] = grokking_epoch(history)
    row["T_rep/T_cls(1e-04)"] = row["T_rep"] / row["T_cls(1e-04)"]
    return row
