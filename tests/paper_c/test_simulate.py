"""Paper C's simulation: exact powers vs plain GD, determinism, data, crossings, the nets."""

import numpy as np
import pytest

from grok_lib.history import History
from grok_lib.paper_c import samples
from grok_lib.paper_c import simulate as sim
from grok_lib.paper_c import theory as th
from grok_lib.paper_c.config import profile_config

LOSSES = ("train_loss", "test_loss", "gen_loss")


def small(**kw):
    """A small linear run, cheap enough for the direct GD path."""
    return profile_config("ci", **({"steps": 600, "n_log": 40, "n_grid": 10} | kw))


@pytest.mark.parametrize("extra", [{}, {"gamma": 0.02}, {"label_noise": 0.05, "test_label_noise": True},
                                   {"lam": 1.6}, {"d_out": 3, "gamma": 0.01}])
def test_exact_powers_agree_with_plain_gd(extra):
    eig = sim.train(small(**extra), progress=False)
    direct = sim.train(small(solver="direct", **extra), progress=False)
    assert np.array_equal(eig.steps, direct.steps)
    for name in LOSSES:
        np.testing.assert_allclose(eig[name], direct[name], rtol=1e-10, atol=1e-300)
    # plain GD against the closed form (I - eta (2 Sigma / d_out + gamma))^t of theory.py
    np.testing.assert_allclose(direct["gen_loss"], direct["gd_gen_loss"], rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(direct["train_loss"], direct["gd_train_loss"], rtol=1e-10, atol=1e-300)
    n_test = eig.config["n_test"]
    for name in ("train_acc", "test_acc"):
        assert np.abs(eig[name] - direct[name]).max() <= 1.0 / n_test + 1e-12
    for a, b in zip(eig.meta["crossings"], direct.meta["crossings"]):
        for k in ("t_train", "t_test"):
            assert (a[k] is None) == (b[k] is None)
            if a[k] is not None:
                assert abs(a[k] - b[k]) <= 1


def test_simulation_matches_the_exact_discrete_theory():
    h = sim.train(small(label_noise=0.03, gamma=0.005), progress=False)
    np.testing.assert_allclose(h["train_loss"], h["gd_train_loss"], rtol=1e-9)
    np.testing.assert_allclose(h["gen_loss"], h["gd_gen_loss"], rtol=1e-9)


def test_same_config_same_arrays():
    c = small(grok_eps=(1e-4,))
    a, b = sim.train(c, progress=False), sim.train(c, progress=False)
    assert np.array_equal(a.steps, b.steps)
    assert a.metrics.keys() == b.metrics.keys()
    for k in a.metrics:
        assert np.array_equal(a[k], b[k], equal_nan=True), k
    assert a.meta["crossings"] == b.meta["crossings"]
    back = History.from_bytes(a.to_bytes())
    assert np.array_equal(back["test_acc"], a["test_acc"]) and back.meta["crossings"] == a.meta["crossings"]


def test_seeds_change_what_they_seed():
    base = samples.make_data(small())
    other_init = samples.make_data(small(init_seed=1))
    other_data = samples.make_data(small(data_seed=1))
    assert np.array_equal(base.x_train, other_init.x_train)
    assert not np.array_equal(samples.init_linear(small()), samples.init_linear(small(init_seed=1)))
    assert not np.array_equal(base.teacher, other_data.teacher)


def test_data_scales_and_nested_training_sets():
    c = profile_config("ci", d_in=200, lam=0.5, d_out=4)
    data = samples.make_data(c)
    assert data.x_train.shape == (400, 200) and data.z_test.shape == (c.n_test, 200)
    assert data.teacher.var() == pytest.approx(1 / (2 * 200 * 4), rel=0.1)
    assert np.abs(data.noise_train).max() == 0.0
    bigger = samples.make_data(profile_config("ci", d_in=200, lam=0.25, d_out=4))
    assert np.array_equal(bigger.x_train[:400], data.x_train)  # a larger N_tr extends the training set
    assert np.array_equal(bigger.teacher, data.teacher)
    # test inputs x = V z: orthogonal rotation of N(0, I) draws
    np.testing.assert_allclose(data.x_test @ data.v, data.z_test, atol=1e-12)


def test_eigenbasis_has_exact_zeros_when_underdetermined():
    c = profile_config("ci", d_in=40, lam=2.0)
    data = samples.make_data(c)
    assert int((data.s == 0).sum()) == 40 - c.n_train
    sigma = data.x_train.T @ data.x_train / c.n_train
    np.testing.assert_allclose(data.v @ np.diag(data.s) @ data.v.T, sigma, atol=1e-12)


def test_record_steps():
    c = small()
    steps = samples.record_steps(c)
    assert steps[0] == 0 and steps[-1] == c.steps
    assert np.all(np.diff(steps) > 0)


def test_crossings_are_the_first_step_at_the_level():
    c = profile_config("ci")
    h = sim.train(c, progress=False)
    data = samples.make_data(c)
    student = sim.EigenLinear(c, samples.Rotated(c, data, samples.init_linear(c)))
    row = h.meta["crossings"][0]
    for which in ("train", "test"):
        t = row[f"t_{which}"]
        acc = (student.sq_errors(which, np.array([t - 1, t])) <= c.eps).mean(axis=1)
        assert acc[0] < th.GROK_ACC <= acc[1]
    assert row["theory_t_train"] > 0 and row["mp_t_test"] > row["mp_t_train"]


def test_lambda_above_one_never_reaches_the_test_level():
    h = sim.train(profile_config("ci", lam=1.5), progress=False)
    row = h.meta["crossings"][0]
    assert row["t_train"] is not None and row["t_test"] is None
    assert h.final("gen_loss") == pytest.approx(h.meta["l0"] * (1 - 1 / h.meta["lam_eff"]), rel=0.5)


def test_weight_decay_run_reaches_the_exact_fixed_point():
    c = profile_config("ci", gamma=0.05, steps=200_000)
    h = sim.train(c, progress=False)
    data = samples.make_data(c)
    rot = samples.Rotated(c, data, samples.init_linear(c))
    tr, gen = th.wd_fixed_point(rot.s, rot.teacher, c.gamma, c.d_out)
    assert h.final("gen_loss") == pytest.approx(gen, rel=1e-9)
    assert h.final("train_loss") == pytest.approx(tr, rel=1e-9)


def test_two_layer_linear_first_step_matches_per_sample_gradients():
    c = profile_config("ci", model="two_layer_linear", d_out=2, steps=1, n_log=1, n_grid=0, eta=0.3, gamma=0.01,
                       label_noise=0.02)
    h = sim.train(c, progress=False)
    data = samples.make_data(c)
    w1, w2 = samples.init_net(c)
    x, y = data.x_train, data.x_train @ data.teacher + data.noise_train
    r = x @ w1 @ w2 - y
    g = 2 * x.T @ r / (x.shape[0] * c.d_out)  # dL/dS
    w1n, w2n = w1 - c.eta * (g @ w2.T + c.gamma * w1), w2 - c.eta * (w1.T @ g + c.gamma * w2)
    d1 = w1n @ w2n - data.teacher
    assert h.steps.tolist() == [0, 1]
    assert h["gen_loss"][1] == pytest.approx(float((d1**2).sum()) / c.d_out, rel=1e-10)
    r1 = x @ d1 - data.noise_train
    assert h["train_loss"][1] == pytest.approx(float((r1**2).mean()), rel=1e-10)


def test_nets_train_and_carry_the_rescaled_theory():
    for model in ("two_layer_linear", "tanh"):
        c = profile_config("ci", model=model, d_out=2, eta=0.5, steps=1500)
        h = sim.train(c, progress=False)
        assert np.isfinite(h["train_loss"]).all()
        assert h.final("train_loss") < 1e-2 * h["train_loss"][0]
        assert "theory_gen_loss" in h.metrics and "mp_gen_loss" not in h.metrics
        assert h.meta["crossing_resolution"] == "record grid"
    assert "gen_loss" not in h.metrics  # the tanh net has no exact generalisation loss


@pytest.mark.parametrize("model,gain", [("relu", 1.0), ("tanh", 3.0)])
def test_relu_and_tanh_gain_activations_and_their_slopes(model, gain):
    """phi and its derivative as the trainer uses them: the derivative matches phi's finite difference, the gained
    tanh keeps slope 1 at 0 (the linear net stays its prediction), and the nets train."""
    c = profile_config("ci", model=model, gain=gain, d_out=2, eta=0.5, steps=1500)
    phi, dphi = sim.activation(c)
    z = np.linspace(-1.5, 1.5, 31) + 1e-3  # off the ReLU's kink
    numeric = (phi(z + 1e-6) - phi(z - 1e-6)) / 2e-6
    np.testing.assert_allclose(dphi(z, phi(z)), numeric, rtol=1e-6, atol=1e-8)
    if model == "tanh":
        assert dphi(np.zeros(1), phi(np.zeros(1)))[0] == 1.0 and phi(np.array([1.0]))[0] == np.tanh(3.0) / 3.0
    h = sim.train(c, progress=False)
    assert np.isfinite(h["train_loss"]).all() and h.final("train_loss") < 0.5 * h["train_loss"][0]


def test_gain_one_is_the_plain_tanh():
    phi, dphi = sim.activation(profile_config("ci", model="tanh"))
    assert phi is np.tanh


@pytest.mark.parametrize("model", ["linear", "two_layer_linear", "tanh"])
def test_callbacks_get_each_record_step_and_can_stop_the_run(model):
    """cb(step, row) at each record step with that step's simulated metrics, the history's (what
    grok_lib.recorded.retrain_prefix holds against a recording); the nets call it as training reaches the step,
    so a callback that raises stops them there."""
    c = profile_config("ci", model=model, d_out=2, eta=0.5 if model != "linear" else 0.05, steps=1500)
    seen = {}
    h = sim.train(c, progress=False, callbacks=(lambda step, row: seen.setdefault(step, row),))
    assert sorted(seen) == h.steps.tolist()
    assert set(seen[0]) == {k for k in h.metrics if not k.startswith(("theory_", "gd_", "mp_"))}
    for i, step in enumerate(h.steps.tolist()):
        for name, value in seen[step].items():
            assert value == pytest.approx(h[name][i], rel=1e-12, abs=1e-300), (step, name)

    class Stop(Exception):
        pass

    def stop(step, row):
        if step > 100:
            raise Stop

    with pytest.raises(Stop):
        sim.train(c, progress=False, callbacks=(stop,))


def test_divergence_is_reported():
    with pytest.raises(FloatingPointError):
        sim.train(profile_config("ci", model="tanh", eta=50.0, steps=200), progress=False)
