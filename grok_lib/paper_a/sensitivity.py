"""How Paper A's verdicts move with their thresholds: the tables the MLP notebooks print of each claim's quantity
at every point of its grid (each level the paper does not give, moved over the grid the claim declares and is
graded over: :mod:`grok_lib.paper_a.claims`), and the phase tables the seed spread reads.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..clocks import grokking_epoch, t_cls
from ..history import History
from . import robustness
from .clocks import t_rep_srank
from .key_numbers import SLOW_MATRIX
from .thresholds import DROP_LEVELS, FIT_EPS, FOURIER_TOPS


# --- how the verdicts move with their thresholds (see robustness) ------------------------------------
def _fmt(v: float, digits: int = 0) -> float | str:
    return "never" if np.isnan(v) else round(float(v), digits) if digits else int(v)


def grok_sensitivity(histories: Sequence[History]) -> list[dict]:
    """T_grok at every test-accuracy level of the grid, per λ."""
    return [{"weight_decay": h.cfg.weight_decay}
            | {f"T_grok({acc:.0%})": _fmt(v) for acc, v in robustness.grok_grid(h).items()} for h in histories]


def after_fit_sensitivity(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """The stable rank's peak epoch against T_cls(ε) at every ε of the grid, per λ."""
    rows = []
    for h in histories:
        s = h[f"srank_{matrix}"]
        rows.append({"weight_decay": h.cfg.weight_decay, "peak epoch": int(h.steps[int(np.argmax(s))])}
                    | {f"T_cls({e:.0e})": _fmt(t_cls(h, e)) for e in robustness.FIT_EPS_GRID})
    return rows


def drop_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The test loss's drop (first epoch with test loss <= ℓ after the train loss has saturated) at every level ℓ
    of the Figure 1 claims' grid, per λ."""
    from .checks import drop_epoch

    return [{"weight_decay": h.cfg.weight_decay} | {f"drop to {lvl:.0e}": _fmt(drop_epoch(h, lvl)) for lvl in DROP_LEVELS}
            for h in histories]


def fourier_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The share of E's non-constant Fourier energy in its k strongest frequencies at the end of training, at every k
    of the Fourier claim's grid, per λ."""
    from . import geometry

    return [{"weight_decay": h.cfg.weight_decay}
            | {f"top-{k} share": round(geometry.energy_fraction(h.snapshot("E", int(h.steps[-1])), k), 3) for k in FOURIER_TOPS}
            for h in histories]


def clock_ratio_sensitivity(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """T_rep(f) / T_cls(ε) over the claim's grid, as graded: per λ and ε, one column per fraction f; where the
    stable rank has not fallen to f × its peak by the end of the run, the run's length stands for T_rep and the
    cell is a lower bound ("≥ ...")."""
    from .checks import slow_clock

    rows = []
    for h in histories:
        for e in robustness.RATIO_EPS_GRID:
            row = {"weight_decay": h.cfg.weight_decay, "ε": f"{e:.0e}"}
            for f in robustness.T_REP_FRACTION_GRID:
                ratio = slow_clock(h, matrix, f) / t_cls(h, e)
                censored = np.isnan(t_rep_srank(h, matrix, f)) and not np.isnan(ratio)
                row[f"f={f:g}"] = f"≥ {ratio:.2f}" if censored else _fmt(ratio, 2)
            rows.append(row)
    return rows


def rep_vs_grok_table(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """T_rep at every fraction of the grid against the grokking epoch, per λ."""
    return [{"weight_decay": h.cfg.weight_decay, "T_grok(95%)": _fmt(grokking_epoch(h))}
            | {f"T_rep(f={f:g})": _fmt(t_rep_srank(h, matrix, f)) for f in robustness.T_REP_FRACTION_GRID}
            for h in histories]


def gradient_phase_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the phases (at ε = 1e-3) and the share of each phase's epochs with ||grad_U|| > ||grad_E||,
    and the fitting phase's share at every ε of the grid."""
    rows = []
    for h in histories:
        bounds = robustness.phases(h, FIT_EPS)
        shares = robustness.head_share_by_phase(h, FIT_EPS)
        row = {"weight_decay": h.cfg.weight_decay}
        for name, (lo, hi) in bounds.items():
            row[f"{name} epochs"] = f"{lo:.0f}–{hi:.0f}"
            row[f"{name} share"] = _fmt(shares[name], 2)
        row |= {f"fitting share, ε={e:.0e}": _fmt(robustness.head_share_by_phase(h, e)["fitting"], 2)
                for e in robustness.FIT_EPS_GRID if e != FIT_EPS}
        rows.append(row)
    return rows


def phase_share_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the phase boundaries (T_cls(1e-3), T_grok(95%)) and the share of each phase's epochs
    with ||grad_U|| > ||grad_E||, as plain numbers (what the seed spread reads)."""
    rows = []
    for h in histories:
        bounds = robustness.phases(h, FIT_EPS)
        shares = robustness.head_share_by_phase(h, FIT_EPS)
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": bounds["plateau"][0],
                     "T_grok(95%)": bounds["late"][0]} | {f"{name} share": round(v, 2) for name, v in shares.items()})
    return rows


def frozen_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The frozen epoch at every churn threshold of the grid, against T_rep, per λ."""
    return [{"weight_decay": h.cfg.weight_decay, "T_rep": _fmt(t_rep_srank(h))}
            | {f"frozen (c={c:g})": _fmt(v) for c, v in robustness.frozen_grid(h).items()} for h in histories]
