"""The draws every Part C chapter grades its claims over, and the regime checks they share: a run's label and seed,
the runs grouped by seed (one draw per seed: :func:`grok_lib.grading.draw`), full-batch GD's stability
(:func:`gd_regime`), the transition completing within the runs (:func:`completes`), several regime checks as one
(:func:`both`), and the accuracy law's bound over a family of comparisons (C.acc.law's and C.acc.gamma_law's).

The linear student's runs use the paper's own settings (d_in = 1000, η = 0.01): their regime check measures that
full-batch GD is stable there (lr × the sharpness of L_tr below 2) and, for a claim about crossings, that the
transition completes within the run.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..grading import Regime
from ..history import History
from . import measure


def label(h: History) -> str:
    """A run's label in a measured text: its lambda, and its d_out, gamma and sigma_n where not the default."""
    c = h.cfg
    return f"λ={c.lam:g}" + (f" d_out={c.d_out}" if c.d_out != 1 else "") + (
        f" γ={c.gamma:g}" if c.gamma else "") + (f" σ_n={c.label_noise:.3g}" if c.label_noise else "")


def when(step) -> str:
    """A crossing step for a measured text: the step, or "never" where the accuracy never crossed."""
    return "never" if step is None else str(step)


def seed_of(h: History) -> int:
    """A run's seed: its data seed (the book moves the data and initialisation seeds together; 0 where a synthetic
    run names none)."""
    return int(getattr(h.cfg, "data_seed", 0))


def by_seed(histories: Sequence[History], key=lambda h: h.cfg.lam) -> dict[int, list[History]]:
    """``histories`` grouped by seed (increasing), each group ordered by ``key`` (lambda)."""
    out: dict[int, list[History]] = {}
    for h in histories:
        out.setdefault(seed_of(h), []).append(h)
    return {s: sorted(out[s], key=key) for s in sorted(out)}


def members(hs: Sequence[History]) -> tuple[str, ...]:
    return tuple(label(h) for h in hs)


def _span(values: Sequence[float], fmt: str = ".3g") -> str:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return "none"
    lo, hi = min(finite), max(finite)
    return f"{lo:{fmt}}" if lo == hi else f"{lo:{fmt}}–{hi:{fmt}}"


def sharpness_lr(h: History) -> float:
    """lr × the sharpness of the training loss: L_tr = (1/d_out) Tr[D^T Sigma D] (+ the decay's (gamma/2)||S||^2)
    has Hessian (2 Sigma / d_out + gamma) in D, whose largest eigenvalue comes from the run's largest sample
    eigenvalue s_max (L_tr is quadratic: its sharpness is the one at initialisation)."""
    c = h.cfg
    s_max = h.meta["s_max"] if "s_max" in h.meta else float(np.max(h.snapshots["eigenvalues"][0]))
    return c.eta * (2 * s_max / c.d_out + c.gamma)


#: GD is stable (the paper's full-batch GD regime): lr x the sharpness of L_tr, 2 s_max / d_out, below 2.
GD_STABLE = 2.0


def gd_regime(histories: Sequence[History]) -> Regime | None:
    """The paper's full-batch GD regime: lr × the sharpness of L_tr (:func:`sharpness_lr`) below 2 on every run, so
    that GD is stable (None for runs that carry no spectrum, such as synthetic ones)."""
    hs = [h for h in histories if "s_max" in h.meta or "eigenvalues" in h.snapshots]
    if not hs:
        return None
    values = [sharpness_lr(h) for h in hs]
    worst = max(range(len(hs)), key=lambda i: values[i])
    return Regime(all(v < GD_STABLE for v in values), "lr × the sharpness of L_tr (η (2 s_max / d_out + γ), from the "
                  "run's sample spectrum)", f"< {GD_STABLE:g} on every run (full-batch GD is stable)",
                  f"{_span(values)} over {len(hs)} runs (largest at {label(hs[worst])})")


def both(*regimes: Regime | None) -> Regime | None:
    """Several regime checks as one: in the regime where every one is."""
    rs = [r for r in regimes if r is not None]
    if not rs:
        return None
    if len(rs) == 1:
        return rs[0]
    *first, last = rs
    head = "; ".join(f"{r.quantity} {r.requirement}: {r.measured}" for r in first)
    return Regime(all(r.ok for r in rs), f"{head}; {last.quantity}", last.requirement, last.measured)


def completes(histories: Sequence[History], eps_list: Sequence[float] | None = None) -> Regime:
    """The transition completes before the horizon: both accuracies cross erf(sqrt 2) within every run, at each of
    ``eps_list`` (None: the run's own eps)."""
    missing = []
    for h in histories:
        for e in eps_list or [h.cfg.eps]:
            row = measure.crossing(h, e)
            if row["t_train"] is None or row["t_test"] is None:
                missing.append(f"{label(h)} at ε = {e:g}")
    last = max(int(h.steps[-1]) for h in histories)
    measured = (f"every run crosses, within {last:,} steps" if not missing
                else f"no crossing within the run for {', '.join(missing)}")
    return Regime(not missing, "both accuracies reaching erf(√2)", "within every run (the transition completes)",
                  measured)


def accuracy_law_bound(n_comparisons: int, level: float) -> float:
    """The bound on the binomial z of the accuracy law: the two-sided normal quantile at the family-wise ``level``
    shared by ``n_comparisons`` comparisons (Bonferroni: conservative, since neighbouring steps count the same
    samples)."""
    from scipy import stats

    return float(stats.norm.isf(level / (2 * n_comparisons)))


def accuracy_law_comparisons(histories: Sequence[History]) -> int:
    """How many (curve, record step) comparisons the accuracy law's family holds: train and test, every step."""
    return sum(2 * len(h.steps) for h in histories)
