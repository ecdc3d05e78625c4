"""The diagonal linear net: explicit gradients against autograd, the smoothness bound, data, determinism."""

import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from grok_lib.paper_b import diagonal as D
from grok_lib.paper_b.config import MisgrokkingConfig, SparseConfig, profile_config


def small_problem(seed=0, n=7, d=5):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    y = rng.choice([-1.0, 1.0], size=n)
    return rng.standard_normal(d), rng.standard_normal(d), x, y


def torch_objective(u, v, x, y, lam):
    beta = u * u - v * v
    return torch.nn.functional.softplus(-y * (x @ beta)).mean() + 0.5 * lam * ((u * u).sum() + (v * v).sum())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradients_match_autograd(seed):
    u, v, x, y = small_problem(seed)
    lam = 0.3
    du, dv, _, _ = D.gradients(u, v, x, y, lam)
    tu, tv = (torch.tensor(a, requires_grad=True) for a in (u, v))
    torch_objective(tu, tv, torch.tensor(x), torch.tensor(y), lam).backward()
    assert np.allclose(du, tu.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert np.allclose(dv, tv.grad.numpy(), rtol=1e-12, atol=1e-14)
    expected = float(torch_objective(tu, tv, torch.tensor(x), torch.tensor(y), lam).detach())
    assert D.objective(u, v, x, y, lam) == pytest.approx(expected, rel=1e-13)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("top", [1, 2, 16])
def test_smoothness_bound_is_above_the_hessian(seed, top):
    u, v, x, y = small_problem(seed, n=6, d=5)
    u, v = 3 * u, 2 * v  # a stiff point
    lam = 0.1
    _, _, g, s = D.gradients(u, v, x, y, lam)
    x_norm2 = float(np.linalg.eigvalsh(x @ x.T)[-1])
    bound = D.smoothness_bound(u, v, g, s, x_norm2, (x * x).sum(axis=0), lam, top=top)
    theta = torch.tensor(np.concatenate([u, v]))
    hess = torch.autograd.functional.hessian(
        lambda t: torch_objective(t[:5], t[5:], torch.tensor(x), torch.tensor(y), lam), theta)
    assert np.abs(np.linalg.eigvalsh(hess.numpy())).max() <= bound * (1 + 1e-12)


def test_sparse_data():
    c = SparseConfig(d=50, n_train=40, n_test=30, k=3, data_seed=3)
    x, y, xt, yt, w = D.make_data(c)
    assert x.shape == (40, 50) and xt.shape == (30, 50) and set(np.unique(x)) == {-1.0, 1.0}
    assert np.count_nonzero(w) == 3 and np.all(np.abs(w[:3]) == 1)
    assert np.array_equal(y, np.where(x @ w > 0, 1.0, -1.0)) and np.array_equal(yt, np.where(xt @ w > 0, 1.0, -1.0))


def test_misgrokking_data_has_margin_gamma_over_two():
    c = MisgrokkingConfig(d=30, n_train=20, n_test=10, gamma=6.0)
    x, y, _, _, w = D.make_data(c)
    assert np.linalg.norm(w) == pytest.approx(1.0)
    assert np.all(y * (x @ w) >= 3.0 - 1e-12)


def test_compact_test_set_gives_the_same_numbers(monkeypatch):
    c = SparseConfig(d=64, n_train=8, n_test=300, data_seed=1)
    x_full = D.make_data(c)[2]
    monkeypatch.setattr(D, "COMPACT_ENTRIES", 100)
    x_small = D.make_data(c)[2]
    assert x_small.dtype == np.int8 and np.array_equal(x_small, x_full)
    beta = np.random.default_rng(0).standard_normal(64)
    assert np.allclose(D.matvec(x_small, beta, chunk=7), x_full @ beta, rtol=1e-13)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_matvec_reuses_one_buffer_with_the_bits_of_a_fresh_array_per_chunk(dtype):
    """matvec converts each chunk into one reused float64 buffer: bitwise the product of a fresh copy per chunk."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((300, 64)) * 3).astype(dtype)
    w = rng.standard_normal(64)
    want = np.concatenate([x[i:i + 7].astype(np.float64) @ w for i in range(0, 300, 7)])
    assert np.array_equal(D.matvec(x, w, chunk=7), want)


def test_init_norm_is_alpha_and_beta_zero():
    u, v = D.init_params(SparseConfig(d=123, alpha=17.0))
    assert math.hypot(np.linalg.norm(u), np.linalg.norm(v)) == pytest.approx(17.0) and np.all(u * u - v * v == 0)


def test_accuracy_counts_zero_margin_as_half():
    assert D.accuracy(np.array([1.0, 0.0, -2.0, 0.0])) == pytest.approx(0.5)


def test_ci_run_is_deterministic_and_groks():
    c = profile_config("sparse", "ci")
    a, b = D.train(c, progress=False), D.train(c, progress=False)
    assert np.array_equal(a.steps, b.steps)
    for k in a.metrics:
        assert np.array_equal(a[k], b[k]), k
    assert np.array_equal(a.snapshots["beta"], b.snapshots["beta"])
    assert a.final("train_acc") == 1.0 and a.final("test_acc") > 0.95
    assert a["cos_l2"][np.searchsorted(a["t"] * c.weight_decay / math.log(c.alpha), 0.1)] > 0.9
    assert a.final("cos_l1") > 0.9
    assert a["t"][-1] * c.weight_decay / math.log(c.alpha) == pytest.approx(2.0, rel=0.05)


def test_fixed_rule_takes_lr_and_stable_rule_never_exceeds_it():
    c = replace(profile_config("sparse", "ci"), steps=40, margins=False)
    fixed = D.train(replace(c, lr_rule="fixed", lr=0.01), progress=False)
    assert np.all(fixed["lr"] == 0.01) and fixed["t"][-1] == pytest.approx(0.4)
    stable = D.train(replace(c, alpha=4096.0), progress=False)
    assert np.all(stable["lr"] <= c.lr) and stable["lr"][0] < 1e-3  # alpha^2 / d makes the first step stiff
