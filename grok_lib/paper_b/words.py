"""How Part B's pages say what they measured: the verdicts and the regime in words, a number or an order as the prose
writes it (glued by :func:`grok_lib.display.glue`, never typed)."""

from __future__ import annotations

import math
from typing import Sequence

from ..claims import KINDS, Result
from ..tables import typeset


def shown(x, fmt: str = ",.0f") -> str:
    """A number as the prose shows it ("never" for NaN, a table's text as it is)."""
    if isinstance(x, str):
        return x
    return "never" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:{fmt}}"


def order_phrase(values: Sequence[float], rising: str, falling: str, neither: str) -> str:
    finite = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if len(finite) < len(values) or len(finite) < 2:
        return neither
    if all(b > a for a, b in zip(finite, finite[1:])):
        return rising
    if all(b < a for a, b in zip(finite, finite[1:])):
        return falling
    return neither


def verdict_reading(results: Sequence[Result]) -> str:
    """Each result's verdict in the words of its claim's kind (Markdown), and where claims were not tested faithfully,
    the measured reason (once per regime check): what the page's "Reading the verdicts" states, never typed."""
    said = "; ".join(f"`{r.claim.id}` ({KINDS[r.claim.kind]}) is **{r.word}**" for r in results) + "."
    reasons = list(dict.fromkeys(f"{typeset(r.regime.quantity)}: {typeset(r.regime.measured)}" for r in results
                                 if r.verdict == "not tested faithfully" and r.regime is not None))
    return said + "".join(f" Not tested faithfully because of the regime ({why})." for why in reasons)


def regime_reading(result: Result) -> str:
    """A result's regime check in words (Markdown): the quantity, what it must be, what was measured."""
    return typeset(result.regime.text()) if result.regime is not None else "no regime check"


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(x: float) -> str:
    """``x`` to two figures as the prose writes it: 3.5e-07 is 3.5·10⁻⁷."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(SUPERSCRIPT)}"


def range_text(values: Sequence[float], fmt: str) -> str:
    """``lo–hi`` of ``values`` in ``fmt``."""
    return f"{min(values):{fmt}}–{max(values):{fmt}}"
