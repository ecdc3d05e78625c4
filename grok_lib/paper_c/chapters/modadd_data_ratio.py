"""Paper C's question on Part A's task (``notebooks/paper_c/modadd_data_ratio.ipynb``): the grokking time of Part A's
MLP at a small scale against the training fraction, with three two-parameter fits (C.modadd.data_ratio,
C.modadd.data_ratio_specific), one run per training fraction and seed."""

from __future__ import annotations

import math
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ...chapters import Chapter, Figure
from ...claims import registry
from ...grading import Bar, Claim, Regime, Result, draw, grade
from ...history import History
from ...notebook import Run, start
from ...tables import typeset
from .. import data_ratio, shape_fits
from ..claim_terms import REBUTTAL
from ..curve_numbers import as_int
from ..measure import GROK_ACC
from ..panels import GROK_LEVEL, plot_data_ratio
from ..shape_fits import ShapeFit


#: At least this many training fractions must grok for every seed (the regime: a shape needs points).
MIN_FRACTIONS = 5


R2_OK = Bar(lo=0.90)  #: R^2 of the formula fit (ln of the per-fraction geometric mean Delta t)


R2_GRID = (Bar(lo=0.80), Bar(lo=0.95))


#: The formula's leave-one-fraction-out RMS error of ln Delta t over the better rival's: at least as good.
LOO_RATIO = Bar(hi=1.0)


CLAIMS = registry([
    Claim(
        "C.modadd.data_ratio", "C", "claim", "review", f"{REBUTTAL}, reply on the scope of the model",
        "We have added experimental evidence in the revised manuscript that indicate that the grokking time scaling "
        "behavior extends for deeper nonlinear networks, for the task of learning modular arithmetic",
        r"On Part A's modular-addition MLP (the book's test of the rebuttal's statement: the paper's Appendix G is "
        r"not public) the grokking time against the training fraction $f$ has the linear theory's shape "
        r"$\Delta t \propto \ln(1/(1-\sqrt{\lambda}))/(1-\sqrt{\lambda})^2$ with $\lambda_{\mathrm{eff}} = c/f$.",
        f"R² of the fit of ln Δt by the formula's shape (free scale A and critical fraction c), Δt = t_test − t_train at "
        f"accuracy ≥ erf(√2) ≈ {GROK_ACC:.4f} (Paper C's level), over the fractions that grok, per seed (a fit with c "
        "at the edge of its range (0, smallest fitted f) has no value)",
        R2_OK, bars=R2_GRID, fmt=".3f",
        why="'describes' is the book's R² of 0.9, with 0.8 and 0.95 beside it"),
    Claim(
        "C.modadd.data_ratio_specific", "C", "claim", "review", f"{REBUTTAL}, reply on the scope of the model",
        "We have added experimental evidence in the revised manuscript that indicate that the grokking time scaling "
        "behavior extends for deeper nonlinear networks, for the task of learning modular arithmetic",
        r"On Part A's modular-addition MLP the linear theory's formula predicts the grokking time at held-out training "
        r"fractions at least as well as a plain two-parameter curve (a power law in $1/f$ or an exponential in $f$).",
        "the formula's leave-one-fraction-out RMS error of ln Δt over the better rival's (the smaller of the power "
        "law's and the exponential's), per seed",
        LOO_RATIO, fmt=".2f",
        why="'the scaling extends' says more than 'steeply decreasing' only where the theory's shape beats a plain "
            "curve of as many parameters: at least as well (≤ 1)"),
])


def run(profile: str = "default", fractions=None, seeds=None, epochs=None, device=None, *,
        output_path=None) -> Run:
    """Part A's MLP at a small scale, one run per training fraction and seed (Paper C's question on
    modular addition)."""
    configs = data_ratio.data_ratio_configs(profile, fractions, seeds, epochs, device)
    return start(profile, {"profile": profile, "fractions": fractions, "seeds": seeds, "epochs": epochs,
                           "device": device}, configs, data_ratio.data_ratio_configs("default"), output_path)


def _predicted(fit: ShapeFit, f: float) -> str:
    value = float(fit(f))
    return f"{value:.0f}" if math.isfinite(value) else "never"


def _seed_text(s: int, m) -> str:
    """One seed's sweep in words: its Delta t per fraction, the fits and the formula's constants."""
    dts = ", ".join(f"f={p.train_frac:g}: " + (f"{p.geo_mean:.0f}" if p.grokked else
                                               "; ".join(f">{r.lower_bound:.0f}" for r in p.runs))
                    for p in m.fractions)
    text = f"seed {s}: Δt {dts}"
    if "formula" not in m.fits:
        return text
    fits = ", ".join(f"{k} R² {fit.r2:.3f}" + (f" (leave-one-out rms {m.loo_rms(k):.3f})" if k in m.loo else "")
                     for k, fit in m.fits.items())
    fo = m.fits["formula"]
    edge = "".join(f"; at f={p.train_frac:g} (not fitted) the fits predict "
                   + ", ".join(f"{k} {_predicted(fit, p.train_frac)}" for k, fit in m.fits.items())
                   for p in m.censored)
    return (f"{text}; {fits}; the formula's c = {fo.params[1]:.3g}"
            f"{' (at the edge of its range)' if fo.at_bound else ''}, A·2lr = {math.exp(fo.params[0]) * 2 * m.lr:.3g} "
            f"(1 for GD){edge}")


def data_ratio_regime(per_seed: dict) -> Regime:
    """A shape needs points: at least MIN_FRACTIONS training fractions whose run groks within its epochs, every
    seed."""
    counts = {s: len(m.fitted) for s, m in per_seed.items()}
    return Regime(all(n >= MIN_FRACTIONS and "formula" in m.loo for n, m in zip(counts.values(), per_seed.values())),
                  "training fractions whose run reaches erf(√2) on test within its epochs (the transition completes)",
                  f"≥ {MIN_FRACTIONS} for every seed", ", ".join(f"seed {s}: {n}" for s, n in counts.items()))


def evaluate_data_ratio(histories: Sequence[History], level: float = data_ratio.LEVEL) -> list[Result]:
    """C.modadd.data_ratio and C.modadd.data_ratio_specific on the data-ratio sweep, one draw per seed's sweep (the
    MLP's grokking epoch moves with the seed)."""
    shape, specific = CLAIMS["C.modadd.data_ratio"], CLAIMS["C.modadd.data_ratio_specific"]
    seeds = sorted({int(h.cfg.data_seed) for h in histories})
    per_seed = {s: data_ratio.measure_data_ratio([h for h in histories if int(h.cfg.data_seed) == s], level)
                for s in seeds}
    where = data_ratio_regime(per_seed)
    context = "; ".join(_seed_text(s, m) for s, m in per_seed.items())
    if not where.ok:
        return [grade(shape, [], context, regime=where), grade(specific, [], regime=where)]
    r2 = [draw(m.fits["formula"].r2 if not m.fits["formula"].at_bound else math.nan, s) for s, m in per_seed.items()]
    loo = [draw(m.loo_rms("formula") / m.loo_rms(m.best_alternative()), s, (), (f"formula / {m.best_alternative()}",))
           for s, m in per_seed.items()]
    return [grade(shape, r2, context, regime=where), grade(specific, loo, regime=where)]


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


def reading(histories: Sequence[History], results: Sequence) -> dict[str, str]:
    """The numbers the page's prose quotes (glued): the fits' R² and leave-one-out errors, how the formula compares,
    its constants, the smallest fraction's runs, the verdicts, bars and regime (``results``: the two claims')."""
    m = data_ratio.measure_data_ratio(histories)
    nan = float("nan")
    rivals = [k for k in ("power", "exponential") if k in m.fits]
    r2 = {k: fit.r2 for k, fit in m.fits.items()}
    loo = {k: m.loo_rms(k) for k in m.fits}
    best_rival_r2 = max((r2[k] for k in rivals), default=nan)
    rival_loo = [loo[k] for k in rivals]
    formula = m.fits.get("formula")
    edge = m.fractions[0]
    edge_dts = [f"{r.dt:.0f}" for r in edge.runs if not r.censored]
    n_stalled = len(edge.runs) - edge.n_grokked
    seeds = sorted({int(h.cfg.data_seed) for h in histories})
    per_seed = [data_ratio.measure_data_ratio([h for h in histories if int(h.cfg.data_seed) == s]) for s in seeds]
    formula_best = [ms for ms in per_seed if "formula" in ms.loo
                    and ms.loo_rms("formula") <= min((ms.loo_rms(k) for k in ("power", "exponential") if k in ms.loo),
                                                     default=nan)]
    return dict(
        ratio_n_fitted=f"{len(m.fitted)}",
        ratio_seeds_formula_best=f"{len(formula_best)} of the {len(seeds)}",
        ratio_r2_formula=f"{r2.get('formula', nan):.3f}",
        ratio_r2_power=f"{r2.get('power', nan):.3f}",
        ratio_r2_exponential=f"{r2.get('exponential', nan):.3f}",
        ratio_r2_phrase=("about as well as" if abs(r2.get("formula", nan) - best_rival_r2) <= 0.02
                         else "better than" if r2.get("formula", nan) > best_rival_r2 else "less well than"),
        ratio_loo_formula=f"{loo.get('formula', nan):.3f}",
        ratio_loo_power=f"{loo.get('power', nan):.3f}",
        ratio_loo_exponential=f"{loo.get('exponential', nan):.3f}",
        ratio_loo_phrase=("worse than either" if loo.get("formula", nan) > max(rival_loo, default=nan)
                          else "better than either" if loo.get("formula", nan) < min(rival_loo, default=nan)
                          else "no better than the better of them"),
        ratio_c=f"{formula.params[1]:.2f}" if formula else "nan",
        ratio_scale=f"{math.exp(formula.params[0]) * 2 * m.lr:.2f}" if formula else "nan",
        ratio_edge_f=f"{edge.train_frac:g}",
        ratio_edge_seeds=(f"{edge.n_grokked} of {len(edge.runs)} seeds reach the level within "
                          f"{max(r.epochs for r in edge.runs):,} epochs"
                          + (f" (Δt {' and '.join(edge_dts)})" if edge_dts else "")
                          + (f", {n_stalled} {'does' if n_stalled == 1 else 'do'} not" if n_stalled else "")),
        ratio_edge_formula=f"{float(formula(edge.train_frac)):.0f}" if formula else "nan",
        ratio_shape_verdict=results[0].word,
        ratio_specific_verdict=results[1].word,
        ratio_r2_bars=typeset(results[0].claim.threshold),
        ratio_regime=typeset(results[0].regime.text()),
    )


def figure_data_ratio(histories: Sequence[History], measured):
    """Part A's MLP: test accuracy vs epoch per training fraction (seed 0, left) and Δt_grok against the
    training fraction with the three two-parameter fits (right; ``measured`` is a ``data_ratio.DataRatio``)."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(11.5, 4.4), layout="constrained")
    first = [h for h in histories if h.cfg.data_seed == histories[0].cfg.data_seed]
    cmap = plt.get_cmap("viridis")
    for i, h in enumerate(sorted(first, key=lambda h: h.cfg.train_frac)):
        a.plot(np.where(h.steps == 0, 0.5, h.steps), h["test_acc"], color=cmap(i / max(len(first) - 1, 1)),
               label=f"f = {h.cfg.train_frac:g}")
    a.axhline(GROK_ACC, color="0.6", lw=0.7, label=GROK_LEVEL)
    a.set_xscale("log")
    a.set_xlabel("epoch")
    a.set_ylabel("test accuracy")
    a.legend(fontsize=7, loc="upper left")  # before the rises: on the lower right, the latest rise crossed it
    plot_data_ratio(b, measured)
    return fig


def draw_data_ratio(histories: Sequence[History]):
    """The figure from the chapter's runs and their measured sweep (:func:`~grok_lib.paper_c.data_ratio.measure_data_ratio`)."""
    return figure_data_ratio(histories, data_ratio.measure_data_ratio(histories))


FIGURE = Figure("paper_c/modadd_data_ratio", "Paper C's question on Part A's task: grokking time against the "
                "training fraction, with three two-parameter fits", data_ratio_numbers, draw_data_ratio)
CHAPTER = Chapter("notebooks/paper_c/modadd_data_ratio.ipynb", run, data_ratio.data_ratio_configs, (FIGURE,),
                  claims=tuple(CLAIMS))
