"""Paper C's checks on the linear student with weight decay and with several outputs (C.wd.train_limit,
C.wd.gen_limit, C.dout.peak): one evaluator per figure's claims that measures each claim's quantity per seed and grades
it by the one rule. The shared grading helpers are in :mod:`grok_lib.paper_c.checks`; the small-gamma regime and the
seed means over d_out (which the figures' tables read too) in :mod:`grok_lib.paper_c.measure`."""

from __future__ import annotations

import math
from typing import Sequence

from ..grading import Regime, Result, draw, grade, not_graded
from ..history import History
from . import measure, theory
from .checks import both, by_seed, completes, gd_regime, label, members
from .claims import REGISTRY
from .thresholds import PEAK_RANGE, STEP_CAP, WD_SMALL

#: The slowest mode must have decayed this many e-foldings by the end of a weight-decay run (its transient is then
#: below e^-20 of its start: the final loss is the plateau).
WD_EFOLDINGS = 10.0


def wd_limits_exact_gamma(lam: float, gamma: float, d_out: int, teacher_sq: float) -> tuple[float, float]:
    """The plateaus of the fixed point D_inf = -gamma (2 Sigma / d_out + gamma)^{-1} T for an isotropic teacher
    of squared norm ``teacher_sq`` under the MP law, without the small-gamma expansion:
    L_gen = (||T||^2 / d_out) E_MP[(gamma / (2 nu / d_out + gamma))^2], L_tr the same with a factor nu inside."""
    def shrink(nu: float) -> float:
        return (gamma / (2 * nu / d_out + gamma)) ** 2

    k = teacher_sq / d_out
    return (k * theory.mp_expectation(lambda nu: nu * shrink(nu), lam), k * theory.mp_expectation(shrink, lam))


def wd_ratios(h: History) -> tuple[float, float]:
    """A small-gamma run's final L_tr and L_gen over the plateau formula with the teacher's norm
    (theory.wd_limits_mp)."""
    c = h.cfg
    ours = theory.wd_limits_mp(h.meta["lam_eff"], c.gamma, c.d_out, h.meta["teacher_sq"])
    return h.final("train_loss") / ours[0], h.final("gen_loss") / ours[1]


def _wd_row(h: History) -> str:
    """One small-gamma run's row of the measured text: its ratios to the formula with the teacher's norm, to the
    paper's number and to the MP plateau without the small-gamma expansion."""
    c, lam, t_sq = h.cfg, h.meta["lam_eff"], h.meta["teacher_sq"]
    final = h.final("train_loss"), h.final("gen_loss")
    r = wd_ratios(h)
    paper = theory.wd_limits_paper(lam, c.gamma)
    exact = wd_limits_exact_gamma(lam, c.gamma, c.d_out, t_sq)
    return (f"{label(h)} (d_out ‖T‖² = {c.d_out * t_sq:.3f}): L_tr/formula {r[0]:.3f}, L_gen/formula {r[1]:.3f} "
            f"(/paper's number {final[0] / paper[0]:.3f}, {final[1] / paper[1]:.3f}; /MP without the small-γ "
            f"expansion {final[0] / exact[0]:.3f}, {final[1] / exact[1]:.3f})")


def weight_decay_seed_ratios(histories: Sequence[History]) -> dict[int, list[tuple[str, float]]]:
    """data seed -> ("L_tr|L_gen <run label>", ratio to the plateau formula with the teacher's norm) of that seed's
    small-gamma runs, seeds in increasing order (the runs of a seed move their data and init seeds together)."""
    out: dict[int, list[tuple[str, float]]] = {}
    for s, hs in by_seed([h for h in histories if measure.wd_small(h)], key=lambda h: (h.cfg.lam, h.cfg.gamma)).items():
        for h in hs:
            r = wd_ratios(h)
            out.setdefault(s, []).extend([(f"L_tr {label(h)}", r[0]), (f"L_gen {label(h)}", r[1])])
    return out


def shown_seed(shown: Sequence[History]) -> int:
    """The data seed of the weight-decay chapter's own runs (the book's seed: one for all of them)."""
    (seed,) = {int(h.cfg.data_seed) for h in shown}
    return seed


def plateau_regime(small: Sequence[History]) -> Regime:
    """A plateau is a run's final loss only if the slowest mode's transient is gone: eta (2 s_min / d_out + gamma)
    times the run's steps, the e-foldings of the slowest mode, at least WD_EFOLDINGS on every small-gamma run."""
    folds = [h.cfg.eta * (2 * h.meta["s_min_nonzero"] / h.cfg.d_out + h.cfg.gamma) * int(h.steps[-1])
             if "s_min_nonzero" in h.meta else math.inf for h in small]
    finite = [f for f in folds if math.isfinite(f)]
    measured = f"{min(finite):.3g} at the fewest" if finite else "not measured (no spectrum)"
    return Regime(all(f >= WD_EFOLDINGS for f in folds), "e-foldings of the slowest mode over the run, "
                  "η (2 s_min / d_out + γ) × steps", f"≥ {WD_EFOLDINGS:g} on every small-γ run (the final loss is the "
                  "plateau)", measured)


def evaluate_weight_decay(shown: Sequence[History], further: Sequence[History] = ()) -> list[Result]:
    """C.wd.train_limit and C.wd.gen_limit on the weight-decay runs' final values, judged against the plateau formula
    with the teacher's norm kept (theory.wd_limits_mp), on each seed's small-gamma runs: ``shown``, the chapter's
    own runs (the book's seed, the figure's), and ``further``, its claim-only runs at further seeds
    (chapter_runs.wd_seed_configs). One draw per seed, its members the seed's small-gamma runs."""
    train, gen = REGISTRY["C.wd.train_limit"], REGISTRY["C.wd.gen_limit"]
    small = [h for h in [*shown, *further] if measure.wd_small(h)]
    if not small:
        reason = f"no run in the small-γ regime (γ d_out / (2λ₋) ≤ {WD_SMALL:g})"
        return [not_graded(train, reason), not_graded(gen, reason)]
    groups = by_seed(small, key=lambda h: (h.cfg.lam, h.cfg.gamma))
    ratios = {s: [wd_ratios(h) for h in hs] for s, hs in groups.items()}
    train_draws = [draw([r[0] for r in ratios[s]], s, (), members(hs)) for s, hs in groups.items()]
    gen_draws = [draw([r[1] for r in ratios[s]], s, (), members(hs)) for s, hs in groups.items()]
    book_seed = shown_seed(shown)
    rows = [_wd_row(h) for h in groups.get(book_seed, [])]
    context = (f"run by run, seed {book_seed} (the book's; the figure's runs): " + "; ".join(rows)
               + ". The paper's number is the formula at d_out ‖T‖² = 1 (a unit-norm teacher with one output); this "
               "initialisation has E‖T‖² = 1/2")
    where = both(gd_regime(small), plateau_regime(small))
    return [grade(train, train_draws, context, regime=where), grade(gen, gen_draws, regime=where)]


# --- several outputs -----------------------------------------------------------------------------------
def peak_value(histories: Sequence[History]) -> tuple[list[int], float]:
    """The d_outs and C.dout.peak's quantity: the largest seed-mean Delta t at an interior d_out in PEAK_RANGE over
    the larger of the ends' (:func:`measure.peak_over_ends`)."""
    table = measure.d_out_seed_means(histories)
    ds = list(table)
    return ds, measure.peak_over_ends(ds, [table[d][0] for d in ds], *PEAK_RANGE)


def evaluate_d_out(histories: Sequence[History]) -> Result:
    """C.dout.peak on the d_out sweep (several seeds per d_out): one draw, from the seed means."""
    claim = REGISTRY["C.dout.peak"]
    table = measure.d_out_seed_means(histories)
    ds, value = peak_value(histories)
    seeds = sorted({int(h.cfg.data_seed) for h in histories})
    x, interior = measure.peak(ds, [table[d][0] for d in ds])
    xs, interior_s = measure.peak(ds, [table[d][2] for d in ds])
    one = draw(value, f"mean over seeds {', '.join(map(str, seeds))}")
    context = ("Δt (steps, seed mean ± standard error): " + ", ".join(f"{d}: {table[d][0]:.3g}±{table[d][1]:.2g}"
                                                                     for d in ds)
               + f" (largest at d_out = {x:g}, {'interior' if interior else 'an end of the range'}); reported, not "
               "graded: Δt / d_out: " + ", ".join(f"{d}: {table[d][2]:.3g}±{table[d][3]:.2g}" for d in ds)
               + f" (largest at d_out = {xs:g}, {'interior' if interior_s else 'an end of the range'}); exact theory "
               "with the isotropic accuracy law, Δt / d_out: " + ", ".join(f"{d}: {table[d][4] / d:.3g}" for d in ds)
               + ". " + capped_peak_text(histories))
    return grade(claim, [one], context, regime=both(gd_regime(histories), completes(histories)))


def capped_peak_text(histories: Sequence[History], cap: int = STEP_CAP) -> str:
    """The hypothesis sentence beside C.dout.peak: where raw Delta t would peak if runs stopped at ``cap`` steps."""
    table = measure.capped_d_out_seed_means(histories, cap)
    ds = list(table)
    x, interior = measure.peak(ds, [table[d][3] for d in ds])
    censored = [d for d in ds if table[d][4]]
    return (f"Hypothesis, not graded: with runs stopped at {cap:.0e} steps (a cap the paper does not state), Δt "
            f"recorded as min(t_test, cap) − t_train peaks at d_out = {x:g}"
            + (" (interior)" if interior else " (an end of the range)")
            + (f"; the test accuracy crosses after the cap at d_out = {', '.join(map(str, censored))}" if censored
               else "; no test crossing falls after the cap") + ".")


def evaluate_gamma_law(histories: Sequence[History]) -> Result:
    """C.acc.gamma_law on the d_out sweep's runs with d_out > 1, every seed: C.acc.law's measure and bound."""
    from .checks import accuracy_law_bound, accuracy_law_comparisons

    claim = REGISTRY["C.acc.gamma_law"]
    runs = [h for h in histories if h.cfg.d_out > 1]
    if not runs:
        return not_graded(claim, "no run with d_out > 1")
    (family,) = claim.choices
    count = accuracy_law_comparisons(runs)
    dev = {id(h): measure.accuracy_law_deviations(h) for h in runs}
    z = {w: {id(h): float(dev[id(h)][w][1].max()) for h in runs} for w in ("train", "test")}
    draws = [draw([max(z["train"][id(h)], z["test"][id(h)]) / accuracy_law_bound(count, level) for h in hs], s,
                  (level,), members(hs))
             for s, hs in by_seed(runs).items() for level in family.grid]
    worst = {w: max(runs, key=lambda h: z[w][id(h)]) for w in ("train", "test")}
    gap = {w: max(float(dev[id(h)][w][0].max()) for h in runs) for w in ("train", "test")}
    context = (f"largest z: train {z['train'][id(worst['train'])]:.2f} ({label(worst['train'])}), test "
               f"{z['test'][id(worst['test'])]:.2f} ({label(worst['test'])}); largest |Δ| train {gap['train']:.3f}, "
               f"test {gap['test']:.3f}; Bonferroni bounds for {count} comparisons: "
               + ", ".join(f"{accuracy_law_bound(count, level):.2f} at {level:g}" for level in family.grid))
    return grade(claim, draws, context, regime=gd_regime(runs))
