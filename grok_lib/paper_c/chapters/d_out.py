"""The grokking time against the output dimension at λ = 0.9 (``notebooks/paper_c/d_out.ipynb``): C.dout.peak and the
accuracy law for d_out > 1 (C.acc.gamma_law), on one linear run per d_out and seed."""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt

from ...chapters import Chapter, Figure
from ...claims import registry
from ...grading import Bar, Claim, Result, draw, grade, not_graded
from ...history import History
from ...notebook import Run, start
from ...tables import typeset
from .. import config as C, measure
from ..claim_terms import ACC_BOUND, ACC_FAMILY, NOTES
from ..curve_numbers import as_int, crossings
from ..draws import accuracy_law_bound, accuracy_law_comparisons, both, by_seed, completes, gd_regime, label, members
from ..measure import STEP_CAP
from ..panels import DT, plot_d_out
from ..run_sets import given


#: "a peak near d_out ~ 50": the largest seed-mean Delta t at an interior d_out in [20, 100] over the larger of the
#: two ends' must be at least 1 (the peak is a maximum).
PEAK_RANGE = (20, 100)


PEAK_OVER_ENDS = Bar(lo=1.0)


CLAIMS = registry([
    Claim(
        "C.dout.peak", "C", "claim", "text", NOTES,
        "d_out: η → η/d_out; Δt peaks near d_out ≈ 50 at λ = 0.9",
        r"At $\lambda = 0.9$ the grokking time against $d_{\mathrm{out}}$ has a peak near $d_{\mathrm{out}} \approx 50$.",
        f"the largest seed-mean Δt_grok (steps, ε = 1e-3) at an interior d_out in [{PEAK_RANGE[0]}, {PEAK_RANGE[1]}] "
        "over the larger of the values at the sweep's ends (d_out = 1 and 100), the mean over the seeds' runs "
        "(d_out ∈ {1, 2, 5, 10, 20, 50, 100}, 3 seeds); runs go until both accuracies have crossed",
        PEAK_OVER_ENDS, fmt=".2f",
        why="a peak is a maximum: at least 1. 'Near 50' read as the interior d_out of the sweep in [20, 100]; "
            "Δt / d_out (which removes the trivial η → η/d_out slow-down) and a step-cap hypothesis are reported"),
    Claim(
        "C.acc.gamma_law", "C", "claim", "text", NOTES,
        "d_out > 1: accuracy is a regularized incomplete gamma function",
        r"For $d_{\mathrm{out}} > 1$ the threshold accuracy is the regularised incomplete $\Gamma$ function of the loss: "
        r"$A = P(d_{\mathrm{out}}/2,\ \varepsilon / (2\mathcal{L}))$.",
        "as C.acc.law, with the gamma law at the simulated loss per output (L_tr, L_gen = ‖D‖² / d_out): largest "
        "binomial z over every record step, over the Bonferroni bound of all the (curve, step) comparisons at the "
        "family-wise level; per run of the d_out chapter with d_out > 1 (λ = 0.9; 2,000 test samples), per seed",
        ACC_BOUND, choices=(ACC_FAMILY,), fmt=".2f",
        why="the rule of C.acc.law, declared before these runs were graded"),
])


def run(profile: str = "default", d_outs=None, seeds=None, d_in=None, eta=None, *, output_path=None) -> Run:
    """One linear run per d_out and seed at λ = 0.9."""
    overrides = {"d_in": d_in, "eta": eta}
    configs = C.d_out_configs(profile, given(d_outs, C.D_OUTS), given(seeds, C.D_OUT_SEEDS), **overrides)
    return start(profile, {"profile": profile, "d_outs": d_outs, "seeds": seeds, **overrides}, configs,
                 C.d_out_configs("default"), output_path)


def peak_value(histories: Sequence[History]) -> tuple[list[int], float]:
    """The d_outs and C.dout.peak's quantity: the largest seed-mean Delta t at an interior d_out in PEAK_RANGE over
    the larger of the ends' (:func:`~grok_lib.paper_c.measure.peak_over_ends`)."""
    table = measure.d_out_seed_means(histories)
    ds = list(table)
    return ds, measure.peak_over_ends(ds, [table[d][0] for d in ds], *PEAK_RANGE)


def evaluate_d_out(histories: Sequence[History]) -> Result:
    """C.dout.peak on the d_out sweep (several seeds per d_out): one draw, from the seed means."""
    claim = CLAIMS["C.dout.peak"]
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
    claim = CLAIMS["C.acc.gamma_law"]
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


def d_out_data(histories: Sequence[History]) -> dict:
    """Seed means and standard errors of Δt and Δt/d_out, and the isotropic theory's Δt/d_out."""
    table = measure.d_out_seed_means(histories)
    ds = list(table)
    return {"d_outs": ds, "mean": [table[d][0] for d in ds], "sem": [table[d][1] for d in ds],
            "scaled_mean": [table[d][2] for d in ds], "scaled_sem": [table[d][3] for d in ds],
            "scaled_theory": [table[d][4] / d for d in ds]}


def d_out_table(histories: Sequence[History]) -> list[dict]:
    """Per d_out: Δt (seed mean ± standard error), Δt / d_out, and the theory's Δt / d_out."""
    return [{"d_out": d, "Δt": as_int(m), "± se": as_int(se), "Δt / d_out": as_int(ms), "± se ": as_int(ses),
             "theory Δt / d_out": as_int(th / d)}
            for d, (m, se, ms, ses, th) in measure.d_out_seed_means(histories).items()]


def d_out_capped_table(histories: Sequence[History], cap: int = STEP_CAP) -> list[dict]:
    """Per d_out (seed means): t_train, t_test, Δt, and Δt as a run stopped at ``cap`` steps would record it
    (the hypothesis beside C.dout.peak; not the figure's numbers)."""
    return [{"d_out": d, "t_train": as_int(tr), "t_test": as_int(te), "Δt": as_int(dt), f"Δt, runs stopped at {cap:.0e}": as_int(cdt),
             "seeds crossing after the cap": n}
            for d, (tr, te, dt, cdt, n) in measure.capped_d_out_seed_means(histories, cap).items()]


def numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every run's crossings."""
    return crossings(histories)


def d_out_capped_reading(histories: Sequence[History], cap: int = STEP_CAP) -> dict[str, str]:
    """The numbers the d_out page's hypothesis quotes (glued): the cap, where the capped Δt peaks, and the d_out
    whose test crossing falls after the cap (seed means of :func:`~grok_lib.paper_c.measure.capped_d_out_seed_means`)."""
    table = measure.capped_d_out_seed_means(histories, cap)
    ds = list(table)
    x, interior = measure.peak(ds, [table[d][3] for d in ds])
    late = [d for d in ds if table[d][4]]
    first_late = late[0] if late else ds[-1]
    seeds = len([h for h in histories if h.cfg.d_out == ds[0]])
    return {"cap": f"$10^{{{round(math.log10(cap))}}}$" if cap == 10 ** round(math.log10(cap)) else f"{cap}",
            "cap_peak": f"{x:g}", "cap_peak_where": "an interior" if interior else "an end",
            "cap_late": ", ".join(f"{d} ({table[d][4]} of {seeds} seeds)" for d in late) or "none",
            "cap_first_late": f"{first_late}", "cap_first_late_test": f"{table[first_late][1]:,.0f}",
            "cap_raw_last": f"{table[ds[-1]][2]:,.0f}", "cap_capped_last": f"{table[ds[-1]][3]:,.0f}",
            "cap_last": f"{ds[-1]}"}


def gamma_law_reading(histories: Sequence[History], result) -> dict[str, str]:
    """What the d_out page quotes about C.acc.gamma_law (glued): per d_out > 1, the largest absolute gap between
    the counted test accuracy and the law over the seeds and record steps, and the verdict."""
    worst: dict[int, float] = {}
    for h in histories:
        if h.cfg.d_out > 1:
            gap = float(measure.accuracy_law_deviations(h)["test"][0].max())
            worst[h.cfg.d_out] = max(worst.get(h.cfg.d_out, 0.0), gap)
    by_dout = "; ".join(f"d_out = {d}: {g:.3f}" for d, g in sorted(worst.items()))
    return {"gamma_verdict": f"**{result.word}**",
            "gamma_by_dout": f"the test accuracy is off the law by at most {by_dout} (absolute, over the seeds and "
                             "record steps)" if worst else "no run with d_out > 1"}


def reading(histories: Sequence[History], results: Sequence) -> dict[str, str]:
    """The numbers the page's prose quotes about the sweep (glued): Δt and Δt / d_out at the ends, their spread, the
    theory's, C.dout.peak's quantity, range, verdict and regime (``results``: C.dout.peak's and C.acc.gamma_law's)."""
    rows = d_out_table(histories)
    per_output = [r["Δt / d_out"] for r in rows]
    theory_per_output = [r["theory Δt / d_out"] for r in rows]
    mean_per_output = sum(per_output) / len(per_output)
    return dict(
        dout_first=f"{rows[0]['d_out']}",
        dout_last=f"{rows[-1]['d_out']}",
        dout_raw_first=f"{rows[0]['Δt']:.0f}",
        dout_raw_last=f"{rows[-1]['Δt']:.0f}",
        dout_per_output_min=f"{min(per_output):.0f}",
        dout_per_output_max=f"{max(per_output):.0f}",
        dout_per_output_spread=f"{max(abs(x / mean_per_output - 1) for x in per_output):.0%}",
        dout_per_output_largest=f"{rows[per_output.index(max(per_output))]['d_out']}",
        dout_theory_first=f"{theory_per_output[0]:.0f}",
        dout_theory_last=f"{theory_per_output[-1]:.0f}",
        dout_sim_last=f"{per_output[-1]:.0f}",
        dout_theory_verb="underestimates" if theory_per_output[-1] < per_output[-1] else "overestimates",
        dout_verdict=results[0].word,
        dout_peak_value=f"{peak_value(histories)[1]:.2f}",
        dout_peak_range=f"[{PEAK_RANGE[0]}, {PEAK_RANGE[1]}]",
        dout_regime=typeset(results[0].regime.text()),
    )


def figure_d_out(d_outs, mean, sem, scaled_mean, scaled_sem, scaled_theory):
    """Δt_grok vs d_out in steps (left) and per output, Δt / d_out, with the isotropic theory (right)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    plot_d_out(a, d_outs, mean, sem)
    plot_d_out(b, d_outs, scaled_mean, scaled_sem, scaled_theory)
    b.set_ylabel(DT + r" / $d_{\mathrm{out}}$")
    b.legend(fontsize=7)
    return fig


def draw_d_out(histories: Sequence[History]):
    """The figure from the chapter's runs (:func:`d_out_data`)."""
    return figure_d_out(**d_out_data(histories))


FIGURE = Figure("paper_c/d_out", "Paper C: grokking time against the output dimension at λ = 0.9", numbers, draw_d_out)
CHAPTER = Chapter("notebooks/paper_c/d_out.ipynb", run, C.d_out_configs, (FIGURE,), claims=tuple(CLAIMS))
