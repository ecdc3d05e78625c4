"""The registry of the papers' quantitative claims, and their evaluation on the book's runs.

A claim has an id, the paper's statement, how the book measures it and what counts as
reproduced. Notebooks evaluate claims on their own runs; the result carries the measured
numbers and a verdict: ``reproduced``, ``partly`` or ``not reproduced``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .clocks import grokking_epoch
from .history import History

VERDICTS = ("reproduced", "partly", "not reproduced")


@dataclass(frozen=True)
class Claim:
    id: str
    paper: str  # "A", "B" or "C" (see book/intro.md)
    statement: str  # what the paper says
    measure: str  # how the book measures it
    tolerance: str  # what counts as reproduced / partly


@dataclass(frozen=True)
class Result:
    claim: Claim
    measured: str  # the measured numbers, in words
    verdict: str  # one of VERDICTS

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}; got {self.verdict!r}")


REGISTRY: dict[str, Claim] = {
    c.id: c
    for c in [
        Claim(
            "A.fig1.train_fit",
            "A",
            "Train loss falls to about 1e-6 by about 1.5k epochs (Fig. 1b).",
            "Train cross-entropy (float64) at epoch 1500, for every weight decay.",
            "reproduced: all within [1e-7, 1e-5]; partly: all within [1e-8, 1e-4].",
        ),
        Claim(
            "A.fig1.grok_window",
            "A",
            "Test loss drops in a window of about 4k-8.5k epochs (Fig. 1b).",
            "Grokking epoch = first epoch with test accuracy >= 95%, for every weight decay.",
            "reproduced: all within [3200, 10625] (the window +-25%); partly: all grok, some outside.",
        ),
        Claim(
            "A.fig1.wd_order",
            "A",
            "The test-loss drop comes earlier for larger weight decay (Fig. 1b).",
            "Order of the grokking epochs over weight decays 0.6 ... 1.0.",
            "reproduced: strictly decreasing in weight decay; partly: at most one inversion.",
        ),
    ]
}


def evaluate_fig1(histories: Sequence[History]) -> list[Result]:
    """Evaluate the Figure 1 claims on a weight-decay sweep."""
    hs = sorted(histories, key=lambda h: h.config["weight_decay"])
    wds = [h.config["weight_decay"] for h in hs]

    fit = [h.at("train_loss", 1500) for h in hs]
    fit_text = ", ".join(f"λ={wd:g}: {v:.1e}" for wd, v in zip(wds, fit))
    if all(1e-7 <= v <= 1e-5 for v in fit):
        fit_verdict = "reproduced"
    elif all(1e-8 <= v <= 1e-4 for v in fit):
        fit_verdict = "partly"
    else:
        fit_verdict = "not reproduced"

    groks = [grokking_epoch(h) for h in hs]
    grok_text = ", ".join(f"λ={wd:g}: {'never' if math.isnan(g) else int(g)}" for wd, g in zip(wds, groks))
    if any(math.isnan(g) for g in groks):
        window_verdict = "not reproduced"
    elif all(3200 <= g <= 10625 for g in groks):
        window_verdict = "reproduced"
    else:
        window_verdict = "partly"

    finite = [g for g in groks if not math.isnan(g)]
    inversions = sum(1 for x, y in zip(finite, finite[1:]) if y >= x)
    if len(finite) < len(groks) or len(groks) < 2:
        order_verdict, order_text = "not reproduced", "not every weight decay grokked"
    else:
        order_verdict = "reproduced" if inversions == 0 else ("partly" if inversions == 1 else "not reproduced")
        order_text = f"{inversions} inversion(s) in " + " > ".join(str(int(g)) for g in groks)

    return [
        Result(REGISTRY["A.fig1.train_fit"], f"train loss at epoch 1500: {fit_text}", fit_verdict),
        Result(REGISTRY["A.fig1.grok_window"], f"grokking epochs: {grok_text}", window_verdict),
        Result(REGISTRY["A.fig1.wd_order"], order_text, order_verdict),
    ]


def format_results(results: Sequence[Result]) -> str:
    """A plain-text table of claim results (what notebooks print)."""
    lines = []
    for r in results:
        lines.append(f"[{r.verdict}] {r.claim.id}: {r.claim.statement}")
        lines.append(f"    measured: {r.measured}")
    return "\n".join(lines)
