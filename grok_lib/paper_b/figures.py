"""The key numbers of each Part B figure, computed once.

For every figure two kinds of function live here:

- ``<figure>_table(...)`` (and a few companion tables): the rows the notebook prints (nbval
  compares them, so values are rounded to stable digits);
- a regression reduction ``<figure>_numbers(histories)`` of the notebook's runs, for
  ``tests/figure_numbers/paper_b/<figure>.json`` (compared by :func:`grok_lib.figure_numbers.compare`:
  names starting ``T_`` are steps, names containing ``acc`` accuracies, the rest relative).

Each figure's chapter declaration (:mod:`grok_lib.paper_b.chapters`) names its reduction and the
notebook whose runs feed it. Every function takes a notebook's histories in the order its setup call
planned them (:mod:`grok_lib.paper_b.setup`) and picks its runs with :mod:`grok_lib.paper_b.selection`.
"""

from __future__ import annotations

import collections
import math
from typing import Sequence

import numpy as np

from ..figure_numbers import none_if_nan
from ..history import History
from ..tables import format_value
from . import measure, selection
from .thresholds import BRIDGE_ACC, KERNEL_WINDOW, PAPER_FIG1A_FRACTIONS
from .matrix_completion import target

#: Points of the clock lambda t / ln(alpha) at which curves are guarded (the nearest recorded step).
CLOCK_POINTS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
#: The paper's Fig. 1a: alpha, lambda, lr, transition start and end (steps), and ln(alpha) / lambda in steps.
PAPER_FIG1A = {"alpha": 128.0, "weight_decay": 1e-3, "lr": 0.01, "start": 1.7e5, "end": 3.6e5,
               "unit_steps": math.log(128.0) / (1e-3 * 0.01)}
#: The bridge's train fit: first recorded step with train accuracy >= this.
FIT_ACC = 0.99


# --- small readers ---------------------------------------------------------------------------------
def _attr(fit, name: str, scale: float = 1.0) -> float:
    return getattr(fit, name) * scale if fit is not None else math.nan

def _tag(h: History) -> str:
    return f"a={h.cfg.alpha:g},wd={h.cfg.weight_decay:g}"


def _r(x, digits: int = 3):
    """``x`` rounded (nan stays nan: printed as 'never')."""
    return round(float(x), digits) if x is not None and math.isfinite(float(x)) else math.nan


def _step(crossing) -> float:
    return float(crossing.step) if crossing else math.nan


def at_clock(h: History, metric: str, x: float) -> float:
    """``metric`` at the recorded step whose clock lambda t / ln(alpha) is nearest ``x``."""
    return float(h[metric][int(np.argmin(np.abs(measure.clock(h) - x)))])


def at_clocks(h: History, names: Sequence[str], points: Sequence[float] = CLOCK_POINTS) -> dict:
    """``tag/name@clock<x>`` for each name and clock point (None for NaN)."""
    return {f"{_tag(h)}/{name}@clock{x:g}": none_if_nan(at_clock(h, name, x)) for x in points for name in names}


def at_steps(h: History, names: Sequence[str], steps: Sequence[int]) -> dict:
    """``tag/name@<step>`` for each name at the last recorded step <= each step, and at the end."""
    return {f"{_tag(h)}/{name}@{s}": none_if_nan(h.at(name, s)) for s in (*steps, int(h.steps[-1])) for name in names}


# --- sparse classification (Fig. 1a) --------------------------------------------------------------
def step_size_table(histories: Sequence[History]) -> list[dict]:
    """How the step size was lowered: per run the cap lr, the smallest step taken at a recorded step, the
    first recorded step at the cap, and the continuous time and clock where the run ended."""
    rows = []
    for h in selection.sparse_runs(histories):
        lr = np.asarray(h["lr"])
        cap = float(h.cfg.lr)
        at_cap = h.steps[lr >= cap * (1 - 1e-12)]
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay, "steps": int(h.cfg.steps),
                     "lr cap": cap, "smallest step": float(f"{lr.min():.3g}"),
                     "at cap from step": int(at_cap[0]) if at_cap.size else math.nan,
                     "t at end": _r(measure.continuous_time(h)[-1], 1), "clock at end": _r(measure.clock(h)[-1])})
    return rows


def transition_row(h: History) -> dict:
    tr = measure.accuracy_transition(h)
    s, e = tr.fractions
    return {"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
            "ln(a)/l (t)": _r(measure.clock_unit(h.cfg), 1),
            "ln(a)/l (steps at cap)": int(round(measure.clock_unit(h.cfg) / float(h.cfg.lr))),
            "start step": _step(tr.start), "end step": _step(tr.end), "start frac": _r(s), "end frac": _r(e)}


def transition_table(histories: Sequence[History]) -> list[dict]:
    """Per sparse run: ln(alpha) / lambda, the transition's start / end (first test accuracy >= 0.6 / >= 0.9)
    as steps and as fractions of ln(alpha) / lambda."""
    return [transition_row(h) for h in selection.sparse_runs(histories)]


def paper_table(histories: Sequence[History]) -> list[dict]:
    """The paper's Fig. 1a numbers beside this book's runs at the profile's alpha (every lambda)."""
    p = PAPER_FIG1A
    rows = [{"source": "paper, Fig. 1a", "alpha": p["alpha"], "lambda": p["weight_decay"], "lr": p["lr"],
             "ln(a)/l (steps)": float(f"{p['unit_steps']:.3g}"), "start step": p["start"], "end step": p["end"],
             "start frac": _r(PAPER_FIG1A_FRACTIONS[0]), "end frac": _r(PAPER_FIG1A_FRACTIONS[1])}]
    _, lambda_sweep = selection.split_sparse(histories)
    for h in lambda_sweep:
        r = transition_row(h)
        rows.append({"source": "this book", "alpha": r["alpha"], "lambda": r["lambda"], "lr": float(h.cfg.lr),
                     "ln(a)/l (steps)": r["ln(a)/l (steps at cap)"], "start step": r["start step"],
                     "end step": r["end step"], "start frac": r["start frac"], "end frac": r["end frac"]})
    return rows


def window_table(histories: Sequence[History]) -> list[dict]:
    """The window (1 +- c) ln(alpha) / lambda fitted to the alpha sweep, the fractions' limit for alpha -> infinity,
    and the slopes of the end time against ln(alpha) and 1 / lambda, each beside the theory's value."""
    alpha_sweep, lambda_sweep = selection.split_sparse(histories)
    fr = [measure.accuracy_transition(h).fractions for h in alpha_sweep]
    win = measure.window_fit([f[0] for f in fr], [f[1] for f in fr])
    big = [h for h in alpha_sweep if h.cfg.alpha > 1]
    ls, le = measure.try_fit(measure.fraction_limits, big) or (None, None)
    lam = float(alpha_sweep[0].cfg.weight_decay)
    alpha = float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    return [
        {"quantity": "window c (smallest holding every run)", "measured": _r(win.c), "theory": "any c in (0, 1)"},
        {"quantity": "mean midpoint (start+end)/2", "measured": _r(win.center), "theory": "1 (alpha -> inf)"},
        {"quantity": "mean half width (end-start)/2", "measured": _r(win.half_width), "theory": "0 (alpha -> inf)"},
        {"quantity": "start fraction at 1/ln(a) = 0", "measured": _r(_attr(ls, "intercept")), "theory": "1"},
        {"quantity": "end fraction at 1/ln(a) = 0", "measured": _r(_attr(le, "intercept")), "theory": "1"},
        {"quantity": "start: slope in 1/ln(a)", "measured": _r(_attr(ls, "slope")), "theory": "(finite-alpha offset)"},
        {"quantity": "end: slope in 1/ln(a)", "measured": _r(_attr(le, "slope")), "theory": "(finite-alpha offset)"},
        {"quantity": f"end time t vs ln(a): slope x lambda ({lam:g})", "measured": _r(_attr(fa, "slope", lam)),
         "theory": "1"},
        {"quantity": f"end time t vs 1/lambda: slope / ln(a) ({alpha:g})",
         "measured": _r(_attr(fl, "slope", 1 / math.log(alpha)) if alpha > 1 else math.nan), "theory": "1"},
    ]


def fig1a_sparse_numbers(histories: Sequence[History]) -> dict:
    """Fig. 1a: the focus run's accuracies and losses, and every alpha run's norm, at clock points."""
    alpha_sweep, lambda_sweep = selection.split_sparse(histories)
    values = at_clocks(selection.focus_run(alpha_sweep, lambda_sweep), ("train_acc", "test_acc", "train_loss", "test_loss"))
    for h in alpha_sweep:
        values |= at_clocks(h, ("norm",))
    return values


def sparse_sweeps_numbers(histories: Sequence[History]) -> dict:
    """The sweeps: every run's test accuracy at clock points and its transition steps."""
    values = {}
    for h in selection.sparse_runs(histories):
        values |= at_clocks(h, ("test_acc",))
        tr = measure.accuracy_transition(h)
        values[f"{_tag(h)}/T_start"] = none_if_nan(_step(tr.start))
        values[f"{_tag(h)}/T_end"] = none_if_nan(_step(tr.end))
    return values


def sparse_transition_numbers(histories: Sequence[History]) -> dict:
    """The transition figure: fractions per run, the window, the limits and the slopes."""
    values = {}
    for h in selection.sparse_runs(histories):
        s, e = measure.accuracy_transition(h).fractions
        values[f"{_tag(h)}/start_frac"], values[f"{_tag(h)}/end_frac"] = none_if_nan(s), none_if_nan(e)
    for row in window_table(histories):
        values[f"window/{row['quantity']}"] = none_if_nan(row["measured"])
    return values


# --- kernel vs rich: the margin classifiers ----------------------------------------------------------
def margin_table(histories: Sequence[History]) -> list[dict]:
    """The max-L2 and max-L1 margin classifiers of each data set (computed from the data, not from training)."""
    rows = []
    for name, h in (("sparse", selection.sparse_runs(histories)[0]), ("misgrokking", selection.misgrokking_run(histories))):
        m = h.meta
        for norm in ("l2", "l1"):
            rows.append({"data": name, "classifier": f"max-{norm.upper()} margin", "margin": _r(m[f"{norm}_margin"], 4),
                         "train acc": _r(m[f"{norm}_train_acc"]), "test acc": _r(m[f"{norm}_test_acc"]),
                         "cos(L1, L2)": _r(m["cos_l1_l2"])})
    return rows


def regime_row(h: History) -> dict:
    lo, hi = KERNEL_WINDOW
    return {"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
            "cos L2 early": _r(measure.value_in_clock(h, "cos_l2", lo, hi)), "cos L2 end": _r(h.final("cos_l2")),
            "cos L1 early": _r(measure.value_in_clock(h, "cos_l1", lo, hi)), "cos L1 end": _r(h.final("cos_l1")),
            "cos w* end": _r(h.final("cos_star")),
            "net test early": _r(measure.value_in_clock(h, "test_acc", lo, hi)), "L2 test": _r(h.meta["l2_test_acc"]),
            "net test end": _r(h.final("test_acc")), "L1 test": _r(h.meta["l1_test_acc"])}


def regime_table(histories: Sequence[History]) -> list[dict]:
    """Per sparse run and the misgrokking run: cosines of beta with each classifier early (kernel window of
    the clock) and at the end, and the net's test accuracy beside the classifiers'."""
    return [regime_row(h) for h in [*selection.sparse_runs(histories), selection.misgrokking_run(histories)]]


def misgrokking_table(histories: Sequence[History]) -> list[dict]:
    """The misgrokking run: test accuracy early, at its peak and at the end, and when it fell below 0.9 / 0.75."""
    h = selection.misgrokking_run(histories)
    peak = int(np.argmax(h["test_acc"]))
    rows = [{"reading": "test acc, kernel window (median)", "value": _r(measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW))},
            {"reading": "test acc, peak", "value": _r(h["test_acc"][peak])},
            {"reading": "step of the peak", "value": int(h.steps[peak])},
            {"reading": "test acc, end", "value": _r(h.final("test_acc"))},
            {"reading": "clock at the end", "value": _r(measure.clock(h)[-1])}]
    for level in (0.9, 0.75):
        c = measure.first_crossing(h, "test_acc", level, above=False, after_step=int(h.steps[peak]))
        rows.append({"reading": f"first step after the peak with test acc <= {level}", "value": _step(c)})
        rows.append({"reading": "  its clock", "value": _r(c.fraction) if c else math.nan})
    return rows


#: The test accuracies at which the misgrokking tables read the fall (first recorded step at or below, after the peak).
MISGROK_FALL_LEVELS = (0.9, 0.75)


def misgrokking_seeds_table(histories: Sequence[History]) -> list[dict]:
    """Misgrokking runs at several data seeds (the recorded paper-scale set): per seed the margin classifiers'
    test accuracies beside the net's early (kernel window), at its peak and at the end, the clock where it
    first fell to <= 0.9 and <= 0.75 after its peak, the clock and step at the end, and the cosines."""
    rows = []
    for h in histories:
        peak = int(np.argmax(h["test_acc"]))
        falls = {level: measure.first_crossing(h, "test_acc", level, above=False, after_step=int(h.steps[peak]))
                 for level in MISGROK_FALL_LEVELS}
        rows.append({"data seed": int(h.cfg.data_seed), "L2 test": _r(h.meta["l2_test_acc"]),
                     "L1 test": _r(h.meta["l1_test_acc"]),
                     "net test early": _r(measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)),
                     "net test peak": _r(h["test_acc"][peak]), "net test end": _r(h.final("test_acc")),
                     **{f"clock <= {level:g}": _r(falls[level].fraction) if falls[level] else math.nan
                        for level in MISGROK_FALL_LEVELS},
                     "clock at end": _r(measure.clock(h)[-1]), "steps": int(h.steps[-1]),
                     "cos L2 early": _r(measure.value_in_clock(h, "cos_l2", *KERNEL_WINDOW)),
                     "cos L1 end": _r(h.final("cos_l1"))})
    return rows


def matrix_completion_compare(here: History, paper: History) -> list[dict]:
    """:func:`matrix_completion_table`'s readings of two runs side by side (a notebook's own run and the recorded run
    at the paper's settings), with their lambda, step size, steps and ln(alpha) / lambda in steps first."""
    def head(h: History) -> list[dict]:
        c = h.cfg
        return [{"reading": "lambda", "value": c.weight_decay}, {"reading": "step size", "value": c.lr},
                {"reading": "steps", "value": int(h.steps[-1])},
                {"reading": "ln(alpha) / lambda, in steps", "value": int(round(measure.clock_unit(c) / float(c.lr)))}]

    a, b = (head(h) + matrix_completion_table([h]) for h in (here, paper))
    return [{"reading": x["reading"], "this page's run": x["value"], "paper's settings": y["value"]} for x, y in zip(a, b)]


def margins_sparse_numbers(histories: Sequence[History]) -> dict:
    """Kernel vs rich on sparse data: cosines at clock points for every sparse run, and the classifiers."""
    values = {}
    for h in selection.sparse_runs(histories):
        values |= at_clocks(h, ("cos_l2", "cos_l1", "cos_star"))
    m = selection.sparse_runs(histories)[0].meta
    values |= {f"sparse/{k}": m[k] for k in ("l2_margin", "l1_margin", "l2_test_acc", "l1_test_acc", "cos_l1_l2")}
    return values


def misgrokking_numbers(histories: Sequence[History]) -> dict:
    """Misgrokking: accuracies and cosines at clock points, and the classifiers."""
    h = selection.misgrokking_run(histories)
    values = at_clocks(h, ("train_acc", "test_acc", "cos_l2", "cos_l1", "cos_star"), (*CLOCK_POINTS, 2.4))
    values |= {f"misgrokking/{k}": h.meta[k] for k in ("l2_margin", "l1_margin", "l2_test_acc", "l1_test_acc",
                                                       "cos_l1_l2")}
    return values


# --- matrix completion -----------------------------------------------------------------------------------
def matrix_completion_table(histories: Sequence[History]) -> list[dict]:
    """The run's readings: the kernel plateau, the transition on the clock, the recovery."""
    h = selection.matrix_completion_run(histories)
    t = measure.continuous_time(h)
    fit = np.flatnonzero(h["train_mse"] <= 0.01 * h["train_mse"][0])
    tr = measure.drop_transition(h)
    s, e = tr.fractions
    target_rms = float(np.sqrt(np.mean(target(int(h.cfg.d)) ** 2)))
    lo, hi = KERNEL_WINDOW
    return [
        {"reading": "observed entries |Omega|", "value": h.meta["n_observed"]},
        {"reading": "train MSE <= 1% of initial: first step", "value": int(h.steps[fit[0]]) if fit.size else math.nan},
        {"reading": "  its continuous time t", "value": _r(t[fit[0]], 2) if fit.size else math.nan},
        {"reading": "max RMS of W off Omega u Omega^T / RMS(X*), clock <= 0.5",
         "value": float(f"{measure.value_in_clock(h, 'far_rms', 0.0, 0.5, np.max) / target_rms:.3g}")},
        {"reading": "test MSE, kernel plateau (clock 0.1)", "value": _r(measure.plateau(h), 4)},
        {"reading": "test MSE of predicting 0 (the init)", "value": _r(h.meta["zero_test_mse"], 4)},
        {"reading": "10% drop from the plateau: step", "value": _step(tr.start)},
        {"reading": "  its clock", "value": _r(s)},
        {"reading": "90% drop from the plateau: step", "value": _step(tr.end)},
        {"reading": "  its clock", "value": _r(e)},
        {"reading": "test MSE, end", "value": _r(h.final("test_mse"), 4)},
        {"reading": "stable rank, kernel window (median) -> end",
         "value": f"{measure.value_in_clock(h, 'stable_rank', lo, hi):.2f} -> {h.final('stable_rank'):.2f}"},
        {"reading": "nuclear norm, kernel window (median) -> end (X*: target)",
         "value": f"{measure.value_in_clock(h, 'nuclear', lo, hi):.1f} -> {h.final('nuclear'):.1f} "
                  f"({h.meta['target_nuclear']:.1f})"},
        {"reading": "clock at the end of the run", "value": _r(measure.clock(h)[-1])},
    ]


def matrix_completion_numbers(histories: Sequence[History]) -> dict:
    """Matrix completion: the errors, the off-support RMS, nuclear norm and stable rank at clock points; the
    drop transition's steps."""
    h = selection.matrix_completion_run(histories)
    values = at_clocks(h, ("train_mse", "test_mse", "far_rms", "nuclear", "stable_rank"),
                       (*CLOCK_POINTS, 3.0, 4.0))
    tr = measure.drop_transition(h)
    values["mc/T_drop10"], values["mc/T_drop90"] = none_if_nan(_step(tr.start)), none_if_nan(_step(tr.end))
    return values


# --- modular addition (Paper B's MLP) ------------------------------------------------------------------
MODADD_STEPS = (0, 500, 1000, 1500, 2000, 3000)


def modadd_table(histories: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per run of both sweeps (of ``seed``; None: the first): the transition steps and times, ln(alpha) / lambda,
    the end on the clock."""
    alpha_sweep, lambda_sweep = selection.split_modadd(histories, seed)
    rows = []
    for h in selection.unique([*alpha_sweep, *lambda_sweep]):
        tr = measure.accuracy_transition(h)
        unit = measure.clock_unit(h.cfg)
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
                     "train acc 1 at": _step(measure.first_crossing(h, "train_acc", 1.0)),
                     "start step": _step(tr.start), "end step": _step(tr.end),
                     "end t": _r(tr.end.t, 1) if tr.end else math.nan,
                     "ln(a)/l (t)": _r(unit, 0) if math.isfinite(unit) else "n/a",
                     "end frac": _r(tr.fractions[1]) if math.isfinite(unit) else "n/a",
                     "final test acc": _r(h.final("test_acc"))})
    return rows


def modadd_shift_table(histories: Sequence[History]) -> list[dict]:
    """Between consecutive alphas of the alpha sweep: the shift of the end time t against the clock's
    prediction ln(alpha2 / alpha1) / lambda (the offset-free reading of the ln(alpha) law)."""
    alpha_sweep, _ = selection.split_modadd(histories)
    times = measure.transition_times(alpha_sweep)
    rows = []
    for (h1, t1), (h2, t2) in zip(zip(alpha_sweep, times), list(zip(alpha_sweep, times))[1:]):
        a1, a2, lam = float(h1.cfg.alpha), float(h2.cfg.alpha), float(h1.cfg.weight_decay)
        pred = math.log(a2 / a1) / lam
        rows.append({"alpha": f"{a1:g} -> {a2:g}", "shift of end t": _r(t2 - t1, 1),
                     "ln(a2/a1)/lambda": _r(pred, 0), "ratio": _r((t2 - t1) / pred)})
    return rows


def modadd_fit_table(histories: Sequence[History]) -> list[dict]:
    """The end time t against ln(alpha) and against 1 / lambda: fitted slope, its theory value, R^2."""
    alpha_sweep, lambda_sweep = selection.split_modadd(histories)
    lam, alpha = float(alpha_sweep[0].cfg.weight_decay), float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    log_a = math.log(alpha) if alpha > 1 else math.nan
    return [{"fit": f"t vs ln(a) at lambda {lam:g}", "slope": _r(_attr(fa, "slope"), 1),
             "+-": _r(_attr(fa, "slope_se"), 1), "theory slope": _r(1 / lam, 1), "ratio": _r(_attr(fa, "slope", lam)),
             "R^2": _r(_attr(fa, "r2")), "runs": fa.n if fa else 0},
            {"fit": f"t vs 1/lambda at alpha {alpha:g}", "slope": _r(_attr(fl, "slope"), 3),
             "+-": _r(_attr(fl, "slope_se"), 3), "theory slope": _r(log_a, 3), "ratio": _r(_attr(fl, "slope") / log_a),
             "R^2": _r(_attr(fl, "r2")), "runs": fl.n if fl else 0}]


def modadd_sweeps_numbers(histories: Sequence[History]) -> dict:
    """Modular addition: accuracies and losses at fixed steps, and the transition steps, per run."""
    values = {}
    for h in selection.unique([*selection.split_modadd(histories)[0], *selection.split_modadd(histories)[1]]):
        values |= at_steps(h, ("train_acc", "test_acc", "test_loss", "norm"), MODADD_STEPS)
        tr = measure.accuracy_transition(h)
        values[f"{_tag(h)}/T_start"], values[f"{_tag(h)}/T_end"] = none_if_nan(_step(tr.start)), none_if_nan(_step(tr.end))
    return values


def modadd_fits_numbers(histories: Sequence[History]) -> dict:
    """Modular addition: the two fits."""
    values = {}
    for row in modadd_fit_table(histories):
        for k in ("slope", "ratio", "R^2"):
            values[f"{row['fit']}/{k}"] = none_if_nan(row[k])
    return values


# --- the bridge to Part A ---------------------------------------------------------------------------------
BRIDGE_STEPS = (0, 100, 200, 400, 800, 1200, 1600, 2000, 2400, 2800)


def bridge_table(histories: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per bridge run (of ``seed``; None: the first): the train fit and grokking steps, their delays against
    alpha = 1 at the same lambda, the shrinking clock ln(alpha) / (lambda lr) and Adam's memory
    4 ln(alpha) / (1 - beta2), in steps."""
    runs = selection.bridge_runs(histories, seed)
    delays = {(d.alpha, d.weight_decay): d for d in measure.delays(runs, BRIDGE_ACC)}
    fits = {(d.alpha, d.weight_decay): d for d in measure.delays(runs, FIT_ACC, "train_acc")}
    rows = []
    for h in runs:
        key = (float(h.cfg.alpha), float(h.cfg.weight_decay))
        g, f = delays[key], fits[key]
        rows.append({"lambda": key[1], "alpha": key[0], "fit step": f.step, "grok step": g.step,
                     "fit delay": f.delay, "grok delay": g.delay,
                     "ln(a)/(l lr)": _r(g.predicted, 0),
                     "4 ln(a)/(1-b2)": _r(4 * math.log(key[0]) / (1 - float(h.cfg.beta2)), 0),
                     "grok delay / ln(a)/(l lr)": _r(g.delay / g.predicted, 2) if key[0] > 1 else "n/a",
                     "final test acc": _r(h.final("test_acc"))})
    return rows


def seeds_table(tables: dict, keys: Sequence[str], columns: Sequence[str]) -> list[dict]:
    """One per-run table at several seeds (``{seed: rows}``, the same rows in the same order) merged: the
    ``keys`` columns, then each of ``columns`` as its values at the seeds, "seed 0 / seed 1 / ..."."""
    seeds = ", ".join(str(s) for s in tables)
    rows = []
    for same in zip(*tables.values()):
        row = {k: same[0][k] for k in keys}
        row |= {f"{c} (seeds {seeds})": " / ".join(format_value(r[c]) for r in same) for c in columns}
        rows.append(row)
    return rows


def bridge_seeds_table(histories: Sequence[History]) -> list[dict]:
    """The bridge's train-fit and grokking steps and delays at every seed."""
    seeds = selection.seeds([h for h in histories if h.meta.get("model") == "paper_b.init_scale"])
    return seeds_table({s: bridge_table(histories, s) for s in seeds}, ("lambda", "alpha"),
                       ("fit step", "grok step", "grok delay"))


def modadd_seeds_table(histories: Sequence[History]) -> list[dict]:
    """Modular addition's transition end steps and end times at every seed."""
    seeds = selection.seeds([h for h in histories if h.meta.get("model") == "paper_b.modadd"])
    return seeds_table({s: modadd_table(histories, s) for s in seeds}, ("alpha", "lambda"),
                       ("end step", "end t", "final test acc"))


def bridge_delay_rows(histories: Sequence[History]) -> list[dict]:
    """The rows :func:`grok_lib.paper_b.plots.delay_panel` draws."""
    runs = selection.bridge_runs(histories)
    by = {(float(h.cfg.alpha), float(h.cfg.weight_decay)): h for h in runs}
    return [r | {"lr": float(by[(r["alpha"], r["lambda"])].cfg.lr),
                 "beta2": float(by[(r["alpha"], r["lambda"])].cfg.beta2), "weight_decay": r["lambda"]}
            for r in bridge_table(histories)]


def bridge_fit_table(histories: Sequence[History]) -> list[dict]:
    """Per lambda: least-squares slopes through the origin of the grokking and train-fit delays against the
    shrinking clock ln(alpha) / (lambda lr) and against Adam's memory 4 ln(alpha) / (1 - beta2) (alpha > 1)."""
    runs = selection.bridge_runs(histories)
    beta2 = {(float(h.cfg.alpha), float(h.cfg.weight_decay)): float(h.cfg.beta2) for h in runs}
    groks = [d for d in measure.delays(runs, BRIDGE_ACC) if d.alpha > 1]
    fits = [d for d in measure.delays(runs, FIT_ACC, "train_acc") if d.alpha > 1]
    rows = []
    for lam in sorted({d.weight_decay for d in groks}):
        row = {"lambda": lam}
        for name, ds in (("grok", groks), ("fit", fits)):
            mine = [d for d in ds if d.weight_decay == lam]
            memory = [4 * math.log(d.alpha) / (1 - beta2[(d.alpha, lam)]) for d in mine]
            row[f"{name} / ln(a)/(l lr)"] = _r(measure.slope_through_origin([d.predicted for d in mine],
                                                                             [d.delay for d in mine]), 2)
            row[f"{name} / 4 ln(a)/(1-b2)"] = _r(measure.slope_through_origin(memory, [d.delay for d in mine]), 2)
        rows.append(row)
    return rows


def init_scale_numbers(histories: Sequence[History]) -> dict:
    """The bridge: accuracies, norm and Adam's step at fixed steps; fit and grokking steps, per run."""
    values = {}
    for h in selection.bridge_runs(histories):
        values |= at_steps(h, ("train_acc", "test_acc", "norm", "adam_step"), BRIDGE_STEPS)
    for r in bridge_table(histories):
        tag = f"a={r['alpha']:g},wd={r['lambda']:g}"
        values[f"{tag}/T_fit"], values[f"{tag}/T_grok"] = none_if_nan(r["fit step"]), none_if_nan(r["grok step"])
    return values


# --- what the MLP chapters' prose states (glued into the pages: measured, never typed) ----------------------
def _shown(x, fmt: str = ",.0f") -> str:
    """A number as the prose shows it ("never" for NaN, a table's text as it is)."""
    if isinstance(x, str):
        return x
    return "never" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:{fmt}}"


def _order_phrase(values: Sequence[float], rising: str, falling: str, neither: str) -> str:
    finite = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if len(finite) < len(values) or len(finite) < 2:
        return neither
    if all(b > a for a, b in zip(finite, finite[1:])):
        return rising
    if all(b < a for a, b in zip(finite, finite[1:])):
        return falling
    return neither


def modadd_reading(histories: Sequence[History]) -> dict[str, str]:
    """The numbers and orderings the modular-addition page states about its figure (the first seed's runs), and
    the spread over seeds, as Markdown for :func:`grok_lib.display.glue`."""
    alpha_sweep, lambda_sweep = selection.split_modadd(histories)
    rows = {(r["alpha"], r["lambda"]): r for r in modadd_table(histories)}
    a_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in alpha_sweep]
    l_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in lambda_sweep]
    fit_a, fit_l = modadd_fit_table(histories)
    shifts = modadd_shift_table(histories)
    fits = [r["train acc 1 at"] for r in rows.values()]
    fracs = [r["end frac"] for r in rows.values() if r["end frac"] != "n/a"]  # none without an alpha > 1
    seeds = selection.seeds([h for h in histories if h.meta.get("model") == "paper_b.modadd"])
    return {
        "ma_first": _shown(min(r["start step"] for r in rows.values())),
        "ma_last": _shown(max(r["end step"] for r in rows.values())),
        "ma_lambda_order": _order_phrase([r["end step"] for r in l_rows], "the larger λ, the later",
                                         "the larger λ, the earlier", "in no simple order of λ"),
        "ma_lambda_fracs": ", ".join(_shown(r["end frac"], ".2f") for r in l_rows),
        "ma_lambda_frac_order": _order_phrase([r["end frac"] for r in l_rows], "later on the clock for larger λ",
                                              "earlier on the clock for larger λ", "in no order of λ on the clock"),
        "ma_alpha_ends": ", ".join(f"{_shown(r['end step'])} (α = {r['alpha']:g})" for r in a_rows),
        "ma_alpha_frac_order": _order_phrase([r["end frac"] for r in a_rows if r["end frac"] != "n/a"],
                                             "move away from it as α grows", "move toward it as α grows",
                                             "do not move steadily toward it"),
        "ma_alpha_fracs": " → ".join(_shown(r["end frac"], ".2f") for r in a_rows if r["end frac"] != "n/a"),
        "ma_fracs_range": f"{_shown(min(fracs, default=math.nan), '.2f')}–{_shown(max(fracs, default=math.nan), '.2f')}",
        "ma_r2_lambda": _shown(fit_l["R^2"], ".3f"), "ma_slope_lambda": _shown(fit_l["slope"], ".2f"),
        "ma_ratio_lambda": _shown(fit_l["ratio"], ".2f"),
        "ma_ratio_alpha": _shown(fit_a["ratio"], ".2f"), "ma_r2_alpha": _shown(fit_a["R^2"], ".2f"),
        "ma_se_alpha": _shown(fit_a["+-"] / fit_a["theory slope"], ".2f") if isinstance(fit_a["+-"], float) else "n/a",
        "ma_shifts": "; ".join(f"{r['alpha'].replace('->', 'to')}: Δt = {_shown(r['shift of end t'])}, "
                               f"{_shown(r['ratio'], '.2f')} of ln(α₂/α₁)/λ = {_shown(r['ln(a2/a1)/lambda'])}"
                               for r in shifts),
        "ma_fit_range": f"{_shown(min(fits))}–{_shown(max(fits))}",
        "ma_seeds": f"{len(seeds)}",
    }


def bridge_reading(histories: Sequence[History]) -> dict[str, str]:
    """The numbers and orderings the bridge page states (the first seed's runs, as its figure; the spread over
    seeds), as Markdown for :func:`grok_lib.display.glue`."""
    rows = bridge_table(histories)
    lams = sorted({r["lambda"] for r in rows})
    by_lam = {lam: sorted((r for r in rows if r["lambda"] == lam), key=lambda r: r["alpha"]) for lam in lams}
    # per lambda (none where the runs have no alpha > 1: every fit then reads "n/a")
    fit = collections.defaultdict(dict, {r["lambda"]: r for r in bridge_fit_table(histories)})
    ordered = [lam for lam in lams if _order_phrase([r["grok step"] for r in by_lam[lam]], "up", "down", "") == "up"]
    alphas = [r["alpha"] for r in by_lam[lams[0]]][1:]
    lo, hi = lams[0], lams[-1]
    ratio = [a["grok delay"] / b["grok delay"] if b["grok delay"] else math.nan
             for a, b in zip(by_lam[lo][1:], by_lam[hi][1:])]
    seeds = selection.seeds([h for h in histories if h.meta.get("model") == "paper_b.init_scale"])
    tables = {s: bridge_table(histories, s) for s in seeds}
    finite = lambda c, i: [t[i][c] for t in tables.values() if math.isfinite(t[i][c])]  # noqa: E731 (never: NaN)
    spread = {c: max((max(v) - min(v) for i in range(len(rows)) if (v := finite(c, i))), default=math.nan)
              for c in ("fit step", "grok step")}
    out = {
        "br_moves": "; ".join(f"from {_shown(by_lam[lam][0]['grok step'])} to {_shown(by_lam[lam][-1]['grok step'])} "
                              f"at λ = {lam:g}" for lam in lams),
        "br_order": ("later for every larger α at every λ" if ordered == lams else
                     f"later for every larger α only at λ = {', '.join(f'{x:g}' for x in ordered)}" if ordered else
                     "not later for every larger α at any λ"),
        "br_slopes": ", ".join(f"{_shown(fit[lam].get('grok / ln(a)/(l lr)', 'n/a'), '.2f')} (λ = {lam:g})"
                               for lam in lams),
        "br_lambda_pred": _shown(hi / lo, ".2f"), "br_lo": f"{lo:g}", "br_hi": f"{hi:g}",
        "br_lambda_measured": ", ".join(_shown(x, ".2f") for x in ratio),
        "br_alphas": ", ".join(f"{a:g}" for a in alphas),
        "br_memory": ", ".join(_shown(r["4 ln(a)/(1-b2)"]) for r in by_lam[lo][1:]),
        "br_fit_memory": ", ".join(f"{_shown(fit[lam].get('fit / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                   for lam in lams),
        "br_grok_memory": ", ".join(f"{_shown(fit[lam].get('grok / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                    for lam in lams),
        "br_seeds": f"{len(seeds)}",
        "br_spread_grok": _shown(spread["grok step"]), "br_spread_fit": _shown(spread["fit step"]),
        "br_spread_compare": ("less" if spread["fit step"] < spread["grok step"] else "no less"),
    }
    return out


def modadd_claim_reading(histories: Sequence[History], clock_runs: Sequence[History]) -> dict[str, str]:
    """What the modular-addition page states about B.modadd.alpha_order and B.modadd.clock, judged over seeds as the
    claims are (``clock_runs``: the claim-only alphas), as Markdown for :func:`grok_lib.display.glue`."""
    from . import checks

    seeds = selection.seeds([h for h in histories if h.meta.get("model") == "paper_b.modadd"])
    sweeps = [selection.split_modadd(histories, s) for s in seeds]
    alphas = [h.cfg.alpha for h in sweeps[0][0]]
    steps = [[_step(measure.accuracy_transition(h).end) for h in a] for a, _ in sweeps]
    orders = checks.pair_orders(steps)
    clock_sweeps = [selection.unique([*a, *(h for h in clock_runs if h.cfg.data_seed == s
                                           and h.cfg.weight_decay == a[0].cfg.weight_decay)])
                    for s, (a, _) in zip(seeds, sweeps)]
    slopes = [measure.try_fit(checks.clock_slopes, c, l) for c, (_, l) in zip(clock_sweeps, sweeps)]
    by_alpha, by_lambda = ([s[i] if s else math.nan for s in slopes] for i in (0, 1))
    # the offset-free shift between consecutive alphas > 1, per seed, as a share of ln(a2 / a1) / lambda
    shifts = []
    for a1, a2 in zip(alphas, alphas[1:]):
        if a1 <= 1:
            continue
        per_seed = [(t[alphas.index(a2)] - t[alphas.index(a1)]) * float(a[0].cfg.lr)
                    / (math.log(a2 / a1) / float(a[0].cfg.weight_decay)) for t, (a, _) in zip(steps, sweeps)]
        shifts.append(f"{a1:g} to {a2:g}: " + ", ".join(_shown(x, ".2f") for x in per_seed)
                      + f" (mean {_shown(measure.mean_se(per_seed)[0], '.2f')})")
    extra = sorted({h.cfg.alpha for h in clock_runs})
    extra_steps = "; ".join(f"α = {a:g}: " + " / ".join(_shown(_step(measure.accuracy_transition(h).end))
                                                         for h in clock_runs if h.cfg.alpha == a) for a in extra)

    def mean_pm(values):
        mean, se, _ = measure.mean_se(values)
        return f"{_shown(mean, '.2f')} ± {_shown(se, '.2f')}"

    return {
        "ma_order_pairs": "; ".join(f"{a:g} → {b:g}: {o + ' at every seed' if o != 'mixed' else 'mixed (not the same at every seed)'}"
                                    for a, b, o in zip(alphas, alphas[1:], orders)),
        "ma_clock_alphas": ", ".join(f"{a:g}" for a in sorted({h.cfg.alpha for c in clock_sweeps for h in c if h.cfg.alpha > 1})),
        "ma_extra_alphas": ", ".join(f"{a:g}" for a in extra) or "none",
        "ma_extra_steps": extra_steps or "none",
        "ma_clock_alpha_seeds": ", ".join(_shown(x, ".2f") for x in by_alpha),
        "ma_clock_alpha_mean": mean_pm(by_alpha),
        "ma_clock_lambda_seeds": ", ".join(_shown(x, ".2f") for x in by_lambda),
        "ma_clock_lambda_mean": mean_pm(by_lambda),
        "ma_shift_seeds": "; ".join(shifts) or "none (no two alphas > 1)",
        "ma_seed_list": ", ".join(f"{s}" for s in seeds),
    }
