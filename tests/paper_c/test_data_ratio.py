"""Paper C's question on Part A's task (grok_lib.paper_c.data_ratio): configs, Delta t, fits and the claim,
on synthetic histories (no training here)."""

import math

import numpy as np
import pytest

from grok_lib.claims import VERDICTS
from grok_lib.config import ConfigError
from grok_lib.history import History
from grok_lib.paper_a.config import ModAddConfig
from grok_lib.paper_c import data_ratio, panels
from grok_lib.paper_c import shape_fits as sf
from grok_lib.paper_c.chapters import modadd_data_ratio as ch_modadd_data_ratio
from grok_lib.paper_c.chapters import REGISTRY
from grok_lib.paper_c.theory import GROK_ACC, grok_time_formula

CLAIM = REGISTRY["C.modadd.data_ratio"]
BASE = {"p": 47, "d_embed": 32, "width": 64, "lr": 0.02, "weight_decay": 1.0, "eval_every": 10}


def fake(train_frac, t_train, t_test, epochs=3000, seed=0, **config):
    """A history whose accuracies jump from 0 to 1 at t_train / t_test (None: never), recorded every step."""
    steps = np.arange(epochs + 1)
    acc = lambda t: (steps >= t).astype(float) if t is not None else np.full(len(steps), 0.9)  # noqa: E731
    return History(steps=steps, metrics={"train_acc": acc(t_train), "test_acc": acc(t_test)},
                   config=BASE | {"train_frac": train_frac, "epochs": epochs, "data_seed": seed, "init_seed": seed}
                   | config)


def sweep(dt_of_f, fractions=(0.5, 0.55, 0.6, 0.7, 0.8, 0.9), seeds=(0, 1), censored=()):
    """Synthetic runs with Delta t = dt_of_f(f) (rounded to a step), t_train = 30; ``censored`` fractions never grok."""
    out = []
    for s in seeds:
        for f in fractions:
            out.append(fake(f, 30, None if f in censored else 30 + round(float(dt_of_f(f))), seed=s))
    return out


# --- configs ---------------------------------------------------------------------------------------
def test_default_configs_are_valid_part_a_runs_with_seeds_outermost():
    import grok_lib.paper_a  # noqa: F401  (registers Part A's run kind)
    from grok_lib.plans import plan

    cs = data_ratio.data_ratio_configs("default")
    assert all(isinstance(c, ModAddConfig) for c in cs)
    assert len(cs) == len(data_ratio.DEFAULT_EPOCHS) * len(data_ratio.SETTINGS["default"]["seeds"])
    assert [c.train_frac for c in cs[:len(data_ratio.DEFAULT_EPOCHS)]] == list(data_ratio.DEFAULT_EPOCHS)
    assert all(c.epochs == data_ratio.DEFAULT_EPOCHS[c.train_frac] for c in cs)
    assert all(c.data_seed == c.init_seed for c in cs) and {c.data_seed for c in cs} == {0, 1, 2}
    assert all(c.device == "cpu" and c.p == 47 and c.lr == 0.02 and c.weight_decay == 1.0 for c in cs)
    assert plan(cs[0]).kind.name == "paper_a.mlp"
    assert len({plan(c).key for c in cs}) == len(cs)
    paper = data_ratio.data_ratio_configs("paper")
    assert all(c.p == 113 and c.width == 512 and c.d_embed == 128 and c.lr == 1e-3 for c in paper)
    assert data_ratio.data_ratio_configs("ci", device="auto")[0].device == "auto"


def test_config_errors_are_one_line_and_name_the_parameter():
    with pytest.raises(ConfigError, match="profile"):
        data_ratio.data_ratio_configs("huge")
    with pytest.raises(ConfigError, match="have no epochs"):
        data_ratio.data_ratio_configs("default", fractions=[0.65])
    cs = data_ratio.data_ratio_configs("default", fractions=[0.65], seeds=[4], epochs=100)
    assert [(c.train_frac, c.epochs, c.data_seed) for c in cs] == [(0.65, 100, 4)]
    with pytest.raises(ConfigError, match="fractions"):
        data_ratio.data_ratio_configs("default", fractions=[1.5], epochs=100)
    with pytest.raises(ConfigError, match="seeds"):
        data_ratio.data_ratio_configs("default", seeds=[0, 0])
    with pytest.raises(ConfigError, match="seeds"):
        data_ratio.data_ratio_configs("default", seeds=[0.5])
    with pytest.raises(ConfigError, match="epochs"):
        data_ratio.data_ratio_configs("default", epochs=0)


# --- Delta t ---------------------------------------------------------------------------------------
def test_delta_t_is_the_test_minus_the_train_crossing_at_paper_cs_level():
    assert data_ratio.LEVEL == GROK_ACC
    h = fake(0.5, 30, 1230)
    assert data_ratio.crossing_steps(h) == (30.0, 1230.0)
    assert data_ratio.grokking_time(h) == 1200.0
    h.metrics["test_acc"][1230:1300] = 0.95  # just below erf(sqrt 2) ~ 0.9545: not a crossing
    assert data_ratio.grokking_time(h) == 1270.0
    assert data_ratio.grokking_time(h, level=0.9) == 1200.0
    assert math.isnan(data_ratio.grokking_time(fake(0.5, 30, None)))


def test_censored_runs_give_lower_bounds_and_are_not_fitted():
    runs = sweep(lambda f: 100 / f**3, fractions=(0.45, 0.5, 0.6, 0.7, 0.8), censored=(0.45,))
    runs[0] = fake(0.45, 30, 2000)  # one seed of 0.45 groks, the other not
    m = data_ratio.measure_data_ratio(runs)
    edge = m.fractions[0]
    assert edge.train_frac == 0.45 and not edge.grokked and edge.n_grokked == 1
    assert [r.lower_bound for r in edge.runs if r.censored] == [2970.0]
    assert [p.train_frac for p in m.fitted] == [0.5, 0.6, 0.7, 0.8]
    rows = ch_modadd_data_ratio.data_ratio_table(runs)
    assert rows[0]["grokked"] == "1/2" and rows[0]["Δt per seed"] == "1970, >2970"
    assert math.isnan(rows[0]["Δt geo-mean"]) and rows[1]["Δt geo-mean"] == round(100 / 0.5**3)


def test_one_sweep_means_one_setting():
    with pytest.raises(ValueError, match="width"):
        data_ratio.measure_data_ratio([fake(0.5, 30, 500), fake(0.6, 30, 400, width=128)])


# --- fits ------------------------------------------------------------------------------------------
F = np.array([0.5, 0.55, 0.6, 0.7, 0.8, 0.9])


def test_each_shape_recovers_its_own_parameters():
    formula = np.array([grok_time_formula(0.4 / f, 0.02) for f in F])  # A = 1/(2 lr) = 25, c = 0.4
    fo = sf.fit_shape("formula", F, np.log(formula))
    assert fo.params[1] == pytest.approx(0.4, rel=1e-6) and math.exp(fo.params[0]) == pytest.approx(25, rel=1e-6)
    assert fo.r2 == pytest.approx(1.0) and not fo.at_bound
    np.testing.assert_allclose(fo(F), formula, rtol=1e-6)
    pw = sf.fit_shape("power", F, np.log(60 * F**-4.0))
    assert pw.params == pytest.approx((math.log(60), 4.0))
    ex = sf.fit_shape("exponential", F, np.log(2e4 * np.exp(-6 * F)))
    assert ex.params == pytest.approx((math.log(2e4), 6.0))
    assert sf.fit_shape("power", F, np.log(60 * F**-4.0)).describe() == "Δt = 60·f^-4"


def test_the_formula_shape_diverges_at_c_and_is_sqrt_lambda_far_from_it():
    assert sf.log_g(1.0) == math.inf and sf.log_g(1.3) == math.inf
    assert math.exp(sf.log_g(1e-8)) == pytest.approx(1e-4, rel=1e-3)  # g(lam) ~ sqrt(lam) as lam -> 0
    fo = sf.ShapeFit("formula", (0.0, 0.4), 1.0, 0.0, 5)
    assert fo(0.39) == math.inf and math.isfinite(fo(0.41))
    with pytest.raises(ValueError, match="3 finite points"):
        sf.fit_shape("power", [0.5, 0.6], [1.0, 2.0])


def test_leave_one_out_is_exact_for_the_true_shape_and_infinite_when_c_passes_the_held_out_fraction():
    y = np.log(60 * F**-4.0)
    np.testing.assert_allclose(sf.leave_one_out("power", F, y), 0, atol=1e-10)
    assert sf.rms(sf.leave_one_out("exponential", F, y)) > 0.01
    # the points above 0.5 follow the formula with c = 0.53: without 0.5 the fit puts the divergence above
    # 0.5 and predicts that fraction never groks
    steep = np.log([100.0] + [grok_time_formula(0.53 / f, 0.02) for f in F[1:]])
    errors = sf.leave_one_out("formula", F, steep)
    assert errors[0] == -math.inf and sf.rms(errors) == math.inf


# --- claims --------------------------------------------------------------------------------------------
def test_the_claims_are_declared_from_the_constants():
    assert CLAIM.id == "C.modadd.data_ratio" and CLAIM.paper == "C" and CLAIM.basis == "review"
    assert CLAIM.bar == ch_modadd_data_ratio.R2_OK and CLAIM.bars == ch_modadd_data_ratio.R2_GRID and "≥ 0.9" in CLAIM.threshold
    assert f"{data_ratio.LEVEL:.4f}" in CLAIM.quantity
    specific = REGISTRY["C.modadd.data_ratio_specific"]
    assert specific.bar == ch_modadd_data_ratio.LOO_RATIO and specific.bars == ()


def test_verdicts_on_synthetic_sweeps():
    shape, specific = ch_modadd_data_ratio.evaluate_data_ratio(sweep(lambda f: grok_time_formula(0.4 / f, 0.02)))
    assert shape.verdict == specific.verdict == "reproduced"
    assert "c = 0.4" in shape.measured
    # the formula's shape fits a power law's points, but the power law predicts held-out points better
    shape, specific = ch_modadd_data_ratio.evaluate_data_ratio(sweep(lambda f: 60 * f**-4.0))
    assert shape.verdict == "reproduced" and specific.verdict == "not reproduced"
    # too few fractions grok: outside the regime, whatever the fits
    too_few = ch_modadd_data_ratio.evaluate_data_ratio(sweep(lambda f: 60 * f**-4.0, censored=(0.5, 0.55)))
    assert {r.verdict for r in too_few} == {"not tested faithfully"} and "seed 0: 4" in too_few[0].measured
    flat, _ = ch_modadd_data_ratio.evaluate_data_ratio(sweep(lambda f: 300 + 40 * math.sin(40 * f)))
    assert flat.verdict == "not reproduced"


def test_the_seeds_are_graded_one_draw_each():
    runs = sweep(lambda f: grok_time_formula(0.4 / f, 0.02), seeds=(0,)) + sweep(lambda f: 60 * f**-4.0, seeds=(1,))
    shape, specific = ch_modadd_data_ratio.evaluate_data_ratio(runs)
    assert [d.seed for d in specific.draws] == [0, 1] and specific.verdict == "inconclusive"
    assert {r.verdict for r in (shape, specific)} <= set(VERDICTS)


def test_the_edge_fraction_is_compared_with_every_fit():
    runs = sweep(lambda f: grok_time_formula(0.4 / f, 0.02), fractions=(0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9),
                 censored=(0.45,))
    text = ch_modadd_data_ratio.evaluate_data_ratio(runs)[0].measured
    # judged per seed (two synthetic seeds here): each seed's text compares its censored edge with every fit
    assert text.count("at f=0.45 (not fitted) the fits predict formula") == 2, text


def test_fit_table_and_numbers():
    runs = sweep(lambda f: 60 * f**-4.0)
    rows = ch_modadd_data_ratio.data_ratio_fit_table(runs)
    assert [r["fit"] for r in rows] == list(sf.FORMS)
    assert rows[1]["R²"] == pytest.approx(1.0, abs=1e-4)
    numbers = ch_modadd_data_ratio.data_ratio_numbers(runs)
    assert numbers["f=0.5/seed=0/dt"] == round(60 * 0.5**-4) and numbers["power/p1"] == pytest.approx(4.0, abs=0.02)


def test_plot_draws_points_fits_and_the_divergence():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = sweep(lambda f: grok_time_formula(0.4 / f, 0.02), fractions=(0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9),
                 censored=(0.45,))
    fig, ax = plt.subplots()
    panels.plot_data_ratio(ax, data_ratio.measure_data_ratio(runs))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(lb.startswith("formula: R²") for lb in labels) and any("divergence" in lb for lb in labels)
    assert ax.get_yscale() == "log"
    plt.close(fig)
