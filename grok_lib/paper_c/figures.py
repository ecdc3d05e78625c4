"""The key numbers of each Part C figure, computed once, and the data each figure plots.

As in Part A: ``<figure>_table(histories)`` are the rows a notebook prints (nbval compares
them; values are rounded so they print stably), ``<figure>_data(histories)`` is what the
figure draws (so a notebook only calls and plots), and ``<figure>(histories)`` is its
figure-regression reduction (named in its chapter's declaration, :mod:`grok_lib.paper_c.chapters`).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from ..tables import PRINT_FLOOR, typeset
from . import checks, measure, modadd, shape_fits, theory, thresholds

#: The steps at which the curves are guarded by figure regression.
CURVE_STEPS = (10, 100, 1_000, 10_000, 100_000)
#: Losses below this are rounding noise of float64 (their digits change with the BLAS thread count):
#: figure regression does not guard them (tables print everything below tables.PRINT_FLOOR as such).
LOSS_FLOOR = 1e-20


def _loss(x: float):
    """A loss as printed: three significant digits, or "< 1e-10" below the printed floor (tables.PRINT_FLOOR)."""
    return f"< {PRINT_FLOOR:.0e}" if abs(x) < PRINT_FLOOR else float(f"{x:.3g}")


def _tag(h: History) -> str:
    c = h.cfg
    tag = f"lam={c.lam:g}"
    for name, default in (("d_out", 1), ("gamma", 0.0), ("label_noise", 0.0), ("data_seed", 0)):
        if getattr(c, name) != default:
            tag += f"/{name}={getattr(c, name):.4g}"
    return tag + ("" if c.model == "linear" else f"/{c.model}")


def _int(x) -> float | int:
    """A step as an int; never reached (None, NaN or infinite) is NaN, which tables print as 'never'."""
    return math.nan if x is None or not math.isfinite(x) else int(round(x))


def _crossing_values(h: History) -> dict[str, float | None]:
    values = {}
    for row in h.meta["crossings"]:
        for name in ("t_train", "t_test", "theory_t_train", "theory_t_test", "mp_t_train", "mp_t_test"):
            if name in row:
                values[f"{_tag(h)}/T_{name}(eps={row['eps']:g})"] = none_if_nan(float("nan") if row[name] is None
                                                                            else float(row[name]))
    return values


def _curves(histories: Sequence[History], names: Sequence[str]) -> dict[str, float | None]:
    values: dict[str, float | None] = {}
    for h in histories:
        present = [n for n in names if n in h.metrics]
        values |= at_epochs(h, present, _tag(h), [s for s in CURVE_STEPS if s <= h.steps[-1]])
        values |= _crossing_values(h)
    return {k: (None if v is not None and "loss" in k and abs(v) < LOSS_FLOOR else v) for k, v in values.items()}


# --- losses and accuracies vs step (λ = 0.1, 0.9, 1.5) ------------------------------------------------
def loss_curves_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: N_tr, both accuracy crossings (simulation, exact theory, MP) and the final losses."""
    rows = []
    for h in histories:
        row = measure.crossing(h)
        rows.append({"λ": h.cfg.lam, "N_tr": h.meta["n_train"],
                     "t_train": _int(row["t_train"]), "t_test": _int(row["t_test"]),
                     "Δt sim": _int(measure.grokking_time(h)),
                     "Δt exact": _int(measure.theory_grokking_time(h)),
                     "Δt MP": _int(measure.theory_grokking_time(h, which="mp")),
                     "final L_tr": _loss(h.final('train_loss')),
                     "final L_gen": _loss(h.final('gen_loss')),
                     "final test acc": round(h.final("test_acc"), 3)})
    return rows


def agreement_errors(h: History) -> dict[str, np.ndarray]:
    """Relative errors over time: simulation against the exact gradient-flow theory, and the exact
    theory against Marchenko-Pastur (where the reference loss is above the floor)."""
    m, floor = h.metrics, thresholds.LOSS_FLOOR
    out = {}
    for label, a, b in ((r"sim vs exact, $\mathcal{L}_{\mathrm{tr}}$", "train_loss", "theory_train_loss"),
                        (r"sim vs exact, $\mathcal{L}_{\mathrm{gen}}$", "gen_loss", "theory_gen_loss"),
                        (r"MP vs exact, $\mathcal{L}_{\mathrm{tr}}$", "mp_train_loss", "theory_train_loss"),
                        (r"MP vs exact, $\mathcal{L}_{\mathrm{gen}}$", "mp_gen_loss", "theory_gen_loss")):
        err = measure.relative_error(m[a], m[b])
        out[label] = np.where(np.asarray(m[b]) >= floor, err, np.nan)
    return out


def agreement_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the largest relative errors (simulation vs exact theory; exact vs MP until the test
    accuracy saturates at the paper's ε) and the median empirical test loss against ||D||²/d_out."""
    rows = []
    for h in histories:
        m, floor = h.metrics, thresholds.LOSS_FLOOR
        ok = checks.until_saturation(m["theory_gen_loss"])
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
        for label, err in agreement_errors(h).items():
            name = label.split(",")[0].replace(" ", "_") + ("_train" if "tr" in label.split(",")[1] else "_gen")
            values[f"{_tag(h)}/max_rel_err_{name}"] = none_if_nan(float(np.nanmax(err)) if np.isfinite(err).any()
                                                                  else float("nan"))
    return values


def grading_table(histories: Sequence[History]) -> list[dict]:
    """Per λ, the numbers C.dyn.exact, C.dyn.mp and C.acc.law are graded on (and what they are reported beside):
    the largest relative errors in the range the paper plots (until the losses reach ε/4) and below it, MP against
    the isotropic average and against the run's own D_0, and the accuracy law's largest binomial z."""
    rows = []
    for h in histories:
        m, ok = h.metrics, checks.decided(h)
        sim = max(checks._worst_in(m[a], m[b], ok) for a, b in (("train_loss", "theory_train_loss"),
                                                                ("gen_loss", "theory_gen_loss")))
        deep = max(measure.max_relative_error(m[a], m[b], thresholds.LOSS_FLOOR)
                   for a, b in (("train_loss", "theory_train_loss"), ("gen_loss", "theory_gen_loss")))
        iso = measure.isotropic_losses(h)
        iso_ok = measure.decided_window(*iso, thresholds.PAPER_EPS / 4)
        mp_iso = max(checks._worst_in(m[f"mp_{k}_loss"], ref, iso_ok) for k, ref in zip(("train", "gen"), iso))
        mp_one = max(checks._worst_in(m[f"mp_{k}_loss"], m[f"theory_{k}_loss"], ok) for k in ("train", "gen"))
        dev = checks.accuracy_law_deviations(h)
        rows.append({"λ": h.cfg.lam, "N_tr": h.meta["n_train"], "window ends at step": checks._last_step(h, ok),
                     "sim/exact in window": f"{sim:.2%}", f"sim/exact to {thresholds.LOSS_FLOOR:g}": f"{deep:.2%}",
                     "MP/isotropic": f"{mp_iso:.1%}", "MP/this D₀": f"{mp_one:.1%}",
                     "acc. law max z (train)": round(float(dev["train"][1].max()), 2),
                     "acc. law max z (test)": round(float(dev["test"][1].max()), 2),
                     "acc. law max |Δ| (train)": round(float(dev["train"][0].max()), 3),
                     "acc. law max |Δ| (test)": round(float(dev["test"][0].max()), 3)})
    return rows


def _listed(items: Sequence[str]) -> str:
    """'a, b and c' (one item: itself)."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _percent(row: dict, key: str) -> float:
    return float(row[key].rstrip("%"))


def loss_curves_reading(histories: Sequence[History], results: Sequence) -> dict[str, str]:
    """The measured numbers the loss-curve page's prose quotes (glued), from its tables and its claims' results
    (C.dyn.exact, C.dyn.mp, C.acc.law first, in that order)."""
    curves, agreement, graded = loss_curves_table(histories), agreement_table(histories), grading_table(histories)
    deep_key = f"sim/exact to {thresholds.LOSS_FLOOR:g}"
    worst_mp = max(graded, key=lambda r: _percent(r, "MP/isotropic"))
    worst_z = max(graded, key=lambda r: max(r["acc. law max z (train)"], r["acc. law max z (test)"]))
    worst_abs = max(graded, key=lambda r: r["acc. law max |Δ| (train)"])
    comparisons = sum(2 * len(h.steps) for h in histories)
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
    return {
        "dyn_sim_vs_exact": _listed([f"{r['sim/exact in window']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_deep": _listed([f"{r[deep_key]} at λ = {r['λ']:g}" for r in graded]),
        "dyn_floor": f"$10^{{{round(math.log10(thresholds.LOSS_FLOOR))}}}$",
        "dyn_crossing_max": f"{max(offsets, default=math.nan):.1%}",
        "dyn_verdict": results[0].verdict,
        "dyn_mp_iso": _listed([f"{r['MP/isotropic']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_one": _listed([f"{r['MP/this D₀']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_worst_lam": f"{worst_mp['λ']:g}",
        "dyn_mp_worst": worst_mp["MP/isotropic"],
        "dyn_mp_ok": f"{thresholds.MP_OK:.0%}",
        "dyn_mp_verdict": results[1].verdict,
        "grading_edge": f"{thresholds.EDGE:.0%}",
        "acc_level": f"{thresholds.ACC_LEVEL:.0%}",
        "acc_max_z": f"{max(worst_z['acc. law max z (train)'], worst_z['acc. law max z (test)']):.2f}",
        "acc_max_z_lam": f"{worst_z['λ']:g}",
        "acc_bound": f"{checks.accuracy_law_bound(comparisons):.2f}",
        "acc_comparisons": f"{comparisons}",
        "acc_max_abs": f"{worst_abs['acc. law max |Δ| (train)']:.3f}",
        "acc_max_abs_n": f"{worst_abs['N_tr']}",
        "acc_verdict": results[2].verdict,
        "dyn_slowest_lam": f"{slowest['λ']:g}",
        "dyn_slowest_train": f"{slowest['t_train']}",
        "dyn_slowest_test": f"{slowest['t_test']}",
        "dyn_near_one_lam": f"{near_one['λ']:g}",
        "dyn_near_one_smallest": near_one["smallest sample eigenvalue"],
        "dyn_near_one_edge": near_one["MP lower edge"],
    }


def loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses and accuracies at fixed steps, every crossing."""
    return _curves(histories, ("train_loss", "gen_loss", "test_loss", "train_acc", "test_acc", "theory_gen_loss",
                               "mp_gen_loss"))


# --- Δt_grok vs λ --------------------------------------------------------------------------------------
def grok_time_data(histories: Sequence[History]) -> dict:
    """λs, simulated Δt per ε, the formula on a fine λ grid (at the runs' η), and the ratios per ε."""
    hs = sorted(histories, key=lambda h: h.cfg.lam)
    lams = [h.meta["lam_eff"] for h in hs]
    eps_all = [row["eps"] for row in hs[0].meta["crossings"]]
    fine = np.linspace(min(lams), max(lams), 200)
    return {"lams": lams,
            "times": {e: [measure.grokking_time(h, e) for h in hs] for e in eps_all},
            "formula_lams": fine,
            "formula": [theory.grok_time_formula(x, hs[0].cfg.eta) for x in fine],
            "ratios": checks.formula_ratios(hs, checked_eps(hs[0]))}


def checked_eps(h: History) -> list[float]:
    """The formula's checked ε (thresholds.FORMULA_EPS) that a run measured."""
    return measure.measured_eps(h, thresholds.FORMULA_EPS)


def grok_time_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the formula, and the simulated Δt and its ratio to the formula at each checked ε."""
    rows = []
    for h in sorted(histories, key=lambda h: h.cfg.lam):
        row = {"λ": h.cfg.lam, "formula": _int(theory.grok_time_formula(h.meta["lam_eff"], h.cfg.eta))}
        for e in checked_eps(h):
            row[f"Δt(ε={e:.0e})"] = _int(measure.grokking_time(h, e))
            row[f"ratio(ε={e:.0e})"] = round(measure.formula_ratio(h, e), 2)
        rows.append(row)
    return rows


def grok_time(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every crossing at every ε."""
    values: dict[str, float | None] = {}
    for h in histories:
        values |= _crossing_values(h)
    return values


# --- weight decay --------------------------------------------------------------------------------------
def weight_decay_limits(h: History) -> dict[str, tuple[float, float]]:
    """The plateaus a weight-decay run is compared with: the paper's formula and the limit in the
    book's convention (S <- S - η(∇L + γS))."""
    c, lam = h.cfg, h.meta["lam_eff"]
    return {"paper": theory.wd_limits_paper(lam, c.gamma),
            "our convention": theory.wd_limits_mp(lam, c.gamma, c.d_out, h.meta["teacher_sq"])}


def _ratio(value: float, limit: float) -> float:
    """value / limit to three decimals (NaN where the limit is 0: gamma = 0 has no plateau)."""
    return round(value / limit, 3) if limit else math.nan


def weight_decay_table(histories: Sequence[History]) -> list[dict]:
    """Per (λ, γ): the final losses against the paper's formula and against the book's convention."""
    rows = []
    for h in histories:
        lim = weight_decay_limits(h)
        rows.append({"λ": h.cfg.lam, "γ": h.cfg.gamma, "small-γ regime": checks.wd_small(h),
                     "final L_tr": _loss(h.final('train_loss')),
                     "final L_gen": _loss(h.final('gen_loss')),
                     "L_tr / paper": _ratio(h.final("train_loss"), lim["paper"][0]),
                     "L_gen / paper": _ratio(h.final("gen_loss"), lim["paper"][1]),
                     "L_tr / ours": _ratio(h.final("train_loss"), lim["our convention"][0]),
                     "L_gen / ours": _ratio(h.final("gen_loss"), lim["our convention"][1])})
    return rows


def weight_decay_seed_table(histories: Sequence[History]) -> list[dict]:
    """Per seed (C.wd.limits over seeds): the small-γ runs' lowest and highest ratio to the formula with the
    teacher's norm, which loss and run each is, their spread and the seed's own verdict."""
    rows = []
    for seed, ratios in checks.weight_decay_seed_ratios(histories).items():
        lo, hi = min(ratios, key=lambda x: x[1]), max(ratios, key=lambda x: x[1])
        rows.append({"seed": seed, "small-γ runs": len(ratios) // 2, "lowest ratio": round(lo[1], 3), "lowest at": lo[0],
                     "highest ratio": round(hi[1], 3), "highest at": hi[0], "max/min": round(hi[1] / lo[1], 3),
                     "verdict": checks.grade_weight_decay([r for _, r in ratios])})
    return rows


def weight_decay_reading(histories: Sequence[History], result) -> dict[str, str]:
    """The measured numbers the weight-decay page's prose quotes (glued): the book's seed's small-γ runs' ratios
    to the paper's number, to the formula with the teacher's norm and to the MP plateau without the small-γ
    expansion, the realised d_out ||T||^2, the band C.wd.limits is judged by with its margin, and per seed the
    lowest and highest ratio and the seed's verdict (``histories``: every seed's runs, the book's first)."""
    seeds = weight_decay_seed_table(histories)
    small = [h for h in histories if checks.wd_small(h) and h.cfg.data_seed == histories[0].cfg.data_seed]
    ratios = {"paper": [], "ours": [], "exact": []}
    for h in small:
        c, lam, t_sq = h.cfg, h.meta["lam_eff"], h.meta["teacher_sq"]
        final = (h.final("train_loss"), h.final("gen_loss"))
        for key, lim in (("paper", theory.wd_limits_paper(lam, c.gamma)),
                         ("ours", theory.wd_limits_mp(lam, c.gamma, c.d_out, t_sq)),
                         ("exact", checks.wd_limits_exact_gamma(lam, c.gamma, c.d_out, t_sq))):
            ratios[key] += [f / x for f, x in zip(final, lim)]

    def span(xs: Sequence[float]) -> str:
        return f"{min(xs):.3f}–{max(xs):.3f}" if xs else "none"

    lo, hi = thresholds.WD_BAND
    return {"wd_paper_ratios": span(ratios["paper"]), "wd_our_ratios": span(ratios["ours"]),
            "wd_exact_ratios": span(ratios["exact"]), "wd_runs": f"{len(small)}",
            "wd_teacher": span([h.cfg.d_out * h.meta["teacher_sq"] for h in small]),
            "wd_band": f"[{lo:g}, {hi:g}]", "wd_clear": f"[{lo * (1 + thresholds.EDGE):.3g}, {hi * (1 - thresholds.EDGE):.3g}]",
            "wd_lowest": f"{min(ratios['ours'], default=math.nan):.3f}", "wd_verdict": result.verdict,
            "wd_small": f"{thresholds.WD_SMALL:g}", "wd_seeds": f"{len(seeds)}",
            "wd_other_seeds": ", ".join(str(r["seed"]) for r in seeds[1:]) or "none",
            "wd_seed_lowest": ", ".join(f"{r['lowest ratio']:.3f} (seed {r['seed']})" for r in seeds) or "none",
            "wd_seed_highest": ", ".join(f"{r['highest ratio']:.3f} (seed {r['seed']})" for r in seeds) or "none",
            "wd_seed_verdicts": ", ".join(f"{r['verdict']} (seed {r['seed']})" for r in seeds) or "none",
            **_lowest_over_seeds(histories)}


def _lowest_over_seeds(histories: Sequence[History]) -> dict[str, str]:
    """The lowest ratio to the formula with the teacher's norm over every seed's small-γ runs (glued): its value,
    its loss, run and seed, and where it lies against C.wd.limits's band and margin."""
    found = [(r, label, seed) for seed, ratios in checks.weight_decay_seed_ratios(histories).items()
             for label, r in ratios]
    if not found:
        return {"wd_lowest_all": "none", "wd_lowest_all_at": "none", "wd_lowest_all_place": "none"}
    r, label, seed = min(found)
    lo = thresholds.WD_BAND[0]
    place = ("below the band's lower end" if r < lo else "inside the band but within its margin"
             if r < lo * (1 + thresholds.EDGE) else "clear of the margin")
    return {"wd_lowest_all": f"{r:.3f}", "wd_lowest_all_at": typeset(f"{label}, seed {seed}"), "wd_lowest_all_place": place}


def weight_decay_data(histories: Sequence[History]) -> dict:
    """What the weight-decay figure draws: each run's limits, and measured against predicted plateaus."""
    limits = [weight_decay_limits(h) for h in histories]
    predicted = [x for lim in limits for x in lim["paper"]]
    measured = [x for h in histories for x in (h.final("train_loss"), h.final("gen_loss"))]
    labels = [f"{k} λ={h.cfg.lam:g} γ={h.cfg.gamma:g}" for h in histories for k in ("tr", "gen")]
    return {"limits": limits, "predicted": predicted, "measured": measured, "labels": labels}


def weight_decay(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses at fixed steps and the final plateaus."""
    return _curves(histories, ("train_loss", "gen_loss"))


# --- Δt vs d_out --------------------------------------------------------------------------------------
def d_out_data(histories: Sequence[History]) -> dict:
    """Seed means and standard errors of Δt and Δt/d_out, and the isotropic theory's Δt/d_out."""
    table = checks.d_out_table(histories)
    ds = list(table)
    return {"d_outs": ds, "mean": [table[d][0] for d in ds], "sem": [table[d][1] for d in ds],
            "scaled_mean": [table[d][2] for d in ds], "scaled_sem": [table[d][3] for d in ds],
            "scaled_theory": [table[d][4] / d for d in ds]}


def d_out_table(histories: Sequence[History]) -> list[dict]:
    """Per d_out: Δt (seed mean ± standard error), Δt / d_out, and the theory's Δt / d_out."""
    return [{"d_out": d, "Δt": _int(m), "± se": _int(se), "Δt / d_out": _int(ms), "± se ": _int(ses),
             "theory Δt / d_out": _int(th / d)}
            for d, (m, se, ms, ses, th) in checks.d_out_table(histories).items()]


def d_out_capped_table(histories: Sequence[History], cap: int = thresholds.STEP_CAP) -> list[dict]:
    """Per d_out (seed means): t_train, t_test, Δt, and Δt as a run stopped at ``cap`` steps would record it
    (the hypothesis beside C.dout.peak; not the figure's numbers)."""
    return [{"d_out": d, "t_train": _int(tr), "t_test": _int(te), "Δt": _int(dt), f"Δt, runs stopped at {cap:.0e}": _int(cdt),
             "seeds crossing after the cap": n}
            for d, (tr, te, dt, cdt, n) in checks.capped_d_out_table(histories, cap).items()]


def d_out_capped_reading(histories: Sequence[History], cap: int = thresholds.STEP_CAP) -> dict[str, str]:
    """The numbers the d_out page's hypothesis quotes (glued): the cap, where the capped Δt peaks, and the d_out
    whose test crossing falls after the cap (seed means of :func:`checks.capped_d_out_table`)."""
    table = checks.capped_d_out_table(histories, cap)
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


def d_out(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every run's crossings."""
    return grok_time(histories)


# --- the two nets ---------------------------------------------------------------------------------------
def nets_table(histories: Sequence[History]) -> list[dict]:
    """Per net: simulated and rescaled-theory crossings, and the end of training."""
    rows = []
    for h in histories:
        c, row = h.cfg, measure.crossing(h)
        rows.append({"model": c.model.replace("_", " "), "shape": f"{c.d_in}-{c.hidden}-{c.d_out}",
                     "t_train": _int(row["t_train"]), "theory t_train": _int(row.get("theory_t_train")),
                     "t_test": _int(row["t_test"]), "theory t_test": _int(row.get("theory_t_test")),
                     "final test loss": _loss(h.final('test_loss')),
                     "final test acc": round(h.final("test_acc"), 3)})
    return rows


def two_layer_clock(h: History) -> dict:
    """The two-layer linear net's second layer against the rescaling's assumption W2^T W2 = I / (2 d_out): its mean
    eigenvalue along the run (retraced, :func:`measure.second_layer_gram`) and the crossings the theory predicts
    when its clock runs at that measured value (:func:`measure.rescaled_clock_crossing`)."""
    config = h.cfg
    row = measure.crossing(h)
    t_max = max(t for t in (row["t_train"], row["t_test"], 50) if t is not None)
    gram = measure.second_layer_gram(config, t_max)
    clock = [measure.rescaled_clock_crossing(gram, config.d_out, row[f"theory_t_{w}"]) for w in ("train", "test")]
    if not all(math.isfinite(t) for t in clock):  # the measured clock crosses after the net: trace on, as far as
        t_max = max(t_max, math.ceil(max(row["theory_t_train"], row["theory_t_test"])))  # the fixed rescaling
        gram = measure.second_layer_gram(config, t_max)
        clock = [measure.rescaled_clock_crossing(gram, config.d_out, row[f"theory_t_{w}"]) for w in ("train", "test")]
    return {"assumed": 1 / (2 * config.d_out), "gram": gram, "clock_t_train": clock[0], "clock_t_test": clock[1],
            "t_train": row["t_train"], "t_test": row["t_test"],
            "theory_t_train": row["theory_t_train"], "theory_t_test": row["theory_t_test"]}


def two_layer_clock_table(h: History, steps=(0, 10, 25, 50, 100)) -> list[dict]:
    """Printable rows: the mean eigenvalue of W2^T W2 at a few steps and at the net's crossings, over its value
    assumed by eta -> eta / (2 d_out^2)."""
    clock = two_layer_clock(h)
    marks = [(t, "") for t in steps] + [(clock["t_train"], "t_train"), (clock["t_test"], "t_test")]
    marks = sorted((t, label) for t, label in marks if t is not None and t < len(clock["gram"]))  # None: never crossed
    return [{"step": int(t), "": label, "mean eigenvalue of W2ᵀW2": round(float(clock["gram"][t]), 3),
             "/ 1/(2 d_out)": round(float(clock["gram"][t]) / clock["assumed"], 2)} for t, label in marks]


def _step_or_beyond(t: float, traced: int) -> str:
    return f"{t:.0f}" if math.isfinite(t) else f"after {traced} (not reached in the steps traced)"


def nets_reading(histories: Sequence[History], prefix: str = "nets") -> dict[str, str]:
    """The numbers the nets page's prose quotes about the two-layer linear net's clock (glued as ``<prefix>_...``;
    the two-layer linear net is the first run) and the widths the verdicts are for."""
    clock = two_layer_clock(histories[0])
    gram = clock["gram"]
    c = histories[0].cfg
    numbers = {"shape": f"{c.d_in}-{c.hidden}-{c.d_out}", "assumed": f"{clock['assumed']:.3g}",
               "gram_0": f"{gram[0]:.3f}", "gram_50": f"{gram[min(50, len(gram) - 1)]:.3f}",
               "gram_test": f"{gram[clock['t_test']]:.3f}" if clock["t_test"] is not None else "n/a",
               "rate_test": f"{gram[clock['t_test']] / clock['assumed']:.1f}" if clock["t_test"] is not None else "n/a",
               "clock_train": _step_or_beyond(clock["clock_t_train"], len(gram) - 1),
               "clock_test": _step_or_beyond(clock["clock_t_test"], len(gram) - 1),
               "net_train": f"{clock['t_train']}", "net_test": f"{clock['t_test']}",
               "theory_train": f"{clock['theory_t_train']:.0f}", "theory_test": f"{clock['theory_t_test']:.0f}"}
    return {f"{prefix}_{k}": v for k, v in numbers.items()}


def _crossing_clause(row: dict, which: str) -> str:
    """'training accuracy reaches erf(sqrt 2) at step 166, 3.2 times sooner than the rescaled theory (530)' from a
    :func:`nets_table` row, or that it never does."""
    what = {"train": "training", "test": "test"}[which]
    t, th = row[f"t_{which}"], row[f"theory t_{which}"]
    if not math.isfinite(t):
        return f"{what} accuracy never reaches erf(√2) (the rescaled theory's crossing: step {th:.0f})"
    return f"{what} accuracy reaches erf(√2) at step {t:.0f}, {th / t:.1f} times sooner than the rescaled theory ({th:.0f})"


def nets_paper_reading(default: Sequence[History], paper: Sequence[History], default_results: Sequence,
                       paper_results: Sequence) -> dict[str, str]:
    """The numbers the nets page's prose quotes about the paper-scale nets (glued as ``nets_paper_...``): their
    verdicts beside the scale-down's, their crossings against the rescaled theory and against each other, and the
    paper-scale two-layer linear net's second layer (:func:`nets_reading`). ``default`` and ``paper`` are the
    (two-layer linear, tanh) runs of the default profile and of the recorded set; the results, their claims'."""
    two, tanh = nets_table(paper)
    scale_down_tanh = nets_table(default)[1]
    verdict = {r.claim.id: r.verdict for r in paper_results}
    default_verdict = {r.claim.id: r.verdict for r in default_results}
    groks, groked_before = math.isfinite(tanh["t_test"]), math.isfinite(scale_down_tanh["t_test"])
    ratios = [tanh[f"t_{w}"] / two[f"t_{w}"] for w in ("train", "test")
              if math.isfinite(tanh[f"t_{w}"]) and math.isfinite(two[f"t_{w}"])]
    ahead = all(math.isfinite(r[f"t_{w}"]) and r[f"t_{w}"] < r[f"theory t_{w}"] for r in (two, tanh) for w in ("train", "test"))
    return {"nets_paper_two_layer_verdict": f"**{verdict['C.nets.two_layer']}**",
            "nets_paper_tanh_verdict": f"**{verdict['C.nets.tanh']}**",
            "nets_paper_two_layer_default": default_verdict["C.nets.two_layer"],
            "nets_paper_tanh_default": default_verdict["C.nets.tanh"],
            "nets_paper_two_layer_train": _crossing_clause(two, "train"),
            "nets_paper_two_layer_test": _crossing_clause(two, "test"),
            "nets_paper_tanh_train": _crossing_clause(tanh, "train"),
            "nets_paper_tanh_test": _crossing_clause(tanh, "test"),
            "nets_paper_tanh_final_acc": f"{tanh['final test acc']:.3f}",
            "nets_paper_tanh_vs_scale_down": {(True, False): "unlike the scale-down's, which never does",
                                              (True, True): "as the scale-down's does",
                                              (False, True): "unlike the scale-down's, which does",
                                              (False, False): "as in the scale-down"}[(groks, groked_before)],
            "nets_paper_tanh_vs_two_layer": (
                "its crossings come at " + " and ".join(f"{r:.2f}" for r in ratios) + " times the two-layer linear "
                "net's (training, test)" if len(ratios) == 2 else "its test crossing cannot be set against the "
                "two-layer linear net's"),
            "nets_paper_both_ahead": ("both nets run ahead of the rescaled linear theory at every crossing" if ahead
                                      else "the nets do not both run ahead of the rescaled linear theory"),
            **nets_reading(paper, prefix="nets_paper")}


def nets(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the curves at fixed steps and the crossings."""
    return _curves(histories, ("train_loss", "test_loss", "train_acc", "test_acc"))


# --- label noise --------------------------------------------------------------------------------------
def label_noise_table(histories: Sequence[History]) -> list[dict]:
    """Per run: σ_n, both crossings and their gap, and the final losses against the noise floors."""
    rows = []
    for h in histories:
        c, row = h.cfg, measure.crossing(h)
        lim_tr, lim_gen = theory.noise_fit_limits(h.meta["lam_eff"], c.label_noise)
        gap = (abs(row["t_train"] - row["t_test"]) / row["t_test"]
               if row["t_train"] is not None and row["t_test"] is not None else math.nan)
        rows.append({"λ": c.lam, "σ_n": float(f"{c.label_noise:.3g}"), "t_train": _int(row["t_train"]),
                     "t_test": _int(row["t_test"]), "gap / t_test": round(gap, 3),
                     "final L_tr": _loss(h.final('train_loss')), "σₙ²(1-λ)": float(f"{lim_tr:.3g}"),
                     "final L_gen": _loss(h.final('gen_loss')), "σₙ²λ/(1-λ)": float(f"{lim_gen:.3g}")})
    return rows


def tuned_noise_table(histories: Sequence[History]) -> list[dict]:
    """Per seed at σ_n = σ*: both crossings, their gap over t_test, and the final L_gen against ε/4 (C.noise.tuned)."""
    rows = []
    for h in sorted(histories, key=lambda h: h.cfg.data_seed):
        row = measure.crossing(h)
        gap = (abs(row["t_train"] - row["t_test"]) / row["t_test"]
               if row["t_train"] is not None and row["t_test"] is not None else math.nan)
        rows.append({"seed": h.cfg.data_seed, "σ_n": float(f"{h.cfg.label_noise:.3g}"),
                     "t_train": _int(row["t_train"]), "t_test": _int(row["t_test"]), "gap / t_test": round(gap, 3),
                     "final L_gen": float(f"{h.final('gen_loss'):.4g}"), "ε/4": h.cfg.eps / 4})
    return rows


def tuned_noise_reading(histories: Sequence[History], result) -> dict[str, str]:
    """The numbers the label-noise page quotes about C.noise.tuned over seeds (glued)."""
    rows = tuned_noise_table(histories)
    crossed = [r for r in rows if r["gap / t_test"] == r["gap / t_test"]]
    never = [str(r["seed"]) for r in rows if r["gap / t_test"] != r["gap / t_test"]]
    return {"tuned_seeds": f"{len(rows)}", "tuned_verdict": result.verdict,
            "tuned_gaps": (f"{min(r['gap / t_test'] for r in crossed):.2f}–{max(r['gap / t_test'] for r in crossed):.2f}"
                           if crossed else "none"),
            "tuned_never": ", ".join(never) or "none",
            "tuned_final_gen": f"{min(r['final L_gen'] for r in rows):.3g}–{max(r['final L_gen'] for r in rows):.3g}",
            "tuned_ok": f"{thresholds.TUNED_OK:g}", "tuned_partly": f"{thresholds.TUNED_PARTLY:g}"}


def label_noise(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the curves at fixed steps and the crossings."""
    return _curves(histories, ("train_loss", "gen_loss", "train_acc", "test_acc"))


#: Figure name -> its regression reduction.
# --- Paper C's question on Part A's task: Δt vs the training fraction -------------------------------
def data_ratio_table(histories: Sequence[History], level: float = modadd.LEVEL) -> list[dict]:
    """One printable row per training fraction: epochs, seeds grokked, t_train, Delta t per seed (">N" when
    censored), their geometric mean, lambda_eff = c/f from the formula fit, and each fit's prediction."""
    m = modadd.measure_data_ratio(histories, level)
    c = m.fits["formula"].params[1] if "formula" in m.fits else math.nan
    rows = []
    for p in m.fractions:
        t_tr = [r.t_train for r in p.runs if math.isfinite(r.t_train)]
        row = {
            "train_frac": p.train_frac,
            "epochs": max(r.epochs for r in p.runs),
            "grokked": f"{p.n_grokked}/{len(p.runs)}",
            "t_train": _int(float(np.mean(t_tr))) if t_tr else math.nan,
            "Δt per seed": ", ".join(f"{r.dt:.0f}" if not r.censored else f">{r.lower_bound:.0f}" for r in p.runs),
            "Δt geo-mean": _int(p.geo_mean) if p.grokked else math.nan,
            "λ_eff": round(c / p.train_frac, 3) if math.isfinite(c) else math.nan,
        }
        for k, fit in m.fits.items():
            pred = float(fit(p.train_frac))
            row[f"{k} fit"] = _int(pred) if math.isfinite(pred) else "never"
        rows.append(row)
    return rows


def data_ratio_fit_table(histories: Sequence[History], level: float = modadd.LEVEL) -> list[dict]:
    """One printable row per fit: its formula, R^2 and RMS error of ln Delta t on the fitted fractions, and
    the leave-one-fraction-out RMS error and the held-out error at the smallest fitted fraction."""
    m = modadd.measure_data_ratio(histories, level)
    rows = []
    for k, fit in m.fits.items():
        loo = m.loo.get(k)
        rows.append({
            "fit": k,
            "fitted curve": fit.describe(),
            "R²": round(fit.r2, 4),
            "rms error of ln Δt": round(fit.rmse, 4),
            "leave-one-out rms error of ln Δt": round(shape_fits.rms(loo), 4) if loo is not None and math.isfinite(shape_fits.rms(loo)) else (
                "inf" if loo is not None else "n/a"),
            "held-out error of ln Δt at the smallest f": (round(float(loo[0]), 3) if math.isfinite(loo[0]) else "never groks")
            if loo is not None else "n/a",
        })
    return rows


def data_ratio_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """The key numbers for figure regression: Delta t per (fraction, seed) and each fit's parameters."""
    m = modadd.measure_data_ratio(histories)

    def num(x: float) -> float | None:
        return float(x) if math.isfinite(x) else None

    out: dict[str, float | None] = {}
    for p in m.fractions:
        for r in p.runs:
            out[f"f={p.train_frac:g}/seed={r.seed}/dt"] = num(r.dt)
    for k, fit in m.fits.items():
        out[f"{k}/p0"], out[f"{k}/p1"], out[f"{k}/r2"] = num(fit.params[0]), num(fit.params[1]), num(fit.r2)
        if k in m.loo:
            out[f"{k}/loo_rms"] = num(m.loo_rms(k))
    return out
