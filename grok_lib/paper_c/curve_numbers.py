"""The numbers every Part C figure reads off its runs' curves: losses as printed, steps as integers, the curves at fixed
steps and every crossing, keyed by run (the figure-regression reductions of :mod:`grok_lib.paper_c.chapters` and
their tables read these)."""

from __future__ import annotations

import math
from typing import Sequence

from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from ..tables import PRINT_FLOOR


#: The steps at which the curves are guarded by figure regression.
CURVE_STEPS = (10, 100, 1_000, 10_000, 100_000)


#: Losses below this are rounding noise of float64 (their digits change with the BLAS thread count):
#: figure regression does not guard them (tables print everything below tables.PRINT_FLOOR as such).
GUARD_FLOOR = 1e-20


def printed_loss(x: float):
    """A loss as printed: three significant digits, or "< 1e-10" below the printed floor (tables.PRINT_FLOOR)."""
    return f"< {PRINT_FLOOR:.0e}" if abs(x) < PRINT_FLOOR else float(f"{x:.3g}")


def tag(h: History) -> str:
    """A run's key in the figure numbers: its λ, then each setting that is not the default, and its model."""
    c = h.cfg
    tag = f"lam={c.lam:g}"
    for name, default in (("d_out", 1), ("gamma", 0.0), ("label_noise", 0.0), ("data_seed", 0)):
        if getattr(c, name) != default:
            tag += f"/{name}={getattr(c, name):.4g}"
    return tag + ("" if c.model == "linear" else f"/{c.model}")


def as_int(x) -> float | int:
    """A step as an int; never reached (None, NaN or infinite) is NaN, which tables print as 'never'."""
    return math.nan if x is None or not math.isfinite(x) else int(round(x))


def _crossing_values(h: History) -> dict[str, float | None]:
    values = {}
    for row in h.meta["crossings"]:
        for name in ("t_train", "t_test", "theory_t_train", "theory_t_test", "mp_t_train", "mp_t_test"):
            if name in row:
                values[f"{tag(h)}/T_{name}(eps={row['eps']:g})"] = none_if_nan(float("nan") if row[name] is None
                                                                            else float(row[name]))
    return values


def curves(histories: Sequence[History], names: Sequence[str]) -> dict[str, float | None]:
    """Regression numbers of curves: ``names`` at CURVE_STEPS and every crossing, per run (tiny losses as None)."""
    tags = [tag(h) for h in histories]
    if len(set(tags)) < len(tags):  # two runs one key: the second's numbers would overwrite the first's
        raise ValueError(f"curves: runs that differ only in a setting tag() does not name share keys: {sorted(tags)}")
    values: dict[str, float | None] = {}
    for h in histories:
        present = [n for n in names if n in h.metrics]
        values |= at_epochs(h, present, tag(h), [s for s in CURVE_STEPS if s <= h.steps[-1]])
        values |= _crossing_values(h)
    return {k: (None if v is not None and "loss" in k and abs(v) < GUARD_FLOOR else v) for k, v in values.items()}


def crossings(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every crossing at every ε."""
    values: dict[str, float | None] = {}
    for h in histories:
        values |= _crossing_values(h)
    return values
