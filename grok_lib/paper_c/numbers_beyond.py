"""The key numbers of Part C's figures beyond the linear student: of the two nets, of label noise and of Paper C's question asked of Part A's
task (the training fraction): their tables, the data they draw and their figure-regression reductions, as in
:mod:`grok_lib.paper_c.key_numbers` (which holds the shared helpers). The numbers the pages' prose quotes are in
:mod:`grok_lib.paper_c.readings`."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from ..history import History
from . import data_ratio, measure, shape_fits, theory
from .key_numbers import as_int, curves, printed_loss


# --- the two nets ---------------------------------------------------------------------------------------
def _net_row(h: History) -> dict:
    c, row = h.cfg, measure.crossing(h)
    return {"model": c.model.replace("_", " "), "shape": f"{c.d_in}-{c.hidden}-{c.d_out}",
            "t_train": as_int(row["t_train"]), "theory t_train": as_int(row.get("theory_t_train")),
            "t_test": as_int(row["t_test"]), "theory t_test": as_int(row.get("theory_t_test")),
            "final test loss": printed_loss(h.final('test_loss')),
            "final test acc": round(h.final("test_acc"), 3)}


def net_rows(groups: Mapping[str, Sequence[History]]) -> dict[str, dict]:
    """The nets chapter's named groups (``two_layer``, ``tanh``; one run each) -> each net's simulated and
    rescaled-theory crossings and the end of its training."""
    return {name: _net_row(h) for name, (h,) in groups.items()}


def nets_table(groups: Mapping[str, Sequence[History]]) -> list[dict]:
    """Printable rows of :func:`net_rows`, one per net, in the groups' order."""
    return list(net_rows(groups).values())


def activation_table(groups: Mapping[str, Sequence[History]]) -> list[dict]:
    """Printable rows of the recorded set ``nets_activation``: per net other than the linear one and per seed, its
    crossings beside the two-layer linear net's of the same seed and the factor C.nets.relu and C.nets.tanh_gain
    grade (:func:`.measure.deviation_factor`)."""
    linear = {int(h.cfg.data_seed): h for h in groups["two_layer"]}
    rows = []
    for name, runs in groups.items():
        if name == "two_layer":
            continue
        for h in runs:
            lin = linear[int(h.cfg.data_seed)]
            net, ref = measure.crossing(h), measure.crossing(lin)
            rows.append({"net": "ReLU" if h.cfg.model == "relu" else f"tanh, gain {measure.gain(h):g}",
                         "seed": int(h.cfg.data_seed),
                         "t_train": _step(net["t_train"]), "linear t_train": _step(ref["t_train"]),
                         "t_test": _step(net["t_test"]), "linear t_test": _step(ref["t_test"]),
                         "factor": round(measure.deviation_factor(h, lin), 2),
                         "final test acc": round(h.final("test_acc"), 3)})
    return rows


def _step(t) -> str:
    return "never" if t is None else f"{int(t):,}"


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


def nets(groups: Mapping[str, Sequence[History]]) -> dict[str, float | None]:
    """Regression numbers of the nets chapter's named groups: the curves at fixed steps and the crossings."""
    return curves([*groups["two_layer"], *groups["tanh"]], ("train_loss", "test_loss", "train_acc", "test_acc"))


# --- label noise --------------------------------------------------------------------------------------
def label_noise_table(histories: Sequence[History]) -> list[dict]:
    """Per run: σ_n, both crossings and their gap, and the final losses against the noise floors."""
    rows = []
    for h in histories:
        c, row = h.cfg, measure.crossing(h)
        lim_tr, lim_gen = theory.noise_fit_limits(h.meta["lam_eff"], c.label_noise)
        gap = (abs(row["t_train"] - row["t_test"]) / row["t_test"]
               if row["t_train"] is not None and row["t_test"] is not None else math.nan)
        rows.append({"λ": c.lam, "σ_n": float(f"{c.label_noise:.3g}"), "t_train": as_int(row["t_train"]),
                     "t_test": as_int(row["t_test"]), "gap / t_test": round(gap, 3),
                     "final L_tr": printed_loss(h.final('train_loss')), "σₙ²(1-λ)": float(f"{lim_tr:.3g}"),
                     "final L_gen": printed_loss(h.final('gen_loss')), "σₙ²λ/(1-λ)": float(f"{lim_gen:.3g}")})
    return rows


def tuned_noise_table(histories: Sequence[History]) -> list[dict]:
    """Per run at a tuned σ_n (by λ, then seed): both crossings, their gap over t_test, and the final L_gen against
    ε/4 (C.noise.tuned's draws at λ = 0.3, and the rebuttal's σ* at λ = 0.5 beside them)."""
    rows = []
    for h in sorted(histories, key=lambda h: (h.cfg.lam, h.cfg.data_seed)):
        row = measure.crossing(h)
        gap = (abs(row["t_train"] - row["t_test"]) / row["t_test"]
               if row["t_train"] is not None and row["t_test"] is not None else math.nan)
        rows.append({"λ": h.cfg.lam, "seed": h.cfg.data_seed, "σ_n": float(f"{h.cfg.label_noise:.3g}"),
                     "t_train": as_int(row["t_train"]), "t_test": as_int(row["t_test"]), "gap / t_test": round(gap, 3),
                     "final L_gen": float(f"{h.final('gen_loss'):.4g}"), "ε/4": h.cfg.eps / 4})
    return rows


def label_noise(groups: Mapping[str, Sequence[History]]) -> dict[str, float | None]:
    """Regression numbers of the label-noise chapter's named groups: the curves at fixed steps and the crossings."""
    return curves([*groups["fractions"], *groups["full"]], ("train_loss", "gen_loss", "train_acc", "test_acc"))


# --- Paper C's question on Part A's task: Δt vs the training fraction -------------------------------
def data_ratio_table(histories: Sequence[History], level: float = data_ratio.LEVEL) -> list[dict]:
    """One printable row per training fraction: epochs, seeds grokked, t_train, Delta t per seed (">N" when
    censored), their geometric mean, lambda_eff = c/f from the formula fit, and each fit's prediction."""
    m = data_ratio.measure_data_ratio(histories, level)
    c = m.fits["formula"].params[1] if "formula" in m.fits else math.nan
    rows = []
    for p in m.fractions:
        t_tr = [r.t_train for r in p.runs if math.isfinite(r.t_train)]
        row = {
            "train_frac": p.train_frac,
            "epochs": max(r.epochs for r in p.runs),
            "grokked": f"{p.n_grokked}/{len(p.runs)}",
            "t_train": as_int(float(np.mean(t_tr))) if t_tr else math.nan,
            "Δt per seed": ", ".join(f"{r.dt:.0f}" if not r.censored else f">{r.lower_bound:.0f}" for r in p.runs),
            "Δt geo-mean": as_int(p.geo_mean) if p.grokked else math.nan,
            "λ_eff": round(c / p.train_frac, 3) if math.isfinite(c) else math.nan,
        }
        for k, fit in m.fits.items():
            pred = float(fit(p.train_frac))
            row[f"{k} fit"] = as_int(pred) if math.isfinite(pred) else "never"
        rows.append(row)
    return rows


def data_ratio_fit_table(histories: Sequence[History], level: float = data_ratio.LEVEL) -> list[dict]:
    """One printable row per fit: its formula, R^2 and RMS error of ln Delta t on the fitted fractions, and
    the leave-one-fraction-out RMS error and the held-out error at the smallest fitted fraction."""
    m = data_ratio.measure_data_ratio(histories, level)
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
    m = data_ratio.measure_data_ratio(histories)

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
