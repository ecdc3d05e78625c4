"""Paper C's checks beyond the linear student: on the two nets (C.nets.*), on label noise (C.noise.*) and on Paper C's
question asked of Part A's task (C.modadd.*): one evaluator per figure's claims that measures each claim's quantity
per seed and grades it by the one rule. The shared grading helpers are in :mod:`grok_lib.paper_c.checks`.

The nets' default profile is a scale-down (200-40-5 for the paper's 1000-200-5): the tanh net's claim is graded only
where the net is measured near-linear (:func:`near_linear_regime`), the rebuttal's reason for the match."""

from __future__ import annotations

import dataclasses

import math
from typing import Sequence

import numpy as np

from ..grading import Regime, Result, draw, grade, not_graded
from ..history import History
from ..tables import PRINT_FLOOR, at_resolution
from . import data_ratio, measure, theory
from .checks import both, by_seed, completes, gd_regime, label, members, when
from .claims import REGISTRY
from .shape_fits import ShapeFit
from .thresholds import LOSS_FLOOR, MIN_FRACTIONS, NEAR_LINEAR

#: At most this many of a tanh net's record steps are retraced for its nonlinearity (its last one always).
NEAR_LINEAR_STEPS = 25


# --- the two nets -------------------------------------------------------------------------------------
def _ratio(t, ref) -> float:
    return math.nan if t is None or ref is None or not ref > 0 else float(t) / float(ref)


def _shape(h: History) -> str:
    c = h.cfg
    return f"{c.d_in}-{c.hidden}-{c.d_out} net, λ={c.lam:g}, η={c.eta:g}"


def evaluate_two_layer(h: History) -> Result:
    """C.nets.two_layer on the two-layer linear run: its crossings over the rescaled theory's."""
    claim = REGISTRY["C.nets.two_layer"]
    row = measure.crossing(h)
    ratios = [_ratio(row[f"t_{w}"], row.get(f"theory_t_{w}")) for w in ("train", "test")]
    context = (f"{_shape(h)}: t_train {when(row['t_train'])} vs the theory's {row.get('theory_t_train', math.nan):.0f}, "
               f"t_test {when(row['t_test'])} vs {row.get('theory_t_test', math.nan):.0f}; final test loss "
               f"{at_resolution(h.final('test_loss'), PRINT_FLOOR, '.3g')}")
    return grade(claim, [draw(ratios, int(h.cfg.data_seed), (), ("t_train", "t_test"))], context,
                 regime=completes([h]))


def crossing_range(*nets: History) -> int:
    """The last step the tanh claim compares: the latest crossing of either net (their first record step with
    accuracy >= erf(sqrt 2), train or test; a net that never crosses adds none)."""
    steps = [t for h in nets for w in ("train", "test") if (t := measure.crossing(h)[f"t_{w}"]) is not None]
    return int(max(steps, default=int(nets[0].steps[-1])))


def near_linear(tanh: History, t_max: int) -> dict[str, np.ndarray]:
    """The tanh net's nonlinearity on record steps up to ``t_max`` (:func:`measure.tanh_nonlinearity`, at most
    NEAR_LINEAR_STEPS of them), with ``ratio``: the nonlinear part's mean square over the loss at which the test
    accuracy reaches erf(sqrt 2). The retrace must reproduce the run's recorded training loss."""
    from .config import LinearEstimatorConfig

    c = LinearEstimatorConfig.from_dict(dict(tanh.config))  # typed, as the trainer had it
    steps = [int(s) for s in tanh.steps if s <= t_max]
    picked = sorted({steps[i] for i in np.linspace(0, len(steps) - 1, min(NEAR_LINEAR_STEPS, len(steps))).astype(int)})
    out = measure.tanh_nonlinearity(c, t_max, picked)
    recorded = np.asarray([tanh.at("train_loss", s) for s in out["steps"]])
    if not np.allclose(out["train_loss"], recorded, rtol=1e-6, atol=0):
        raise RuntimeError("the tanh net's retrace does not reproduce its recorded training loss")
    out["ratio"] = out["nonlinear"] / theory.loss_at_accuracy(theory.GROK_ACC, c.eps, c.d_out)
    return out


def near_linear_regime(tanh: History, linear: History) -> Regime:
    """The rebuttal's reason for the tanh net's match, measured: near-linear at the accuracy threshold's resolution.
    The nonlinear part of its output, W2^T (tanh(W1^T x) - W1^T x), has a mean square per output on the test inputs
    below the loss at which the test accuracy reaches erf(sqrt 2) (ratio < NEAR_LINEAR) at every retraced step up
    to the later crossing of either net; the mean tanh' and the pre-activations' RMS are reported."""
    t_max = crossing_range(tanh, linear)
    m = near_linear(tanh, t_max)
    worst = int(np.argmax(m["ratio"]))
    return Regime(bool(np.all(m["ratio"] < NEAR_LINEAR)),
                  "the tanh net's nonlinear part W2ᵀ(tanh(W1ᵀx) − W1ᵀx): its mean square per output on the test "
                  "inputs over the loss at which the test accuracy reaches erf(√2)",
                  f"< {NEAR_LINEAR:g} up to step {t_max} (the later crossing of either net): near-linear at the "
                  "accuracy threshold's resolution",
                  f"{_shape(tanh)}: largest {m['ratio'][worst]:.3g} (step {int(m['steps'][worst])}); mean tanh′ "
                  f"{m['slope'].min():.3f}–{m['slope'].max():.3f}, pre-activation RMS "
                  f"{m['rms'].min():.3f}–{m['rms'].max():.3f}")


def evaluate_tanh(tanh: History, linear: History) -> Result:
    """C.nets.tanh: the tanh net's crossings over the two-layer linear net's on the same data, graded where the tanh
    net is near-linear (:func:`near_linear_regime`)."""
    claim = REGISTRY["C.nets.tanh"]
    rows = measure.crossing(tanh), measure.crossing(linear)
    ratios = [_ratio(rows[0][f"t_{w}"], rows[1][f"t_{w}"]) for w in ("train", "test")]
    context = (f"{_shape(tanh)}: t_train {when(rows[0]['t_train'])} vs the linear net's {when(rows[1]['t_train'])}, "
               f"t_test {when(rows[0]['t_test'])} vs {when(rows[1]['t_test'])}; final test accuracy "
               f"{tanh.final('test_acc'):.3f} (the linear net's {linear.final('test_acc'):.3f})")
    return grade(claim, [draw(ratios, int(tanh.cfg.data_seed), (), ("t_train", "t_test"))], context,
                 regime=near_linear_regime(tanh, linear))


def _by_seed(histories: Sequence[History]) -> dict[int, History]:
    return {int(h.cfg.data_seed): h for h in histories}


def _crossings(h: History) -> str:
    row = measure.crossing(h)
    return f"t_train {when(row['t_train'])}, t_test {when(row['t_test'])}"


def evaluate_deviation(claim_id: str, nets: Sequence[History], linear: Sequence[History],
                       beside: dict[str, Sequence[History]] | None = None) -> Result:
    """``claim_id`` (C.nets.relu, C.nets.tanh_gain): per seed, :func:`.measure.deviation_factor` of the net against the
    two-layer linear net of the same seed, graded where every linear net crosses both accuracies. ``beside``:
    further nets (label -> one per seed) whose factors are reported, not graded."""
    claim = REGISTRY[claim_id]
    ref = _by_seed(linear)
    pairs = [(s, h, ref[s]) for s, h in sorted(_by_seed(nets).items())]
    draws = [draw(measure.deviation_factor(h, lin), s) for s, h, lin in pairs]
    parts = [f"seed {s}: {_shape(h)}{'' if measure.gain(h) == 1 else f', gain {measure.gain(h):g}'}: {_crossings(h)} against "
             f"the linear net's {_crossings(lin)}; final test accuracy {h.final('test_acc'):.3f} (linear "
             f"{lin.final('test_acc'):.3f})" for s, h, lin in pairs]
    for name, runs in (beside or {}).items():
        factors = ", ".join(f"seed {s} {measure.deviation_factor(h, ref[s]):.2f}"
                            for s, h in sorted(_by_seed(runs).items()))
        parts.append(f"reported, not graded: {name}'s factor {factors}")
    regime = completes(list(ref.values()))  # the linear reference runs: the nets themselves may never cross
    regime = dataclasses.replace(regime, measured=f"the linear reference nets: {regime.measured}")
    return grade(claim, draws, "; ".join(parts), regime=regime)


def gain_group(gain: float) -> str:
    """The recorded set ``nets_activation``'s group name of the tanh net at ``gain``."""
    return f"tanh_g{gain:g}"


def evaluate_activations(groups: dict[str, Sequence[History]]) -> list[Result]:
    """C.nets.relu and C.nets.tanh_gain on the recorded set ``nets_activation``'s named groups (``two_layer``,
    ``relu``, ``tanh_g<gain>``): the ReLU nets, and the tanh nets at the largest gain (the smaller ones reported)."""
    gains = sorted(float(name.removeprefix("tanh_g")) for name in groups if name.startswith("tanh_g"))
    graded, *_ = reversed(gains)
    beside = {f"gain {g:g}": groups[gain_group(g)] for g in gains if g != graded}
    return [evaluate_deviation("C.nets.relu", groups["relu"], groups["two_layer"]),
            evaluate_deviation("C.nets.tanh_gain", groups[gain_group(graded)], groups["two_layer"], beside)]


# --- label noise ---------------------------------------------------------------------------------------
def noisy_test_labels(h: History) -> bool:
    """Whether the run's test labels carry its label noise (a hand-built history without the field: no)."""
    return bool(getattr(h.cfg, "test_label_noise", False))


def noisy(histories: Sequence[History]) -> list[History]:
    """The runs with label noise on the training set only (the rebuttal's main case)."""
    return [h for h in histories if h.cfg.label_noise > 0 and not noisy_test_labels(h)]


def test_noisy(histories: Sequence[History]) -> list[History]:
    """The runs whose test labels carry the noise too (C.noise.test_shift's)."""
    return [h for h in histories if h.cfg.label_noise > 0 and noisy_test_labels(h)]


def noise_window(h: History, level: float) -> int:
    """The last record step before the noiseless L_gen has fallen to ``level``."""
    ok = measure.until_saturation(h["noise_pred_gen_loss"], level)
    return int(h.steps[ok][-1]) if ok.any() else -1


def noise_error(h: History, simulated: str, predicted: str, level: float) -> float:
    """The largest relative error of ``simulated`` against ``predicted`` until the noiseless L_gen reaches ``level``."""
    t_max = noise_window(h, level)
    return measure.max_relative_error(h[simulated], h[predicted], LOSS_FLOOR, h.steps, t_max) if t_max >= 0 else math.nan


def _noise_draws(claim, histories: Sequence[History], error) -> list:
    (window,) = claim.choices
    return [draw([error(h, lvl) for h in hs], s, (lvl,), members(hs))
            for s, hs in by_seed(noisy(histories), key=lambda h: (h.cfg.lam, h.cfg.label_noise)).items()
            for lvl in window.grid]


def evaluate_noise(histories: Sequence[History]) -> list[Result]:
    """C.noise.train_shift and C.noise.gen_unchanged on the label-noise runs with sigma_n > 0, every seed (the
    chapter's runs and its claim-only ones)."""
    shift, unchanged = REGISTRY["C.noise.train_shift"], REGISTRY["C.noise.gen_unchanged"]
    if not noisy(histories):
        reason = "no run with label noise (σ_n > 0)"
        return [not_graded(shift, reason), not_graded(unchanged, reason)]
    shift_draws = _noise_draws(shift, histories,
                               lambda h, lvl: noise_error(h, "train_loss", "noise_pred_train_loss", lvl))
    gen_draws = _noise_draws(unchanged, histories,
                             lambda h, lvl: noise_error(h, "gen_loss", "noise_pred_gen_loss", lvl))
    book = min(by_seed(noisy(histories)))
    parts = []
    for h in by_seed(noisy(histories), key=lambda h: (h.cfg.lam, h.cfg.label_noise))[book]:
        lim_tr, lim_gen = theory.noise_fit_limits(h.meta["lam_eff"], h.cfg.label_noise)
        parts.append(f"{label(h)}: L_tr = {h.final('train_loss'):.3g} (σ_n²(1−λ) = {lim_tr:.3g}; σ_n² = "
                     f"{h.cfg.label_noise ** 2:.3g}), L_gen = {h.final('gen_loss'):.3g} (σ_n²λ/(1−λ) = {lim_gen:.3g})")
    context = (f"reported, not graded: at the end of seed {book}'s runs the losses sit on the floors of the noise the "
               "student fits, " + "; ".join(parts))
    where = gd_regime(noisy(histories))
    return [grade(shift, shift_draws, context, regime=where), grade(unchanged, gen_draws, regime=where)]


def test_shift_error(h: History, level: float) -> float:
    """The largest relative error of the test loss on noisy test labels against the same run's exact L_gen plus
    sigma_n^2 (the rebuttal's additive term), until the noiseless L_gen reaches ``level``: the test side alone, so
    that what the student fits of the training noise (C.noise.gen_unchanged) is not counted again."""
    t_max = noise_window(h, level)
    if t_max < 0:
        return math.nan
    shifted = h["gen_loss"] + h.cfg.label_noise ** 2
    return measure.max_relative_error(h["test_loss"], shifted, LOSS_FLOOR, h.steps, t_max)


def evaluate_test_noise(histories: Sequence[History]) -> Result:
    """C.noise.test_shift on the runs whose test labels carry the noise, every seed."""
    claim = REGISTRY["C.noise.test_shift"]
    runs = test_noisy(histories)
    if not runs:
        return not_graded(claim, "no run with noise on the test labels")
    (window,) = claim.choices
    draws = [draw([test_shift_error(h, lvl) for h in hs], s, (lvl,), members(hs))
             for s, hs in by_seed(runs, key=lambda h: (h.cfg.lam, h.cfg.label_noise)).items() for lvl in window.grid]
    return grade(claim, draws, regime=gd_regime(runs))


def tuned_noise_runs(fractions: Sequence[History], further: Sequence[History]) -> list[History]:
    """The runs at the rebuttal's sigma* (lambda = NOISE_LAM) over the seeds: the label-noise chapter's run at sigma*
    among its ``fractions`` group (where its fractions hold 1) and those of ``further`` (its claim-only runs) at the
    same (lambda, sigma_n); sigma* does not depend on the seed."""
    further = [h for h in further if not noisy_test_labels(h)]  # C.noise.test_shift's runs are not these
    lams = {h.cfg.lam for h in fractions}
    tuned = {(h.cfg.lam, h.cfg.label_noise) for h in further if h.cfg.lam in lams}
    return [h for h in [*fractions, *further] if (h.cfg.lam, h.cfg.label_noise) in tuned]


def full_noise_runs(full: Sequence[History], further: Sequence[History]) -> list[History]:
    """The runs at lambda = NOISE_FULL_LAM with sigma* of the book's full noise theory over the seeds: the chapter's
    ``full`` group and those of ``further`` (its claim-only runs) at the same (lambda, sigma_n)."""
    keys = {(h.cfg.lam, h.cfg.label_noise) for h in full}
    return [*full, *[h for h in further if (h.cfg.lam, h.cfg.label_noise) in keys and not noisy_test_labels(h)]]


def gap(h: History) -> float:
    """``|t_train - t_test| / t_test`` (nan where an accuracy never crosses)."""
    row = measure.crossing(h)
    if row["t_train"] is None or row["t_test"] is None:
        return math.nan
    return abs(row["t_train"] - row["t_test"]) / row["t_test"]


def _gap_text(h: History) -> str:
    """"gap 0.089; " (nothing where an accuracy never crosses: the crossings say so)."""
    g = gap(h)
    return "" if math.isnan(g) else f"gap {g:.3f}; "


def _gaps(hs: Sequence[History]) -> str:
    return "; ".join(f"seed {int(h.cfg.data_seed)}: t_train {when(measure.crossing(h)['t_train'])}, t_test "
                     f"{when(measure.crossing(h)['t_test'])} ({_gap_text(h)}final L_gen {h.final('gen_loss'):.4g} "
                     f"against ε/4 = {h.cfg.eps / 4:.4g})"
                     for h in sorted(hs, key=lambda x: x.cfg.data_seed))


def tuning_regime(hs: Sequence[History]) -> Regime:
    """Where the book's full noise theory says the tuning can work: lambda below (3 - sqrt 5)/2."""
    lam_max = theory.noise_tuning_lam_max()
    lams = sorted({h.meta["lam_eff"] for h in hs})
    return Regime(all(lam < lam_max for lam in lams), "λ of the tuned runs",
                  f"< (3 − √5)/2 ≈ {lam_max:.3f} (with the noise the student fits, the training crossing can meet the "
                  "test one only there)", ", ".join(f"{lam:.3g}" for lam in lams))


def evaluate_tuned_noise(full: Sequence[History], rebuttal: Sequence[History] = ()) -> Result:
    """C.noise.tuned on the runs at lambda = NOISE_FULL_LAM with sigma* of the book's full noise theory, one draw per
    seed; the runs at the rebuttal's own sigma* (``rebuttal``, lambda = NOISE_LAM) are reported."""
    claim = REGISTRY["C.noise.tuned"]
    if not full:
        return not_graded(claim, "no run at σ* of the full noise theory")
    hs = sorted(full, key=lambda h: h.cfg.data_seed)
    draws = [draw(gap(h), int(h.cfg.data_seed), (), (label(h),)) for h in hs]
    context = f"λ = {hs[0].cfg.lam:g}, σ* of the full noise theory: " + _gaps(hs)
    if rebuttal:
        r = sorted(rebuttal, key=lambda h: h.cfg.data_seed)
        context += (f". Reported, not graded: the rebuttal's formula for σ does not achieve it: at λ = {r[0].cfg.lam:g} "
                    f"and its σ* = {r[0].cfg.label_noise:.3g}, " + _gaps(r))
    return grade(claim, draws, context, regime=both(gd_regime(hs), tuning_regime(hs)))


def evaluate_noise_theory(histories: Sequence[History]) -> Result:
    """C.noise.theory (the book's prediction) on the label-noise runs with sigma_n > 0, every seed."""
    claim = REGISTRY["C.noise.theory"]
    runs = [h for h in noisy(histories) if "mp_noise_train_loss" in h.metrics]
    if not runs:
        return not_graded(claim, "no run with label noise and the full noise theory's losses")

    def error(h: History, lvl: float) -> float:
        return measure.worst_of([noise_error(h, s, f"mp_noise_{k}_loss", lvl)
                                 for s, k in (("train_loss", "train"), ("gen_loss", "gen"))])

    return grade(claim, _noise_draws(claim, runs, error), regime=gd_regime(runs))


# --- Paper C's question on Part A's task ---------------------------------------------------------------
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
    shape, specific = REGISTRY["C.modadd.data_ratio"], REGISTRY["C.modadd.data_ratio_specific"]
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
