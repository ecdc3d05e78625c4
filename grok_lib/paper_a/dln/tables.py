"""The deep-linear sweep's members and their readings as table rows (the theory chapter's tables): which runs the
fast clock, the slow clock and the separation read, and per run eq. 2.7 and Lemma 3.1, Assumption 3.4 and Theorem
3.5's fits, Proposition 3.6's contraction, the slow clock's fits and the separation. Rounding noise is printed as a
bound, never as digits. The chapter that grades and plots them is
:mod:`grok_lib.paper_a.chapters.deep_linear_clocks`."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...history import History
from ...tables import at_resolution, PRINT_FLOOR
from . import clocks as dc
from .clocks import drift_median_error, lemma31_ratio, run_label, schatten_excess


def plain_runs(histories: Sequence[History]) -> list[History]:
    """The runs without weight decay, GD then AdamW (the fast clock alone)."""
    return [h for opt in ("gd", "adamw") for h in histories
            if h.cfg.optimizer == opt and h.cfg.weight_decay == 0]


def gd_decayed_runs(histories: Sequence[History]) -> list[History]:
    """The GD runs with weight decay (the slow clock: the theory's setting)."""
    return [h for h in histories if h.cfg.optimizer == "gd" and h.cfg.weight_decay > 0]


def separation_runs(histories: Sequence[History], weight_decay: float = 1e-3) -> list[History]:
    """The GD runs at one weight decay, one per depth (the separation figure)."""
    return [h for h in gd_decayed_runs(histories) if h.cfg.weight_decay == weight_decay]


def focus_depth(histories: Sequence[History]) -> int:
    """The depth the chapter follows: 2, its running example; a sweep without depth 2 shows its first depth."""
    return 2 if any(h.cfg.depth == 2 for h in histories) else histories[0].cfg.depth


#: Below this a Schatten excess is rounding noise of the run's float64 products (its sign and
#: digits change with the CPU's arithmetic): printed as "< 1e-09", never as digits.
EXCESS_RESOLUTION = 1e-9


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
