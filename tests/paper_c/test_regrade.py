"""Part C's claims under the one grading rule: each check on small synthetic inputs whose answer is known, on both
sides of its bar and across its grid (reproduced, not reproduced, inconclusive), its regime check, and the claim-only
runs the checks read (the C.dout.peak hypothesis and the two-layer net's clock are reported, not graded)."""

import math
from dataclasses import replace

import numpy as np
import pytest

from grok_lib.grading import VERDICTS
from grok_lib.history import History
from grok_lib.paper_c import chapters as chapters_c
from grok_lib.paper_c import claim_terms
from grok_lib.paper_c import draws
from grok_lib.paper_c import measure as measure_c
from grok_lib.paper_c.chapters import d_out as ch_d_out
from grok_lib.paper_c.chapters import grok_time as ch_grok_time
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import loss_curves as ch_loss_curves
from grok_lib.paper_c.chapters import nets as ch_nets
from grok_lib.paper_c.chapters import weight_decay as ch_weight_decay
from grok_lib.paper_c import config as cc
from grok_lib.paper_c import measure as me
from grok_lib.paper_c import samples
from grok_lib.paper_c import theory


STEPS = np.unique(np.round(np.geomspace(1, 1e5, 120)).astype(np.int64))
STEPS = np.concatenate([[0], STEPS])
#: Below every level of the range's grid: a synthetic error only past here is in no graded range.
TAIL = min(measure_c.WINDOW_LEVELS) / 2


# --- the declarations ------------------------------------------------------------------------------------------------
def test_every_claim_is_declared_under_the_rule():
    assert [c.id for c in list(chapters_c.REGISTRY.values())] == list(chapters_c.REGISTRY)
    for c in list(chapters_c.REGISTRY.values()):
        assert c.paper == "C" and c.quote and c.statement and c.quantity
    kinds = {c.id: c.kind for c in list(chapters_c.REGISTRY.values())}
    assert kinds["C.noise.theory"] == "prediction" and sum(k != "claim" for k in kinds.values()) == 1
    # a bar the book chose is graded over a grid of bars; a natural one has none
    for cid in ("C.dyn.exact", "C.dyn.mp", "C.grok.formula", "C.wd.train_limit", "C.nets.tanh", "C.noise.tuned"):
        assert len(chapters_c.REGISTRY[cid].all_bars()) == 3
    for cid in ("C.acc.law", "C.grok.divergence", "C.dout.peak", "C.modadd.data_ratio_specific"):
        assert chapters_c.REGISTRY[cid].bars == ()


def test_no_partly_anywhere_in_part_c():
    from pathlib import Path

    root = Path(chapters_c.__file__).parent.parent
    for f in [*root.rglob("*.py"), *Path(__file__).parent.glob("*.py")]:
        if f.name != Path(__file__).name:
            assert "partly" not in f.read_text().lower(), f


# --- the range read: until the losses reach ℓ -------------------------------------------------------------------------
def test_decided_window_ends_when_both_losses_that_fall_have_fallen():
    train = np.array([1.0, 0.1, 1e-4, 1e-6, 1e-8])
    gen = np.array([1.0, 0.5, 0.1, 1e-4, 1e-8])
    assert me.decided_window(train, gen, 2.5e-4).tolist() == [True, True, True, False, False]
    plateau = np.full(5, 0.3)  # lambda > 1: L_gen never falls, the window ends with L_tr
    assert me.decided_window(train, plateau, 2.5e-4).tolist() == [True, True, False, False, False]
    assert me.decided_window(plateau, plateau, 2.5e-4).all()


def _dynamics_history(error_before: float, error_after: float, gd_error: float = 0.0) -> History:
    """A d_out = 1 run whose simulated losses are off the gradient-flow theory by ``error_before`` until the losses
    reach TAIL (below every level of the grid) and by ``error_after`` deeper; discrete GD exact up to ``gd_error``."""
    t = STEPS.astype(float)
    theory_tr, theory_gen = 0.5 * np.exp(-t / 300), np.exp(-t / 400)
    factor = np.where(theory_gen < TAIL, 1 + error_after, 1 + error_before)
    metrics = {"train_loss": theory_tr * factor, "gen_loss": theory_gen * factor,
               "theory_train_loss": theory_tr, "theory_gen_loss": theory_gen,
               "gd_train_loss": theory_tr * factor * (1 + gd_error), "gd_gen_loss": theory_gen * factor}
    return History(steps=STEPS, metrics=metrics, config={"lam": 0.5, "d_out": 1, "gamma": 0.0, "label_noise": 0.0,
                                                         "eps": 1e-3, "eta": 0.01},
                   meta={"crossings": [{"eps": 1e-3, "t_train": 2000, "t_test": 3000, "theory_t_train": 2010.0,
                                        "theory_t_test": 3005.0}], "s_max": 3.0})


@pytest.mark.parametrize("before, after, verdict", [
    (0.02, 0.0, "reproduced"),  # inside every bar (2.5%, 5%, 10%) at every level
    (0.02, 0.5, "reproduced"),  # a large error only in the tail no range reaches does not count
    (0.04, 0.0, "inconclusive"),  # inside the book's 5%, outside half of it
    (0.5, 0.0, "not reproduced"),
])
def test_dynamics_is_graded_over_the_range_and_the_bars(before, after, verdict):
    result = ch_loss_curves.evaluate_dynamics([_dynamics_history(before, after)])
    assert result.verdict == verdict
    assert len(result.draws) == len(measure_c.WINDOW_LEVELS)
    assert result.regime.ok and "0.06" in result.measured  # lr × sharpness: 0.01 × 2 × 3


def test_dynamics_outside_the_regime_when_the_simulation_is_not_gd_or_gd_is_unstable():
    assert ch_loss_curves.evaluate_dynamics([_dynamics_history(0.02, 0.0, gd_error=1e-3)]).verdict == "not tested faithfully"
    unstable = _dynamics_history(0.02, 0.0)
    unstable.meta["s_max"] = 150.0  # 0.01 × 2 × 150 = 3 > 2
    result = ch_loss_curves.evaluate_dynamics([unstable])
    assert result.verdict == "not tested faithfully" and "outside the regime" in result.measured


def test_an_empty_range_counts_against_a_claim():
    assert math.isnan(me.worst_of([0.01, math.nan])) and me.worst_of([0.01, 0.03]) == 0.03
    h = _dynamics_history(0.0, 0.0)
    h.metrics["theory_gen_loss"] = np.full(len(STEPS), 1e-6)  # below every level from the start: nothing to judge
    h.metrics["theory_train_loss"] = np.full(len(STEPS), 1e-6)
    result = ch_loss_curves.evaluate_dynamics([h])
    assert result.verdict == "not reproduced" and "never" in result.measured


# --- C.dyn.mp: MP against the isotropic average --------------------------------------------------------------------
def _mp_history(eigenvalues, mp_error: float, one_d0_error: float, eta=0.01) -> History:
    h = History(steps=STEPS, metrics={}, config={"lam": 0.5, "d_out": 1, "gamma": 0.0, "label_noise": 0.0,
                                                   "eta": eta},
                meta={"l0": 0.5}, snapshot_steps=np.array([0]), snapshots={"eigenvalues": np.asarray([eigenvalues])})
    iso_tr, iso_gen = me.isotropic_losses(h)
    h.metrics.update(mp_train_loss=iso_tr * (1 + mp_error), mp_gen_loss=iso_gen * (1 + mp_error),
                     theory_train_loss=iso_tr * (1 + one_d0_error), theory_gen_loss=iso_gen * (1 + one_d0_error))
    return h


def test_isotropic_losses_are_the_spectral_average():
    s = np.array([0.0, 0.5, 2.0])
    h = _mp_history(s, 0.0, 0.0)
    tr, gen = me.isotropic_losses(h)
    k = 40
    t = float(STEPS[k])
    assert gen[k] == pytest.approx(0.5 * np.mean(np.exp(-4 * 0.01 * s * t)))
    assert tr[k] == pytest.approx(0.5 * np.mean(s * np.exp(-4 * 0.01 * s * t)))
    assert gen[0] == pytest.approx(0.5) and tr[0] == pytest.approx(0.5 * s.mean())


def test_mp_is_graded_on_the_isotropic_average_not_one_realisation():
    s = np.linspace(0.3, 2.0, 50)
    assert ch_loss_curves.evaluate_mp([_mp_history(s, 0.03, 0.40)]).verdict == "reproduced"  # one D_0's error is reported only
    assert ch_loss_curves.evaluate_mp([_mp_history(s, 0.08, 0.0)]).verdict == "inconclusive"  # outside half the book's 10%
    assert ch_loss_curves.evaluate_mp([_mp_history(s, 0.40, 0.0)]).verdict == "not reproduced"
    assert "this run's own D_0" in ch_loss_curves.evaluate_mp([_mp_history(s, 0.03, 0.40)]).measured


# --- C.acc.law: the binomial error ---------------------------------------------------------------------------------
def test_binomial_z_and_the_bonferroni_bound():
    assert me.binomial_z([0.55], [0.5], 100)[0] == pytest.approx(1.0)
    assert me.binomial_z([0.01], [0.0], 100)[0] == pytest.approx(0.01 / math.sqrt(0.01 * 0.99 / 100))
    assert draws.accuracy_law_bound(1, 0.05) == pytest.approx(1.959964, abs=1e-5)
    assert draws.accuracy_law_bound(1000, 0.05) > draws.accuracy_law_bound(10, 0.05) > draws.accuracy_law_bound(1, 0.05)
    assert draws.accuracy_law_bound(100, 0.01) > draws.accuracy_law_bound(100, 0.1)


def _accuracy_history(n_train: int, shift: float) -> History:
    """Accuracies drawn as binomial counts around the erf law at the simulated losses, shifted by ``shift``."""
    rng = np.random.default_rng(0)
    t = STEPS.astype(float)
    train, gen = 0.5 * np.exp(-t / 300), np.exp(-t / 400)
    law_tr, law_te = theory.accuracy_erf(train, 1e-3), theory.accuracy_erf(gen, 1e-3)
    acc_tr = np.clip(rng.binomial(n_train, law_tr) / n_train + shift, 0, 1)
    acc_te = np.clip(rng.binomial(10_000, law_te) / 10_000 + shift, 0, 1)
    return History(steps=STEPS, metrics={"train_loss": train, "gen_loss": gen, "train_acc": acc_tr, "test_acc": acc_te},
                   config={"lam": 0.9, "d_out": 1, "gamma": 0.0, "label_noise": 0.0, "eps": 1e-3, "n_test": 10_000},
                   meta={"n_train": n_train})


def test_accuracy_law_accepts_binomial_scatter_and_rejects_a_shift_at_every_level():
    ok = ch_loss_curves.evaluate_accuracy_law([_accuracy_history(700, 0.0)])
    assert ok.verdict == "reproduced" and len(ok.draws) == len(claim_terms.ACC_LEVELS)
    assert ch_loss_curves.evaluate_accuracy_law([_accuracy_history(100_000, 0.05)]).verdict == "not reproduced"  # z of tens
    assert ch_loss_curves.evaluate_accuracy_law([_accuracy_history(700, 0.3)]).verdict == "not reproduced"


# --- C.plateau.* ---------------------------------------------------------------------------------------------------
def _plateau(ratio: float, max_acc: float, lam: float = 1.5) -> History:
    l0 = 0.5
    final = ratio * l0 * theory.mp_atom(lam) if lam > 1 else 1e-9
    return History(steps=np.array([0, 1]), metrics={"gen_loss": np.array([l0, final]),
                                                     "test_acc": np.array([0.0, max_acc])},
                   config={"lam": lam, "d_out": 1, "gamma": 0.0, "label_noise": 0.0, "eps": 1e-3},
                   meta={"lam_eff": lam, "l0": l0})


@pytest.mark.parametrize("ratio, verdict", [(1.0, "reproduced"), (1.07, "inconclusive"), (1.5, "not reproduced")])
def test_the_plateau_level_over_its_bands(ratio, verdict):
    level, never = ch_loss_curves.evaluate_plateau([_plateau(0.5, 0.0, lam=0.5), _plateau(ratio, 0.05)])
    assert level.verdict == verdict and never.verdict == "reproduced"


def test_a_test_accuracy_that_saturates_fails_the_second_plateau_claim_alone():
    level, never = ch_loss_curves.evaluate_plateau([_plateau(1.0, 0.99)])
    assert level.verdict == "reproduced" and never.verdict == "not reproduced"
    without = ch_loss_curves.evaluate_plateau([_plateau(1.0, 0.0, lam=0.5)])
    assert {r.verdict for r in without} == {"not tested faithfully"}


# --- C.grok.* ------------------------------------------------------------------------------------------------------
def _grok(lam: float, dt_ratio: float | None, eps_list=(1e-3, 1e-5)) -> History:
    """A run whose Delta t_grok is ``dt_ratio`` times the formula at every eps (None: the test never crosses)."""
    formula = theory.grok_time_formula(lam, 0.01)
    rows = [{"eps": e, "t_train": 100, "t_test": None if dt_ratio is None else 100 + int(round(dt_ratio * formula))}
            for e in eps_list]
    return History(steps=np.array([0, 10**6]), metrics={}, meta={"crossings": rows, "lam_eff": lam},
                   config={"lam": lam, "d_out": 1, "gamma": 0.0, "label_noise": 0.0, "eps": 1e-3, "eta": 0.01})


def test_the_formula_is_graded_at_the_papers_eps():
    lams = (0.1, 0.5, 0.9)
    assert ch_grok_time.evaluate_formula([_grok(x, 1.0) for x in lams]).verdict == "reproduced"
    assert ch_grok_time.evaluate_formula([_grok(x, 0.6) for x in lams]).verdict == "not reproduced"
    assert ch_grok_time.evaluate_formula([_grok(x, r) for x, r in zip(lams, (1.0, 1.0, 0.85))]).verdict == "inconclusive"
    never = ch_grok_time.evaluate_formula([_grok(0.1, 1.0), _grok(0.5, None)])
    assert never.verdict == "not tested faithfully" and "no crossing within the run" in never.measured


def test_divergence_needs_growth_at_every_eps():
    assert ch_grok_time.evaluate_divergence([_grok(x, 1.0) for x in (0.1, 0.5, 0.9)]).verdict == "reproduced"
    shrinking = [_grok(0.1, 1.0), _grok(0.5, 1.0), _grok(0.9, 0.01)]
    assert ch_grok_time.evaluate_divergence(shrinking).verdict == "not reproduced"


# --- C.wd.*: the formula with the teacher's norm, per seed --------------------------------------------------------------
def _wd(seed: int, lam: float, gamma: float, ratio_tr: float, ratio_gen: float, t_sq: float = 0.5) -> History:
    """A d_out = 1 weight-decay run at data and init seed ``seed`` whose final losses are the given multiples of the
    plateau formula with the teacher's norm."""
    limit = theory.wd_limits_mp(lam, gamma, 1, t_sq)
    return History(steps=np.array([0, 10**6]),
                   metrics={"train_loss": np.array([1.0, ratio_tr * limit[0]]),
                            "gen_loss": np.array([1.0, ratio_gen * limit[1]])},
                   config={"lam": lam, "d_out": 1, "gamma": gamma, "label_noise": 0.0, "eps": 1e-3, "eta": 0.01,
                           "data_seed": seed, "init_seed": seed},
                   meta={"lam_eff": lam, "teacher_sq": t_sq, "s_max": 3.0, "s_min_nonzero": 0.05})


def _wd_seed(seed: int, low: float, high: float = 1.0) -> list[History]:
    """One seed's small-gamma runs with lowest L_gen ratio ``low`` and highest ``high``, and one run outside the
    regime (lambda = 0.7, gamma = 1e-2: gamma / (2 lambda_-) > WD_SMALL) whose ratios would fail any grading."""
    return [_wd(seed, 0.3, 1e-3, high, high), _wd(seed, 0.5, 1e-2, high, low), _wd(seed, 0.7, 1e-2, 0.1, 5.0)]


def test_weight_decay_is_graded_on_every_seed_each_loss_apart():
    assert not me.wd_small(_wd(0, 0.7, 1e-2, 1, 1)) and me.wd_small(_wd(0, 0.7, 1e-3, 1, 1))
    train, gen = ch_weight_decay.evaluate_weight_decay(_wd_seed(0, 0.95), _wd_seed(1, 0.93) + _wd_seed(2, 0.97, 1.05))
    assert train.verdict == gen.verdict == "reproduced" and len(gen.draws) == 3
    assert "λ=0.7" not in gen.measured  # the run outside the small-gamma regime is not graded
    assert "run by run, seed 0" in train.measured
    # one seed's L_gen inside the book's band but outside the narrower one: inconclusive; L_tr untouched
    train, gen = ch_weight_decay.evaluate_weight_decay(_wd_seed(0, 0.95), _wd_seed(1, 0.84) + _wd_seed(2, 0.95))
    assert train.verdict == "reproduced" and gen.verdict == "inconclusive"
    assert "fails at seed 1" in gen.measured
    # every seed off every band: not reproduced; nothing in the regime: not tested faithfully
    assert ch_weight_decay.evaluate_weight_decay(_wd_seed(0, 0.5), _wd_seed(1, 0.6))[1].verdict == "not reproduced"
    assert {r.verdict for r in ch_weight_decay.evaluate_weight_decay([_wd(0, 0.7, 1e-2, 1, 1)])} == {"not tested faithfully"}


def test_the_weight_decay_regime_needs_the_transient_gone():
    short = _wd_seed(0, 0.95)
    for h in short:
        h.steps = np.array([0, 10])  # 0.01 × (2 × 0.05 + γ) × 10 e-foldings: far from the plateau
    assert {r.verdict for r in ch_weight_decay.evaluate_weight_decay(short)} == {"not tested faithfully"}


def test_the_weight_decay_page_reads_the_seeds():
    hs = _wd_seed(0, 0.95) + _wd_seed(1, 0.79, 0.96) + _wd_seed(2, 0.9)
    rows = ch_weight_decay.weight_decay_seed_table(hs[:3], hs[3:])
    assert [(r["seed"], r["lowest L_gen ratio"]) for r in rows] == [(0, 0.95), (1, 0.79), (2, 0.9)]
    results = ch_weight_decay.evaluate_weight_decay(hs[:3], hs[3:])
    glue = ch_weight_decay.weight_decay_reading(hs[:3], hs[3:], results)
    assert glue["wd_gen_verdict"] == "inconclusive" and glue["wd_seeds"] == "3" and glue["wd_other_seeds"] == "1, 2"
    assert glue["wd_gen_lowest_all"] == "0.790" and "seed 1" in glue["wd_gen_lowest_all_at"]
    assert glue["wd_gen_lowest_all_place"] == "outside the book's band, inside only the wider one"
    assert glue["wd_train_lowest_all_place"] == "inside every band of the grid"


def test_the_book_seed_is_the_shown_runs_whatever_seed_they_have():
    shown, further = _wd_seed(1, 0.95), _wd_seed(0, 0.96) + _wd_seed(2, 0.9)  # a rerun at data seed 1
    assert "run by run, seed 1" in ch_weight_decay.evaluate_weight_decay(shown, further)[0].measured
    with pytest.raises(ValueError):  # the chapter's own runs share one seed
        ch_weight_decay.shown_seed(_wd_seed(0, 0.95) + _wd_seed(1, 0.95))


def test_the_weight_decay_seeds_are_trained_with_the_book_and_drawn_in_no_figure():
    from grok_lib import chapters

    chapter = chapters.chapter("paper_c", "weight_decay")
    figure = chapter.runs("default")
    extra = chapter.claim_runs(figure)
    small = [c for c in figure if me.wd_small_at(c.lam_eff, c.gamma, c.d_out)]
    assert len(small) == 5 and len(extra) == (ch_weight_decay.WD_SEEDS - 1) * len(small)
    assert all(c in chapters.book_configs("default") for c in extra)
    assert not any(c in chapters.flat(ch.runs("default")) for c in extra for ch in chapters.chapters("paper_c"))
    assert {(c.data_seed, c.init_seed) for c in extra} == {(1, 1), (2, 2)}
    for k in (1, 2):
        assert [replace(c, data_seed=0, init_seed=0) for c in extra if c.data_seed == k] == small


def test_the_exact_gamma_plateau_tends_to_the_formula_as_gamma_goes_to_zero():
    lam, d_out, t_sq = 0.5, 1, 0.5
    for gamma, rel in ((1e-5, 1e-3), (1e-2, 0.2)):
        exact = ch_weight_decay.wd_limits_exact_gamma(lam, gamma, d_out, t_sq)
        first = theory.wd_limits_mp(lam, gamma, d_out, t_sq)
        assert all(e < f for e, f in zip(exact, first))  # the expansion overestimates
        assert all(e / f == pytest.approx(1, rel=rel) for e, f in zip(exact, first))
    assert theory.wd_limits_mp(lam, 1e-3, 1, 1.0) == pytest.approx(theory.wd_limits_paper(lam, 1e-3))


# --- C.dout.peak ---------------------------------------------------------------------------------------------------
def _dout(d: int, seed: int, dt: float) -> History:
    return History(steps=np.array([0, 10**8]), metrics={},
                   config={"d_out": d, "eps": 1e-3, "lam": 0.9, "data_seed": seed, "gamma": 0.0, "label_noise": 0.0},
                   meta={"crossings": [{"eps": 1e-3, "t_train": 100, "t_test": 100 + int(dt), "theory_t_train": 90.0,
                                        "theory_t_test": 90.0 + dt}]})


def test_peak_over_ends():
    ds = [1, 2, 5, 10, 20, 50, 100]
    assert me.peak_over_ends(ds, [1, 2, 3, 4, 5, 6, 7], 20, 100) == pytest.approx(6 / 7)
    assert me.peak_over_ends(ds, [1, 2, 3, 4, 5, 9, 7], 20, 100) == pytest.approx(9 / 7)
    assert math.isnan(me.peak_over_ends([1, 100], [1, 2], 20, 100))


def test_the_d_out_peak_is_graded_on_the_seed_means():
    ds = (1, 10, 50, 100)
    growing = [_dout(d, s, 1000 * d + s) for s in (0, 1) for d in ds]
    assert ch_d_out.evaluate_d_out(growing).verdict == "not reproduced"
    peaked = [_dout(d, s, {1: 100, 10: 500, 50: 900, 100: 400}[d] + s) for s in (0, 1) for d in ds]
    result = ch_d_out.evaluate_d_out(peaked)
    assert result.verdict == "reproduced" and "mean over seeds 0, 1" in result.measured


def test_capped_grokking_time():
    assert me.capped_grokking_time(100, 500, 1000) == (400.0, False)
    assert me.capped_grokking_time(100, 1500, 1000) == (900.0, True)
    assert me.capped_grokking_time(100, None, 1000) == (900.0, True)
    dt, censored = me.capped_grokking_time(2000, 3000, 1000)
    assert math.isnan(dt) and censored


def test_a_cap_turns_a_growing_delta_t_into_a_peak():
    hs = [History(steps=np.array([0, 1]), metrics={}, config={"d_out": d, "eps": 1e-3},
                  meta={"crossings": [{"eps": 1e-3, "t_train": 100 * d, "t_test": 20_000 * d}]})
          for d in (1, 10, 50, 100)]
    table = me.capped_d_out_seed_means(hs, cap=1_000_000)
    assert [table[d][4] for d in (1, 10, 50, 100)] == [0, 0, 0, 1]
    assert "peaks at d_out = 50 (interior)" in ch_d_out.capped_peak_text(hs, cap=1_000_000)
    assert "(an end of the range)" in ch_d_out.capped_peak_text(hs, cap=10**9)


# --- the nets ------------------------------------------------------------------------------------------------------
def _net(model: str, t_train, t_test, theory_train=300.0, theory_test=500.0) -> History:
    return History(steps=np.array([0, 3000]), metrics={"test_loss": np.array([1.0, 1e-6]),
                                                        "test_acc": np.array([0.0, 1.0])},
                   config={"model": model, "d_in": 20, "hidden": 4, "d_out": 2, "lam": 0.5, "eta": 0.5,
                           "eps": 1e-3, "data_seed": 0, "gamma": 0.0, "label_noise": 0.0},
                   meta={"crossings": [{"eps": 1e-3, "t_train": t_train, "t_test": t_test,
                                        "theory_t_train": theory_train, "theory_t_test": theory_test}]})


def test_the_two_layer_net_against_the_rescaled_theory():
    assert ch_nets.evaluate_two_layer(_net("two_layer_linear", 300, 520)).verdict == "reproduced"
    assert ch_nets.evaluate_two_layer(_net("two_layer_linear", 90, 160)).verdict == "not reproduced"
    assert ch_nets.evaluate_two_layer(_net("two_layer_linear", 300, None)).verdict == "not tested faithfully"


@pytest.fixture(scope="module")
def ci_nets():
    from grok_lib.paper_c import simulate

    (two,), (tanh,) = (cc.net_configs("ci", models=(m,)) for m in ("two_layer_linear", "tanh"))
    return simulate.train(two, progress=False), simulate.train(tanh, progress=False)


def test_the_tanh_retrace_reproduces_the_run_and_measures_its_nonlinearity(ci_nets):
    _, tanh = ci_nets
    m = ch_nets.near_linear(tanh, 200)  # raises if the retrace's training loss is not the run's
    assert m["steps"][0] == 0 and m["steps"][-1] <= 200
    assert np.all(m["slope"] <= 1) and np.all(m["nonlinear"] >= 0) and np.all(m["ratio"] >= 0)
    # at initialisation the pre-activations' RMS is 1/sqrt(2 hidden)
    assert m["rms"][0] == pytest.approx(1 / math.sqrt(2 * tanh.cfg.hidden), rel=0.2)


def test_the_tanh_net_is_graded_against_the_linear_net_where_it_is_near_linear(ci_nets, monkeypatch):
    two, tanh = ci_nets
    result = ch_nets.evaluate_tanh(tanh, two)
    assert result.verdict in VERDICTS and "the linear net's" in result.measured and result.regime is not None
    assert "mean tanh′" in result.measured
    # outside the regime whatever the crossings: not tested faithfully, with the measurement
    monkeypatch.setattr(ch_nets, "NEAR_LINEAR", 0.0)
    assert ch_nets.evaluate_tanh(tanh, two).verdict == "not tested faithfully"


def test_the_rescaled_clock_runs_at_the_measured_second_layer():
    d_out = 5
    assumed = np.full(1000, 1 / (2 * d_out))
    assert me.rescaled_clock_crossing(assumed, d_out, 300.0) == 300.0
    assert me.rescaled_clock_crossing(2 * assumed, d_out, 300.0) == 150.0
    assert math.isnan(me.rescaled_clock_crossing(assumed[:10], d_out, 300.0))


def test_second_layer_gram_starts_at_the_initialisation_and_grows():
    config = cc.net_configs("ci", models=("two_layer_linear",))[0]
    _, w2 = samples.init_net(config)
    gram = me.second_layer_gram(config, 200)
    assert gram[0] == pytest.approx(np.trace(w2.T @ w2) / config.d_out)
    assert len(gram) == 201 and gram[-1] > gram[0]


# --- label noise ---------------------------------------------------------------------------------------------------
def _tuned(seed: int, t_train, t_test, lam: float = 0.3, sigma: float = 0.0177) -> History:
    return History(steps=np.array([0, 1]), metrics={"gen_loss": np.array([1.0, 2e-4])},
                   config={"lam": lam, "d_out": 1, "gamma": 0.0, "label_noise": sigma, "eps": 1e-3, "eta": 0.01,
                           "data_seed": seed},
                   meta={"lam_eff": lam, "s_max": 2.5,
                         "crossings": [{"eps": 1e-3, "t_train": t_train, "t_test": t_test}]})


def test_tuned_noise_is_graded_per_seed_where_the_full_theory_allows_it():
    assert ch_label_noise.evaluate_tuned_noise([_tuned(0, 1000, 1020), _tuned(1, 990, 1000)]).verdict == "reproduced"
    assert ch_label_noise.evaluate_tuned_noise([_tuned(0, 672, 617), _tuned(1, 990, 1000)]).verdict == "inconclusive"
    assert ch_label_noise.evaluate_tuned_noise([_tuned(0, 800, None), _tuned(1, 780, 1470)]).verdict == "not reproduced"
    above = ch_label_noise.evaluate_tuned_noise([_tuned(0, 1000, 1020, lam=0.5)])
    assert above.verdict == "not tested faithfully" and "0.382" in above.measured
    rebuttal = [_tuned(s, 780, 1470 if s else None, lam=0.5, sigma=0.0149) for s in (0, 1)]
    result = ch_label_noise.evaluate_tuned_noise([_tuned(1, 990, 1000), _tuned(0, 1000, 1020)], rebuttal)
    assert result.verdict == "reproduced" and "does not achieve it" in result.measured
    assert result.measured.index("seed 0") < result.measured.index("seed 1")


def _noisy(seed: int, lam: float, sigma: float, train_err: float, gen_err: float) -> History:
    t = STEPS.astype(float)
    clean = np.exp(-t / 400)
    pred_tr, pred_gen = 0.5 * clean + sigma**2, clean
    return History(steps=STEPS, metrics={"train_loss": pred_tr * (1 + train_err), "gen_loss": pred_gen * (1 + gen_err),
                                         "noise_pred_train_loss": pred_tr, "noise_pred_gen_loss": pred_gen,
                                         "mp_noise_train_loss": pred_tr, "mp_noise_gen_loss": pred_gen},
                   config={"lam": lam, "d_out": 1, "gamma": 0.0, "label_noise": sigma, "eps": 1e-3, "eta": 0.01,
                           "data_seed": seed},
                   meta={"lam_eff": lam, "s_max": 2.5})


def test_the_rebuttals_two_noise_statements_are_graded_apart():
    runs = [_noisy(0, 0.5, 0.0, 0.5, 0.5), _noisy(0, 0.5, 0.01, 0.02, 0.4), _noisy(1, 0.5, 0.01, 0.02, 0.4)]
    shift, unchanged = ch_label_noise.evaluate_noise(runs)
    assert shift.verdict == "reproduced" and unchanged.verdict == "not reproduced"  # the noiseless run is not graded
    assert {len(d.values) for d in shift.draws} == {1}
    assert ch_label_noise.evaluate_noise_theory(runs).verdict == "not reproduced"
    assert {r.verdict for r in ch_label_noise.evaluate_noise([runs[0]])} == {"not tested faithfully"}


def test_the_tuned_noise_runs_are_the_sigma_star_runs_and_their_further_seeds():
    def run(seed, lam, sigma):
        return History(steps=np.array([0]), metrics={}, config={"data_seed": seed, "lam": lam, "label_noise": sigma})

    fractions = [run(0, 0.5, 0.0), run(0, 0.5, 0.007), run(0, 0.5, 0.015)]
    full = [run(0, 0.3, 0.0177)]
    further = [run(1, 0.5, 0.015), run(2, 0.5, 0.015), run(1, 0.3, 0.0177), run(2, 0.3, 0.0177)]
    assert ch_label_noise.tuned_noise_runs(fractions, further) == [fractions[2], *further[:2]]
    assert ch_label_noise.tuned_noise_runs(fractions[:2], further) == further[:2]  # a rerun without fraction 1: its seeds only
    assert ch_label_noise.full_noise_runs(full, further) == [full[0], *further[2:]]


def test_the_claim_only_seeds_are_trained_with_the_book_and_drawn_in_no_figure():
    from grok_lib import chapters


    chapter = chapters.chapter("paper_c", "label_noise")
    runs = chapter.runs("default")
    every_extra = chapter.claim_runs(runs)
    assert all(c in chapters.book_configs("default") for c in every_extra)
    extra = [c for c in every_extra if not c.test_label_noise]  # C.noise.test_shift's runs: the test below
    assert len(extra) == 2 * ch_label_noise.TUNED_NOISE_SEEDS
    assert not any(c in chapters.flat(ch.runs("default")) for c in extra for ch in chapters.chapters("paper_c"))
    rebuttal, full = extra[:ch_label_noise.TUNED_NOISE_SEEDS], extra[ch_label_noise.TUNED_NOISE_SEEDS:]
    assert {c.label_noise for c in rebuttal} == {cc.noise_configs("default", (1.0,))[0].label_noise}
    (base,) = runs["full"]
    assert [replace(c, data_seed=base.data_seed, init_seed=base.init_seed) for c in full] == [base] * len(full)
    assert [c.data_seed for c in full] == [base.data_seed + k for k in range(1, ch_label_noise.TUNED_NOISE_SEEDS + 1)]
    # whatever fractions a rerun gives, the claims' runs are at sigma*
    assert ch_label_noise.tuned_noise_seed_configs(ch_label_noise.noise_runs("default", (0.0, 0.5))) == extra


def test_the_test_label_noise_runs_copy_every_noisy_run_at_every_seed_and_are_kept_apart():
    from grok_lib import chapters


    runs = chapters.chapter("paper_c", "label_noise").runs("default")
    copies = ch_label_noise.test_noise_configs(runs)
    noisy = [c for c in [*runs["fractions"], *runs["full"]] if c.label_noise > 0]
    assert all(c.test_label_noise for c in copies)
    assert len(copies) == len(noisy) * (1 + ch_label_noise.TUNED_NOISE_SEEDS)
    assert [replace(c, test_label_noise=False) for c in copies[:len(noisy)]] == noisy
    # the claims on training noise only never read them, whatever they are handed
    from types import SimpleNamespace
    fake = [SimpleNamespace(cfg=SimpleNamespace(label_noise=0.1, test_label_noise=t, lam=0.5)) for t in (False, True)]
    assert ch_label_noise.noisy(fake) == fake[:1] and ch_label_noise.test_noisy(fake) == fake[1:]
    assert ch_label_noise.full_noise_runs([fake[0]], fake[1:]) == [fake[0]]
