"""Sparse linear classification with the diagonal net (``notebooks/paper_b/sparse_classification.ipynb``): Fig. 1a
of Paper B and the theorems' clock ln α / λ. The α and λ sweeps (and Fig. 1a's run at more data seeds, claim-only),
the claims B.fig1a.* and B.thm.* with their bars, their checks, the tables and key numbers, the numbers the prose
quotes (the transition window's are :mod:`grok_lib.paper_b.transition_window`'s), the recorded α sweep at the paper's
λ (read in :mod:`grok_lib.paper_b.paper_lambda`; at the paper's d: :mod:`grok_lib.paper_b.paper_d`), and the three
figures."""

from __future__ import annotations

from dataclasses import replace
import math
from operator import itemgetter
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ... import recorded as recorded_runs
from ...chapters import Chapter, Figure, flat, with_claim_runs
from ...claims import registry
from ...figure_numbers import none_if_nan
from ...grading import Bar, Choice, Claim, draw, grade, moved, not_graded, Result
from ...history import History
from ...notebook import Run, start
from .. import config, measure, paper_d, paper_lambda, recordings, regimes
from ..claim_terms import (END_ACC, KERNEL_ENDS, KERNEL_START, KERNEL_WINDOW, KERNEL_WINDOW_END, ONSET_ACC, REBUTTAL,
                           SAME_LAMBDA_T, SLOPE, SLOPE_GRID, TRANSITION_LEVELS)
from ..curve_numbers import at_clocks, rounded, run_tag, transition_row
from ..draws import crossing_t, lambda_t_spread, members, seed_of
from ..measure import crossing_step
from ..panels import (accuracy_panel, fraction_limit_panel, loss_panel, norm_vs_prediction, run_label, slope_fit,
                      sweeps_figure, transition_fractions)
from ..run_sets import recorded, sparse_configs
from ..selection import focus_run, Groups, nearest_alpha, sweep_runs, unique
from ..transition_window import transition_reading, window_table  # noqa: F401 (its notebook reads them here)
from ..words import power_of_ten, regime_reading, verdict_reading


#: "train acc 100% at once": 100% from this clock on through the kernel window (central 0.05).
FIT_CLOCKS = (0.02, 0.05, 0.1)


TRAIN_FIT = Bar(lo=1.0)


#: An accuracy read off a figure's 0-100% axis is good to about 5 points.
FIGURE_ACC_READING = 0.05


KERNEL_ACC = Bar(0.52 - FIGURE_ACC_READING, 0.52 + FIGURE_ACC_READING)  #: the paper's ~52% (Fig. 1a)


FINAL_ACC = Bar(lo=1.0 - FIGURE_ACC_READING)  #: the paper's 100% (Fig. 1a)


#: Our reading of Fig. 1a: the test accuracy rises between ~1.7e5 and ~3.6e5 steps, ln(alpha) / lambda = 4.85e5 steps.
PAPER_FIG1A_STEPS = (1.7e5, 3.6e5)


PAPER_FIG1A_UNIT = math.log(128.0) / (1e-3 * 0.01)


PAPER_FIG1A_FRACTIONS = tuple(s / PAPER_FIG1A_UNIT for s in PAPER_FIG1A_STEPS)  #: 0.35 and 0.74 of the clock


#: The steps are read off the figure to about half of 1e5 steps: 0.10 of the clock.
FIG1A_STEP_READING = 0.5e5 / PAPER_FIG1A_UNIT


START_FRACTION, END_FRACTION = (Bar(f - FIG1A_STEP_READING, f + FIG1A_STEP_READING) for f in PAPER_FIG1A_FRACTIONS)


NORM_DEV = Bar(hi=0.05)  #: ||theta|| against alpha e^{-lambda t} in the kernel phase (relative)


WINDOW_SHRINK = Bar(lo=0.0)  #: c shrinks from each alpha to the next (beyond the recording grid): no inversion


LIMIT = Bar(0.9, 1.1)  #: the fraction extrapolated to alpha -> infinity (1 / ln alpha -> 0)


WINDOW_QUOTE = (r"our main results for both classification (Thm. 3.4 and 3.5) and regression (Thm. 3.9 and 3.10) "
                r"settings highlight a sharp kernel-to-rich transition from $T=\frac{1-c}{\lambda}\log\alpha$ to "
                r"$T=\frac{1+c}{\lambda}\log\alpha$")


#: The choices the claims share.
LEVEL = Choice("test-accuracy level", TRANSITION_LEVELS[1], TRANSITION_LEVELS,
               "the paper marks no level: its onset (0.6) and its end (0.9)")


CLAIMS = registry([
    Claim(
        "B.fig1a.fit_at_once", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the train accuracy is 100% at once",
        "The training set is fitted at once: train accuracy 100% from the first moments of training on.",
        "lowest train accuracy over the recorded steps from λt / ln α = c to the end of the kernel window (0.2), "
        "per run of the α sweep",
        TRAIN_FIT, choices=(Choice("'at once' from λt / ln α", FIT_CLOCKS[1], FIT_CLOCKS, "'at once' names no time"),),
        fmt=".3f"),
    Claim(
        "B.fig1a.kernel_acc", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the test accuracy stays at about 52% for a long time",
        "Through the kernel phase the test accuracy stays near chance, at about 52%.",
        "median test accuracy over the kernel window, per run of the α sweep",
        KERNEL_ACC, choices=(KERNEL_WINDOW_END,), fmt=".3f",
        why="the paper's 52% as read off a 0–100% axis: five points either side"),
    Claim(
        "B.fig1a.final_acc", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the test accuracy then jumps to 100%",
        "After the transition the test accuracy is 100%.",
        "final test accuracy, per run of the α sweep", FINAL_ACC, fmt=".3f",
        why="the paper's 100% as read off a 0–100% axis: five points"),
    Claim(
        "B.fig1a.start_fraction", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: at α = 128 the test accuracy starts rising at about 1.7·10⁵ steps, where "
        "ln α / λ is 4.85·10⁵ steps",
        rf"At $\alpha = 128$ the transition starts at {PAPER_FIG1A_FRACTIONS[0]:.2f} of $\ln\alpha/\lambda$.",
        "λt / ln α at the first recorded step with test accuracy ≥ 0.6, of the focus run (α = 128) at each data seed",
        START_FRACTION, fmt=".3f",
        why="the steps read off the figure to about half of 10⁵ steps, 0.10 of the clock; the paper's run is one "
            "draw of its data, ours are three"),
    Claim(
        "B.fig1a.end_fraction", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: at α = 128 the test accuracy reaches 100% by about 3.6·10⁵ steps, where "
        "ln α / λ is 4.85·10⁵ steps",
        rf"At $\alpha = 128$ the transition ends at {PAPER_FIG1A_FRACTIONS[1]:.2f} of $\ln\alpha/\lambda$.",
        "λt / ln α at the first recorded step with test accuracy ≥ 0.9, of the focus run (α = 128) at each data seed",
        END_FRACTION, fmt=".3f",
        why="as the start: the steps read to about half of 10⁵ steps, 0.10 of the clock"),
    Claim(
        "B.fig1a.norm", "B", "claim", "figure", "Fig. 1a",
        r"the book's reading of Fig. 1a: the parameter norm follows $128\, e^{-\lambda\,\mathrm{lr}\,\mathrm{step}}$",
        r"In the kernel phase the parameter norm decays as $\alpha e^{-\lambda t}$.",
        "largest relative deviation of ‖θ‖ from α e^{−λt} over λt / ln α ≤ min(0.5, the run's start fraction), per "
        "run of the α sweep",
        NORM_DEV, bars=moved(NORM_DEV), fmt=".3f",
        why="the paper states no tolerance"),
    Claim(
        "B.thm.window", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"The transition happens in $(1 \pm c)\ln\alpha/\lambda$ for every $c \in (0, 1)$ as $\alpha \to \infty$: "
        r"at finite $\alpha$, the run's $c$ shrinks as $\alpha$ grows.",
        "per pair of consecutive α of the sweep, the smaller α's c less the larger α's, the range the recording grid "
        "allows taken against the claim (c = max(1 − start, end − 1) on λt / ln α)",
        WINDOW_SHRINK, fmt=".3f",
        why="'c < 1' alone says only that the transition ended within the run (the runs end at 2 ln α / λ); the "
            "transition's start and end are the levels 0.6 and 0.9"),
    Claim(
        "B.thm.limit", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        "The window closes on 1 as α → ∞: the transition's fraction of ln α / λ tends to 1.",
        "intercept (1 / ln α → 0) of the least-squares line of the transition's fraction of ln α / λ against 1 / ln α "
        "over the α sweep",
        LIMIT, choices=(LEVEL,), bars=moved(LIMIT), fmt=".3f",
        why="the book's reading λt = ln α − O(1) makes the fraction linear in 1 / ln α; the paper states no tolerance"),
    Claim(
        "B.thm.log_alpha_slope", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"At fixed $\lambda$ the transition time grows like $\ln\alpha/\lambda$: slope $1/\lambda$ against $\ln\alpha$.",
        "least-squares slope of the transition time t against ln α over the α sweep, times λ",
        SLOPE, choices=(LEVEL,), bars=SLOPE_GRID, fmt=".3f",
        why="the paper states no tolerance"),
    Claim(
        "B.thm.inverse_lambda_slope", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"At fixed $\alpha$ the transition time scales as $1/\lambda$: $\lambda t$ at the transition is the same for "
        r"every $\lambda$.",
        "max / min − 1 of λt at the transition over the λ sweep (at α = 128)",
        SAME_LAMBDA_T, choices=(LEVEL,), bars=moved(SAME_LAMBDA_T), fmt=".3f",
        why="at finite α the theory's time is (ln α − b) / λ, so 'slope ln α against 1/λ' is the α → ∞ statement; at "
            "fixed α it says λt is the same for every λ (a line in 1/λ through the origin); the slope against 1/λ "
            "is reported"),
])


def run(profile: str = "default", alphas=None, weight_decays=None, d=None, n_train=None, k=None, lr=None,
        horizon=None, data_seed=None, *, output_path=None) -> Run:
    """Sparse linear classification with the diagonal net: the alpha sweep (at the profile's lambda) and the
    lambda sweep (at the profile's alpha), each run ending at ``horizon`` x ln(alpha) / lambda."""
    overrides = {"d": d, "n_train": n_train, "k": k, "lr": lr, "data_seed": data_seed}
    configs = sparse_configs(profile, alphas, weight_decays, horizon, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "horizon": horizon,
                  **overrides}
    return with_claim_runs(fig1a_seed_configs, start(profile, parameters, configs, sparse_configs("default"),
                                                     output_path))


def focus_config(groups: dict[str, list]):
    """The sparse run both sweeps share, as :func:`grok_lib.paper_b.selection.focus_run` picks it from histories: the
    alpha sweep's run at the lambda sweep's alpha (where a rerun leaves it out, the one nearest in ln(alpha))."""
    alpha_sweep = groups["alpha"]
    return alpha_sweep[nearest_alpha([c.alpha for c in alpha_sweep], groups["weight_decay"][0].alpha)]


def fig1a_seed_configs(groups: dict[str, list]) -> list:
    """B.fig1a.fractions: the focus run at the next data seeds (its own seed's run is the notebook's)."""
    focus = focus_config(groups)
    return [replace(focus, data_seed=focus.data_seed + i) for i in range(1, config.FIG1A_DATA_SEEDS)]


def by_alpha(histories: Sequence[History]) -> list[History]:
    """``histories`` sorted by alpha (runs with the same alpha keep their order)."""
    return sorted(histories, key=lambda h: h.cfg.alpha)


def fraction_at(h: History, level: float) -> float:
    """λt / ln α at the first recorded step with test accuracy ≥ ``level`` (NaN if never)."""
    c = measure.first_crossing(h, "test_acc", level)
    return c.fraction if c else math.nan


def window_shrinks(runs: Sequence[History]) -> list[float]:
    """Per pair of consecutive α: the smaller α's smallest c less the larger α's largest c (the range the recording
    grid allows, taken against the claim; NaN where a transition does not end within its run)."""
    cs = [measure.window_c(h) for h in runs]
    return [a[1] - b[2] for a, b in zip(cs, cs[1:])]


def limit_intercept(runs: Sequence[History], level: float) -> float:
    """The intercept (1 / ln α → 0) of the line of the fraction at ``level`` against 1 / ln α over the α > 1 runs."""
    big = [h for h in runs if float(h.cfg.alpha) > 1]
    fit = measure.line_fit([1 / math.log(float(h.cfg.alpha)) for h in big], [fraction_at(h, level) for h in big])
    return fit.intercept


def log_alpha_slope(runs: Sequence[History], level: float) -> float:
    """Least-squares slope of t at ``level`` against ln α, times λ (1 on the clock)."""
    lam = float(runs[0].cfg.weight_decay)
    return measure.line_fit([math.log(float(h.cfg.alpha)) for h in runs], [crossing_t(h, level) for h in runs]).slope * lam


def _grade_or_not(claim_id: str, measure_draws, context: str = "", regime=None) -> Result:
    """Grade a claim whose measurement may need more than the runs have (a fit through two transitions, in a short
    rerun): then it is not tested, saying why."""
    claim = CLAIMS[claim_id]
    try:
        draws = measure_draws(claim)
    except ValueError as err:
        return not_graded(claim, f"not measurable on these runs: {err}", regime if regime and not regime.ok else None)
    return grade(claim, draws, context, regime)


def evaluate_sparse(groups, focus_at_seeds: Sequence[History] | None = None) -> list[Result]:
    """The sparse-classification chapter's claims: Fig. 1a, the theorems' window, its limit, the slopes, the norm.
    ``groups``: ``run.groups`` (``"alpha"``, ``"weight_decay"``); ``focus_at_seeds``: the focus run at every data seed
    (its own first; None: the focus run alone)."""
    alpha_sweep = by_alpha(groups["alpha"])
    lambda_sweep = sorted(groups["weight_decay"], key=lambda h: h.cfg.weight_decay)
    focus_at_seeds = list(focus_at_seeds) if focus_at_seeds else [focus_run(groups)]
    every = unique([*alpha_sweep, *lambda_sweep, *focus_at_seeds])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    seed, names = seed_of(alpha_sweep), members(alpha_sweep)
    out = []

    def over_alpha(value, grid=None):
        """Draws of ``value(run, point)`` over the α sweep, one per point of ``grid`` (None: one draw, no choice)."""
        return lambda claim: [draw([value(h, p) for h in alpha_sweep], seed, () if grid is None else (p,), names)
                              for p in (grid or (None,))]

    focus = focus_run(groups)
    seeds_text = (f"the focus run α = {focus.cfg.alpha:g}, λ = {focus.cfg.weight_decay:g} at data seeds "
                  + ", ".join(str(h.cfg.data_seed) for h in focus_at_seeds))
    out.append(_grade_or_not("B.fig1a.fit_at_once", over_alpha(
        lambda h, c: measure.value_in_clock(h, "train_acc", c, KERNEL_WINDOW[1], np.min), FIT_CLOCKS), regime=where))
    out.append(_grade_or_not("B.fig1a.kernel_acc", over_alpha(
        lambda h, w: measure.value_in_clock(h, "test_acc", KERNEL_START, w), KERNEL_ENDS),
        f"the max-L2-margin classifier's test accuracy on this data: {alpha_sweep[0].meta.get('l2_test_acc', math.nan):.3f}",
        where))
    out.append(_grade_or_not("B.fig1a.final_acc", over_alpha(lambda h, _: h.final("test_acc")), regime=where))
    for cid, level in (("B.fig1a.start_fraction", ONSET_ACC), ("B.fig1a.end_fraction", END_ACC)):
        out.append(_grade_or_not(cid, lambda claim, level=level: [draw(fraction_at(h, level), int(h.cfg.data_seed))
                                                                  for h in focus_at_seeds], seeds_text, where))
    out.append(_grade_or_not("B.fig1a.norm", over_alpha(lambda h, _: norm_deviation(h)), regime=where))

    pairs = tuple(f"α {a.cfg.alpha:g}→{b.cfg.alpha:g}" for a, b in zip(alpha_sweep, alpha_sweep[1:]))
    cs = "; ".join(f"α={h.cfg.alpha:g}: c = {c:.3f} [{lo:.3f}, {hi:.3f}]"
                   for h, (c, lo, hi) in zip(alpha_sweep, (measure.window_c(h) for h in alpha_sweep)))

    def window_draws(claim):
        if len(alpha_sweep) < 2:
            raise ValueError("the window's shrink needs at least two α")
        return [draw(window_shrinks(alpha_sweep), seed, (), pairs)]

    out.append(_grade_or_not("B.thm.window", window_draws, f"c per α with the range the recording grid allows: {cs}",
                             where))
    levels = TRANSITION_LEVELS
    out.append(_grade_or_not("B.thm.limit", lambda claim: [draw(limit_intercept(alpha_sweep, q), seed, (q,))
                                                           for q in levels], regime=where))
    out.append(_grade_or_not("B.thm.log_alpha_slope", lambda claim: [draw(log_alpha_slope(alpha_sweep, q), seed, (q,))
                                                                     for q in levels], regime=where))
    out.append(_grade_or_not("B.thm.inverse_lambda_slope",
                             lambda claim: [draw(lambda_t_spread(lambda_sweep, q), seed, (q,)) for q in levels],
                             inverse_lambda_context(lambda_sweep), where))
    return out


#: The setting of the sparse claims graded on the recorded set at the paper's lambda (``recorded/paper_b/sparse_paper_lambda``).
PAPER_LAMBDA = "paper_lambda"


#: What that set cannot grade: it has no lambda sweep (the spread over lambda needs two).
NO_LAMBDA_SWEEP = ("B.thm.inverse_lambda_slope",)


def evaluate_sparse_paper_lambda(histories: Sequence[History]) -> list[Result]:
    """The sparse chapter's claims on the recorded set at the paper's lambda and step
    (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`): the alpha sweep is the runs at the first run's data
    seed, the focus run (alpha = 128) is read at every seed; the claims of :data:`NO_LAMBDA_SWEEP` are left out."""
    seed = histories[0].cfg.data_seed
    sweep = [h for h in histories if h.cfg.data_seed == seed]
    groups = {"alpha": sweep, "weight_decay": [h for h in sweep if h.cfg.alpha == 128.0]}
    focus = focus_run(groups)
    at_seeds = [focus, *(h for h in histories if h.cfg.data_seed != seed and h.cfg.alpha == focus.cfg.alpha)]
    return [r for r in evaluate_sparse(groups, at_seeds) if r.claim.id not in NO_LAMBDA_SWEEP]


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on its runs (:func:`evaluate_sparse`, the fractions at every data seed)."""
    return evaluate_sparse(run.groups, focus_at_seeds(run))


def norm_deviation(h: History) -> float:
    """‖θ‖ against α e^{−λt} up to min(0.5, the run's start fraction)."""
    start = fraction_at(h, ONSET_ACC)
    return measure.norm_deviation(h, up_to_clock=min(0.5, start) if math.isfinite(start) else 0.5)


def inverse_lambda_context(lambda_sweep: Sequence[History]) -> str:
    """λt at the transition per λ, and the slope of t against 1/λ over ln α (reported, not graded)."""
    parts = []
    for q in TRANSITION_LEVELS:
        lt = ", ".join(f"λ={h.cfg.weight_decay:g}: {float(h.cfg.weight_decay) * crossing_t(h, q):.3f}" for h in lambda_sweep)
        fit = measure.try_fit(measure.line_fit, [1 / h.cfg.weight_decay for h in lambda_sweep],
                              [crossing_t(h, q) for h in lambda_sweep])
        slope = f"{fit.slope / math.log(float(lambda_sweep[0].cfg.alpha)):.3f}" if fit else "n/a"
        parts.append(f"level {q:g}: λt {lt}; slope against 1/λ over ln α {slope}")
    return "reported, not graded: " + "; ".join(parts)


#: The paper's Fig. 1a: alpha, lambda, lr, transition start and end (steps), and ln(alpha) / lambda in steps.
PAPER_FIG1A = {"alpha": 128.0, "weight_decay": 1e-3, "lr": 0.01, "start": 1.7e5, "end": 3.6e5,
               "unit_steps": math.log(128.0) / (1e-3 * 0.01)}


def step_size_table(groups: Groups) -> list[dict]:
    """How the step size was lowered: per run the cap lr, the smallest step taken at a recorded step, the
    first recorded step at the cap, and the continuous time and clock where the run ended."""
    rows = []
    for h in sweep_runs(groups):
        lr = np.asarray(h["lr"])
        cap = float(h.cfg.lr)
        at_cap = h.steps[lr >= cap * (1 - 1e-12)]
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay, "steps": int(h.cfg.steps),
                     "lr cap": cap, "smallest step": float(f"{lr.min():.3g}"),
                     "at cap from step": int(at_cap[0]) if at_cap.size else math.nan,
                     "t at end": rounded(measure.continuous_time(h)[-1], 1), "clock at end": rounded(measure.clock(h)[-1])})
    return rows


def transition_table(groups: Groups) -> list[dict]:
    """Per sparse run: ln(alpha) / lambda, the transition's start / end (first test accuracy >= 0.6 / >= 0.9)
    as steps and as fractions of ln(alpha) / lambda."""
    return [transition_row(h) for h in sweep_runs(groups)]


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


def fig1a_sparse_numbers(groups: Groups) -> dict:
    """Fig. 1a: the focus run's accuracies and losses, and every alpha run's norm, at clock points."""
    values = at_clocks(focus_run(groups), ("train_acc", "test_acc", "train_loss", "test_loss"))
    for h in groups["alpha"]:
        values |= at_clocks(h, ("norm",))
    return values


def sparse_sweeps_numbers(groups: Groups) -> dict:
    """The sweeps: every run's test accuracy at clock points and its transition steps."""
    values = {}
    for h in sweep_runs(groups):
        values |= at_clocks(h, ("test_acc",))
        tr = measure.accuracy_transition(h)
        values[f"{run_tag(h)}/T_start"] = none_if_nan(crossing_step(tr.start))
        values[f"{run_tag(h)}/T_end"] = none_if_nan(crossing_step(tr.end))
    return values


def sparse_transition_numbers(groups: Groups) -> dict:
    """The transition figure: fractions per run, the window, the limits and the slopes."""
    values = {}
    for h in sweep_runs(groups):
        s, e = measure.accuracy_transition(h).fractions
        values[f"{run_tag(h)}/start_frac"], values[f"{run_tag(h)}/end_frac"] = none_if_nan(s), none_if_nan(e)
    for row in window_table(groups):
        values[f"window/{row['quantity']}"] = none_if_nan(row["measured"])
    return values


def focus_at_seeds(run: Run) -> list[History]:
    """The focus run at every data seed: the notebook's, then the claim-only runs (read by B.fig1a's fractions only,
    never by a figure)."""
    return [focus_run(run.groups), *run.claim_histories]


def describe(run: Run) -> str:
    """The line the notebook prints: its sweeps' sizes and fixed values."""
    alpha_sweep, lambda_sweep = run.groups["alpha"], run.groups["weight_decay"]
    return (f"profile {run.profile!r}: {len(alpha_sweep)} runs in the alpha sweep (lambda = "
            f"{alpha_sweep[0].cfg.weight_decay:g}), {len(lambda_sweep)} in the lambda sweep (alpha = "
            f"{lambda_sweep[0].cfg.alpha:g})")


def intro_reading(run: Run) -> dict[str, str]:
    """The introduction's numbers: the transition's thresholds, the margin classifiers of this data set (next
    chapter), ln(alpha) / lambda at the paper's lambda and at this page's."""
    focus = focus_run(run.groups)
    return dict(
        start_acc=f"{measure.START_ACC:g}",
        end_acc=f"{measure.END_ACC:g}",
        l2_test=f"{focus.meta['l2_test_acc']:.0%}",
        l1_test=f"{focus.meta['l1_test_acc']:.0%}",
        unit_paper_lambda=f"{math.log(focus.cfg.alpha) / PAPER_FIG1A['weight_decay']:,.0f}",
        unit_focus=f"{measure.clock_unit(focus.cfg):,.0f}",
    )


def steps_reading(run: Run) -> dict[str, str]:
    """How the step size was lowered for large alpha (:func:`step_size_table`), in words."""
    step_rows = step_size_table(run.groups)
    smallest = min(step_rows, key=itemgetter("smallest step"))
    orders = round(math.log10(smallest["lr cap"] / smallest["smallest step"]))
    unshortened = sorted({r["alpha"] for r in step_rows if r["smallest step"] >= r["lr cap"]})
    # runs whose step fell below the cap again after first reaching it (recorded steps only)
    late = [(r, float(np.min(np.asarray(h["lr"])[h.steps > r["at cap from step"]], initial=r["lr cap"])))
            for h, r in zip(sweep_runs(run.groups), step_rows)]
    clock_ends = [r["clock at end"] for r in step_rows]
    return dict(
        steps_unshortened=(f"For α = {', '.join(f'{a:g}' for a in unshortened)} no step was shortened."
                           if unshortened else "Every run shortened its first steps."),
        steps_smallest=power_of_ten(smallest["smallest step"]),
        steps_smallest_alpha=f"{smallest['alpha']:g}",
        steps_orders=(("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")[orders]
                      if 0 <= orders < 10 else f"{orders}") + (" order" if orders == 1 else " orders"),
        steps_at_cap=f"{max(r['at cap from step'] for r in step_rows):g}",
        steps_clock_ends=f"{min(clock_ends):.2f}–{max(clock_ends):.2f}" + "".join(
            f"; the α = {r['alpha']:g}, λ = {r['lambda']:g} run ends a little short ({r['clock at end']:.2f}) because "
            f"after its transition the curvature bound lowered its step below the cap again (to {lowest:.2f})"
            for r, lowest in late if lowest < r["lr cap"]),
    )


def focus_reading(run: Run) -> dict[str, str]:
    """Fig. 1a's run in words: the fit, the kernel phase, the transition, the train loss's low and late peak."""
    focus = focus_run(run.groups)
    focus_tr = measure.accuracy_transition(focus)
    fitted = measure.first_crossing(focus, "train_acc", 1.0)
    train_loss = np.asarray(focus["train_loss"])
    lowest = int(np.argmin(train_loss))
    peak = lowest + int(np.argmax(train_loss[lowest:]))
    return dict(
        fit_phrase=(f"train accuracy 1 from step {fitted.step} on" if fitted and
                    np.all(np.asarray(focus["train_acc"])[focus.steps >= fitted.step] >= 1.0)
                    else f"train accuracy first 1 at step {fitted.step}" if fitted else "train accuracy never 1"),
        kernel_test=f"{measure.value_in_clock(focus, 'test_acc', *KERNEL_WINDOW):.2f}",
        l2_test_exact=f"{focus.meta['l2_test_acc']:.3f}",
        focus_start_step=f"{focus_tr.start.step:,}" if focus_tr.start else "never",
        focus_end_step=f"{focus_tr.end.step:,}" if focus_tr.end else "never",
        focus_final_test=f"{focus.final('test_acc'):.2f}",
        train_loss_min=power_of_ten(train_loss[lowest]),
        train_loss_peak=f"{train_loss[peak]:.2g}",
        train_loss_peak_step=f"{int(focus.steps[peak]):,}",
    )


def paper_reading(run: Run) -> dict[str, str]:
    """Our transition against the paper's reading of Fig. 1a (:func:`paper_table`), and the focus run at every data
    seed as B.fig1a.start_fraction and B.fig1a.end_fraction grade it."""
    paper_row, *book_rows = paper_table(run.groups)
    book_starts = [r["start frac"] for r in book_rows]
    seeds = focus_at_seeds(run)
    seed_fracs = [measure.accuracy_transition(h).fractions for h in seeds]
    start_inside = sum(START_FRACTION.holds(s) for s, _ in seed_fracs)
    end_inside = sum(END_FRACTION.holds(e) for _, e in seed_fracs)
    return dict(
        book_ends=", ".join(f"{r['end frac']:.3g} (λ = {r['lambda']:g})" for r in book_rows),
        paper_end=f"{paper_row['end frac']:.3g}",
        book_starts=f"{min(book_starts):.3g}–{max(book_starts):.3g}",
        paper_start=f"{paper_row['start frac']:.3g}",
        book_later=("later" if min(book_starts) > paper_row["start frac"] else
                    "earlier" if max(book_starts) < paper_row["start frac"] else "about where the paper's does"),
        book_narrower=("narrower" if all(r["end frac"] - r["start frac"]
                                         < paper_row["end frac"] - paper_row["start frac"] for r in book_rows)
                       else "not narrower in every run"),
        seed_count=f"{len(seeds)}",
        seed_list=", ".join(f"{h.cfg.data_seed}" for h in seeds),
        seed_fracs="; ".join(f"{s:.2f}–{e:.2f}" for s, e in seed_fracs),
        step_reading=f"{FIG1A_STEP_READING:.2f}",
        start_bar=f"{START_FRACTION.lo:.2f}–{START_FRACTION.hi:.2f}",
        end_bar=f"{END_FRACTION.lo:.2f}–{END_FRACTION.hi:.2f}",
        seed_start_inside=f"{start_inside} of the {len(seed_fracs)}",
        seed_end_inside=f"{end_inside} of the {len(seed_fracs)}",
        seed_start_reading=("So the late start is not a matter of which data were drawn." if not start_inside
                            else "Between data draws, our start is not always distinguishable from the paper's "
                                 "reading."),
    )


def sweeps_reading(run: Run) -> dict[str, str]:
    """The two sweeps against steps and on the clock (:func:`transition_row` of each run)."""
    alpha_rows = [transition_row(h) for h in run.groups["alpha"]]
    lambda_rows = [transition_row(h) for h in run.groups["weight_decay"]]
    mids = [(r["start frac"] + r["end frac"]) / 2 for r in alpha_rows]
    widths = [r["end frac"] - r["start frac"] for r in alpha_rows]
    lambda_ends = [f"{r['end frac']:.3g}" for r in lambda_rows]
    return dict(
        alpha_steps=f"{min(r['start step'] for r in alpha_rows):,.0f}–{max(r['end step'] for r in alpha_rows):,.0f}",
        lambda_steps=(f"{min(r['start step'] for r in lambda_rows):,.0f}–"
                      f"{max(r['end step'] for r in lambda_rows):,.0f}"),
        lambda_ends=(", ".join(lambda_ends[:-1]) + " and " + lambda_ends[-1] if len(lambda_ends) > 1
                     else "".join(lambda_ends)),
        alpha_before_one=("every transition comes before 1" if all(r["end frac"] < 1 for r in alpha_rows)
                          else "not every transition comes before 1"),
        alpha_trend=("the larger α, the closer to 1 and the sharper it is"
                     if all(np.diff(mids) > 0) and all(np.diff(widths) < 0) and max(mids) < 1
                     else "its position and width do not move steadily toward 1 with α"),
    )


def verdicts_reading(run: Run, results: Sequence[Result]) -> dict[str, str]:
    """The verdicts (``results``: :func:`evaluate`) and the shape of Fig. 1a behind them, in words."""
    alpha_sweep = run.groups["alpha"]
    alpha_rows = [transition_row(h) for h in alpha_sweep]
    # as the verdict B.fig1a.norm reads it: up to clock min(0.5, the run's start fraction)
    deviations = [measure.norm_deviation(h, min(0.5, measure.accuracy_transition(h).fractions[0]))
                  for h in alpha_sweep]
    return dict(
        final_test=f"{min(h.final('test_acc') for h in alpha_sweep):.0%}",
        norm_deviation=f"{max(deviations):.1%}",
        alpha_fractions=(f"{min(r['start frac'] for r in alpha_rows):.1f}–"
                         f"{max(r['end frac'] for r in alpha_rows):.1f}"),
        sc_verdicts=verdict_reading(results),
        sc_regime=regime_reading(results[0]),
    )


def paper_scale_reading() -> dict[str, str]:
    """What was run at the paper's own scale and what was not: the paper profile's settings, the recorded sets'."""
    paper_sparse = config.PROFILES["paper"]["sparse"]
    default_sparse = config.PROFILES["default"]["sparse"]
    paper_sweeps = flat(CHAPTER.runs("paper"))  # each run once
    (paper_mc,) = recordings.mc_paper()
    paper_mis = recordings.misgrokking_paper()
    return dict(
        paper_sparse_d=f"{paper_sparse.d:,}",
        paper_sparse_n=f"{paper_sparse.n_train}",
        paper_sparse_n_test=f"{paper_sparse.n_test:,}",
        paper_sparse_lambda=f"{paper_sparse.weight_decay:g}",
        paper_sparse_lr=f"{paper_sparse.lr:g}",
        paper_sparse_alpha=f"{paper_sparse.alpha:g}",
        paper_sparse_horizon=f"{config.HORIZON['sparse']:g}",
        paper_sparse_steps=f"{paper_sparse.steps:,}",
        paper_sparse_products=f"{paper_sparse.n_train} × {paper_sparse.d:,}",
        paper_sparse_runs=f"{len(paper_sweeps)}",
        paper_sweep_steps=f"{min(c.steps for c in paper_sweeps):,}–{max(c.steps for c in paper_sweeps):,}",
        default_sparse_d=f"{default_sparse.d:,}",
        default_sparse_n=f"{default_sparse.n_train}",
        paper_mc_steps=f"{paper_mc.steps:,}",
        paper_mc_lambda=f"{paper_mc.weight_decay:g}",
        paper_mc_lr=f"{paper_mc.lr:g}",
        paper_mis_d=f"{paper_mis[0].d:,}",
        paper_mis_gamma=f"{paper_mis[0].gamma:g}",
        paper_mis_n=f"{paper_mis[0].n_train}",
        paper_mis_seeds=", ".join(str(c.data_seed) for c in paper_mis),
    )


def paper_lambda_runs() -> list[History]:
    """The recorded set ``sparse_paper_lambda``: this page's alpha sweep at the paper's lambda and step cap."""
    return recorded("sparse_paper_lambda")


def paper_lambda_rows(run: Run) -> list[dict]:
    """:func:`grok_lib.paper_b.paper_lambda.lambda_table` of the recorded set against this page's alpha sweep and focus
    runs."""
    return paper_lambda.lambda_table(paper_lambda_runs(), [*run.groups["alpha"], *focus_at_seeds(run)])


def paper_lambda_reading(run: Run) -> dict[str, str]:
    """:func:`grok_lib.paper_b.paper_lambda.paper_lambda_words` of the recorded set (its manifest says where and when
    it was recorded), read against the bars of B.fig1a.start_fraction and B.fig1a.end_fraction."""
    return paper_lambda.paper_lambda_words(paper_lambda_runs(), paper_lambda_rows(run), focus_run(run.groups),
                                           recorded_runs.read_manifest("paper_b/sparse_paper_lambda"),
                                           START_FRACTION, END_FRACTION)


def paper_d_runs() -> list[History]:
    """The recorded set ``sparse_paper_d``: the alpha sweep at the paper's lambda, step, d and n, as far as it has gone."""
    return recorded("sparse_paper_d")


def paper_d_rows() -> list[dict]:
    """:func:`grok_lib.paper_b.paper_d.size_table` of that set against the one at this page's d."""
    return paper_d.size_table(paper_d_runs(), paper_lambda_runs())


def paper_d_reading() -> dict[str, str]:
    """:func:`grok_lib.paper_b.paper_d.size_words` of that set (its manifest says how far it has gone)."""
    return paper_d.size_words(paper_d_runs(), paper_lambda_runs(),
                              recorded_runs.read_manifest("paper_b/sparse_paper_d"))


def fig1a_sparse(h: History, alpha_sweep: Sequence[History]) -> plt.Figure:
    """Fig. 1a: accuracy and loss of one run against GD steps, and the norm of every alpha run against
    alpha e^{-lambda t}."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 3.3), layout="constrained")
    accuracy_panel(h, "steps", axes[0])
    loss_panel(h, "steps", axes[1])
    norm_vs_prediction(alpha_sweep, axes[2])
    for ax, title in zip(axes, (f"(a) accuracy, {run_label(h)}", "(b) logistic loss", r"(c) $\|\theta\|$, $\alpha$ sweep")):
        ax.set_title(title)
    return fig


def sparse_transition(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> plt.Figure:
    """2 x 2: transition fractions against alpha with the fitted window; the same against 1 / ln(alpha) with the
    extrapolation to alpha -> infinity; end time t against ln(alpha) and against 1 / lambda with the theory slopes."""
    fig, axes = plt.subplots(2, 2, figsize=(9.6, 6.6), layout="constrained")
    alphas = [float(h.cfg.alpha) for h in alpha_sweep]
    fr = [measure.accuracy_transition(h).fractions for h in alpha_sweep]
    starts, ends = [f[0] for f in fr], [f[1] for f in fr]
    win = measure.window_fit(starts, ends)
    transition_fractions(alphas, starts, ends, c=win.c, ax=axes[0, 0])
    axes[0, 0].set_title(r"(a) transition window, $\alpha$ sweep")
    big = [i for i, a in enumerate(alphas) if a > 1]  # alpha <= 1 has no clock
    fit_s, fit_e = measure.try_fit(measure.fraction_limits, [alpha_sweep[i] for i in big]) or (None, None)
    fraction_limit_panel([alphas[i] for i in big], [starts[i] for i in big], [ends[i] for i in big], fit_s, fit_e,
                         ax=axes[0, 1])
    axes[0, 1].set_title(r"(b) the limit $\alpha\to\infty$")
    lam = float(alpha_sweep[0].cfg.weight_decay)
    fa = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep)
    slope_fit(np.log(alphas), measure.transition_times(alpha_sweep), fa, r"$\ln\alpha$",
              ylabel=r"end time $t$ (test acc $\geq$ 0.9)", theory_slope=1 / lam, ax=axes[1, 0])
    axes[1, 0].set_title(rf"(c) against $\ln\alpha$ ($\lambda$={lam:g})")
    alpha = float(lambda_sweep[0].cfg.alpha)
    fl = measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    inv = [1 / float(h.cfg.weight_decay) for h in lambda_sweep]
    slope_fit(inv, measure.transition_times(lambda_sweep), fl, r"$1/\lambda$",
              ylabel=r"end time $t$ (test acc $\geq$ 0.9)", theory_slope=math.log(alpha) if alpha > 1 else None,
              ax=axes[1, 1])
    axes[1, 1].set_title(rf"(d) against $1/\lambda$ ($\alpha$={alpha:g})")
    return fig


def draw_fig1a_sparse(groups):
    return fig1a_sparse(focus_run(groups), groups["alpha"])


def draw_sparse_sweeps(groups):
    return sweeps_figure(groups["alpha"], groups["weight_decay"])


def draw_sparse_transition(groups):
    return sparse_transition(groups["alpha"], groups["weight_decay"])


FIG1A_SPARSE = Figure("paper_b/fig1a_sparse", "Paper B, Figure 1a: sparse classification with a diagonal net: "
                      "accuracy, loss, and the norm against α e^(−λt)", fig1a_sparse_numbers, draw_fig1a_sparse)
SPARSE_SWEEPS = Figure("paper_b/sparse_sweeps", "Paper B: α and λ sweeps of the diagonal net, against steps and against "
                       "λt / ln α", sparse_sweeps_numbers, draw_sparse_sweeps, interactive=True)
SPARSE_TRANSITION = Figure("paper_b/sparse_transition", "Paper B: transition start and end as fractions of ln α / λ, the "
                           "window, the limit α → ∞, the slopes", sparse_transition_numbers, draw_sparse_transition)
CHAPTER = Chapter("notebooks/paper_b/sparse_classification.ipynb", run, sparse_configs,
                  (FIG1A_SPARSE, SPARSE_SWEEPS, SPARSE_TRANSITION), claim_runs=fig1a_seed_configs, claims=tuple(CLAIMS))
