"""The numbers behind each figure, reduced to the values that matter, and their comparison.

Figure regression guards every figure twice: its plot function against a baseline image
(tests/test_figures.py), and the numbers it plots against committed values
(``tests/figure_numbers/<figure>.json``) with the tolerances below. Regenerate both after a
deliberate change with ``make baselines``.
"""

from __future__ import annotations

import math

import numpy as np
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


# --- the deep-linear chapter ------------------------------------------------------------------
DLN_STEPS = (100, 1000, 10_000, 30_000)


def _dln_tag(h: History) -> str:
    c = h.config
    return f"L={c['depth']}/{c['optimizer']}/wd={c['weight_decay']:g}"


def _fit_values(prefix: str, fit) -> dict[str, float | None]:
    if fit is None:
        return {}
    return {f"{prefix}_slope": fit.slope, f"{prefix}_r2": fit.r2}


def dln_fast_clock(histories: Sequence[History]) -> dict[str, float | None]:
    """Fast-clock figure (lambda = 0 runs): margin and loss at fixed steps, T_cls levels, both fits."""
    from . import dln_clocks as dc

    values: dict[str, float | None] = {}
    for h in (h for h in histories if h.config["weight_decay"] == 0):
        tag = _dln_tag(h)
        values |= _at_epochs(h, ("margin", "train_loss"), tag, epochs=DLN_STEPS)
        fits = dc.fast_clock_fits(h)
        for eps, t in zip(fits["eps"], fits["T"]):
            values[f"{tag}/T_cls({eps:.0e})"] = _none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_log", fits["log"]) | _fit_values(f"{tag}/fit_power", fits["power"])
        g = dc.margin_growth(h)
        values |= _fit_values(f"{tag}/margin_line", g["linear"]) | _fit_values(f"{tag}/margin_log", g["log"])
    return values


def dln_slow_clock(histories: Sequence[History]) -> dict[str, float | None]:
    """Slow-clock figure (GD, lambda > 0): the gap at fixed steps (where above 1e-9), T_rep levels,
    both fits, the tail rate and Prop. 4.3's median errors."""
    from . import dln_clocks as dc
    from .claims_linear import drift_median_error

    values: dict[str, float | None] = {}
    for h in (h for h in histories if h.config["optimizer"] == "gd" and h.config["weight_decay"] > 0):
        tag = _dln_tag(h)
        gap = dc.gap(h)
        for step in DLN_STEPS:
            v = float(gap[max(int(np.searchsorted(h.steps, step, side="right")) - 1, 0)])
            values[f"{tag}/gap@{step}"] = v if v > dc.GAP_FLOOR else None  # below: floating-point floor
        fits = dc.slow_clock_fits(h)
        for eta, t in zip(fits["eta"], fits["T"]):
            values[f"{tag}/T_rep({eta:.0e})"] = _none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_power", fits["power"]) | _fit_values(f"{tag}/fit_log", fits["log"])
        tail = dc.tail_rate(h)
        values[f"{tag}/tail_rate"] = None if tail is None else -tail.slope
        for name in ("prop43", "factored"):
            values[f"{tag}/drift_error_{name}"] = drift_median_error(h, name)
    return values


def dln_separation(histories: Sequence[History]) -> dict[str, float | None]:
    """Separation figure and table: every run's clock readings and final loss."""
    from .dln_clocks import separation_row

    from .dln_clocks import GAP_FLOOR

    values: dict[str, float | None] = {}
    for h in histories:
        for name, v in separation_row(h).items():
            if name == "final gap" and v <= GAP_FLOOR:
                v = math.nan  # floating-point noise, not a value to guard
            if name.startswith("T_") or name in ("final loss", "final gap"):
                values[f"{_dln_tag(h)}/{name.replace(' ', '_')}"] = _none_if_nan(float(v))
    return values
