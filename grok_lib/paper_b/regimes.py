"""Whether Paper B's runs are in the regime of its theory, measured (:class:`grok_lib.grading.Regime`): every chapter's
check (:mod:`grok_lib.paper_b.chapters`) grades its claim only on runs that pass.

The theory is about gradient flow; full-batch GD follows it only where ``lr`` times the sharpness of the objective
stays below 2 (:data:`GD_STABLE`), measured at initialisation for every run
(:mod:`grok_lib.paper_b.sharpness`: the top eigenvalue of the objective's Hessian, or for the MLP's cross-entropy its
Gauss–Newton matrix), with the step the run took there. And a claim about the transition needs it to complete within
the run (its end reached before the horizon; misgrokking's fall no longer falling when the run stops).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from ..grading import Regime
from ..history import History
from . import measure, sharpness
from .config import MatrixCompletionConfig, ModAddConfig, StableModAddConfig
from .claim_terms import BRIDGE_ACC, END_ACC, MC_DROP_LEVELS

#: Full-batch GD is stable along the top direction of the loss's curvature only where lr x sharpness is below this.
GD_STABLE = 2.0
#: Misgrokking's fall has completed when the test accuracy falls by at most this over the last FALL_TAIL of the clock.
FALL_DONE, FALL_TAIL = 0.01, 0.5


@lru_cache(maxsize=256)
def sharpness_at_init(config) -> float:
    """The sharpness of ``config``'s objective at initialisation (one measurement per config in a process). The MLP's
    with W2 = 0 by its closed form (:func:`grok_lib.paper_b.sharpness.closed_form_at_init`, which the tests hold
    to the power iteration: at the paper's width the iteration takes seconds per run)."""
    if isinstance(config, ModAddConfig):
        return sharpness.closed_form_at_init(config) if config.zero_last else sharpness.at_init(config)
    if isinstance(config, MatrixCompletionConfig):
        return sharpness.matrix_completion_at_init(config)
    return sharpness.diagonal_at_init(config)


def first_step(h: History) -> float:
    """The step size a run took at initialisation (its ``lr`` metric where the step varies, else the config's)."""
    return float(h["lr"][0]) if "lr" in h.metrics else float(h.cfg.lr)


def label(h: History) -> str:
    """A run's name in the regime's text: the values its sweep varies."""
    c = h.cfg
    parts = [f"α={c.alpha:g}"] + ([f"λ={c.weight_decay:g}"] if hasattr(c, "weight_decay") else [])
    return " ".join(parts)


def _by_setting(histories: Sequence[History], value: Callable[[History], float], fmt: str) -> str:
    """One value per run, runs with the same α and λ (several seeds) shown as their range."""
    groups: dict[str, list[float]] = {}
    for h in histories:
        groups.setdefault(label(h), []).append(value(h))
    out = []
    for name, vals in groups.items():
        lo, hi = f"{min(vals):{fmt}}", f"{max(vals):{fmt}}"
        out.append(f"{name}: {lo if lo == hi else f'{lo}–{hi}'}")
    return ", ".join(out)


def stability(histories: Sequence[History]) -> Regime:
    """lr × the sharpness at initialisation below 2 for every run (GD stable: it follows gradient flow)."""
    products = {id(h): first_step(h) * sharpness_at_init(h.cfg) for h in histories}
    ok = all(p < GD_STABLE for p in products.values())
    measured = _by_setting(histories, lambda h: products[id(h)], ".3g")
    if any(isinstance(h.cfg, StableModAddConfig) for h in histories):
        worst = max(float(h.meta.get("max_lr_sharpness", math.nan)) for h in histories)
        measured += f" (over every step of every run, lr_t × S_t at most {worst:.3g}, S_t the run's running estimate)"
    elif any("lr" in h.metrics for h in histories) and not isinstance(histories[0].cfg, ModAddConfig):
        measured += " (each step min(lr, 1 / H_t), H_t a bound on the sharpness: lr_t × S_t ≤ 1 at every step)"
    return Regime(ok, "lr × the sharpness at initialisation", f"< {GD_STABLE:g} for every run (GD follows gradient "
                  "flow)", measured)


def transition_ends(histories: Sequence[History], level: float = END_ACC) -> Regime:
    """The transition's end (test accuracy ≥ ``level``) within every run."""
    ends = [measure.first_crossing(h, "test_acc", level) for h in histories]
    done = sum(e is not None for e in ends)
    mlp = any(isinstance(h.cfg, ModAddConfig) for h in histories)
    # where each end came, and where its run stopped: on lambda t for the MLP (alpha = 1 has no ln alpha), else the clock
    at = [(float(h.cfg.weight_decay) * e.t, float(h.cfg.weight_decay) * measure.continuous_time(h)[-1]) if mlp
          else (e.fraction, float(measure.clock(h)[-1])) for h, e in zip(histories, ends) if e is not None]
    axis = "λt" if mlp else "λt / ln α"
    latest = f"{axis} {max(at)[0]:.3g} of {max(at)[1]:.3g}" if at else ""
    measured = f"{done} of {len(histories)} runs" + (f", the latest at {latest}" if latest else "")
    return Regime(done == len(histories), f"the transition's end (test accuracy {level:g})", "within every run",
                  measured)


def fall_completed(histories: Sequence[History]) -> Regime:
    """Misgrokking's fall complete: the test accuracy falls by at most FALL_DONE over the last FALL_TAIL of the clock."""
    falls = []
    for h in histories:
        x = measure.clock(h)
        before = float(np.interp(x[-1] - FALL_TAIL, x, h["test_acc"]))
        falls.append(before - h.final("test_acc"))
    ok = all(f <= FALL_DONE for f in falls)
    measured = "; ".join(f"seed {h.cfg.data_seed}: {100 * f:.1f} points up to clock {measure.clock(h)[-1]:.2f}"
                         for h, f in zip(histories, falls))
    return Regime(ok, f"the test accuracy's fall over the last {FALL_TAIL:g} of λt / ln α",
                  f"≤ {100 * FALL_DONE:g} point for every run (the fall complete)", measured)


def drop_ends(histories: Sequence[History]) -> Regime:
    """Matrix completion's fall complete: the test MSE's largest drop of the claims' grid within every run."""
    q = max(MC_DROP_LEVELS)
    ends = [measure.drop_transition(h, start=1 - q, end=1 - q).end for h in histories]
    measured = ", ".join(f"at λt / ln α {e.fraction:.3g} of {measure.clock(h)[-1]:.3g}" if e else
                         f"not by {measure.clock(h)[-1]:.3g}" for h, e in zip(histories, ends))
    return Regime(all(ends), f"the test MSE's {q:.0%} drop from its plateau", "within every run", measured)


def groks(histories: Sequence[History]) -> Regime:
    """The bridge's runs: every run groks (test accuracy ≥ BRIDGE_ACC) within its steps."""
    done = [measure.first_crossing(h, "test_acc", BRIDGE_ACC) is not None for h in histories]
    return Regime(all(done), f"test accuracy {BRIDGE_ACC:g}", "within every run",
                  f"{sum(done)} of {len(histories)} runs get there in {max(int(h.steps[-1]) for h in histories):,} steps")


def both(first: Regime, second: Regime) -> Regime:
    """Two regime checks as one: in the regime where both are. Each check's measured values follow its own quantity
    (the first's numbers are not the second's: "lr × S < 2 for every run: 0.55; and the transition's end within every
    run: 5 of 5 runs")."""
    return Regime(first.ok and second.ok, f"{first.quantity} {first.requirement.strip()}: {first.measured}; and "
                  f"{second.quantity}", second.requirement, second.measured)
