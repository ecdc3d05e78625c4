"""The key numbers of Paper A's figures of the recorded sets: what each split gives, the two
initialisations' table, and the reductions for figure regression of Figures 1 and 3 at the paper's
settings (both splits) and of the initialisation figure. The profiles their captions compare the
recordings with are :func:`grok_lib.paper_a.key_numbers.recorded_profiles`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from .key_numbers import FIG1_EPOCHS, SLOW_MATRIX, _tag, clock_table_row, fig1_key_numbers, fig3_clock_table
from .sensitivity import _fmt


# --- the settings the paper leaves open ------------------------------------------------------------
def split_table(p: int = 113, seed: int = 0) -> list[dict]:
    """What each split gives at p: the book's 0.5 of the unordered pairs and the usual 0.3 of the
    ordered pairs (plus 0.3 of the unordered ones, a harder task): coverage and mirror leakage."""
    from .task import make_split

    rows = []
    for split, frac in (("unordered", 0.5), ("ordered", 0.3), ("unordered", 0.3)):
        train, test = make_split(p, frac, seed, split)
        seen = set(zip(train.a.tolist(), train.b.tolist()))
        leaked = sum(c for a, b, c in zip(test.a.tolist(), test.b.tolist(), test.count.tolist()) if (a, b) in seen)
        n_unordered = p * (p + 1) // 2
        rows.append({"split": split, "train_frac": frac, "ordered pairs in train": train.n_ordered,
                     "of p²": round(train.n_ordered / p**2, 3),
                     "unordered pairs in train": train.n_unordered, "of all unordered": round(train.n_unordered / n_unordered, 3),
                     "test pairs whose mirror trained": round(leaked / test.n_ordered, 3)})
    return rows


def init_table(default: Sequence[History], scaled: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """Per λ and initialisation: ||E||_F at init, the stable rank's peak and its epoch, and the clocks."""
    rows = []
    for name, histories in (("N(0, 1) (PyTorch)", default), ("N(0, 1/d)", scaled)):
        for h in histories:
            s = h[f"srank_{matrix}"]
            row = {"init of E": name, "weight_decay": h.cfg.weight_decay,
                   "‖E‖_F at init": round(float(h["norm_E"][0]), 1), "srank peak": round(float(s.max()), 1),
                   "peak epoch": int(h.steps[int(np.argmax(s))])}
            row |= {k: _fmt(v, 2) if "/" in k else _fmt(v) for k, v in clock_table_row(h, matrix).items()
                    if k != "weight_decay"}
            rows.append(row)
    return rows


# --- the figures of recorded runs (regression numbers) ------------------------------------------------
#: The epochs at which the paper-settings figures are guarded.
PAPER_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000)


def _prefixed(prefix: str, values: dict) -> dict:
    return {f"{prefix}/{k}": v for k, v in values.items()}


def fig1_paper_settings(unordered: Sequence[History], ordered: Sequence[History]) -> dict[str, float | None]:
    """Figure 1 at the paper's settings, both splits: losses and accuracy at fixed epochs, and the clocks."""
    values: dict[str, float | None] = {}
    for split, histories in (("unordered", unordered), ("ordered", ordered)):
        for h in histories:
            values |= _prefixed(split, at_epochs(h, ("train_loss", "test_loss", "test_acc"), _tag(h), PAPER_EPOCHS))
            values |= _prefixed(split, {f"{_tag(h)}/{k}": none_if_nan(v) for k, v in fig1_key_numbers(h).items()
                                        if k.startswith("T_")})
    return values


def fig3_paper_settings(unordered: Sequence[History], ordered: Sequence[History]) -> dict[str, float | None]:
    """Figure 3 at the paper's settings, both splits: losses and the stable rank of E at fixed epochs, and the clocks."""
    values: dict[str, float | None] = {}
    for split, histories in (("unordered", unordered), ("ordered", ordered)):
        for h, row in zip(histories, fig3_clock_table(histories)):
            values |= _prefixed(split, at_epochs(h, ("train_loss", "test_loss", "srank_E"), _tag(h), PAPER_EPOCHS))
            values |= _prefixed(split, {f"{_tag(h)}/{k}": none_if_nan(v) for k, v in row.items()
                                        if k.startswith("T_") and "/" not in k})
    return values


def init_comparison(default: Sequence[History], scaled: Sequence[History]) -> dict[str, float | None]:
    """The initialisation figure: ||E||_F, the stable rank of E and the test loss at fixed epochs, both inits."""
    values: dict[str, float | None] = {}
    for init, histories in (("pytorch", default), ("scaled_embed", scaled)):
        for h in histories:
            values |= _prefixed(init, at_epochs(h, ("norm_E", "srank_E", "test_loss"), _tag(h), FIG1_EPOCHS))
    return values
