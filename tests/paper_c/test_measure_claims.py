"""Paper C's measurements and claims (on tiny runs: the evaluators' mechanics, not the book's verdicts)."""

import math

import numpy as np
import pytest

from grok_lib.claims import VERDICTS, Result
from grok_lib.history import History
from grok_lib.paper_c import chapters as chapters_c
from grok_lib.paper_c import measure as measure_c
from grok_lib.paper_c.chapters import d_out as ch_d_out
from grok_lib.paper_c.chapters import grok_time as ch_grok_time
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import loss_curves as ch_loss_curves
from grok_lib.paper_c.chapters import nets as ch_nets
from grok_lib.paper_c.chapters import weight_decay as ch_weight_decay
from grok_lib.paper_c.chapters.nets import net_runs
from grok_lib.paper_c import config as cc
from grok_lib.paper_c import measure as me
from grok_lib.paper_c import simulate as sim


def fake(crossings, eps=1e-3, **config):
    return History(steps=np.array([0, 1]), metrics={"train_acc": np.zeros(2)},
                   config={"eps": eps, "eta": 0.01, "d_out": 1} | config,
                   meta={"crossings": crossings, "lam_eff": 0.5})


def test_grokking_time_reads_the_crossings():
    h = fake([{"eps": 1e-3, "t_train": 100, "t_test": 250, "theory_t_train": 90.0, "theory_t_test": 260.0},
              {"eps": 1e-5, "t_train": 200, "t_test": None}])
    assert me.grokking_time(h) == 150
    assert me.theory_grokking_time(h) == 170.0
    assert math.isnan(me.grokking_time(h, 1e-5))
    assert math.isnan(me.theory_grokking_time(h, 1e-5, "mp"))
    with pytest.raises(KeyError, match="1e-07"):
        me.crossing(h, 1e-7)


def test_deviation_factor_is_the_larger_of_train_and_test_and_bounds_a_net_that_never_crosses():
    linear = fake([{"eps": 1e-3, "t_train": 100, "t_test": 200}])
    assert me.deviation_factor(fake([{"eps": 1e-3, "t_train": 110, "t_test": 100}]), linear) == 2.0
    assert me.deviation_factor(fake([{"eps": 1e-3, "t_train": 100, "t_test": 250}]), linear) == 1.25
    # never crossing: counted at the run's last step + 1, a lower bound of the factor
    long_net = fake([{"eps": 1e-3, "t_train": 100, "t_test": None}])
    long_net.steps = np.array([0, 999])
    assert me.deviation_factor(long_net, linear) == 5.0
    # a run that stops (step 1) before the linear net crossed (step 200) says nothing about the factor
    assert math.isnan(me.deviation_factor(fake([{"eps": 1e-3, "t_train": 100, "t_test": None}]), linear))
    assert math.isnan(me.deviation_factor(linear, fake([{"eps": 1e-3, "t_train": 100, "t_test": None}])))


def test_grid_crossing_relative_error_plateau_peak_seed_mean():
    assert me.grid_crossing([0, 10, 20, 30], [0.1, 0.5, 0.96, 1.0]) == 20
    assert math.isnan(me.grid_crossing([0, 10], [0.1, 0.2]))
    np.testing.assert_allclose(me.relative_error([1.1, 0.9], [1.0, 1.0]), [0.1, 0.1])
    worst = me.max_relative_error([2.0, 1.1, 5.0], [1.0, 1.0, 1e-20], floor=1e-10, t=[0, 1, 2], t_max=1)
    assert worst == pytest.approx(1.0)
    h = History(steps=np.array([0, 10, 100, 1000, 10000]), metrics={"x": np.array([5.0, 4.0, 3.0, 2.0, 2.0])},
                config={})
    assert me.plateau(h, "x", 0.3) == 2.0
    assert me.peak([1, 2, 5, 10], [1.0, 3.0, 2.0, 0.5]) == (2.0, True)
    assert me.peak([1, 2, 5], [1.0, 2.0, 3.0]) == (5.0, False)
    mean, sem = me.seed_mean([1.0, 3.0, None, math.nan])
    assert mean == 2.0 and sem == pytest.approx(1.0)


def test_claim_ids_and_bars_come_from_the_constants():
    ids = [c.id for c in list(chapters_c.REGISTRY.values())]
    assert all(i.startswith("C.") for i in ids) and len(set(ids)) == len(ids)
    assert chapters_c.REGISTRY["C.dyn.exact"].bar == ch_loss_curves.DYN_ERROR and f"{ch_loss_curves.DYN_ERROR.hi:.2%}" in chapters_c.REGISTRY["C.dyn.exact"].threshold
    assert chapters_c.REGISTRY["C.dyn.mp"].bar == ch_loss_curves.MP_ERROR and "0.00025" in chapters_c.REGISTRY["C.dyn.mp"].grid
    assert chapters_c.REGISTRY["C.grok.formula"].bar == ch_grok_time.RATIO_BAND and "[0.80, 1.25]" in chapters_c.REGISTRY["C.grok.formula"].threshold
    assert chapters_c.REGISTRY["C.wd.gen_limit"].bar == ch_weight_decay.WD_BAND and len(chapters_c.REGISTRY["C.wd.gen_limit"].bars) == 2
    assert f"[{ch_d_out.PEAK_RANGE[0]}, {ch_d_out.PEAK_RANGE[1]}]" in chapters_c.REGISTRY["C.dout.peak"].quantity
    assert all(c.paper == "C" for c in list(chapters_c.REGISTRY.values()))


@pytest.fixture(scope="module")
def runs():
    """Tiny versions of every Part C run set (seconds in all)."""
    prof = "ci"
    train = lambda cs: [sim.train(c, progress=False) for c in cs]  # noqa: E731
    return {
        "curves": train(cc.curve_configs(prof, lams=(0.3, 0.9, 1.5), grok_eps=(1e-5, 1e-8))),
        "grok": train(cc.grok_time_configs(prof, lams=(0.1, 0.3, 0.5), grok_eps=(1e-5, 1e-8))),
        "wd": train(cc.weight_decay_configs(prof, lams=(0.3, 0.5), gammas=(1e-3,), steps=200_000)),
        "d_out": train(cc.d_out_configs(prof, d_outs=(1, 3, 5), seeds=(0, 1), steps=10**6)),
        "nets": {name: train(cs) for name, cs in net_runs(prof).items()},
        "activation": {name: train(cs) for name, cs in cc.activation_configs(prof, seeds=(0,)).items()},
        "noise": train(cc.noise_configs(prof, lam=0.3)),
        "noise_full": train([cc.noise_full_config(prof)]),
    }


def test_every_evaluator_returns_a_result(runs):
    (two,), (tanh,) = runs["nets"]["two_layer"], runs["nets"]["tanh"]
    noise = [*runs["noise"], *runs["noise_full"]]
    results = [
        ch_loss_curves.evaluate_dynamics(runs["curves"]), ch_loss_curves.evaluate_mp(runs["curves"]), ch_loss_curves.evaluate_accuracy_law(runs["curves"]),
        *ch_loss_curves.evaluate_plateau(runs["curves"]), ch_grok_time.evaluate_formula(runs["grok"]), ch_grok_time.evaluate_divergence(runs["grok"]),
        *ch_weight_decay.evaluate_weight_decay(runs["wd"]), ch_d_out.evaluate_d_out(runs["d_out"]), ch_d_out.evaluate_gamma_law(runs["d_out"]),
        ch_nets.evaluate_two_layer(two), ch_nets.evaluate_tanh(tanh, two), *ch_nets.evaluate_activations(runs["activation"]),
        *ch_label_noise.evaluate_noise(noise), ch_label_noise.evaluate_tuned_noise(runs["noise_full"], [runs["noise"][-1]]),
        ch_label_noise.evaluate_noise_theory(noise), ch_label_noise.evaluate_test_noise(noise),
    ]
    # every claim on the linear student and the nets; those on Part A's task are tested in test_data_ratio.py
    assert [r.claim.id for r in results] == [c.id for c in list(chapters_c.REGISTRY.values()) if not c.id.startswith("C.modadd")]
    for r in results:
        assert isinstance(r, Result) and r.verdict in VERDICTS and r.measured
    # the discrete-GD check inside C.dyn.exact's regime is at rounding level even on tiny runs
    assert "discrete powers" in results[0].measured and results[0].regime.ok


def test_formula_ratios_are_measured_not_assumed(runs):
    ratios = me.formula_ratios(runs["grok"])
    assert set(ratios) == set(measure_c.FORMULA_EPS)
    assert all(r > 0 and math.isfinite(r) for rs in ratios.values() for r in rs)
