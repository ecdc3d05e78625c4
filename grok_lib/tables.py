"""Plain-text tables for notebook output (stable formatting, so nbval can compare them)."""

from __future__ import annotations

import math
from typing import Sequence


def format_value(value) -> str:
    """Epoch-like numbers as integers, NaN as 'never', small or large floats in e-notation."""
    if isinstance(value, float) and math.isnan(value):
        return "never"
    if isinstance(value, float) and value.is_integer() and abs(value) >= 10:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.2e}" if (value != 0 and not 1e-2 <= abs(value) < 1e3) else f"{value:.3g}"
    return str(value)


def format_table(rows: Sequence[dict]) -> str:
    """A fixed-width table with one column per key of the first row."""
    if not rows:
        return "(no rows)"
    keys = list(rows[0])
    cells = [[format_value(r[k]) for k in keys] for r in rows]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    line = lambda items: "  ".join(s.rjust(w) for s, w in zip(items, widths))  # noqa: E731
    return "\n".join([line(keys), line(["-" * w for w in widths])] + [line(c) for c in cells])
