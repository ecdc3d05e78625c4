"""Matrix completion: gradients, the exact kernel-regime support, the table, determinism."""

import numpy as np
import pytest
import torch
from dataclasses import replace

from grok_lib.paper_b import matrix_completion as MC
from grok_lib.paper_b.config import MatrixCompletionConfig, profile_config


def test_gradients_match_autograd():
    rng = np.random.default_rng(0)
    d = 6
    u, v = rng.standard_normal((d, d)), rng.standard_normal((d, d))
    x_star = MC.target(d)
    mask = rng.random((d, d)) < 0.4
    lam = 0.2
    du, dv, w = MC.gradients(u, v, x_star, mask, lam)
    tu, tv = (torch.tensor(a, requires_grad=True) for a in (u, v))
    tw = tu @ tu.T - tv @ tv.T
    m = torch.tensor(mask)
    loss = ((tw - torch.tensor(x_star))[m] ** 2).mean() + 0.5 * lam * ((tu**2).sum() + (tv**2).sum())
    loss.backward()
    assert np.allclose(du, tu.grad.numpy(), atol=1e-13) and np.allclose(dv, tv.grad.numpy(), atol=1e-13)
    assert np.allclose(w, tw.detach().numpy())


def test_target_is_the_rank_one_table():
    x = MC.target(5)
    assert x[2, 3] == pytest.approx(6 / 25) and np.linalg.matrix_rank(x) == 1
    assert MC.stable_rank(x) == pytest.approx(1.0) and MC.stable_rank(np.zeros((3, 3))) == 0.0


def test_observed_mask_size_and_seed():
    c = MatrixCompletionConfig(d=20, observed_frac=0.25, data_seed=4)
    m = MC.observed_mask(c)
    assert m.sum() == 100 and np.array_equal(m, MC.observed_mask(c))
    assert not np.array_equal(m, MC.observed_mask(replace(c, data_seed=5)))


def test_first_step_moves_only_observed_entries_and_transposes():
    """From U = V = alpha I one GD step changes W exactly on Omega u Omega^T (the kernel regime's support)."""
    c = MatrixCompletionConfig(d=15, observed_frac=0.2, alpha=5.0, weight_decay=0.01, lr=0.05)
    mask, x_star = MC.observed_mask(c), MC.target(c.d)
    u, v = MC.init_params(c)
    du, dv, _ = MC.gradients(u, v, x_star, mask, c.weight_decay)
    u, v = u - c.lr * du, v - c.lr * dv
    w = u @ u.T - v @ v.T
    far = ~(mask | mask.T)
    assert np.abs(w[far]).max() < 1e-12 and np.abs(w[mask]).max() > 1e-3


def test_ci_run_plateaus_then_recovers_and_is_deterministic():
    c = profile_config("matrix_completion", "ci")
    a, b = MC.train(c, progress=False), MC.train(c, progress=False)
    for k in a.metrics:
        assert np.array_equal(a[k], b[k]), k
    clock = a["t"] * c.weight_decay / np.log(c.alpha)
    early = clock <= 0.3
    assert a["far_rms"][early].max() < 1e-2 * np.sqrt(np.mean(MC.target(c.d) ** 2))
    assert a.final("test_mse") < 0.5 * a["test_mse"][np.argmin(np.abs(clock - 0.1))]
    assert a.final("stable_rank") < a["stable_rank"][np.argmin(np.abs(clock - 0.1))]
