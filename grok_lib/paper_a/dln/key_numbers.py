"""The key numbers of the deep-linear chapter's figures, computed once.

As in :mod:`grok_lib.paper_a.key_numbers`: ``*_table(histories)`` are the rows the notebook
prints (nbval compares them); the functions named after a figure reduce the runs for
figure regression; the run filters say which runs each figure shows.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...figure_numbers import at_epochs, none_if_nan
from ...history import History
from . import clocks as dc
from .clocks import drift_median_error, lemma31_ratio, run_label, schatten_excess
from ...tables import PRINT_FLOOR, at_resolution
from .runs import gd_decayed_runs, plain_runs
from .thresholds import EXCESS_RESOLUTION


# --- tables -------------------------------------------------------------------------------------
#: The L-BFGS polish of E(A_*) counts as converged below this gradient norm; the digits of a smaller
#: norm are rounding noise (they change with the CPU's arithmetic), so the table prints "< 1e-08".
POLISH_RESOLUTION = 1e-8


def identity_table(histories: Sequence[History]) -> list[dict]:
    """eq. 2.7 and Lemma 3.1 on every decayed run, with the polished E(A_*)."""
    return [{"run": run_label(h), "Schatten excess at end": at_resolution(schatten_excess(h), EXCESS_RESOLUTION),
             "max L_CE / Lemma 3.1 bound": f"{lemma31_ratio(h):.3f}",
             "E(A_*)": f"{h.meta['energy_min']:.6f}",
             "polish |grad|": at_resolution(h.meta["energy_min_grad_norm"], POLISH_RESOLUTION, ".0e")}
            for h in histories if h.cfg.weight_decay > 0]


def fast_clock_table(histories: Sequence[History]) -> list[dict]:
    """Assumption 3.4's margin growth and Theorem 3.5's log clock, per run without weight decay."""
    rows = []
    for h in plain_runs(histories):
        g, f = dc.margin_growth(h), dc.fast_clock_fits(h)
        rows.append({"run": run_label(h), "t0": g["t0"], "window end": g["t_end"],
                     "ν (line in t)": f"{g['linear'].slope:.2e}" if g["linear"] else "-",
                     "R² line in t": f"{g['linear'].r2:.3f}" if g["linear"] else "-",
                     "R² line in ln t": f"{g['log'].r2:.3f}" if g["log"] else "-",
                     "ν that holds": f"{g['nu_hold']:.1e}",
                     "T_cls per decade of ε": f"{f['log'].slope * np.log(10):.0f}" if f["log"] else "-",
                     "R² ln(1/ε)": f"{f['log'].r2:.3f}" if f["log"] else "-",
                     "power law T ∝ ε^-a: a": f"{f['power'].slope:.2f}" if f["power"] else "-",
                     "R² power": f"{f['power'].r2:.3f}" if f["power"] else "-"})
    return rows


def contraction_table(histories: Sequence[History]) -> list[dict]:
    """Proposition 3.6's one-step contraction, per run without weight decay: the loss's per-step rate μ at the fast
    window's start and end, the slowest over the median, and the steps where the loss rose between records."""
    rows = []
    for h in plain_runs(histories):
        r = dc.contraction_rates(h)
        seen = r["mu"].size > 0
        rows.append({"run": run_label(h), "intervals": int(r["mu"].size),
                     "μ at the start": f"{r['start']:.1e}" if seen else "-",
                     "μ at the end": f"{r['end']:.1e}" if seen else "-",
                     "median μ": f"{r['median']:.1e}" if seen else "-",
                     "slowest / median": f"{r['slowest']:.2f}" if seen else "-",
                     "rises": int((r["mu"] < 0).sum())})
    return rows


def slow_clock_table(histories: Sequence[History]) -> list[dict]:
    """The slow clock's power law against ln(1/η), θ, the tail rate and Prop. 4.3's errors, per decayed GD run."""
    rows = []
    for h in gd_decayed_runs(histories):
        s, tail = dc.slow_clock_fits(h), dc.tail_rate(h)
        fitted = s["power"] is not None  # a short run may not reach three levels of η: "-"
        rows.append({"run": run_label(h),
                     "power slope": f"{s['power'].slope:.3f} ± {s['power'].slope_se:.3f}" if fitted else "-",
                     "θ": f"{s['theta']:.2f}", "R² power": f"{s['power'].r2:.3f}" if fitted else "-",
                     "R² ln(1/η)": f"{s['log'].r2:.3f}" if fitted else "-",
                     "T_rep per decade of η": f"{s['log'].slope * np.log(10):.0f}" if fitted else "-",
                     "tail rate of Δ": f"{-tail.slope:.3e}" if tail else "-",
                     "2pλ·lr": f"{dc.predicted_tail_rate(h.cfg):.3e}",
                     "Prop 4.3 error": f"{drift_median_error(h, 'prop43'):.2g}",
                     "factored error": f"{drift_median_error(h, 'factored'):.2g}"})
    return rows


def separation_table(histories: Sequence[History]) -> list[dict]:
    """Every run's clock readings; below the floor the gap is rounding noise, and says so."""
    table = [dc.separation_row(h) for h in histories]
    for row in table:
        row["final gap"] = row["final gap"] if row["final gap"] > dc.GAP_FLOOR else f"< {dc.GAP_FLOOR:.0e}"
        row["final loss"] = row["final loss"] if row["final loss"] >= PRINT_FLOOR else f"< {PRINT_FLOOR:.0e}"
    return table


# --- figure regression -----------------------------------------------------------------------------
#: The steps at which the deep-linear curves are guarded.
DLN_STEPS = (100, 1000, 10_000, 30_000)


def _dln_tag(h: History) -> str:
    c = h.cfg
    return f"L={c.depth}/{c.optimizer}/wd={c.weight_decay:g}"


def _fit_values(prefix: str, fit) -> dict[str, float | None]:
    if fit is None:
        return {}
    return {f"{prefix}_slope": fit.slope, f"{prefix}_r2": fit.r2}


def dln_fast_clock(histories: Sequence[History]) -> dict[str, float | None]:
    """Fast-clock figure (lambda = 0 runs): margin and loss at fixed steps, T_cls levels, both fits."""
    values: dict[str, float | None] = {}
    for h in plain_runs(histories):
        tag = _dln_tag(h)
        values |= at_epochs(h, ("margin", "train_loss"), tag, DLN_STEPS)
        fits = dc.fast_clock_fits(h)
        for eps, t in zip(fits["eps"], fits["T"]):
            values[f"{tag}/T_cls({eps:.0e})"] = none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_log", fits["log"]) | _fit_values(f"{tag}/fit_power", fits["power"])
        g = dc.margin_growth(h)
        values |= _fit_values(f"{tag}/margin_line", g["linear"]) | _fit_values(f"{tag}/margin_log", g["log"])
    return values


def dln_slow_clock(histories: Sequence[History]) -> dict[str, float | None]:
    """Slow-clock figure (GD, lambda > 0): the gap at fixed steps (where above 1e-9), T_rep levels,
    both fits, the tail rate and Prop. 4.3's median errors."""
    values: dict[str, float | None] = {}
    for h in gd_decayed_runs(histories):
        tag = _dln_tag(h)
        gap = dc.gap(h)
        for step in DLN_STEPS:
            v = float(gap[max(int(np.searchsorted(h.steps, step, side="right")) - 1, 0)])
            values[f"{tag}/gap@{step}"] = v if v > dc.GAP_FLOOR else None  # below: floating-point floor
        fits = dc.slow_clock_fits(h)
        for eta, t in zip(fits["eta"], fits["T"]):
            values[f"{tag}/T_rep({eta:.0e})"] = none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_power", fits["power"]) | _fit_values(f"{tag}/fit_log", fits["log"])
        tail = dc.tail_rate(h)
        values[f"{tag}/tail_rate"] = None if tail is None else -tail.slope
        for name in ("prop43", "factored"):
            values[f"{tag}/drift_error_{name}"] = drift_median_error(h, name)
    return values


def dln_separation(histories: Sequence[History]) -> dict[str, float | None]:
    """Separation figure and table: every run's clock readings and final loss."""
    values: dict[str, float | None] = {}
    for h in histories:
        for name, v in dc.separation_row(h).items():
            if name == "final gap" and v <= dc.GAP_FLOOR:
                v = math.nan  # floating-point noise, not a value to guard
            if name.startswith("T_") or name in ("final loss", "final gap"):
                values[f"{_dln_tag(h)}/{name.replace(' ', '_')}"] = none_if_nan(float(v))
    return values
