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
    "geometry": ("abs", 0.02),  # shares, radius CVs, angle errors (in polygon steps), bit fractions
}

FIG1_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000)


def kind(key: str) -> str:
    """The tolerance kind of a value, from its name."""
    name = key.split("/")[-1]
    if name.startswith("T_"):
        return "epoch"
    if "acc" in name:
        return "acc"
    if name in ("share_top5", "radius_cv", "angle_rms", "bits_changed", "same_prediction"):
        return "geometry"
    return "loss"  # losses and every other positive quantity spanning decades: relative


def fig1_loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 1: train/test loss and test accuracy at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h in sorted(histories, key=lambda h: h.config["weight_decay"]):
        tag = f"wd={h.config['weight_decay']:g}"
        values |= _at_epochs(h, ("train_loss", "test_loss", "test_acc"), tag)
        for name, value in fig1_key_numbers(h).items():
            if name.startswith("T_"):
                values[f"{tag}/{name}"] = _none_if_nan(value)
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


def _at_epochs(h: History, names: Sequence[str], tag: str, epochs=FIG1_EPOCHS) -> dict[str, float]:
    return {f"{tag}/{name}@{e}": _none_if_nan(h.at(name, e)) for e in (*epochs, int(h.steps[-1])) for name in names}


def _none_if_nan(x: float):
    return None if math.isnan(x) else x


def fig2_embedding_geometry(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 2: E's dominant frequency, top-5 energy share and polygon deviation, per weight decay."""
    from . import geometry

    values: dict[str, float | None] = {}
    for h in histories:
        tag = f"wd={h.config['weight_decay']:g}"
        for step in (0, 500, int(h.steps[-1])):
            for block in ("E", "U"):
                x = h.snapshot(block, step)
                k = geometry.dominant_frequency(x)
                dev = geometry.polygon_deviation(geometry.circle_projection(x, k), k)
                values[f"{tag}/{block}@{step}/share_top5"] = geometry.energy_fraction(x, 5)
                values[f"{tag}/{block}@{step}/radius_cv"] = dev["radius_cv"]
                values[f"{tag}/{block}@{step}/angle_rms"] = dev["angle_rms"]
    return values


def fig3_stable_rank(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 3: the stable ranks and test loss at fixed epochs, and the clocks, per weight decay."""
    from .clocks import clock_table_row

    values: dict[str, float | None] = {}
    for h in histories:
        tag = f"wd={h.config['weight_decay']:g}"
        values |= _at_epochs(h, ("test_loss", "srank_E", "srank_W", "srank_U", "srank_EW"), tag)
        for name, v in clock_table_row(h).items():
            if name.startswith("T_") and "/" not in name:
                values[f"{tag}/{name}"] = _none_if_nan(v)
    return values


def gradient_hierarchy(histories: Sequence[History]) -> dict[str, float | None]:
    """Gradient-hierarchy figure: gradient norms, bound factors and update sizes at fixed epochs."""
    names = ("grad_E", "grad_W", "grad_U", "spec_U", "spec_W", "mean_delta_h", "mean_delta_z", "mean_delta_B",
             "update_E", "update_U")
    values: dict[str, float | None] = {}
    for h in histories:
        values |= _at_epochs(h, names, f"wd={h.config['weight_decay']:g}", epochs=FIG1_EPOCHS[:-1])
    return values


def activation_patterns(histories: Sequence[History]) -> dict[str, float | None]:
    """Activation-pattern figure: churn at fixed epochs and the reduced model's error, per weight decay."""
    from .relu_reduction import reduction_error

    values: dict[str, float | None] = {}
    for h in histories:
        tag = f"wd={h.config['weight_decay']:g}"
        values |= _at_epochs(h, ("churn",), tag)
        for name, v in reduction_error(h, 1000, int(h.steps[-1])).items():
            values[f"{tag}/reduction_1000_end/{name}"] = v
    return values
