"""Paper A's embedding initialisation (the Figure 3 page's section on it): PyTorch's N(0, 1) embeddings, which the
book uses as the paper's code does, against fan-in-scaled N(0, 1/d) embeddings (the recorded set ``init_scaled``).
The table per lambda and initialisation, the figure's numbers and the glued words; the figure is
:func:`grok_lib.paper_a.panels.figure_init`. Nothing here is graded: it says what the slow clock owes to the
initialisation."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..figure_numbers import at_epochs
from ..history import History
from .clocks import T_REP_FRACTION
from .curve_numbers import clock_table_row, FIG1_EPOCHS, prefixed, shown, SLOW_MATRIX, tag
from .run_sets import default_runs, recorded


def init_table(default: Sequence[History], scaled: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """Per λ and initialisation: ||E||_F at init, the stable rank's peak and its epoch, and the clocks."""
    rows = []
    for name, histories in (("N(0, 1) (PyTorch)", default), ("N(0, 1/d)", scaled)):
        for h in histories:
            s = h[f"srank_{matrix}"]
            row = {"init of E": name, "weight_decay": h.cfg.weight_decay,
                   "‖E‖_F at init": round(float(h["norm_E"][0]), 1), "srank peak": round(float(s.max()), 1),
                   "peak epoch": int(h.steps[int(np.argmax(s))])}
            row |= {k: shown(v, 2) if "/" in k else shown(v) for k, v in clock_table_row(h, matrix).items()
                    if k != "weight_decay"}
            rows.append(row)
    return rows


def init_numbers(default: Sequence[History], scaled: Sequence[History]) -> dict[str, float | None]:
    """The initialisation figure: ||E||_F, the stable rank of E and the test loss at fixed epochs, both inits."""
    values: dict[str, float | None] = {}
    for init, histories in (("pytorch", default), ("scaled_embed", scaled)):
        for h in histories:
            values |= prefixed(init, at_epochs(h, ("norm_E", "srank_E", "test_loss"), tag(h), FIG1_EPOCHS))
    return values


def init_rows() -> list[dict]:
    """:func:`init_table` of the default profile's sweep (seed 0) and the recorded set ``init_scaled``."""
    return init_table(default_runs(), recorded("init_scaled"))


def init_reading() -> dict[str, str]:
    """What the initialisation changes (:func:`init_rows`): each column's range over λ for both inits, and the slow
    clock with N(0, 1/d) embeddings in words."""
    n_default = len(default_runs())
    rows = init_rows()
    with_default, with_scaled = rows[:n_default], rows[n_default:]
    formats = {"‖E‖_F at init": ("norm", ".3g"), "srank peak": ("peak", ".1f"), "peak epoch": ("peak_epoch", ",.0f"),
               "T_cls(1e-02)": ("cls2", ",.0f"), "T_cls(1e-04)": ("cls4", ",.0f"), "T_rep": ("rep", ",.0f"),
               "T_grok(95%)": ("grok", ",.0f"), "T_rep/T_cls(1e-04)": ("ratio", ".2f")}
    span = {(name, key): (min(r[key] for r in rs), max(r[key] for r in rs))
            for name, rs in (("default", with_default), ("scaled", with_scaled)) for key in formats}
    grok_moves = max(abs(s["T_grok(95%)"] - d["T_grok(95%)"]) / d["T_grok(95%)"]
                     for s, d in zip(with_scaled, with_default))
    spans = {f"init_{name}_{label}": (f"{lo:{fmt}}" if f"{lo:{fmt}}" == f"{hi:{fmt}}" else f"{lo:{fmt}}–{hi:{fmt}}")
             for (name, key), (lo, hi) in span.items() for label, fmt in [formats[key]]}
    return spans | dict(
        init_scaled_during=("during the fit" if span[("scaled", "peak epoch")][1] < span[("scaled", "T_cls(1e-02)")][0]
                            else "not always during the fit"),
        init_default_after=("after" if all(r["peak epoch"] > r["T_cls(1e-04)"] for r in with_default)
                            else "at or after" if all(r["peak epoch"] >= r["T_cls(1e-04)"] for r in with_default)
                            else "not always after"),
        init_fall=f"{1 - T_REP_FRACTION:.0%}",
        init_before=("*before*" if all(r["T_rep"] < r["T_cls(1e-04)"] for r in with_scaled) else "not always before"),
        init_grok_moves=f"{grok_moves:.0%}",
        init_conclusion=("with a fan-in-scaled embedding the same measure shows no slow clock at all while grokking "
                         "happens as before" if all(r["T_rep/T_cls(1e-04)"] < 1 for r in with_scaled)
                         else "with a fan-in-scaled embedding the same measure shows a weaker slow clock"),
    )
