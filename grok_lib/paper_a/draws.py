"""What several of Paper A's MLP chapters' checks share: a sweep's members and seed for a draw
(:func:`grok_lib.grading.draw`), sweeps in weight-decay order, the regimes every MLP claim is graded in (the
transition complete; the paper's width and length) and inversions of an order."""

from __future__ import annotations

import math
from typing import Sequence

from ..clocks import grokking_epoch
from ..grading import Regime
from ..history import History
from .claim_terms import COMPLETE_ACC, PAPER_AXIS_EPOCHS, PAPER_WIDTH
from .robustness import by_weight_decay


Sweeps = Sequence[Sequence[History]]


def members(hs: Sequence[History]) -> tuple:
    return tuple(f"λ={h.cfg.weight_decay:g}" for h in hs)


def sorted_sweeps(sweeps: Sweeps) -> list[list[History]]:
    return [by_weight_decay(hs) for hs in sweeps]


def regime(sweeps: Sweeps) -> Regime:
    """Every MLP claim's regime: the transition completes within the run (test accuracy reaches
    :data:`COMPLETE_ACC` before the last epoch, every run)."""
    hs = [h for s in sweeps for h in s]
    groks = [grokking_epoch(h, COMPLETE_ACC) for h in hs]
    done = [not math.isnan(g) for g in groks]
    last = max(float(h.steps[-1]) for h in hs)
    finite = [g for g in groks if not math.isnan(g)]
    measured = (f"{sum(done)} of {len(hs)} runs reach it, by epoch {max(finite):.0f} of {last:.0f}" if finite
                else f"no run reaches it in {last:.0f} epochs")
    return Regime(all(done), f"test accuracy {COMPLETE_ACC:.0%}", "within the run (the transition completes)", measured)


def paper_regime(sweeps: Sweeps) -> Regime:
    """The regime of a claim about absolute epochs or end values: the paper's width and a run at least as long as
    its figures' axes, and the transition complete."""
    complete = regime(sweeps)
    c = sweeps[0][0].cfg
    ok = c.width == PAPER_WIDTH and c.epochs >= PAPER_AXIS_EPOCHS and complete.ok
    return Regime(ok, "width and run length", f"the paper's ({PAPER_WIDTH}; its figures' axes to "
                  f"{PAPER_AXIS_EPOCHS:,} epochs), and the transition complete",
                  f"width {c.width}, {c.epochs:,} epochs; test accuracy {COMPLETE_ACC:.0%}: {complete.measured}")


def inversions(epochs: Sequence[float]) -> float:
    """Inversions of "strictly earlier for every larger weight decay" (epochs in increasing weight decay): a pair
    that is not strictly earlier, and a weight decay whose clock never stops, each count one."""
    count = sum(1 for e in epochs if math.isnan(e))
    finite = [e for e in epochs if not math.isnan(e)]
    return float(count + sum(1 for x, y in zip(finite, finite[1:]) if y >= x))
