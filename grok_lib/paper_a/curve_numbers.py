"""What several of Paper A's MLP chapters' tables and key numbers read off a run, and what the GPU check compares
(``benchmarks/gpu_check.py``): a run's tag, the epochs the figures are read at, the two clocks' row, Figure 1's key
numbers per run, the slow clock's matrix, the epochs Figures 2 and 5 are drawn at. No plotting and no third-party
import beyond numpy: the GPU check imports this module on a machine with torch and numpy only."""

from __future__ import annotations

import numpy as np

from ..clocks import grokking_epoch, t_cls
from ..history import History
from .clocks import t_rep_srank


#: The epochs at which Figure 1's curves are guarded.
FIG1_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000)


#: Figure 2: a kept checkpoint after the train set is fitted, long before test accuracy rises.
MEMORISING_EPOCH = 500


#: Figure 3 and the clocks: the matrix whose stable rank is the slow clock, and the others shown.
SLOW_MATRIX, OTHER_MATRICES = "E", ("W", "U", "EW")


#: The reduced model of the activation chapter: the pattern of this epoch held to the end.
PATTERN_EPOCH = 1000


def tag(h: History) -> str:
    return f"wd={h.cfg.weight_decay:g}"


def fig1_key_numbers(history: History) -> dict:
    """The key numbers of one Figure 1 run."""
    return {
        "weight_decay": history.cfg.weight_decay,
        "T_cls(1e-3)": t_cls(history, 1e-3),
        "T_cls(1e-6)": t_cls(history, 1e-6),
        "T_grok(95%)": grokking_epoch(history, 0.95),
        "final_train_loss": history.final("train_loss"),
        "final_test_loss": history.final("test_loss"),
        "final_test_acc": history.final("test_acc"),
    }


def clock_table_row(history: History, matrix: str = SLOW_MATRIX) -> dict:
    """T_cls at three levels, T_rep, the grokking epoch and the clock ratio, for one run."""
    row = {"weight_decay": history.cfg.weight_decay}
    for eps in (1e-2, 1e-4, 1e-6):
        row[f"T_cls({eps:.0e})"] = t_cls(history, eps)
    row["T_rep"] = t_rep_srank(history, matrix)
    row["T_grok(95%)"] = grokking_epoch(history)
    row["T_rep/T_cls(1e-04)"] = row["T_rep"] / row["T_cls(1e-04)"]
    return row


#: The epochs at which the paper-settings figures are guarded.
PAPER_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000)


def prefixed(prefix: str, values: dict) -> dict:
    return {f"{prefix}/{k}": v for k, v in values.items()}


def shown(v: float, digits: int = 0) -> float | str:
    return "never" if np.isnan(v) else round(float(v), digits) if digits else int(v)
