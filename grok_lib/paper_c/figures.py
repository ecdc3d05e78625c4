"""The key numbers of each Part C figure, computed once, and the data each figure plots.

As in Part A: ``<figure>_table(histories)`` are the rows a notebook prints (nbval compares
them; values are rounded so they print stably), ``<figure>_data(histories)`` is what the
figure draws (so a notebook only calls and plots), and :data:`NUMBERS` maps each figure
name to its figure-regression reduction.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from ..tables import NOISE_FLOOR
from . import checks, measure, modadd, shape_fits, theory, thresholds

#: The steps at which the curves are guarded by figure regression.
CURVE_STEPS = (10, 100, 1_000, 10_000, 100_000)
#: Losses below this are rounding noise of float64 (their digits change with the BLAS thread count):
#: figure regression does not guard them (tables print everything below tables.NOISE_FLOOR as such).
LOSS_FLOOR = 1e-20


def _loss(x: float):
    """A loss as printed: three significant digits, or "< 1e-12" below the rounding-noise floor."""
    return f"< {NOISE_FLOOR:.0e}" if abs(x) < NOISE_FLOOR else float(f"{x:.3g}")


def _tag(h: History) -> str:
    c = h.config
    tag = f"lam={c['lam']:g}"
    for name, default in (("d_out", 1), ("gamma", 0.0), ("label_noise", 0.0), ("data_seed", 0)):
        if c[name] != default:
            tag += f"/{name}={c[name]:.4g}"
    return tag + ("" if c["model"] == "linear" else f"/{c['model']}")


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
        rows.append({"λ": h.config["lam"], "N_tr": h.meta["n_train"],
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
        rows.append({"λ": h.config["lam"], "sim/exact L_tr": f"{sim[0]:.2%}", "sim/exact L_gen": f"{sim[1]:.2%}",
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


def loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses and accuracies at fixed steps, every crossing."""
    return _curves(histories, ("train_loss", "gen_loss", "test_loss", "train_acc", "test_acc", "theory_gen_loss",
                               "mp_gen_loss"))


# --- Δt_grok vs λ --------------------------------------------------------------------------------------
def grok_time_data(histories: Sequence[History]) -> dict:
    """λs, simulated Δt per ε, the formula on a fine λ grid (at the runs' η), and the ratios per ε."""
    hs = sorted(histories, key=lambda h: h.config["lam"])
    lams = [h.meta["lam_eff"] for h in hs]
    eps_all = [row["eps"] for row in hs[0].meta["crossings"]]
    fine = np.linspace(min(lams), max(lams), 200)
    return {"lams": lams,
            "times": {e: [measure.grokking_time(h, e) for h in hs] for e in eps_all},
            "formula_lams": fine,
            "formula": [theory.grok_time_formula(x, hs[0].config["eta"]) for x in fine],
            "ratios": checks.formula_ratios(hs, checked_eps(hs[0]))}


def checked_eps(h: History) -> list[float]:
    """The formula's checked ε (thresholds.FORMULA_EPS) that a run measured."""
    return measure.measured_eps(h, thresholds.FORMULA_EPS)


def grok_time_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the formula, and the simulated Δt and its ratio to the formula at each checked ε."""
    rows = []
    for h in sorted(histories, key=lambda h: h.config["lam"]):
        row = {"λ": h.config["lam"], "formula": _int(theory.grok_time_formula(h.meta["lam_eff"], h.config["eta"]))}
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
    c, lam = h.config, h.meta["lam_eff"]
    return {"paper": theory.wd_limits_paper(lam, c["gamma"]),
            "our convention": theory.wd_limits_mp(lam, c["gamma"], c["d_out"], h.meta["teacher_sq"])}


def _ratio(value: float, limit: float) -> float:
    """value / limit to three decimals (NaN where the limit is 0: gamma = 0 has no plateau)."""
    return round(value / limit, 3) if limit else math.nan


def weight_decay_table(histories: Sequence[History]) -> list[dict]:
    """Per (λ, γ): the final losses against the paper's formula and against the book's convention."""
    rows = []
    for h in histories:
        lim = weight_decay_limits(h)
        rows.append({"λ": h.config["lam"], "γ": h.config["gamma"], "small-γ regime": checks.wd_small(h),
                     "final L_tr": _loss(h.final('train_loss')),
                     "final L_gen": _loss(h.final('gen_loss')),
                     "L_tr / paper": _ratio(h.final("train_loss"), lim["paper"][0]),
                     "L_gen / paper": _ratio(h.final("gen_loss"), lim["paper"][1]),
                     "L_tr / ours": _ratio(h.final("train_loss"), lim["our convention"][0]),
                     "L_gen / ours": _ratio(h.final("gen_loss"), lim["our convention"][1])})
    return rows


def weight_decay_data(histories: Sequence[History]) -> dict:
    """What the weight-decay figure draws: each run's limits, and measured against predicted plateaus."""
    limits = [weight_decay_limits(h) for h in histories]
    predicted = [x for lim in limits for x in lim["paper"]]
    measured = [x for h in histories for x in (h.final("train_loss"), h.final("gen_loss"))]
    labels = [f"{k} λ={h.config['lam']:g} γ={h.config['gamma']:g}" for h in histories for k in ("tr", "gen")]
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


def d_out(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every run's crossings."""
    return grok_time(histories)


# --- the two nets ---------------------------------------------------------------------------------------
def nets_table(histories: Sequence[History]) -> list[dict]:
    """Per net: simulated and rescaled-theory crossings, and the end of training."""
    rows = []
    for h in histories:
        c, row = h.config, measure.crossing(h)
        rows.append({"model": c["model"].replace("_", " "), "shape": f"{c['d_in']}-{c['hidden']}-{c['d_out']}",
                     "t_train": _int(row["t_train"]), "theory t_train": _int(row.get("theory_t_train")),
                     "t_test": _int(row["t_test"]), "theory t_test": _int(row.get("theory_t_test")),
                     "final test loss": _loss(h.final('test_loss')),
                     "final test acc": round(h.final("test_acc"), 3)})
    return rows


def nets(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the curves at fixed steps and the crossings."""
    return _curves(histories, ("train_loss", "test_loss", "train_acc", "test_acc"))


# --- label noise --------------------------------------------------------------------------------------
def label_noise_table(histories: Sequence[History]) -> list[dict]:
    """Per run: σ_n, both crossings and their gap, and the final losses against the noise floors."""
    rows = []
    for h in histories:
        c, row = h.config, measure.crossing(h)
        lim_tr, lim_gen = theory.noise_fit_limits(h.meta["lam_eff"], c["label_noise"])
        gap = (abs(row["t_train"] - row["t_test"]) / row["t_test"]
               if row["t_train"] is not None and row["t_test"] is not None else math.nan)
        rows.append({"λ": c["lam"], "σ_n": float(f"{c['label_noise']:.3g}"), "t_train": _int(row["t_train"]),
                     "t_test": _int(row["t_test"]), "gap / t_test": round(gap, 3),
                     "final L_tr": _loss(h.final('train_loss')), "σₙ²(1-λ)": float(f"{lim_tr:.3g}"),
                     "final L_gen": _loss(h.final('gen_loss')), "σₙ²λ/(1-λ)": float(f"{lim_gen:.3g}")})
    return rows


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


#: At least this many training fractions must grok for every seed (else there is no shape to test).


NUMBERS = {
    "paper_c/loss_curves": loss_curves,
    "paper_c/agreement": agreement,
    "paper_c/grok_time": grok_time,
    "paper_c/weight_decay": weight_decay,
    "paper_c/d_out": d_out,
    "paper_c/nets": nets,
    "paper_c/label_noise": label_noise,
    "paper_c/modadd_data_ratio": data_ratio_numbers,
}
