"""The key numbers of each Part C figure, computed once, and the data each figure plots.

As in Part A: ``<figure>_table(histories)`` are the rows a notebook prints (nbval compares
them; values are rounded so they print stably), ``<figure>_data(histories)`` is what the
figure draws (so a notebook only calls and plots), and ``<figure>(histories)`` is its
figure-regression reduction (named in its chapter's declaration, :mod:`grok_lib.paper_c.chapters`).
The numbers the pages' prose quotes (``*_reading``) and the weight-decay page's per-seed table with its
verdicts are in :mod:`grok_lib.paper_c.readings`; the figures of the two nets, label noise and Part A's task are in
:mod:`grok_lib.paper_c.numbers_beyond`, which reads the shared helpers here (:func:`curves`, :func:`as_int`,
:func:`printed_loss`). The numbers are read off the runs by :mod:`grok_lib.paper_c.measure`; no checks module is
imported here (the checks may read the measurements, never the reverse).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from ..tables import PRINT_FLOOR
from . import measure, theory, thresholds

#: The steps at which the curves are guarded by figure regression.
CURVE_STEPS = (10, 100, 1_000, 10_000, 100_000)
#: Losses below this are rounding noise of float64 (their digits change with the BLAS thread count):
#: figure regression does not guard them (tables print everything below tables.PRINT_FLOOR as such).
LOSS_FLOOR = 1e-20


def printed_loss(x: float):
    """A loss as printed: three significant digits, or "< 1e-10" below the printed floor (tables.PRINT_FLOOR)."""
    return f"< {PRINT_FLOOR:.0e}" if abs(x) < PRINT_FLOOR else float(f"{x:.3g}")


def _tag(h: History) -> str:
    c = h.cfg
    tag = f"lam={c.lam:g}"
    for name, default in (("d_out", 1), ("gamma", 0.0), ("label_noise", 0.0), ("data_seed", 0)):
        if getattr(c, name) != default:
            tag += f"/{name}={getattr(c, name):.4g}"
    return tag + ("" if c.model == "linear" else f"/{c.model}")


def as_int(x) -> float | int:
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


def curves(histories: Sequence[History], names: Sequence[str]) -> dict[str, float | None]:
    """Regression numbers of curves: ``names`` at CURVE_STEPS and every crossing, per run (tiny losses as None)."""
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
        m, ok = h.metrics, measure.decided(h)
        sim = max(measure.worst_in(m[a], m[b], ok) for a, b in (("train_loss", "theory_train_loss"),
                                                                ("gen_loss", "theory_gen_loss")))
        deep = max(measure.max_relative_error(m[a], m[b], thresholds.LOSS_FLOOR)
                   for a, b in (("train_loss", "theory_train_loss"), ("gen_loss", "theory_gen_loss")))
        iso = measure.isotropic_losses(h)
        iso_ok = measure.decided_window(*iso, thresholds.PAPER_EPS / 4)
        mp_iso = max(measure.worst_in(m[f"mp_{k}_loss"], ref, iso_ok) for k, ref in zip(("train", "gen"), iso))
        mp_one = max(measure.worst_in(m[f"mp_{k}_loss"], m[f"theory_{k}_loss"], ok) for k in ("train", "gen"))
        dev = measure.accuracy_law_deviations(h)
        rows.append({"λ": h.cfg.lam, "N_tr": h.meta["n_train"], "window ends at step": measure.last_step(h, ok),
                     "sim/exact in window": f"{sim:.2%}", f"sim/exact to {thresholds.LOSS_FLOOR:g}": f"{deep:.2%}",
                     "MP/isotropic": f"{mp_iso:.1%}", "MP/this D₀": f"{mp_one:.1%}",
                     "acc. law max z (train)": round(float(dev["train"][1].max()), 2),
                     "acc. law max z (test)": round(float(dev["test"][1].max()), 2),
                     "acc. law max |Δ| (train)": round(float(dev["train"][0].max()), 3),
                     "acc. law max |Δ| (test)": round(float(dev["test"][0].max()), 3)})
    return rows


def loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses and accuracies at fixed steps, every crossing."""
    return curves(histories, ("train_loss", "gen_loss", "test_loss", "train_acc", "test_acc", "theory_gen_loss",
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
            "ratios": measure.formula_ratios(hs, checked_eps(hs[0]))}


def checked_eps(h: History) -> list[float]:
    """The formula's checked ε (thresholds.FORMULA_EPS) that a run measured."""
    return measure.measured_eps(h, thresholds.FORMULA_EPS)


def grok_time_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the formula, and the simulated Δt and its ratio to the formula at each checked ε."""
    rows = []
    for h in sorted(histories, key=lambda h: h.cfg.lam):
        row = {"λ": h.cfg.lam, "formula": as_int(theory.grok_time_formula(h.meta["lam_eff"], h.cfg.eta))}
        for e in checked_eps(h):
            row[f"Δt(ε={e:.0e})"] = as_int(measure.grokking_time(h, e))
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
        rows.append({"λ": h.cfg.lam, "γ": h.cfg.gamma, "small-γ regime": measure.wd_small(h),
                     "final L_tr": printed_loss(h.final('train_loss')),
                     "final L_gen": printed_loss(h.final('gen_loss')),
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
    labels = [f"{k} λ={h.cfg.lam:g} γ={h.cfg.gamma:g}" for h in histories for k in ("tr", "gen")]
    return {"limits": limits, "predicted": predicted, "measured": measured, "labels": labels}


def weight_decay(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses at fixed steps and the final plateaus."""
    return curves(histories, ("train_loss", "gen_loss"))


# --- Δt vs d_out --------------------------------------------------------------------------------------
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


def d_out_capped_table(histories: Sequence[History], cap: int = thresholds.STEP_CAP) -> list[dict]:
    """Per d_out (seed means): t_train, t_test, Δt, and Δt as a run stopped at ``cap`` steps would record it
    (the hypothesis beside C.dout.peak; not the figure's numbers)."""
    return [{"d_out": d, "t_train": as_int(tr), "t_test": as_int(te), "Δt": as_int(dt), f"Δt, runs stopped at {cap:.0e}": as_int(cdt),
             "seeds crossing after the cap": n}
            for d, (tr, te, dt, cdt, n) in measure.capped_d_out_seed_means(histories, cap).items()]


def d_out(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: every run's crossings."""
    return grok_time(histories)
