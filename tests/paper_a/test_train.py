import dataclasses

import numpy as np
import pytest

from grok_lib.paper_a.train import record_schedule, snapshot_schedule, train


def test_schedule_is_dense_early_and_regular_later():
    s = record_schedule(epochs=1000, eval_every=50)
    assert s[0] == 0 and s[-1] == 1000
    assert np.all(np.diff(s) > 0)
    assert {1, 2, 3}.issubset(s)  # log-spaced start
    assert set(range(0, 1001, 50)).issubset(s)


def test_training_learns_the_training_set(ci_config):
    h = train(ci_config, progress=False)
    assert h["train_loss"][-1] < 0.1 * h["train_loss"][0]
    assert h["train_acc"][-1] == pytest.approx(1.0)
    assert h.steps[-1] == ci_config.epochs
    for name in ("test_loss", "srank_E", "srank_W", "srank_U", "srank_EW", "grad_U", "norm_E", "churn"):
        assert h[name].shape == h.steps.shape


def test_same_config_gives_identical_history(ci_config):
    a = train(ci_config, progress=False)
    b = train(ci_config, progress=False)
    assert np.array_equal(a.steps, b.steps)
    for k in a.metrics:
        assert np.array_equal(a[k], b[k], equal_nan=True), k


def test_seed_changes_the_run(ci_config):
    a = train(ci_config, progress=False)
    b = train(dataclasses.replace(ci_config, init_seed=1), progress=False)
    assert not np.array_equal(a["train_loss"], b["train_loss"])


def test_divergence_names_the_step(ci_config):
    bad = dataclasses.replace(ci_config, lr=1e30, weight_decay=0.0)
    with pytest.raises(FloatingPointError, match=r"training diverged at step \d+: train loss is (nan|inf)"):
        train(bad, progress=False)


def test_callbacks_see_every_recorded_row(ci_config):
    seen = []
    h = train(ci_config, [lambda step, row: seen.append((step, row["train_loss"]))], progress=False)
    assert [s for s, _ in seen] == h.steps.tolist()
    assert [v for _, v in seen] == h["train_loss"].tolist()


def test_snapshots_keep_the_weights_at_their_steps(ci_config):
    h = train(ci_config, progress=False)
    assert h.snapshot_steps.tolist() == snapshot_schedule(ci_config.epochs).tolist() == [0, 100, 200]
    assert h.snapshots["E"].shape == (3, ci_config.p, ci_config.d_embed)
    assert h.snapshots["U"].shape == (3, ci_config.p, ci_config.width)
    assert not np.array_equal(h.snapshot("E", 0), h.snapshot("E", 200))


def test_recorded_gradients_respect_the_prop_4_2_bounds(ci_config):
    # Full-batch versions of Paper A, Prop. 4.2, by the triangle inequality over samples:
    # ||grad_U|| <= mean |delta||h|, ||grad_W|| <= ||U||_2 mean |delta||z|,
    # ||grad_E|| <= ||W||_2 ||U||_2 mean |delta| ||e_a + e_b||.
    h = train(ci_config, progress=False)
    slack = 1 + 1e-5
    assert np.all(h["grad_U"] <= h["mean_delta_h"] * slack)
    assert np.all(h["grad_W"] <= h["spec_U"] * h["mean_delta_z"] * slack)
    assert np.all(h["grad_E"] <= h["spec_W"] * h["spec_U"] * h["mean_delta_B"] * slack)
    assert np.all(h["grad_U"] > 0)


def test_update_sizes_are_recorded(ci_config):
    h = train(ci_config, progress=False)
    for k in ("E", "W", "b", "U"):
        upd = h[f"update_{k}"]
        assert upd.shape == h.steps.shape
        assert np.isnan(upd[-1]) and np.all(upd[:-1] > 0)
