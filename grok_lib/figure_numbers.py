"""Figure regression of the numbers behind a figure: tolerances and the comparison.

Figure regression guards every figure twice: its declared drawing against a baseline image
(tests/test_figure_images.py), and the numbers it plots against the values the book holds (:func:`committed`:
the ``numbers`` of the figure's data file, ``book/figure_files/<part>/<figure>.json``, which the notebook's
committed run writes) with the tolerances below. Each chapter module reduces its runs to those numbers
(the ``numbers`` of each ``Figure`` it declares); after a deliberate change ``make notebooks`` writes them again, and
``make baselines`` the images.
"""

from __future__ import annotations

import json
import math
from typing import Optional, Sequence

from . import paths
from .history import History

#: Tolerance per class of value: ("rel", r) means ``abs(a - e) <= r * abs(e)``; ("abs", t) means ``abs(a - e) <= t``.
TOLERANCES = {
    "loss": ("rel", 1e-3),  # cross-entropies, spanning 1e-7 .. 1e1
    "acc": ("abs", 2e-3),  # accuracies in [0, 1]
    "epoch": ("abs", 50),  # clock readings: one step of the recording grid
    "geometry": ("abs", 0.02),  # shares, radius CVs, angle errors (in polygon steps), bit fractions
}


def committed(name: str) -> Optional[dict]:
    """The key numbers behind figure ``name`` as the book holds them: the ``numbers`` its committed run wrote into
    the figure's data file (``book/figure_files/<name>.json``); None if the book has no such file or numbers."""
    path = paths.figure_path(name, ".json", paths.SHIPPED_FIGURES)
    return json.loads(path.read_text()).get("numbers") if path.exists() else None


def tolerance_class(key: str) -> str:
    """The tolerance class of a value (a key of :data:`TOLERANCES`), from its name."""
    name = key.split("/")[-1]
    if name.startswith("T_"):
        return "epoch"
    if "acc" in name:
        return "acc"
    if name in ("share_top5", "radius_cv", "angle_rms", "bits_changed", "same_prediction"):
        return "geometry"
    return "loss"  # losses and every other positive quantity spanning decades: relative


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
        how, tol = TOLERANCES[tolerance_class(k)]
        limit = tol * abs(e) if how == "rel" else tol
        if abs(a - e) > limit:
            problems.append(f"{k}: expected {e:.6g}, got {a:.6g} (|diff| {abs(a - e):.3g} > {how} tolerance {tol:g})")
    return sorted(problems)


def envelope(samples: Sequence[dict]) -> dict:
    """The measured envelope of the same numbers computed in several arithmetics: for each value
    ``[lo, hi]`` over the samples, and ``none`` if some sample had no value (None)."""
    out = {}
    for k in sorted(set().union(*samples)):
        got = [s.get(k) for s in samples]
        numbers = [v for v in got if v is not None]
        out[k] = {"lo": min(numbers) if numbers else None, "hi": max(numbers) if numbers else None,
                  "none": len(numbers) < len(got)}
    return out


def compare_envelope(bounds: dict, actual: dict) -> list[str]:
    """Like :func:`compare`, for a machine in other arithmetic: each value must lie within its
    measured envelope ``[lo, hi]`` widened by the value's own tolerance (None only where some
    measured arithmetic gave None too)."""
    problems = [f"{k}: in the envelope, missing now" for k in bounds if k not in actual]
    problems += [f"{k}: new value {actual[k]!r}, not in the envelope" for k in actual if k not in bounds]
    for k in bounds.keys() & actual.keys():
        b, a = bounds[k], actual[k]
        if a is None or b["lo"] is None:
            if not (a is None and b["none"]):
                problems.append(f"{k}: got {a!r}, envelope [{b['lo']!r}, {b['hi']!r}] (None measured: {b['none']})")
            continue
        how, tol = TOLERANCES[tolerance_class(k)]
        lo = b["lo"] - (tol * abs(b["lo"]) if how == "rel" else tol)
        hi = b["hi"] + (tol * abs(b["hi"]) if how == "rel" else tol)
        if not lo <= a <= hi:
            problems.append(f"{k}: got {a:.6g}, outside the envelope [{b['lo']:.6g}, {b['hi']:.6g}] "
                            f"widened by its {how} tolerance {tol:g}")
    return sorted(problems)


def at_epochs(h: History, names: Sequence[str], tag: str, epochs: Sequence[int]) -> dict[str, float]:
    """``tag/name@epoch`` -> the metric at each of ``epochs`` and at the last step (None for NaN)."""
    return {f"{tag}/{name}@{e}": none_if_nan(h.at(name, e)) for e in (*epochs, int(h.steps[-1])) for name in names}


def none_if_nan(x: float):
    """None for NaN (JSON has no NaN), else ``x``."""
    return None if math.isnan(x) else x
