"""Losses and accuracies of the linear student against the exact theory and Marchenko–Pastur
(``notebooks/paper_c/loss_curves.ipynb``): C.dyn.exact, C.dyn.mp, C.acc.law and the plateau for λ > 1 (C.plateau.*),
on one linear run per λ (the paper's 0.1, 0.9, 1.5)."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from ...chapters import Chapter, Figure
from ...claims import registry
from ...figure_numbers import none_if_nan
from ...grading import Bar, Claim, Regime, Result, draw, grade, moved, not_graded
from ...history import History
from ...notebook import Run, start
from ...tables import at_resolution, listed, typeset
from .. import config as C, measure, theory
from ..claim_terms import ACC_BOUND, ACC_FAMILY, ACC_LEVEL, ACC_LEVELS, NOTES, REBUTTAL, WINDOW
from ..curve_numbers import as_int, curves, printed_loss, tag
from ..draws import accuracy_law_bound, accuracy_law_comparisons, both, by_seed, gd_regime, label, members
from ..measure import GROK_ACC, LOSS_FLOOR, PAPER_EPS
from ..panels import clip_loss_axis, lam_title, plot_accuracies, plot_losses, plot_mp_density, plot_relative_errors
from ..run_sets import given, linear_overrides


#: Below this the simulation's relative error against GD's exact discrete powers is float64 rounding accumulated over
#: up to 1e6 steps (about steps x 1e-16; its digits change with the CPU's arithmetic): printed as "< 1e-10".
GD_RESOLUTION = 1e-10


GD_OK = 1e-8  #: the simulation against GD's exact discrete powers: above this the simulation itself is wrong


DYN_ERROR = Bar(hi=0.05)  #: simulation vs the exact gradient-flow theory: largest relative error


MP_ERROR = Bar(hi=0.10)  #: MP vs the exact theory averaged over D_0's direction: largest relative error


PLATEAU_RATIO = Bar(0.9, 1.1)  #: lambda > 1: final L_gen / (L_gen(0) (1 - 1/lambda)), within 10%


CLAIMS = registry([
    Claim(
        "C.dyn.exact", "C", "claim", "review", f"{REBUTTAL}, reviewer's question 2",
        "We show a weaker analytical claim, but a stronger empirical verification: our model give effectively perfect "
        "predictions for the dynamics of individual trajectories, and not average predicitons on ensembles",
        r"The exact gradient-flow solution on a run's own training covariance, $D(t) = e^{-2\eta\Sigma t} D_0$, "
        r"predicts that run's $\mathcal{L}_{\mathrm{tr}}$ and $\mathcal{L}_{\mathrm{gen}}$.",
        "largest relative error of the simulated L_tr and L_gen against the exact gradient-flow theory on the run's "
        "own spectrum and D_0, over the record steps until the theory's losses have fallen to ℓ (where the reference "
        "is also ≥ 1e-10), per λ ∈ {0.1, 0.9, 1.5} (the paper's settings: d_in = 1000, η = 0.01)",
        DYN_ERROR, choices=(WINDOW,), bars=moved(DYN_ERROR), fmt=".2%",
        why="'effectively perfect' has no number: the book's 5%, moved either way; the error in the tail (down to "
            "losses of 1e-10) and the simulation against GD's exact discrete powers are reported, not graded"),
    Claim(
        "C.dyn.mp", "C", "claim", "text", NOTES,
        "with the Marchenko–Pastur spectrum (λ± = (1 ± √λ)², an atom 1 − 1/λ at 0 when λ > 1): "
        "L_tr ≈ E_MP[ν e^{−4ηνt}], L_gen ≈ E_MP[e^{−4ηνt}]",
        r"With the Marchenko–Pastur spectrum, $\mathcal{L}_{\mathrm{tr}} \approx \mathbb{E}_{\mathrm{MP}}[\nu e^{-4\eta\nu t}]$"
        r" and $\mathcal{L}_{\mathrm{gen}} \approx \mathbb{E}_{\mathrm{MP}}[e^{-4\eta\nu t}]$ (with the atom at $\nu = 0$ "
        r"for $\lambda > 1$).",
        "largest relative error of the MP integrals (scaled by the run's L_gen(0)) against the exact theory averaged "
        "over the direction of D_0 on the run's sample spectrum (l0 mean_i[s_i e^{−4ηs_i t}], l0 mean_i[e^{−4ηs_i t}]), "
        "over the record steps until those losses have fallen to ℓ, per λ ∈ {0.1, 0.9, 1.5}",
        MP_ERROR, choices=(WINDOW,), bars=moved(MP_ERROR), fmt=".1%",
        why="the MP form assumes an isotropic D_0, so that the loss is a trace over the spectrum: one draw of D_0 "
            "puts a random weight on each of the few softest modes that carry the late loss (its error is reported); "
            "the tolerance is the book's, moved either way"),
    Claim(
        "C.acc.law", "C", "claim", "text", NOTES,
        "for d_out = 1, A = erf( sqrt(ε / (2 L)) )",
        r"The threshold accuracy is a function of the loss alone: $A = \operatorname{erf}\sqrt{\varepsilon / "
        r"(2\mathcal{L})}$ for $d_{\mathrm{out}} = 1$.",
        "largest |counted accuracy − erf law at the simulated loss| in binomial standard deviations √(A(1−A)/n) of a "
        "count over n samples (N_tr for train, 10⁴ for test; L_tr for the training samples, L_gen = ‖D‖² for fresh "
        "test samples), over every record step, over the Bonferroni bound of all the (curve, step) comparisons at the "
        "family-wise level; per λ ∈ {0.1, 0.9, 1.5}, ε = 1e-3",
        ACC_BOUND, choices=(ACC_FAMILY,), fmt=".2f",
        why="a finite sample's accuracy scatters around the law by the binomial error, several times more on the few "
            "hundred training samples than on the test set: the test's own bound (1) is the bar"),
    Claim(
        "C.plateau.level", "C", "claim", "text", NOTES,
        "with the Marchenko–Pastur spectrum (… an atom 1 − 1/λ at 0 when λ > 1) … For λ > 1 L_gen plateaus",
        r"For $\lambda > 1$ the generalisation loss plateaus at the MP atom: "
        r"$\mathcal{L}_{\mathrm{gen}} \to \mathcal{L}_{\mathrm{gen}}(0)\,(1 - 1/\lambda)$.",
        "final L_gen over L_gen(0) (1 − 1/λ_eff), the run with λ > 1 (λ = 1.5)",
        PLATEAU_RATIO, bars=moved(PLATEAU_RATIO), fmt=".3f",
        why="the paper gives the atom, not a tolerance: the book's 10% either way, moved"),
    Claim(
        "C.plateau.no_test_crossing", "C", "claim", "text", NOTES,
        "For λ > 1 L_gen plateaus",
        r"For $\lambda > 1$ the test accuracy never saturates: it never reaches $\operatorname{erf}\sqrt 2$.",
        f"the largest test accuracy over the run (10⁶ steps), the run with λ > 1 (λ = 1.5), ε = {PAPER_EPS:g}",
        Bar(hi=math.nextafter(GROK_ACC, 0)), fmt=".4f",
        why="the model groks without learning features because the accuracy is a step in the loss: on a plateau above "
            "ε/4 the test accuracy stays below the paper's saturation level erf(√2), which is the bar"),
])


def run(profile: str = "default", lams=None, d_in=None, eta=None, eps=None, data_seed=None, init_seed=None,
        steps=None, *, output_path=None) -> Run:
    """One linear run per λ (default: the paper's 0.1, 0.9, 1.5): losses and accuracies vs step."""
    overrides = linear_overrides(d_in, eta, eps, steps, data_seed, init_seed)
    configs = C.curve_configs(profile, given(lams, C.CURVE_LAMS), **overrides)
    return start(profile, {"profile": profile, "lams": lams, **overrides}, configs, C.curve_configs("default"),
                 output_path)


def _crossing_offsets(h: History) -> str:
    """The simulated crossing steps against the gradient-flow theory's, as relative differences."""
    row = measure.crossing(h)
    out = []
    for w in ("train", "test"):
        t, th = row[f"t_{w}"], row.get(f"theory_t_{w}")
        if t is not None and th is not None and math.isfinite(th) and th > 0:
            out.append(f"t_{w} {t} vs {th:.0f} ({abs(t / th - 1):.1%})")
    return ", ".join(out) or "no crossing"


def dynamics_error(h: History, level: float) -> float:
    """C.dyn.exact's quantity: the largest relative error of the simulated L_tr and L_gen against the exact
    gradient-flow theory until the theory's losses have fallen to ``level`` (nan if that range is empty)."""
    m, ok = h.metrics, measure.decided(h, level)
    return measure.worst_of([measure.worst_in(m[s], m[f"theory_{k}_loss"], ok)
                             for s, k in (("train_loss", "train"), ("gen_loss", "gen"))])


def discrete_gd_error(h: History) -> float:
    """The simulation against GD's exact discrete powers (the book's own consistency check)."""
    return max(measure.max_relative_error(h[s], h[f"gd_{k}_loss"], LOSS_FLOOR)
               for s, k in (("train_loss", "train"), ("gen_loss", "gen")))


def evaluate_dynamics(histories: Sequence[History]) -> Result:
    """C.dyn.exact on the loss-curve runs, at every loss level ℓ of the range's grid."""
    claim = CLAIMS["C.dyn.exact"]
    (window,) = claim.choices
    groups = by_seed(histories)
    draws = [draw([dynamics_error(h, lvl) for h in hs], s, (lvl,), members(hs))
             for s, hs in groups.items() for lvl in window.grid]
    gd = [discrete_gd_error(h) for h in histories]
    parts = []
    for h in sorted(histories, key=lambda x: x.cfg.lam):
        deep = max(measure.max_relative_error(h[s], h[f"theory_{k}_loss"], LOSS_FLOOR)
                   for s, k in (("train_loss", "train"), ("gen_loss", "gen")))
        parts.append(f"{label(h)}: range to step {measure.last_step(h, measure.decided(h))} ({_crossing_offsets(h)}; "
                     f"down to losses of {LOSS_FLOOR:g}: {deep:.2%})")
    simulation = Regime(all(g <= GD_OK for g in gd), "the simulation against GD's exact discrete powers",
                        f"≤ {GD_OK:g} (the simulation is GD)",
                        at_resolution(max(gd), GD_RESOLUTION) if all(math.isfinite(g) for g in gd) else "nan")
    context = ("reported, not graded, at ℓ = ε/4: " + "; ".join(parts) + ". The gradient-flow theory's error is GD's "
               "discreteness, (1 − 2ηs)^t against e^{−2ηst}, which grows with t")
    return grade(claim, draws, context, regime=both(gd_regime(histories), simulation))


def mp_error(h: History, level: float) -> float:
    """C.dyn.mp's quantity: the largest relative error of the MP losses against the exact theory averaged over the
    direction of D_0, until those losses have fallen to ``level``."""
    iso = measure.isotropic_losses(h)
    ok = measure.decided_window(*iso, level)
    return measure.worst_of([measure.worst_in(h[f"mp_{k}_loss"], ref, ok) for k, ref in zip(("train", "gen"), iso)])


def evaluate_mp(histories: Sequence[History]) -> Result:
    """C.dyn.mp on the loss-curve runs: MP against the exact theory averaged over the direction of D_0 (graded, at
    every level of the range's grid), and against the single realisation (reported)."""
    claim = CLAIMS["C.dyn.mp"]
    (window,) = claim.choices
    draws = [draw([mp_error(h, lvl) for h in hs], s, (lvl,), members(hs))
             for s, hs in by_seed(histories).items() for lvl in window.grid]
    parts = []
    for h in sorted(histories, key=lambda x: x.cfg.lam):
        ok = measure.decided(h)
        one = measure.worst_of([measure.worst_in(h[f"mp_{k}_loss"], h[f"theory_{k}_loss"], ok)
                                for k in ("train", "gen")])
        parts.append(f"{label(h)}: {one:.1%}")
    context = "reported, not graded: MP against this run's own D_0 (one draw), at ℓ = ε/4: " + ", ".join(parts)
    return grade(claim, draws, context, regime=gd_regime(histories))


def evaluate_accuracy_law(histories: Sequence[History]) -> Result:
    """C.acc.law on the loss-curve runs (d_out = 1), at every family-wise level of the grid."""
    claim = CLAIMS["C.acc.law"]
    (family,) = claim.choices
    count = accuracy_law_comparisons(histories)
    dev = {id(h): measure.accuracy_law_deviations(h) for h in histories}

    def max_z(h: History) -> float:
        return max(float(dev[id(h)][w][1].max()) for w in ("train", "test"))

    draws = [draw([max_z(h) / accuracy_law_bound(count, level) for h in hs], s, (level,), members(hs))
             for s, hs in by_seed(histories).items() for level in family.grid]
    parts = [f"{label(h)} (N_tr = {h.meta['n_train']}): largest z train {dev[id(h)]['train'][1].max():.2f}, test "
             f"{dev[id(h)]['test'][1].max():.2f}; largest |Δ| train {dev[id(h)]['train'][0].max():.3f}, test "
             f"{dev[id(h)]['test'][0].max():.3f}" for h in sorted(histories, key=lambda x: x.cfg.lam)]
    bounds = ", ".join(f"{accuracy_law_bound(count, level):.2f} at {level:g}" for level in family.grid)
    context = f"{'; '.join(parts)}. Bonferroni bounds for {count} comparisons: {bounds}"
    return grade(claim, draws, context, regime=gd_regime(histories))


def evaluate_plateau(histories: Sequence[History]) -> list[Result]:
    """C.plateau.level and C.plateau.no_test_crossing on the runs with lambda > 1 (the default set's lambda = 1.5)."""
    level, never = CLAIMS["C.plateau.level"], CLAIMS["C.plateau.no_test_crossing"]
    above = [h for h in histories if h.meta["lam_eff"] > 1]
    if not above:
        lams = ", ".join(f"{h.meta['lam_eff']:.3g}" for h in histories)
        reason = f"the runs' λ ({lams}) are all ≤ 1: there is no plateau to measure (the claims need a run with λ > 1)"
        return [not_graded(level, reason), not_graded(never, reason)]
    ratio_draws, acc_draws, parts = [], [], []
    for s, hs in by_seed(above).items():
        ratios = [h.final("gen_loss") / (h.meta["l0"] * theory.mp_atom(h.meta["lam_eff"])) for h in hs]
        ratio_draws.append(draw(ratios, s, (), members(hs)))
        acc_draws.append(draw([float(np.max(h["test_acc"])) for h in hs], s, (), members(hs)))
        parts += [f"{label(h)}: final L_gen = {h.final('gen_loss'):.4g}, L_gen(0) (1 − 1/λ) = "
                  f"{h.meta['l0'] * theory.mp_atom(h.meta['lam_eff']):.4g}" for h in hs]
    where = gd_regime(above)
    return [grade(level, ratio_draws, "; ".join(parts), regime=where), grade(never, acc_draws, regime=where)]


def loss_curves_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: N_tr, both accuracy crossings (simulation, exact theory, MP) and the final losses."""
    rows = []
    for h in histories:
        row = measure.crossing(h)
        rows.append({"λ": h.cfg.lam, "N_tr": h.meta["n_train"],
                     "t_train": as_int(row["t_train"]), "t_test": as_int(row["t_test"]),
                     "Δt sim": as_int(measure.grokking_time(h)),
                     "Δt exact": as_int(measure.theory_grokking_time(h)),
                     "Δt MP": as_int(measure.theory_grokking_time(h, which="mp")),
                     "final L_tr": printed_loss(h.final('train_loss')),
                     "final L_gen": printed_loss(h.final('gen_loss')),
                     "final test acc": round(h.final("test_acc"), 3)})
    return rows


def agreement_errors(h: History) -> dict[str, np.ndarray]:
    """Relative errors over time: simulation against the exact gradient-flow theory, and the exact
    theory against Marchenko-Pastur (where the reference loss is above the floor)."""
    m, floor = h.metrics, LOSS_FLOOR
    out = {}
    for curve, a, b in ((r"sim vs exact, $\mathcal{L}_{\mathrm{tr}}$", "train_loss", "theory_train_loss"),
                        (r"sim vs exact, $\mathcal{L}_{\mathrm{gen}}$", "gen_loss", "theory_gen_loss"),
                        (r"MP vs exact, $\mathcal{L}_{\mathrm{tr}}$", "mp_train_loss", "theory_train_loss"),
                        (r"MP vs exact, $\mathcal{L}_{\mathrm{gen}}$", "mp_gen_loss", "theory_gen_loss")):
        err = measure.relative_error(m[a], m[b])
        out[curve] = np.where(np.asarray(m[b]) >= floor, err, np.nan)
    return out


def agreement_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the largest relative errors (simulation vs exact theory; exact vs MP until the test
    accuracy saturates at the paper's ε) and the median empirical test loss against ||D||²/d_out."""
    rows = []
    for h in histories:
        m, floor = h.metrics, LOSS_FLOOR
        ok = measure.until_saturation(m["theory_gen_loss"])
        sim = [measure.max_relative_error(m[a], m[b], floor) for a, b in
               (("train_loss", "theory_train_loss"), ("gen_loss", "theory_gen_loss"))]
        mp = [float(measure.relative_error(m[f"mp_{k}_loss"][ok], m[f"theory_{k}_loss"][ok])
                    [m[f"theory_{k}_loss"][ok] >= floor].max()) for k in ("train", "gen")]
        test = float(np.nanmedian(measure.relative_error(m["test_loss"], m["gen_loss"])))
        rows.append({"λ": h.cfg.lam, "sim/exact L_tr": f"{sim[0]:.2%}", "sim/exact L_gen": f"{sim[1]:.2%}",
                     "MP/exact L_tr": f"{mp[0]:.1%}", "MP/exact L_gen": f"{mp[1]:.1%}",
                     "test set / ||D||² (median)": f"{test:.1%}",
                     "smallest sample eigenvalue": f"{h.meta['s_min_nonzero']:.4g}",
                     "MP lower edge": f"{theory.mp_edges(h.meta['lam_eff'])[0]:.4g}"})
    return rows


def agreement(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers of the agreement figure: the largest relative errors per λ."""
    values: dict[str, float | None] = {}
    for h in histories:
        for curve, err in agreement_errors(h).items():
            name = curve.split(",")[0].replace(" ", "_") + ("_train" if "tr" in curve.split(",")[1] else "_gen")
            values[f"{tag(h)}/max_rel_err_{name}"] = none_if_nan(float(np.nanmax(err)) if np.isfinite(err).any()
                                                                  else float("nan"))
    return values


def grading_table(histories: Sequence[History]) -> list[dict]:
    """Per λ, the numbers C.dyn.exact, C.dyn.mp and C.acc.law are graded on (and what they are reported beside):
    the largest relative errors in the range the paper plots (until the losses reach ε/4) and below it, MP against
    the isotropic average and against the run's own D_0, and the accuracy law's largest binomial z."""
    rows = []
    for h in histories:
        m, ok = h.metrics, measure.decided(h)
        sim = max(measure.worst_in(m[a], m[b], ok) for a, b in (("train_loss", "theory_train_loss"),
                                                                ("gen_loss", "theory_gen_loss")))
        deep = max(measure.max_relative_error(m[a], m[b], LOSS_FLOOR)
                   for a, b in (("train_loss", "theory_train_loss"), ("gen_loss", "theory_gen_loss")))
        iso = measure.isotropic_losses(h)
        iso_ok = measure.decided_window(*iso, PAPER_EPS / 4)
        mp_iso = max(measure.worst_in(m[f"mp_{k}_loss"], ref, iso_ok) for k, ref in zip(("train", "gen"), iso))
        mp_one = max(measure.worst_in(m[f"mp_{k}_loss"], m[f"theory_{k}_loss"], ok) for k in ("train", "gen"))
        dev = measure.accuracy_law_deviations(h)
        rows.append({"λ": h.cfg.lam, "N_tr": h.meta["n_train"], "window ends at step": measure.last_step(h, ok),
                     "sim/exact in window": f"{sim:.2%}", f"sim/exact to {LOSS_FLOOR:g}": f"{deep:.2%}",
                     "MP/isotropic": f"{mp_iso:.1%}", "MP/this D₀": f"{mp_one:.1%}",
                     "acc. law max z (train)": round(float(dev["train"][1].max()), 2),
                     "acc. law max z (test)": round(float(dev["test"][1].max()), 2),
                     "acc. law max |Δ| (train)": round(float(dev["train"][0].max()), 3),
                     "acc. law max |Δ| (test)": round(float(dev["test"][0].max()), 3)})
    return rows


def numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses and accuracies at fixed steps, every crossing."""
    return curves(histories, ("train_loss", "gen_loss", "test_loss", "train_acc", "test_acc", "theory_gen_loss",
                               "mp_gen_loss"))


def _percent(row: dict, key: str) -> float:
    return float(row[key].rstrip("%"))


def loss_curves_reading(histories: Sequence[History], results: Sequence) -> dict[str, str]:
    """The measured numbers the loss-curve page's prose quotes (glued), from its tables and its claims' results
    (C.dyn.exact, C.dyn.mp, C.acc.law, C.plateau.level, C.plateau.no_test_crossing, in that order)."""
    curves, agreement, graded = loss_curves_table(histories), agreement_table(histories), grading_table(histories)
    deep_key = f"sim/exact to {LOSS_FLOOR:g}"
    worst_mp = max(graded, key=lambda r: _percent(r, "MP/isotropic"))
    worst_z = max(graded, key=lambda r: max(r["acc. law max z (train)"], r["acc. law max z (test)"]))
    worst_abs = max(graded, key=lambda r: r["acc. law max |Δ| (train)"])
    comparisons = accuracy_law_comparisons(histories)
    near_one = min(agreement, key=lambda r: abs(r["λ"] - 1))
    grokked = [r for r in curves if r["Δt sim"] == r["Δt sim"]]  # NaN: the test accuracy never crossed
    slowest = max(grokked, key=lambda r: r["Δt sim"]) if grokked else curves[0]
    offsets = []
    for h in histories:
        row = measure.crossing(h)
        for w in ("train", "test"):
            t, th = row[f"t_{w}"], row.get(f"theory_t_{w}")
            if t is not None and th is not None and math.isfinite(th) and th > 0:
                offsets.append(abs(t / th - 1))
    dyn, mp = CLAIMS["C.dyn.exact"], CLAIMS["C.dyn.mp"]
    levels = dyn.choices[0].grid
    dyn_by_level = [max(dynamics_error(h, lvl) for h in histories) for lvl in levels]
    mp_by_level = [max(mp_error(h, lvl) for h in histories) for lvl in levels]
    return {
        "dyn_sim_vs_exact": listed([f"{r['sim/exact in window']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_deep": listed([f"{r[deep_key]} at λ = {r['λ']:g}" for r in graded]),
        "dyn_floor": f"$10^{{{round(math.log10(LOSS_FLOOR))}}}$",
        "dyn_crossing_max": f"{max(offsets, default=math.nan):.1%}",
        "dyn_verdict": results[0].word,
        "dyn_levels": listed([f"{x:.2%} (ℓ = {lvl:g})" for x, lvl in zip(dyn_by_level, levels)]),
        "dyn_bars": typeset(dyn.threshold),
        "dyn_mp_iso": listed([f"{r['MP/isotropic']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_one": listed([f"{r['MP/this D₀']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_worst_lam": f"{worst_mp['λ']:g}",
        "dyn_mp_worst": worst_mp["MP/isotropic"],
        "dyn_mp_levels": listed([f"{x:.1%} (ℓ = {lvl:g})" for x, lvl in zip(mp_by_level, levels)]),
        "dyn_mp_bars": typeset(mp.threshold),
        "dyn_mp_verdict": results[1].word,
        "window_levels": typeset(dyn.grid),
        "acc_level": f"{ACC_LEVEL:g}",
        "acc_levels": ", ".join(f"{x:g}" for x in ACC_LEVELS),
        "acc_max_z": f"{max(worst_z['acc. law max z (train)'], worst_z['acc. law max z (test)']):.2f}",
        "acc_max_z_lam": f"{worst_z['λ']:g}",
        "acc_bound": f"{accuracy_law_bound(comparisons, ACC_LEVEL):.2f}",
        "acc_bounds": listed([f"{accuracy_law_bound(comparisons, lvl):.2f} (at {lvl:g})"
                               for lvl in ACC_LEVELS]),
        "acc_comparisons": f"{comparisons}",
        "acc_max_abs": f"{worst_abs['acc. law max |Δ| (train)']:.3f}",
        "acc_max_abs_n": f"{worst_abs['N_tr']}",
        "acc_verdict": results[2].word,
        "plateau_verdict": results[3].word,
        "plateau_never_verdict": results[4].word,
        "dyn_regime": typeset(results[0].regime.text()) if results[0].regime else "not measured",
        "dyn_slowest_lam": f"{slowest['λ']:g}",
        "dyn_slowest_train": f"{slowest['t_train']}",
        "dyn_slowest_test": f"{slowest['t_test']}",
        "dyn_near_one_lam": f"{near_one['λ']:g}",
        "dyn_near_one_smallest": near_one["smallest sample eigenvalue"],
        "dyn_near_one_edge": near_one["MP lower edge"],
    }


def figure_loss_curves(histories: Sequence[History]):
    """Losses (top) and threshold accuracies (bottom) vs step, one column per λ, simulation against
    the exact and the Marchenko-Pastur theory."""
    fig, axes = plt.subplots(2, len(histories), figsize=(4.4 * len(histories), 7.4), layout="constrained",
                             squeeze=False)
    for j, h in enumerate(histories):
        plot_losses(axes[0, j], h)
        clip_loss_axis(axes[0, j])  # below LOSS_BOTTOM: exponential tails down to float underflow
        lam_title(axes[0, j], h)
        plot_accuracies(axes[1, j], h, mp=True)
    axes[0, 0].legend(fontsize=7, loc="lower left")  # below the early losses, left of the fall
    axes[1, 0].legend(fontsize=7, loc="center left")
    return fig


def figure_agreement(histories: Sequence[History], errors: Sequence[Mapping[str, np.ndarray]]):
    """Top: relative errors over time (``errors[i]`` for run i); bottom: the MP density over each
    run's sample eigenvalues."""
    fig, axes = plt.subplots(2, len(histories), figsize=(4.4 * len(histories), 6.8), layout="constrained",
                             squeeze=False)
    for j, (h, err) in enumerate(zip(histories, errors)):
        plot_relative_errors(axes[0, j], h.steps, err)
        lam_title(axes[0, j], h)
        plot_mp_density(axes[1, j], h.meta["lam_eff"], h.snapshots["eigenvalues"][-1])
    # the error curves' legend above the panels, which it would cover; the densities' in the first one
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside upper center", ncol=len(errors[0]), fontsize=7)
    axes[1, 0].legend(fontsize=7)
    return fig


def draw_agreement(histories: Sequence[History]):
    """The agreement figure from the chapter's runs: each run's relative errors over time, and its spectrum."""
    return figure_agreement(histories, [agreement_errors(h) for h in histories])


LOSS_CURVES = Figure("paper_c/loss_curves", "Paper C: losses and accuracies of the linear student for λ = 0.1, 0.9, "
                     "1.5 — simulation, exact theory, Marchenko–Pastur", numbers, figure_loss_curves)
AGREEMENT = Figure("paper_c/agreement", "Paper C: relative errors of simulation vs exact theory vs "
                   "Marchenko–Pastur, and the MP density against the sample spectrum", agreement, draw_agreement)
CHAPTER = Chapter("notebooks/paper_c/loss_curves.ipynb", run, C.curve_configs, (LOSS_CURVES, AGREEMENT),
                  claims=tuple(CLAIMS))
