"""Matrix completion of the multiplication table (``notebooks/paper_b/matrix_completion.ipynb``): one run, the recorded
runs with initialisation noise and at the paper's settings, the claims B.mc.* with their bars and checks, the tables
and key numbers, the prose's numbers and the figure."""

from __future__ import annotations

import collections
from dataclasses import replace
import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ... import recorded as recorded_runs
from ...chapters import Chapter, Figure
from ...claims import registry
from ...figure_numbers import none_if_nan
from ...grading import Bar, Choice, Claim, draw, grade, moved, not_graded, Result
from ...history import History
from ...notebook import Run, start
from .. import config, measure, recordings, regimes
from ..claim_terms import KERNEL_WINDOW, MC_DROP_LEVELS, REBUTTAL
from ..config import MatrixCompletionConfig
from ..curve_numbers import at_clocks, CLOCK_POINTS, rounded
from ..matrix_completion import target
from ..measure import crossing_step
from ..panels import mse_panel, rank_panel, run_label
from ..recordings import MC_NOISE_LEVELS
from ..run_sets import recorded, single_config
from ..words import power_of_ten, regime_reading, verdict_reading


#: "train loss fit in ~10 steps" at the paper's step 0.1: continuous time ~1, read to a decade either side.
MC_FIT_T = Bar(0.1, 10.0, log=True)


MC_FIT_LEVELS = (1e-1, 1e-2, 1e-3)  #: train MSE at this fraction of its initial value (central 1e-2)


MC_PLATEAU = Bar(lo=0.8)  #: kernel-phase test MSE over the zero predictor's: "no progress" on the unobserved entries


MC_PLATEAU_GRID = (Bar(lo=0.7), Bar(lo=0.9))


MC_PLATEAU_CLOCKS = (0.05, 0.1, 0.2)  #: the clock the kernel plateau is read at (central 0.1)


MC_RECOVERY = Bar(hi=0.1)  #: final test MSE over the kernel plateau


MC_RANK_EXCESS = Bar(hi=0.5)  #: final stable rank of W minus 1 ("rank one")


#: The paper's "~1e6 steps" at lr 0.1, lambda 1e-4, alpha 10 on the clock: 4.3.
MC_PAPER_CLOCK = 1e6 * 0.1 * 1e-4 / math.log(10)


#: "~1e6" is an order of magnitude on a log axis: a decade either side.
MC_CLOCK = Bar(MC_PAPER_CLOCK / 10, MC_PAPER_CLOCK * 10, log=True)


#: "close to the original one": the noisy run's transition clock within 10% of the noise-free run's.
MC_NOISE_CLOCK = Bar(hi=0.1)


MC_QUOTE = ("We can prove that initially gradient flow can fit the observed entries but make no progress on the "
            "remaining ones, but eventually it can generalize to unobserved entries and recover the ground truth.")


CLAIMS = registry([
    Claim(
        "B.mc.train_fit", "B", "claim", "figure", "Sec. 3.3.3",
        "the book's reading of the paper's matrix-completion experiment (d = 97, α = 10, λ = 10⁻⁴, step 0.1): the "
        "train loss is fitted in about 10 steps",
        "The observed entries are fitted in about 10 steps of size 0.1: by continuous time about 1.",
        "continuous time t at the first recorded step with train MSE ≤ ε × its initial value",
        MC_FIT_T, choices=(Choice("train-MSE level ε (of its initial value)", MC_FIT_LEVELS[1], MC_FIT_LEVELS,
                                  "'fitted' names no level", ".0e"),), fmt=".3g",
        why="'~10 steps' is an order of magnitude: a decade either side of t = 1"),
    Claim(
        "B.mc.kernel_plateau", "B", "claim", "review", f"Cor. 3.11 and {REBUTTAL}", MC_QUOTE,
        "Meanwhile there is no progress on the unobserved entries: the test MSE stays at the zero predictor's.",
        "kernel-plateau test MSE (read at λt / ln α = x) over the zero predictor's test MSE",
        MC_PLATEAU, choices=(Choice("clock x the plateau is read at", MC_PLATEAU_CLOCKS[1], MC_PLATEAU_CLOCKS,
                                    "the paper names no time"),), bars=MC_PLATEAU_GRID, fmt=".3f",
        why="the entries of Ωᵀ are fitted with Ω (W is symmetric), so the ratio sits a little below 1; the off-support "
            "RMS of W is reported"),
    Claim(
        "B.mc.recovery", "B", "claim", "review", f"Thm 3.12 and {REBUTTAL}", MC_QUOTE,
        "Later the unobserved entries are recovered: the test MSE falls far below its kernel plateau.",
        "final test MSE over the kernel plateau's (read at λt / ln α = 0.1)",
        MC_RECOVERY, bars=moved(MC_RECOVERY), fmt=".3f",
        why="the paper states no level; λ > 0 keeps the recovered table a little shrunk"),
    Claim(
        "B.mc.rank_one", "B", "claim", "review", f"Thm 3.12 and {REBUTTAL}", MC_QUOTE,
        "The late solution is the minimum-nuclear-norm completion, which for this table is rank one.",
        "final stable rank of W minus 1",
        MC_RANK_EXCESS, bars=moved(MC_RANK_EXCESS), fmt=".3f",
        why="the paper states no tolerance; the table X* has stable rank 1"),
    Claim(
        "B.mc.clock", "B", "claim", "figure", "Sec. 3.3.3",
        "the book's reading of the paper's matrix-completion experiment: the test loss falls at about 10⁶ steps "
        f"(λ = 10⁻⁴, step 0.1, α = 10: λt / ln α ≈ {MC_PAPER_CLOCK:.1f})",
        rf"The test loss falls at about $10^6$ steps of the paper's run: $\lambda t/\ln\alpha \approx$ {MC_PAPER_CLOCK:.1f}.",
        "λt / ln α at the first recorded step after the plateau where the test MSE has dropped by a share q of its "
        "kernel plateau",
        MC_CLOCK, choices=(Choice("drop q marking the fall", MC_DROP_LEVELS[1], MC_DROP_LEVELS,
                                  "the paper does not say which level of the fall its number marks"),), fmt=".2f",
        why="'~10⁶' is an order of magnitude read off a log axis: a decade either side"),
    Claim(
        "B.mc.noisy_init", "B", "claim", "review", f"Remark 3.13 and {REBUTTAL}",
        "if we add sufficiently small noise to the initialization, the trajectory of gradient flow would remain close "
        "to the original one for arbitrarily long time period",
        "With small random noise on the initialisation the run still goes from the kernel plateau to the recovered "
        "table, at the noise-free run's clock.",
        "|x_σ(q) / x_0(q) − 1|, x(q): λt / ln α where the test MSE has first dropped by q of its kernel plateau, for "
        "the run with init noise σ against the noise-free run on the same observed set, per init seed (a run that "
        "never falls has no value)",
        MC_NOISE_CLOCK, choices=(Choice("init noise σ (std of each entry of U and V; α = 10)", MC_NOISE_LEVELS[1],
                                        MC_NOISE_LEVELS, "the remark says 'small', with no number", ".0e"),
                                 Choice("drop q marking the fall", MC_DROP_LEVELS[1], MC_DROP_LEVELS,
                                        "as B.mc.clock")),
        bars=moved(MC_NOISE_CLOCK), fmt=".3f",
        why="'close' has no number: the book's 10% of the clock, moved either way"),
])


def _matrix_completion_config(profile, alpha=None, horizon=None, **overrides):
    return single_config("matrix_completion", profile, alpha, horizon, **overrides)


def matrix_completion_configs(profile) -> list:
    """The matrix-completion chapter's one run at a profile."""
    return [_matrix_completion_config(profile)]


def run(profile: str = "default", alpha=None, weight_decay=None, lr=None, d=None, observed_frac=None,
        init_noise=None, horizon=None, data_seed=None, *, output_path=None) -> Run:
    """One matrix-completion run, ending at ``horizon`` x ln(alpha) / lambda."""
    overrides = {"weight_decay": weight_decay, "lr": lr, "d": d, "observed_frac": observed_frac,
                 "init_noise": init_noise, "data_seed": data_seed}
    configs = [_matrix_completion_config(profile, alpha, horizon, **overrides)]
    parameters = {"profile": profile, "alpha": alpha, "horizon": horizon, **overrides}
    return start(profile, parameters, configs, matrix_completion_configs("default"), output_path)


def matrix_completion_run(histories: Sequence[History]) -> History:
    return next(h for h in histories if isinstance(h.cfg, MatrixCompletionConfig))


#: The clock the recovery is measured against: the kernel plateau at its central reading.
PLATEAU_CLOCK = MC_PLATEAU_CLOCKS[1]


def target_rms(h: History) -> float:
    """The RMS of the table a run recovers (the scale its far-from-the-table readings are measured against)."""
    return float(np.sqrt(np.mean(target(int(h.cfg.d)) ** 2)))


def fit_time(h: History, eps: float) -> float:
    """Continuous time at the first recorded step with train MSE ≤ eps × its initial value (NaN if never)."""
    fit = h["train_mse"] <= eps * h["train_mse"][0]
    return float(measure.continuous_time(h)[np.argmax(fit)]) if fit.any() else math.nan


def drop_clock(h: History, q: float) -> float:
    """λt / ln α where the test MSE has first dropped by a share q of its kernel plateau (NaN if never)."""
    return measure.drop_transition(h, start=1 - q, end=1 - q).fractions[0]


def evaluate_matrix_completion(h: History) -> list[Result]:
    """The matrix-completion chapter's claims on one run (the default profile's, or the recorded paper-scale run)."""
    where = regimes.both(regimes.stability([h]), regimes.drop_ends([h]))
    seed = int(h.cfg.data_seed)
    fit, plateau, clock = (CLAIMS[c] for c in ("B.mc.train_fit", "B.mc.kernel_plateau", "B.mc.clock"))
    steps = ", ".join(f"ε {e:.0e}: step {step_at(h, fit_time(h, e))}" for e in fit.choices[0].grid)
    far = measure.value_in_clock(h, "far_rms", 0.0, 0.5, np.max) / target_rms(h)
    base = measure.plateau(h, at_clock=PLATEAU_CLOCK)
    return [
        grade(fit, [draw(fit_time(h, e), seed, (e,)) for e in fit.choices[0].grid],
              f"at step {h.cfg.lr:g}: {steps} (the paper's ~10 steps at step 0.1)", where),
        grade(plateau, [draw(measure.plateau(h, at_clock=x) / h.meta["zero_test_mse"], seed, (x,))
                        for x in plateau.choices[0].grid],
              f"RMS of W off Ω ∪ Ωᵀ up to λt / ln α = 0.5: {far:.1e} of the table's RMS", where),
        grade(CLAIMS["B.mc.recovery"], [draw(h.final("test_mse") / base, seed)],
              f"final test MSE {h.final('test_mse'):.4f}, plateau {base:.4f}", where),
        grade(CLAIMS["B.mc.rank_one"], [draw(h.final("stable_rank") - 1, seed)],
              f"stable rank {measure.value_in_clock(h, 'stable_rank', *KERNEL_WINDOW):.2f} in the kernel window → "
              f"{h.final('stable_rank'):.2f}; nuclear norm {h.final('nuclear'):.1f} (X*: "
              f"{h.meta.get('target_nuclear', math.nan):.1f})", where),
        grade(clock, [draw(drop_clock(h, q), seed, (q,)) for q in clock.choices[0].grid],
              f"the run ends at λt / ln α = {measure.clock(h)[-1]:.2f}", where),
    ]


def noisy_twins(clean: History, noisy: Sequence[History]) -> list[History]:
    """The runs of ``noisy`` that are ``clean``'s config with initialisation noise (any noise level and seed)."""
    return [h for h in noisy if h.cfg.init_noise > 0
            and replace(h.cfg, init_noise=0.0, init_seed=clean.cfg.init_seed) == clean.cfg]


def evaluate_noisy_init(clean: History, noisy: Sequence[History]) -> Result:
    """Remark 3.13 (B.mc.noisy_init): each run with init noise against the noise-free run on the same observed set,
    the transition clock at every drop level, per init seed and noise level."""
    claim = CLAIMS["B.mc.noisy_init"]
    runs = noisy_twins(clean, noisy)
    if not runs:
        return not_graded(claim, "no matrix-completion run with initialisation noise at this run's settings (the "
                                 "recorded ones are the default profile's)")
    levels = claim.choices[1].grid
    base = {q: drop_clock(clean, q) for q in levels}
    draws = [draw(abs(drop_clock(h, q) / base[q] - 1), int(h.cfg.init_seed), (float(h.cfg.init_noise), q))
             for h in runs for q in levels]
    finals = ", ".join(f"σ {h.cfg.init_noise:.0e} seed {h.cfg.init_seed}: {h.final('test_mse') / measure.plateau(h):.3f}"
                       for h in runs)
    context = (f"noise-free clock at q = {', '.join(f'{q:g}: {base[q]:.3f}' for q in levels)}; reported, not graded: "
               f"final test MSE over the kernel plateau, {finals} (noise-free {clean.final('test_mse') / measure.plateau(clean):.3f})")
    return grade(claim, draws, context, regimes.both(regimes.stability(runs), regimes.drop_ends([clean, *runs])))


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on its run, and Remark 3.13's on the recorded runs with init noise."""
    mc = matrix_completion_run(run.histories)
    return evaluate_matrix_completion(mc) + [evaluate_noisy_init(mc, noisy_runs())]


def step_at(h: History, t: float) -> int | None:
    """The first recorded step at continuous time >= t (None if never)."""
    if not math.isfinite(t):
        return None
    hit = measure.continuous_time(h) >= t
    return int(h.steps[np.argmax(hit)]) if hit.any() else None


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


def matrix_completion_table(histories: Sequence[History]) -> list[dict]:
    """The run's readings: the kernel plateau, the transition on the clock, the recovery."""
    h = matrix_completion_run(histories)
    t = measure.continuous_time(h)
    fit = np.flatnonzero(h["train_mse"] <= 0.01 * h["train_mse"][0])
    tr = measure.drop_transition(h)
    s, e = tr.fractions
    lo, hi = KERNEL_WINDOW
    return [
        {"reading": "observed entries |Omega|", "value": h.meta["n_observed"]},
        {"reading": "train MSE <= 1% of initial: first step", "value": int(h.steps[fit[0]]) if fit.size else math.nan},
        {"reading": "  its continuous time t", "value": rounded(t[fit[0]], 2) if fit.size else math.nan},
        {"reading": "max RMS of W off Omega u Omega^T / RMS(X*), clock <= 0.5",
         "value": float(f"{measure.value_in_clock(h, 'far_rms', 0.0, 0.5, np.max) / target_rms(h):.3g}")},
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
    h = matrix_completion_run(histories)
    values = at_clocks(h, ("train_mse", "test_mse", "far_rms", "nuclear", "stable_rank"),
                       (*CLOCK_POINTS, 3.0, 4.0))
    tr = measure.drop_transition(h)
    values["mc/T_drop10"], values["mc/T_drop90"] = none_if_nan(crossing_step(tr.start)), none_if_nan(crossing_step(tr.end))
    return values


def mc_noise_table(clean: History, noisy: Sequence[History]) -> list[dict]:
    """Remark 3.13's runs beside the noise-free one: per init noise and seed, the clock λt / ln α at each drop of the
    test MSE that B.mc.noisy_init reads, and the final test MSE over the kernel plateau."""

    rows = []
    for h in [clean, *noisy]:
        row = {"init noise σ": f"{h.cfg.init_noise:.0e}" if h.cfg.init_noise else "0 (the chapter's run)",
               "init seed": int(h.cfg.init_seed) if h.cfg.init_noise else "–"}
        for q in MC_DROP_LEVELS:
            row[f"clock at {q:.0%} drop"] = round(measure.drop_transition(h, start=1 - q, end=1 - q).fractions[0], 3)
        row["final / plateau"] = round(h.final("test_mse") / measure.plateau(h), 3)
        rows.append(row)
    return rows


def noisy_init_reading(clean: History, noisy: Sequence[History], result: Result) -> dict[str, str]:
    """The numbers the matrix-completion page quotes about B.mc.noisy_init (glued): per noise level, the largest
    relative move of the transition clock over the seeds and drops, and the verdict."""

    noisy = noisy_twins(clean, noisy)
    moves = collections.defaultdict(list)
    for h in noisy:
        for q in MC_DROP_LEVELS:
            moves[h.cfg.init_noise].append(abs(drop_clock(h, q) / drop_clock(clean, q) - 1))
    per_level = "; ".join(f"σ = {s:.0e}: at most {max(m):.1%}" for s, m in sorted(moves.items()))
    seeds = sorted({int(h.cfg.init_seed) for h in noisy})
    return {"noise_moves": per_level or "nothing (no noisy run at this run's settings)", "noise_seeds": f"{len(seeds)}",
            "noise_verdict": f"**{result.word}**",
            "noise_levels": ", ".join(f"{s:.0e}" for s in sorted(moves))}


#: The stable rank B.mc.rank_one's central bar allows.
MC_SRANK_MAX = 1 + MC_RANK_EXCESS.hi
#: The fall's levels the prose reads (as B.mc.clock reads them): 10%, 50% and 90% below the plateau.
FALL_LEVELS = (0.1, 0.5, 0.9)


def describe(run: Run) -> str:
    """The line the notebook prints: the run's settings."""
    mc = matrix_completion_run(run.histories)
    return (f"profile {run.profile!r}: d={mc.cfg.d}, {mc.meta['n_observed']} observed entries, "
            f"alpha={mc.cfg.alpha:g}, lambda={mc.cfg.weight_decay:g}, lr={mc.cfg.lr:g}, {mc.cfg.steps} steps")


def setting_reading(run: Run) -> dict[str, str]:
    """The run's stability, its observed entries, its clock's unit and where the clock ends."""
    mc = matrix_completion_run(run.histories)
    unit = measure.clock_unit(mc.cfg)
    drop = measure.drop_transition(mc)
    end_clock = measure.clock(mc)[-1]
    return dict(
        mc_stability=f"{mc.cfg.lr * regimes.sharpness_at_init(mc.cfg):.2g}",
        mc_n_observed=f"{mc.meta['n_observed']:,}",
        mc_unit=f"{unit:,.0f}",
        mc_paper_clock_steps=f"{round(MC_PAPER_CLOCK * unit / mc.cfg.lr, -3):,.0f}",
        mc_whole_fall=(f"{end_clock:.3g} shows the whole fall" if drop.end and drop.end.fraction < end_clock
                       else f"{end_clock:.3g} does not reach the end of the fall"),
    )


def levels_reading() -> dict[str, str]:
    """Where the plateau is read and the drops that mark the transition's start and end."""
    return dict(
        plateau_clock=f"{measure.PLATEAU_CLOCK:g}",
        drop_start=f"{1 - measure.START_DROP:.0%}",
        drop_end=f"{1 - measure.END_DROP:.0%}",
    )


def run_reading(run: Run) -> dict[str, str]:
    """The run's fit, plateau, fall, rank and norm (:func:`matrix_completion_table`), in words."""
    mc = matrix_completion_run(run.histories)
    rows = matrix_completion_table(run.histories)
    far_reading = next(r["reading"] for r in rows if r["reading"].startswith("max RMS of W off"))
    far_value = next(r["value"] for r in rows if r["reading"] == far_reading)
    plateau = measure.plateau(mc)
    drop = measure.drop_transition(mc)
    fitted = measure.first_crossing(mc, "train_mse", 0.01 * float(mc["train_mse"][0]), above=False)
    train_mse = np.asarray(mc["train_mse"])[mc.steps >= (fitted.step if fitted else 0)]
    kernel_start = int(mc.steps[measure.clock(mc) >= KERNEL_WINDOW[0]][0])
    low_rank = measure.first_crossing(mc, "stable_rank", MC_SRANK_MAX, above=False, after_step=kernel_start)
    nuclear_end, nuclear_target = mc.final("nuclear"), mc.meta["target_nuclear"]
    return dict(
        mc_fit_step=f"{fitted.step}" if fitted else "never",
        mc_fit_t=f"{fitted.t:.3g}" if fitted else "never",
        mc_plateau=f"{plateau:.3g}",
        mc_plateau_share=f"{plateau / mc.meta['zero_test_mse']:.0%}",
        mc_zero=f"{mc.meta['zero_test_mse']:.3g}",
        mc_far=power_of_ten(far_value),
        mc_far_clock=far_reading.rsplit("<= ", 1)[1],
        mc_drop_start=f"{drop.start.fraction:.3g}" if drop.start else "never",
        mc_drop_end=f"{drop.end.fraction:.3g}" if drop.end else "never",
        mc_end_clock=f"{measure.clock(mc)[-1]:.3g}",
        mc_end_mse=f"{mc.final('test_mse'):.2g}",
        mc_end_share=f"{mc.final('test_mse') / plateau:.0%}",
        mc_train_low=power_of_ten(train_mse.min()),
        mc_train_high=power_of_ten(train_mse.max()),
        mc_srank=f"{measure.value_in_clock(mc, 'stable_rank', *KERNEL_WINDOW):.2f} to {mc.final('stable_rank'):.2f}",
        mc_srank_end=f"{mc.final('stable_rank'):.2f}",
        mc_srank_bound=f"{MC_SRANK_MAX:g}",
        mc_srank_clock=f"{low_rank.fraction:.2f}" if low_rank else "never",
        mc_nuclear=f"{measure.value_in_clock(mc, 'nuclear', *KERNEL_WINDOW):.1f} to {nuclear_end:.1f}",
        mc_nuclear_target=(f"below the table's {nuclear_target:.1f} because λ > 0 shrinks the recovered table (the "
                           f"train MSE does not return to 0)" if nuclear_end < nuclear_target
                           else f"not below the table's {nuclear_target:.1f}"),
    )


def noisy_runs() -> list[History]:
    """The recorded set ``mc_init_noise``: the chapter's run with noise added to its initialisation."""
    return recorded("mc_init_noise")


def paper_run() -> History:
    """The recorded set ``mc_paper``: matrix completion at the paper's settings (one run)."""
    (h,) = recorded("mc_paper")
    return h


def fall_levels(h: History) -> dict:
    """Where the test MSE first falls 10%, 50% and 90% below its plateau (a crossing, or None)."""
    return {q: measure.drop_transition(h, start=1 - q, end=1 - q).start for q in FALL_LEVELS}


def inside_phrase(levels: dict, where: str) -> str:
    """Which of the fall's ``levels`` lie inside the paper's decade (B.mc.clock's bar), in words."""
    inside = [q for q, c in levels.items() if c and MC_CLOCK.lo <= c.fraction <= MC_CLOCK.hi]
    if len(inside) == len(levels):
        return f"every level of the fall lies inside{where}"
    if not inside:
        return f"no level of the fall lies inside{where}"
    return ("the " + " and ".join(f"{q:.0%}" for q in inside) + f" drop lie inside{where}, the "
            + " and ".join(f"{q:.0%}" for q in levels if q not in inside) + " drop outside")


def verdicts_reading(run: Run) -> dict[str, str]:
    """The chapter's verdicts on its run and where its fall lies against the paper's about 1e6 steps."""
    mc = matrix_completion_run(run.histories)
    results = evaluate_matrix_completion(mc)
    drop = measure.drop_transition(mc)
    ratio = MC_PAPER_CLOCK / drop.end.fraction if drop.end else np.nan
    levels = fall_levels(mc)
    return dict(
        mc_verdicts=verdict_reading(results),
        mc_regime=regime_reading(results[0]),
        mc_paper_factor=(f"a factor {ratio:.1f} earlier than" if ratio >= 1 else f"a factor {1 / ratio:.1f} later than"),
        mc_levels=", ".join(f"{q:.0%} at {c.fraction:.2f}" if c else f"{q:.0%} never" for q, c in levels.items()),
        mc_band=f"{MC_CLOCK.lo:.2f}–{MC_CLOCK.hi:.2f}",
        mc_decades=f"{MC_CLOCK.width() / 2:g}",
        mc_inside=inside_phrase(levels, " it"),
    )


def noise_reading(run: Run) -> dict[str, str]:
    """Remark 3.13 on the recorded runs with init noise against the chapter's noise-free run
    (:func:`noisy_init_reading`)."""
    clean, noisy = matrix_completion_run(run.histories), noisy_runs()
    return noisy_init_reading(clean, noisy, evaluate_noisy_init(clean, noisy))


def paper_setting_reading(run: Run) -> dict[str, str]:
    """The recorded run at the paper's settings: its settings, length, where and how long it was recorded, against
    the paper profile's and this page's."""
    mc, mc_paper = matrix_completion_run(run.histories), paper_run()
    manifest = recorded_runs.read_manifest("paper_b/mc_paper")
    unit = measure.clock_unit(mc_paper.cfg)
    profile = config.PROFILES["paper"]["matrix_completion"]
    return dict(
        mcp_lambda=f"{mc_paper.cfg.weight_decay:g}",
        mcp_lr=f"{mc_paper.cfg.lr:g}",
        mcp_alpha=f"{mc_paper.cfg.alpha:g}",
        mcp_d=f"{mc_paper.cfg.d}",
        mcp_observed=f"{mc_paper.cfg.observed_frac:.0%}",
        mcp_seed=f"{mc_paper.cfg.data_seed}",
        mcp_steps=f"{mc_paper.cfg.steps:,}",
        mcp_end_clock=f"{measure.clock(mc_paper)[-1]:.2f}",
        mcp_minutes=f"{manifest['runs'][0]['seconds'] / 60:.0f}",
        mcp_machine=manifest["machine"],
        mcp_recorded=manifest["recorded"],
        mcp_profile_steps=f"{profile.steps:,}",
        mcp_profile_clock=f"{profile.steps * profile.lr / unit:.1f}",
        mcp_paper_clock=f"{MC_PAPER_CLOCK:.1f}",
        mcp_past=f"{recordings.MC_STEPS * profile.lr / unit / MC_PAPER_CLOCK - 1:.0%}",
        mc_lambda_here=f"{mc.cfg.weight_decay:g}",
        mc_lr_here=f"{mc.cfg.lr:g}",
    )


def paper_compare_table(run: Run) -> list[dict]:
    """:func:`matrix_completion_compare` of this page's run and the recorded run at the paper's settings."""
    return matrix_completion_compare(matrix_completion_run(run.histories), paper_run())


def paper_reading(run: Run) -> dict[str, str]:
    """The verdicts at the paper's settings and its fall against this page's run, in words."""
    mc, mc_paper = matrix_completion_run(run.histories), paper_run()
    results = evaluate_matrix_completion(mc_paper)
    levels = fall_levels(mc_paper)
    fitted = measure.first_crossing(mc_paper, "train_mse", 0.01 * float(mc_paper["train_mse"][0]), above=False)
    plateau = measure.plateau(mc_paper)
    far = measure.value_in_clock(mc_paper, "far_rms", 0.0, 0.5, np.max) / target_rms(mc_paper)
    paper_90, here_90 = levels[0.9], fall_levels(mc)[0.9]
    both = paper_90 and here_90
    return dict(
        mcp_verdicts=verdict_reading(results),
        mcp_regime=regime_reading(results[0]),
        mcp_fit_step=f"{fitted.step}" if fitted else "never",
        mcp_fit_t=f"{fitted.t:.3g}" if fitted else "never",
        mcp_far=power_of_ten(far),
        mcp_plateau_share=f"{plateau / mc_paper.meta['zero_test_mse']:.0%}",
        mcp_levels=", ".join(f"{q:.0%} at {c.fraction:.2f} (step {c.step:,})" if c else f"{q:.0%} never"
                             for q, c in levels.items()),
        mcp_inside=inside_phrase(levels, " the paper's decade"),
        mcp_end_share=f"{mc_paper.final('test_mse') / plateau:.1%}",
        mcp_srank_end=f"{mc_paper.final('stable_rank'):.2f}",
        mcp_vs_here=(f"clock {paper_90.fraction:.2f}, in this page's run at {here_90.fraction:.2f}" if both
                     else "a clock not comparable with this page's run (one of the two never falls 90%)"),
        mcp_step90=f"{paper_90.step:,}" if paper_90 else "never",
        mc_step90=f"{here_90.step:,}" if here_90 else "never",
        mcp_steps_ratio=f"{paper_90.step / here_90.step:.0f}" if both else "—",
        mcp_clock_ratio=f"{paper_90.fraction / here_90.fraction:.2f} times" if both else "—",
    )


def matrix_completion_figure(h: History) -> plt.Figure:
    """Matrix completion: MSEs against steps and against the clock, nuclear norm and stable rank on the clock."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 4.2), layout="constrained")
    mse_panel(h, "steps", axes[0])
    mse_panel(h, "clock", axes[1])
    rank_panel(h, "clock", axes[2])
    axes[0].set_title(f"(a) errors against steps, {run_label(h)}")
    axes[1].set_title(r"(b) errors against $\lambda t/\ln\alpha$")
    axes[2].set_title("(c) nuclear norm and stable rank of W")
    one_legend_below(fig)
    return fig


def one_legend_below(fig, ncol: int = 4) -> None:
    """The panels' legends as one legend below the figure, each label once: panels that share their entries
    (the same curves against steps and against the clock) do not repeat them, and no legend covers data."""
    handles, labels = [], []
    for ax in fig.axes:
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=8)


def draw_matrix_completion(histories):
    return matrix_completion_figure(matrix_completion_run(histories))


FIGURE = Figure("paper_b/matrix_completion", "Paper B: matrix completion of the multiplication table: kernel plateau, "
                "then low-rank recovery", matrix_completion_numbers, draw_matrix_completion)
CHAPTER = Chapter("notebooks/paper_b/matrix_completion.ipynb", run, matrix_completion_configs, (FIGURE,),
                  claims=tuple(CLAIMS))
