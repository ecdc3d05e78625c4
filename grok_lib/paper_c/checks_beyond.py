"""Paper C's checks beyond the linear student: on the two nets (C.nets.*), on label noise (C.noise.*) and on Paper C's question asked of
Part A's task (C.modadd.data_ratio): one evaluator per claim that turns histories into a
:class:`grok_lib.claims.Result`. The shared grading helpers are in
:mod:`grok_lib.paper_c.checks`."""

from __future__ import annotations

import math
from typing import Sequence

from ..claims import Result, across_seeds, share_verdict
from ..history import History
from ..tables import PRINT_FLOOR, at_resolution
from . import data_ratio, measure, theory
from .checks import grade, label, when
from .claims import REGISTRY
from .shape_fits import ShapeFit
from .thresholds import (LOO_MARGIN, LOSS_FLOOR, MIN_FRACTIONS, NET_BAND, NET_PARTLY, NOISE_OK, NOISE_PARTLY, R2_OK,
                         TUNED_OK, TUNED_PARTLY)


def _net_result(claim_id: str, h: History) -> Result:
    row = measure.crossing(h)
    ratios = []
    for w in ("train", "test"):
        t_sim, t_th = row[f"t_{w}"], row.get(f"theory_t_{w}")
        ratios.append(math.nan if t_sim is None or t_th is None or not t_th > 0 else t_sim / t_th)
    finite = [r for r in ratios if math.isfinite(r)]
    verdict = "not reproduced" if len(finite) < 2 else share_verdict(
        [NET_BAND[0] <= r <= NET_BAND[1] for r in ratios], [NET_PARTLY[0] <= r <= NET_PARTLY[1] for r in ratios])
    c = h.cfg

    def vs(w: str, ratio: float) -> str:  # "179 vs 480 (ratio 0.37)"; a side that never crossed says so, no nan
        t_th = row.get(f"theory_t_{w}")
        theory_said = "the theory never crosses" if t_th is None or not t_th > 0 else f"{t_th:.0f}"
        return f"{when(row[f't_{w}'])} vs {theory_said}" + (f" (ratio {ratio:.2f})" if math.isfinite(ratio) else "")

    text = (f"{c.d_in}-{c.hidden}-{c.d_out} net, lambda={c.lam:g}, eta={c.eta:g}: t_train "
            f"{vs('train', ratios[0])}, t_test {vs('test', ratios[1])}; final test loss "
            f"{at_resolution(h.final('test_loss'), PRINT_FLOOR, '.3g')}, final test accuracy {h.final('test_acc'):.3f}.")
    return Result(REGISTRY[claim_id], text, verdict)


def evaluate_two_layer(h: History) -> Result:
    """C.nets.two_layer on the two-layer linear run."""
    return _net_result("C.nets.two_layer", h)


def evaluate_tanh(h: History) -> Result:
    """C.nets.tanh on the tanh run."""
    return _net_result("C.nets.tanh", h)


def evaluate_noise(histories: Sequence[History]) -> Result:
    """C.noise.additive on the label-noise runs (sigma_n > 0)."""
    parts, worst = [], 0.0
    for h in histories:
        if h.cfg.label_noise == 0:
            continue
        ok = measure.until_saturation(h["noise_pred_gen_loss"])
        t_max = int(h.steps[ok][-1])
        e_tr = measure.max_relative_error(h["train_loss"], h["noise_pred_train_loss"], LOSS_FLOOR, h.steps, t_max)
        e_gen = measure.max_relative_error(h["gen_loss"], h["noise_pred_gen_loss"], LOSS_FLOOR, h.steps, t_max)
        worst = max(worst, e_tr, e_gen)
        lim_tr, lim_gen = theory.noise_fit_limits(h.meta["lam_eff"], h.cfg.label_noise)
        full = ""
        if "mp_noise_train_loss" in h.metrics:
            f_tr, f_gen = (measure.max_relative_error(h[s], h[f"mp_noise_{k}_loss"], LOSS_FLOOR, h.steps, t_max)
                           for s, k in (("train_loss", "train"), ("gen_loss", "gen")))
            full = f" (the book's theory with the fitted noise: L_tr {f_tr:.1%}, L_gen {f_gen:.1%})"
        parts.append(f"{label(h)}: L_tr {e_tr:.1%}, L_gen {e_gen:.1%} up to step {t_max}{full}; at the end L_tr = "
                     f"{h.final('train_loss'):.3g} (sigma_n^2 (1-lambda) = {lim_tr:.3g}), L_gen = "
                     f"{h.final('gen_loss'):.3g} (sigma_n^2 lambda/(1-lambda) = {lim_gen:.3g})")
    return Result(REGISTRY["C.noise.additive"], "; ".join(parts) + ".", grade(worst, NOISE_OK, NOISE_PARTLY))


def tuned_noise_runs(fractions: Sequence[History], further: Sequence[History]) -> list[History]:
    """C.noise.tuned's runs at sigma_n = sigma* over the seeds: the label-noise chapter's run at sigma* among its
    ``fractions`` group (where its fractions hold 1) and ``further``, its claim-only runs (the run at sigma* at
    further seeds, :func:`grok_lib.paper_c.chapter_runs.tuned_noise_seed_configs`); sigma* does not depend on the
    seed."""
    tuned = {(h.cfg.lam, h.cfg.label_noise) for h in further}
    return [h for h in [*fractions, *further] if (h.cfg.lam, h.cfg.label_noise) in tuned]


def _tuned_noise_result(h: History) -> Result:
    """C.noise.tuned on one run at sigma_n = sigma*."""
    row = measure.crossing(h)
    floor = f" (final L_gen {h.final('gen_loss'):.4g} against eps/4 = {h.cfg.eps / 4:.4g})"
    if row["t_train"] is None or row["t_test"] is None:
        return Result(REGISTRY["C.noise.tuned"], f"{label(h)}: an accuracy never crosses "
                      f"(t_train {when(row['t_train'])}, t_test {when(row['t_test'])}){floor}", "not reproduced")
    off = abs(row["t_train"] - row["t_test"]) / row["t_test"]
    text = f"{label(h)}: t_train = {row['t_train']}, t_test = {row['t_test']} (relative gap {off:.3f}){floor}"
    return Result(REGISTRY["C.noise.tuned"], text, grade(off, TUNED_OK, TUNED_PARTLY))


def evaluate_tuned_noise(histories: Sequence[History]) -> Result:
    """C.noise.tuned on the runs at sigma_n = sigma*, one per seed: it holds only where it holds for every seed
    (grok_lib.claims.across_seeds), since one seed's test crossing can sit on the knife-edge of its floor."""
    hs = sorted(histories, key=lambda h: h.cfg.data_seed)
    seeds = [int(h.cfg.data_seed) for h in hs]
    result = across_seeds([[_tuned_noise_result(h)] for h in hs], seeds)[0]
    lam = hs[0].meta["lam_eff"]
    note = (f" The noise the student fits leaves floors L_tr -> sigma_n^2 (1-lambda), L_gen -> sigma_n^2 "
            f"lambda/(1-lambda); the training crossing can be pushed onto the test one only for lambda < "
            f"{theory.noise_tuning_lam_max():.3f} (here lambda = {lam:.3g}).")
    return Result(result.claim, result.measured.rstrip(".") + "." + note, result.verdict)


def evaluate_tuned_noise_full(h: History) -> Result:
    """C.noise.tuned_full on the run at lambda = NOISE_FULL_LAM, sigma_n from the full noise theory."""
    row = measure.crossing(h)
    ok = measure.until_saturation(h["noise_pred_gen_loss"])
    t_max = int(h.steps[ok][-1])
    err = max(measure.max_relative_error(h[s], h[f"mp_noise_{k}_loss"], LOSS_FLOOR, h.steps, t_max)
              for s, k in (("train_loss", "train"), ("gen_loss", "gen")))
    if row["t_train"] is None or row["t_test"] is None:
        return Result(REGISTRY["C.noise.tuned_full"], f"{label(h)}: an accuracy never crosses "
                      f"(t_train {when(row['t_train'])}, t_test {when(row['t_test'])}); loss error {err:.1%}.", "not reproduced")
    gap = abs(row["t_train"] - row["t_test"]) / row["t_test"]
    if gap <= TUNED_OK and err <= NOISE_OK:
        verdict = "reproduced"
    else:
        verdict = "partly" if gap <= TUNED_PARTLY and err <= NOISE_PARTLY else "not reproduced"
    text = (f"{label(h)}: t_train = {row['t_train']}, t_test = {row['t_test']} (relative gap {gap:.3f}); "
            f"largest loss error against the full noise theory up to step {t_max}: {err:.1%}.")
    return Result(REGISTRY["C.noise.tuned_full"], text, verdict)


def _predicted(fit: ShapeFit, f: float) -> str:
    value = float(fit(f))
    return f"{value:.0f}" if math.isfinite(value) else "never"


def evaluate_data_ratio(histories: Sequence[History], level: float = data_ratio.LEVEL) -> Result:
    """C.modadd.data_ratio on the data-ratio sweep, judged on each seed's sweep (the MLP's grokking epoch moves
    with the seed and with the last bits of the arithmetic): it holds only where it holds for every seed."""
    seeds = sorted({int(h.cfg.data_seed) for h in histories})
    per_seed = [[_data_ratio_result([h for h in histories if int(h.cfg.data_seed) == s], level)] for s in seeds]
    return across_seeds(per_seed, seeds)[0]


def _data_ratio_result(histories: Sequence[History], level: float) -> Result:
    """C.modadd.data_ratio on one seed's sweep."""
    m = data_ratio.measure_data_ratio(histories, level)
    fitted, censored = m.fitted, m.censored
    dts = "; ".join(
        f"f={p.train_frac:g}: " + ("Δt≈" + f"{p.geo_mean:.0f}" if p.grokked else f"{p.n_grokked}/{len(p.runs)} "
                                   "seeds grok") for p in m.fractions)
    if len(fitted) < MIN_FRACTIONS or "formula" not in m.loo:
        return Result(REGISTRY["C.modadd.data_ratio"], f"{dts}. Only {len(fitted)} fraction(s) grok for every seed (need {MIN_FRACTIONS}).",
                      "not reproduced")
    fo = m.fits["formula"]
    rival = m.best_alternative()
    loo_fo, loo_rival = m.loo_rms("formula"), m.loo_rms(rival)
    c = fo.params[1]
    fits = "; ".join(f"{k}: {fit.describe()}, R²={fit.r2:.3f}, leave-one-out rms={m.loo_rms(k):.3f}"
                     for k, fit in m.fits.items())
    scale = math.exp(fo.params[0]) * 2 * m.lr
    edge = "".join(
        f"; at f={p.train_frac:g} (not fitted: Δt per seed "
        + ", ".join(f"{r.dt:.0f}" if not r.censored else f">{r.lower_bound:.0f}" for r in p.runs)
        + ") the fits predict " + ", ".join(f"{k} {_predicted(fit, p.train_frac)}" for k, fit in m.fits.items())
        for p in censored)
    text = (f"{dts}. Fits of ln Δt: {fits}. Formula: critical fraction c = {c:.3g} (λ_eff = c/f from "
            f"{c / fitted[-1].train_frac:.2f} to {c / fitted[0].train_frac:.2f}; c times the number of unordered "
            f"pairs = {c * m.n_pairs:.0f} effective constraints; the fitted scale A of Δt = A·g(c/f) times 2 lr = "
            f"{scale:.3g}, which is 1 for GD)"
            f"{' (c at the edge of its range)' if fo.at_bound else ''}"
            f"{edge}.")
    shape_ok = fo.r2 >= R2_OK and not fo.at_bound
    held_ok = math.isfinite(loo_fo) and loo_fo <= LOO_MARGIN * loo_rival
    verdict = "reproduced" if shape_ok and held_ok else ("partly" if shape_ok else "not reproduced")
    return Result(REGISTRY["C.modadd.data_ratio"], text, verdict)
