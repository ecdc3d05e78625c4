"""Paper A's clocks, read off a training history.

- fast (classification) clock, eq. 2.1: T_cls(eps) = inf{t : L_CE(t) <= eps}, on the train loss;
- grokking epoch: the first recorded epoch at which test accuracy reaches ``acc``.

Each is a first crossing on the recording schedule (see :func:`metrics.first_crossing`),
NaN when the run never crosses.
"""

from __future__ import annotations

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
