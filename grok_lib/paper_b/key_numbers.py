"""The key numbers of the diagonal-net chapters' figures (sparse classification, kernel vs rich, matrix
completion), computed once, and the small readers the other figure modules share.

For every figure two kinds of function live here:

- ``<figure>_table(...)`` (and a few companion tables): the rows the notebook prints (nbval
  compares them, so values are rounded to stable digits);
- a regression reduction ``<figure>_numbers(runs)`` of the notebook's runs, which the book's run writes into
  the figure's data file ``book/figure_files/paper_b/<figure>.json`` (compared by :func:`grok_lib.figure_numbers.compare`:
  names starting ``T_`` are steps, names containing ``acc`` accuracies, the rest relative).

The MLP chapters' tables and reductions (modular addition, the bridge to Part A) are in
:mod:`grok_lib.paper_b.mlp_numbers`; the numbers the pages' prose quotes in :mod:`grok_lib.paper_b.readings`.
Each figure's chapter declaration (:mod:`grok_lib.paper_b.chapters`) names its reduction and the
notebook whose runs feed it. A function of the sparse or kernel-vs-rich chapter takes the notebook's histories as
named groups (``run.groups``: ``"alpha"``, ``"weight_decay"``, ``"misgrokking"``; see :mod:`grok_lib.paper_b.chapter_runs`)
and reads the sweeps by name; the matrix-completion chapter's take its list of histories.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..figure_numbers import none_if_nan
from ..history import History
from . import measure, selection
from .measure import crossing_step
from .selection import Groups
from .thresholds import KERNEL_WINDOW, PAPER_FIG1A_FRACTIONS
from .matrix_completion import target

#: Points of the clock lambda t / ln(alpha) at which curves are guarded (the nearest recorded step).
CLOCK_POINTS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
#: The paper's Fig. 1a: alpha, lambda, lr, transition start and end (steps), and ln(alpha) / lambda in steps.
PAPER_FIG1A = {"alpha": 128.0, "weight_decay": 1e-3, "lr": 0.01, "start": 1.7e5, "end": 3.6e5,
               "unit_steps": math.log(128.0) / (1e-3 * 0.01)}


# --- small readers ---------------------------------------------------------------------------------
def fit_attr(fit, name: str, scale: float = 1.0) -> float:
    """Attribute ``name`` of a line fit times ``scale``; NaN where the fit is None (a failed
    :func:`grok_lib.paper_b.measure.try_fit`)."""
    return getattr(fit, name) * scale if fit is not None else math.nan


def run_tag(h: History) -> str:
    """The run's prefix in the regression numbers' names: ``a=<alpha>,wd=<lambda>``."""
    return f"a={h.cfg.alpha:g},wd={h.cfg.weight_decay:g}"


def rounded(x, digits: int = 3):
    """``x`` rounded (nan stays nan: printed as 'never')."""
    return round(float(x), digits) if x is not None and math.isfinite(float(x)) else math.nan


def at_clock(h: History, metric: str, x: float) -> float:
    """``metric`` at the recorded step whose clock lambda t / ln(alpha) is nearest ``x``."""
    return float(h[metric][int(np.argmin(np.abs(measure.clock(h) - x)))])


def at_clocks(h: History, names: Sequence[str], points: Sequence[float] = CLOCK_POINTS) -> dict:
    """``tag/name@clock<x>`` for each name and clock point (None for NaN)."""
    return {f"{run_tag(h)}/{name}@clock{x:g}": none_if_nan(at_clock(h, name, x)) for x in points for name in names}


def at_steps(h: History, names: Sequence[str], steps: Sequence[int]) -> dict:
    """``tag/name@<step>`` for each name at the last recorded step <= each step, and at the end."""
    return {f"{run_tag(h)}/{name}@{s}": none_if_nan(h.at(name, s)) for s in (*steps, int(h.steps[-1])) for name in names}


# --- sparse classification (Fig. 1a) --------------------------------------------------------------
def step_size_table(groups: Groups) -> list[dict]:
    """How the step size was lowered: per run the cap lr, the smallest step taken at a recorded step, the
    first recorded step at the cap, and the continuous time and clock where the run ended."""
    rows = []
    for h in selection.sweep_runs(groups):
        lr = np.asarray(h["lr"])
        cap = float(h.cfg.lr)
        at_cap = h.steps[lr >= cap * (1 - 1e-12)]
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay, "steps": int(h.cfg.steps),
                     "lr cap": cap, "smallest step": float(f"{lr.min():.3g}"),
                     "at cap from step": int(at_cap[0]) if at_cap.size else math.nan,
                     "t at end": rounded(measure.continuous_time(h)[-1], 1), "clock at end": rounded(measure.clock(h)[-1])})
    return rows


def transition_row(h: History) -> dict:
    tr = measure.accuracy_transition(h)
    s, e = tr.fractions
    return {"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
            "ln(a)/l (t)": rounded(measure.clock_unit(h.cfg), 1),
            "ln(a)/l (steps at cap)": int(round(measure.clock_unit(h.cfg) / float(h.cfg.lr))),
            "start step": crossing_step(tr.start), "end step": crossing_step(tr.end),
            "start frac": rounded(s), "end frac": rounded(e)}


def transition_table(groups: Groups) -> list[dict]:
    """Per sparse run: ln(alpha) / lambda, the transition's start / end (first test accuracy >= 0.6 / >= 0.9)
    as steps and as fractions of ln(alpha) / lambda."""
    return [transition_row(h) for h in selection.sweep_runs(groups)]


def lambda_table(at_paper_lambda: Sequence[History], book_runs: Sequence[History]) -> list[dict]:
    """Per run of the recorded set at the paper's lambda (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`):
    alpha, data seed, steps to ln(alpha) / lambda, the transition's start / end as fractions of ln(alpha) / lambda, and
    the same fractions of the book's run at the same alpha and data seed (``book_runs``: the chapter's alpha sweep and
    focus run at every seed; None where it has no such run)."""
    book = {(h.cfg.alpha, h.cfg.data_seed): transition_row(h) for h in book_runs}
    rows = []
    for h in at_paper_lambda:
        r = transition_row(h)
        b = book.get((h.cfg.alpha, h.cfg.data_seed), {})
        rows.append({"alpha": h.cfg.alpha, "data seed": int(h.cfg.data_seed), "lambda": h.cfg.weight_decay,
                     "lr": h.cfg.lr, "ln(a)/l (steps at cap)": r["ln(a)/l (steps at cap)"],
                     "start frac": r["start frac"], "end frac": r["end frac"],
                     "start frac, book's lambda": b.get("start frac"), "end frac, book's lambda": b.get("end frac")})
    return rows


def paper_table(groups: Groups) -> list[dict]:
    """The paper's Fig. 1a numbers beside this book's runs at the profile's alpha (the lambda sweep)."""
    p = PAPER_FIG1A
    rows = [{"source": "paper, Fig. 1a", "alpha": p["alpha"], "lambda": p["weight_decay"], "lr": p["lr"],
             "ln(a)/l (steps)": float(f"{p['unit_steps']:.3g}"), "start step": p["start"], "end step": p["end"],
             "start frac": rounded(PAPER_FIG1A_FRACTIONS[0]), "end frac": rounded(PAPER_FIG1A_FRACTIONS[1])}]
    for h in groups["weight_decay"]:
        r = transition_row(h)
        rows.append({"source": "this book", "alpha": r["alpha"], "lambda": r["lambda"], "lr": float(h.cfg.lr),
                     "ln(a)/l (steps)": r["ln(a)/l (steps at cap)"], "start step": r["start step"],
                     "end step": r["end step"], "start frac": r["start frac"], "end frac": r["end frac"]})
    return rows


def window_table(groups: Groups) -> list[dict]:
    """The window (1 +- c) ln(alpha) / lambda fitted to the alpha sweep, the fractions' limit for alpha -> infinity,
    and the slopes of the end time against ln(alpha) and 1 / lambda, each beside the theory's value."""
    alpha_sweep, lambda_sweep = groups["alpha"], groups["weight_decay"]
    fr = [measure.accuracy_transition(h).fractions for h in alpha_sweep]
    win = measure.window_fit([f[0] for f in fr], [f[1] for f in fr])
    big = [h for h in alpha_sweep if h.cfg.alpha > 1]
    ls, le = measure.try_fit(measure.fraction_limits, big) or (None, None)
    lam = float(alpha_sweep[0].cfg.weight_decay)
    alpha = float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    return [
        {"quantity": "window c (smallest holding every run)", "measured": rounded(win.c), "theory": "any c in (0, 1)"},
        {"quantity": "mean midpoint (start+end)/2", "measured": rounded(win.center), "theory": "1 (alpha -> inf)"},
        {"quantity": "mean half width (end-start)/2", "measured": rounded(win.half_width), "theory": "0 (alpha -> inf)"},
        {"quantity": "start fraction at 1/ln(a) = 0", "measured": rounded(fit_attr(ls, "intercept")), "theory": "1"},
        {"quantity": "end fraction at 1/ln(a) = 0", "measured": rounded(fit_attr(le, "intercept")), "theory": "1"},
        {"quantity": "start: slope in 1/ln(a)", "measured": rounded(fit_attr(ls, "slope")),
         "theory": "(finite-alpha offset)"},
        {"quantity": "end: slope in 1/ln(a)", "measured": rounded(fit_attr(le, "slope")),
         "theory": "(finite-alpha offset)"},
        {"quantity": f"end time t vs ln(a): slope x lambda ({lam:g})", "measured": rounded(fit_attr(fa, "slope", lam)),
         "theory": "1"},
        {"quantity": f"end time t vs 1/lambda: slope / ln(a) ({alpha:g})",
         "measured": rounded(fit_attr(fl, "slope", 1 / math.log(alpha)) if alpha > 1 else math.nan), "theory": "1"},
    ]


def fig1a_sparse_numbers(groups: Groups) -> dict:
    """Fig. 1a: the focus run's accuracies and losses, and every alpha run's norm, at clock points."""
    values = at_clocks(selection.focus_run(groups), ("train_acc", "test_acc", "train_loss", "test_loss"))
    for h in groups["alpha"]:
        values |= at_clocks(h, ("norm",))
    return values


def sparse_sweeps_numbers(groups: Groups) -> dict:
    """The sweeps: every run's test accuracy at clock points and its transition steps."""
    values = {}
    for h in selection.sweep_runs(groups):
        values |= at_clocks(h, ("test_acc",))
        tr = measure.accuracy_transition(h)
        values[f"{run_tag(h)}/T_start"] = none_if_nan(crossing_step(tr.start))
        values[f"{run_tag(h)}/T_end"] = none_if_nan(crossing_step(tr.end))
    return values


def sparse_transition_numbers(groups: Groups) -> dict:
    """The transition figure: fractions per run, the window, the limits and the slopes."""
    values = {}
    for h in selection.sweep_runs(groups):
        s, e = measure.accuracy_transition(h).fractions
        values[f"{run_tag(h)}/start_frac"], values[f"{run_tag(h)}/end_frac"] = none_if_nan(s), none_if_nan(e)
    for row in window_table(groups):
        values[f"window/{row['quantity']}"] = none_if_nan(row["measured"])
    return values


# --- kernel vs rich: the margin classifiers ----------------------------------------------------------
def margin_table(groups: Groups) -> list[dict]:
    """The max-L2 and max-L1 margin classifiers of each data set (computed from the data, not from training)."""
    rows = []
    for name, h in (("sparse", groups["alpha"][0]), ("misgrokking", selection.misgrokking_run(groups))):
        m = h.meta
        for norm in ("l2", "l1"):
            rows.append({"data": name, "classifier": f"max-{norm.upper()} margin", "margin": rounded(m[f"{norm}_margin"], 4),
                         "train acc": rounded(m[f"{norm}_train_acc"]), "test acc": rounded(m[f"{norm}_test_acc"]),
                         "cos(L1, L2)": rounded(m["cos_l1_l2"])})
    return rows


def regime_row(h: History) -> dict:
    """One run's row of :func:`regime_table` (the cosines early and at the end, the test accuracies)."""
    lo, hi = KERNEL_WINDOW
    return {"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
            "cos L2 early": rounded(measure.value_in_clock(h, "cos_l2", lo, hi)), "cos L2 end": rounded(h.final("cos_l2")),
            "cos L1 early": rounded(measure.value_in_clock(h, "cos_l1", lo, hi)), "cos L1 end": rounded(h.final("cos_l1")),
            "cos w* end": rounded(h.final("cos_star")),
            "net test early": rounded(measure.value_in_clock(h, "test_acc", lo, hi)),
            "L2 test": rounded(h.meta["l2_test_acc"]),
            "net test end": rounded(h.final("test_acc")), "L1 test": rounded(h.meta["l1_test_acc"])}


def regime_table(groups: Groups) -> list[dict]:
    """Per sparse run and the misgrokking run: cosines of beta with each classifier early (kernel window of
    the clock) and at the end, and the net's test accuracy beside the classifiers'."""
    return [regime_row(h) for h in [*selection.sweep_runs(groups), selection.misgrokking_run(groups)]]


def misgrokking_table(groups: Groups) -> list[dict]:
    """The misgrokking run: test accuracy early, at its peak and at the end, and when it fell below 0.9 / 0.75."""
    h = selection.misgrokking_run(groups)
    peak = int(np.argmax(h["test_acc"]))
    rows = [{"reading": "test acc, kernel window (median)",
             "value": rounded(measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW))},
            {"reading": "test acc, peak", "value": rounded(h["test_acc"][peak])},
            {"reading": "step of the peak", "value": int(h.steps[peak])},
            {"reading": "test acc, end", "value": rounded(h.final("test_acc"))},
            {"reading": "clock at the end", "value": rounded(measure.clock(h)[-1])}]
    for level in (0.9, 0.75):
        c = measure.first_crossing(h, "test_acc", level, above=False, after_step=int(h.steps[peak]))
        rows.append({"reading": f"first step after the peak with test acc <= {level}", "value": crossing_step(c)})
        rows.append({"reading": "  its clock", "value": rounded(c.fraction) if c else math.nan})
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
        rows.append({"data seed": int(h.cfg.data_seed), "L2 test": rounded(h.meta["l2_test_acc"]),
                     "L1 test": rounded(h.meta["l1_test_acc"]),
                     "net test early": rounded(measure.value_in_clock(h, "test_acc", *KERNEL_WINDOW)),
                     "net test peak": rounded(h["test_acc"][peak]), "net test end": rounded(h.final("test_acc")),
                     **{f"clock <= {level:g}": rounded(falls[level].fraction) if falls[level] else math.nan
                        for level in MISGROK_FALL_LEVELS},
                     "clock at end": rounded(measure.clock(h)[-1]), "steps": int(h.steps[-1]),
                     "cos L2 early": rounded(measure.value_in_clock(h, "cos_l2", *KERNEL_WINDOW)),
                     "cos L1 end": rounded(h.final("cos_l1"))})
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


def margins_sparse_numbers(groups: Groups) -> dict:
    """Kernel vs rich on sparse data: cosines at clock points for every sparse run, and the classifiers."""
    values = {}
    for h in selection.sweep_runs(groups):
        values |= at_clocks(h, ("cos_l2", "cos_l1", "cos_star"))
    m = groups["alpha"][0].meta
    values |= {f"sparse/{k}": m[k] for k in ("l2_margin", "l1_margin", "l2_test_acc", "l1_test_acc", "cos_l1_l2")}
    return values


def misgrokking_numbers(groups: Groups) -> dict:
    """Misgrokking: accuracies and cosines at clock points, and the classifiers."""
    h = selection.misgrokking_run(groups)
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
        {"reading": "  its continuous time t", "value": rounded(t[fit[0]], 2) if fit.size else math.nan},
        {"reading": "max RMS of W off Omega u Omega^T / RMS(X*), clock <= 0.5",
         "value": float(f"{measure.value_in_clock(h, 'far_rms', 0.0, 0.5, np.max) / target_rms:.3g}")},
        {"reading": "test MSE, kernel plateau (clock 0.1)", "value": rounded(measure.plateau(h), 4)},
        {"reading": "test MSE of predicting 0 (the init)", "value": rounded(h.meta["zero_test_mse"], 4)},
        {"reading": "10% drop from the plateau: step", "value": crossing_step(tr.start)},
        {"reading": "  its clock", "value": rounded(s)},
        {"reading": "90% drop from the plateau: step", "value": crossing_step(tr.end)},
        {"reading": "  its clock", "value": rounded(e)},
        {"reading": "test MSE, end", "value": rounded(h.final("test_mse"), 4)},
        {"reading": "stable rank, kernel window (median) -> end",
         "value": f"{measure.value_in_clock(h, 'stable_rank', lo, hi):.2f} -> {h.final('stable_rank'):.2f}"},
        {"reading": "nuclear norm, kernel window (median) -> end (X*: target)",
         "value": f"{measure.value_in_clock(h, 'nuclear', lo, hi):.1f} -> {h.final('nuclear'):.1f} "
                  f"({h.meta['target_nuclear']:.1f})"},
        {"reading": "clock at the end of the run", "value": rounded(measure.clock(h)[-1])},
    ]


def matrix_completion_numbers(histories: Sequence[History]) -> dict:
    """Matrix completion: the errors, the off-support RMS, nuclear norm and stable rank at clock points; the
    drop transition's steps."""
    h = selection.matrix_completion_run(histories)
    values = at_clocks(h, ("train_mse", "test_mse", "far_rms", "nuclear", "stable_rank"),
                       (*CLOCK_POINTS, 3.0, 4.0))
    tr = measure.drop_transition(h)
    values["mc/T_drop10"], values["mc/T_drop90"] = none_if_nan(crossing_step(tr.start)), none_if_nan(crossing_step(tr.end))
    return values


def mc_noise_table(clean: History, noisy: Sequence[History]) -> list[dict]:
    """Remark 3.13's runs beside the noise-free one: per init noise and seed, the clock λt / ln α at each drop of the
    test MSE that B.mc.noisy_init reads, and the final test MSE over the kernel plateau."""
    from .thresholds import MC_DROP_LEVELS

    rows = []
    for h in [clean, *noisy]:
        row = {"init noise σ": f"{h.cfg.init_noise:.0e}" if h.cfg.init_noise else "0 (the chapter's run)",
               "init seed": int(h.cfg.init_seed) if h.cfg.init_noise else "–"}
        for q in MC_DROP_LEVELS:
            row[f"clock at {q:.0%} drop"] = round(measure.drop_transition(h, start=1 - q, end=1 - q).fractions[0], 3)
        row["final / plateau"] = round(h.final("test_mse") / measure.plateau(h), 3)
        rows.append(row)
    return rows


def sample_table(sweeps: Sequence) -> list[dict]:
    """Printable rows of the sample-size sweeps (:mod:`.sample_complexity`): per seed and training-set size, each
    margin classifier's test accuracy where it was computed (a classifier's sweep stops once it reaches the top
    level)."""
    rows = []
    for sw in sweeps:
        for n in sw.grid:
            accs = {norm: sw.accuracy[norm].get(n) for norm in ("l1", "l2")}
            if all(a is None for a in accs.values()):
                continue
            rows.append({"seed": int(sw.config.data_seed), "n": n,
                         **{f"{norm.upper()} test acc": "" if a is None else round(a, 3) for norm, a in accs.items()}})
    return rows


def sample_gap_table(sweeps: Sequence, levels: Sequence[float]) -> list[dict]:
    """Printable rows: per seed and accuracy level, the smallest n of each classifier and their ratio (the quantity
    of B.bounds.sample_gap; '>' where the kernel classifier never reaches the level on the grid)."""
    rows = []
    for sw in sweeps:
        for level in levels:
            n2, n1 = sw.smallest_n("l2", level), sw.smallest_n("l1", level)
            beyond = n2 > sw.grid[-1]
            rows.append({"seed": int(sw.config.data_seed), "level": level, "n L1": int(n1),
                         "n L2": f"> {sw.grid[-1]}" if beyond else int(n2),
                         "n L2 / n L1": f"≥ {n2 / n1:.1f}" if beyond else round(n2 / n1, 1)})
    return rows
