"""The sharpness of Paper B's objectives (the regime check of its GD runs), and the modular-addition trainer that keeps
GD's step inside its stable range."""

from dataclasses import replace

import numpy as np
import pytest
import torch

from grok_lib.paper_b import config, relu_net, sharpness, stable_gd
from grok_lib.paper_b.config import StableModAddConfig

SMALL = config.ModAddConfig(p=11, train_frac=0.6, width=16, alpha=3.0, weight_decay=2e-3, lr=1.0, steps=50, n_log=10,
                            device="cpu")


@pytest.mark.parametrize("alpha", [1.0, 10.0])
def test_the_gauss_newton_sharpness_at_init_has_its_closed_form(alpha):
    c = replace(SMALL, alpha=alpha)
    assert sharpness.at_init(c) == pytest.approx(sharpness.closed_form_at_init(c), rel=1e-6)
    # it grows as alpha^2 (the features are alpha times He's, and only W2 moves the logits at W2 = 0)
    assert sharpness.closed_form_at_init(c) == pytest.approx(alpha**2 * sharpness.closed_form_at_init(replace(c, alpha=1.0)))


def test_the_gauss_newton_products_are_autograds():
    from torch.func import jvp, vjp

    train, _ = relu_net.make_split(SMALL)
    rows = torch.from_numpy(train)
    params = relu_net.init_params(SMALL)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        params["W2"].copy_(torch.randn(params["W2"].shape, generator=gen))  # away from W2 = 0: every block moves
        params["b1"].copy_(0.1 * torch.randn(params["b1"].shape, generator=gen))
    gn = sharpness.GaussNewton(params, rows)

    def f(ps):
        return relu_net.logits(ps, rows[:, 0], rows[:, 1])

    v = {k: torch.randn(t.shape, generator=gen, dtype=torch.float64) for k, t in gn.theta.items()}
    _, jv = jvp(f, (gn.theta,), (v,))
    assert torch.allclose(gn.jvp(v), jv, rtol=1e-10, atol=1e-12)
    w = torch.randn(jv.shape, generator=gen, dtype=torch.float64)
    (g,) = vjp(f, gn.theta)[1](w)
    assert all(torch.allclose(gn.vjp(w)[k], g[k], rtol=1e-10, atol=1e-12) for k in g)
    # and G itself, against the explicit matrix J^T H J / n on this small net
    jac = torch.autograd.functional.jacobian(lambda *xs: f(dict(zip(gn.theta, xs))), tuple(gn.theta.values()))
    j = torch.cat([x.reshape(x.shape[0] * x.shape[1], -1) for x in jac], dim=1).reshape(len(rows), -1, sum(
        t.numel() for t in gn.theta.values()))
    s = gn.s
    h = torch.diag_embed(s) - s[:, :, None] * s[:, None, :]
    g_matrix = torch.einsum("nkp,nkl,nlq->pq", j, h, j) / len(rows)
    assert gn.top(300)[0] == pytest.approx(float(torch.linalg.eigvalsh(g_matrix)[-1]), rel=1e-6)


def test_the_diagonal_nets_and_matrix_completion_at_init():
    sparse = config.PROFILES["ci"]["sparse"]
    from grok_lib.paper_b import diagonal

    x, y, *_ = diagonal.make_data(sparse)
    u, v = diagonal.init_params(sparse)
    _, _, g, s = diagonal.gradients(u, v, x, y, sparse.weight_decay)
    bound = diagonal.smoothness_bound(u, v, g, s, float(np.linalg.eigvalsh(x @ x.T)[-1]), (x * x).sum(0),
                                      sparse.weight_decay)
    top = sharpness.diagonal_at_init(sparse)
    assert 0 < top <= bound * (1 + 1e-9)  # the step rule's bound is an upper bound on the sharpness
    mc = config.PROFILES["ci"]["matrix_completion"]
    # at U = V = alpha I an observed diagonal entry moves as 2 sqrt(2) alpha: curvature 16 alpha^2 / n_obs
    from grok_lib.paper_b.matrix_completion import observed_mask

    n_obs = int(observed_mask(mc).sum())
    assert sharpness.matrix_completion_at_init(mc) == pytest.approx(16 * mc.alpha**2 / n_obs, rel=0.05)


def test_the_stable_step_keeps_lr_times_sharpness_at_its_bound_and_stops_on_the_clock():
    c = StableModAddConfig(**{**replace(SMALL, alpha=30.0).to_dict(), "steps": 400, "stop_lambda_t": 0.2,
                              "n_log": 20})
    h = stable_gd.train(c, progress=False)
    s0 = sharpness.at_init(c)
    assert h.meta["sharpness_init"] == pytest.approx(s0, rel=1e-6)
    assert h["lr"][0] == pytest.approx(min(c.lr, c.stable_c / s0))  # the first step at the bound
    assert h.meta["max_lr_sharpness"] <= c.stable_c * (1 + 1e-12)
    assert np.all(np.diff(h["t"]) > 0) and np.all(np.diff(h.steps) > 0)
    assert c.weight_decay * h["t"][-1] >= c.stop_lambda_t or h.steps[-1] == c.steps


def test_the_stable_config_checks_its_fields():
    from grok_lib.config import ConfigError

    with pytest.raises(ConfigError, match="stable_c"):
        StableModAddConfig(stable_c=2.0)
    with pytest.raises(ConfigError, match="weight_decay"):
        StableModAddConfig(weight_decay=0.0)
