"""The numbers behind each figure, reduced to the values that matter, and their comparison.

Figure regression guards every figure twice: its plot function against a baseline image
(tests/test_figures.py), and the numbers it plots against committed values
(``tests/figure_numbers/<figure>.json``) with the tolerances below. Regenerate both after a
deliberate change with ``make baselines``.
"""

from __future__ import annotations

import math
from typing import Sequence

from .clocks import fig1_key_numbers
from .history import History

#: Tolerance per kind of value: ("rel", r) means ``abs(a - e) <= r * abs(e)``; ("abs", t) means ``abs(a - e) <= t``.
TOLERANCES = {
    "loss": ("rel", 1e-3),  # cross-entropies, spanning 1e-7 .. 1e1
    "acc": ("abs", 2e-3),  # accuracies in [0, 1]
    "epoch": ("abs", 50),  # clock readings: one step of the recording grid
}

FIG1_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000)


def kind(key: str) -> str:
    """The tolerance kind of a value, from its name."""
    name = key.split("/")[-1]
    if name.startswith("T_"):
        return "epoch"
    if "acc" in name:
        return "acc"
    return "loss"


def fig1_loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 1: train/test loss and test accuracy at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h in sorted(histories, key=lambda h: h.config["weight_decay"]):
        tag = f"wd={h.config['weight_decay']:g}"
        for epoch in (*FIG1_EPOCHS, int(h.steps[-1])):
            for name in ("train_loss", "test_loss", "test_acc"):
                values[f"{tag}/{name}@{epoch}"] = h.at(name, epoch)
        for name, value in fig1_key_numbers(h).items():
            if name.startswith("T_"):
                values[f"{tag}/{name}"] = None if math.isnan(value) else value
    return values


def compare(expected: dict, actual: dict) -> list[str]:
    """Readable messages for every value that is missing, new, or outside its tolerance."""
    problems = [f"{k}: expected {expected[k]!r}, missing now" for k in expected if k not in actual]
    problems += [f"{k}: new value {actual[k]!r}, not in the committed numbers" for k in actual if k not in expected]
    for k in expected.keys() & actual.keys():
        e, a = expected[k], actual[k]
        if e is None or a is None:
            if e != a:
                problems.append(f"{k}: expected {e!r}, got {a!r}")
            continue
        how, tol = TOLERANCES[kind(k)]
        limit = tol * abs(e) if how == "rel" else tol
        if abs(a - e) > limit:
            problems.append(f"{k}: expected {e:.6g}, got {a:.6g} (|diff| {abs(a - e):.3g} > {how} tolerance {tol:g})")
    return sorted(problems)
