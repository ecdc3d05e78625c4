"""The modular-addition MLP: the gathered forward, init, split, the GD step, determinism."""

import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from grok_lib.paper_b import relu_net as MA
from grok_lib.paper_b.config import ModAddConfig, profile_config


def test_gathered_logits_equal_the_one_hot_product():
    c = ModAddConfig(p=7, width=16, alpha=3.0, zero_last=False, device="cpu")
    params = MA.init_params(c)
    with torch.no_grad():
        params["b1"].normal_()
    a, b = torch.tensor([0, 3, 6, 2]), torch.tensor([1, 3, 0, 6])
    assert torch.allclose(MA.logits(params, a, b), MA.dense_logits(params, a, b), atol=1e-5)


def test_he_init_times_alpha_and_zero_last():
    c = ModAddConfig(p=50, width=400, alpha=10.0, zero_last=True, device="cpu")
    params = MA.init_params(c)
    assert float(params["W1"].detach().std()) == pytest.approx(10 * math.sqrt(2 / 100), rel=0.05)
    assert float(params["W2"].detach().abs().max()) == 0.0 and float(params["b1"].detach().abs().max()) == 0.0
    w2 = MA.init_params(replace(c, zero_last=False))["W2"]
    assert float(w2.detach().std()) == pytest.approx(10 * math.sqrt(1 / 400), rel=0.05)


def test_split_sizes_and_labels():
    tr, te = MA.make_split(ModAddConfig(p=11, train_frac=0.4))
    assert len(tr) == round(0.4 * 121) and len(tr) + len(te) == 121
    both = np.concatenate([tr, te])
    assert np.array_equal(both[:, 2], (both[:, 0] + both[:, 1]) % 11) and len({tuple(r[:2]) for r in both}) == 121


def test_one_step_is_torch_sgd_with_weight_decay():
    c = replace(profile_config("modadd", "ci"), steps=1, n_log=2, zero_last=False)
    h = MA.train(c, progress=False)
    params = MA.init_params(c)
    tr, _ = (torch.from_numpy(r) for r in MA.make_split(c))
    opt = torch.optim.SGD(list(params.values()), lr=c.lr, weight_decay=c.weight_decay)
    torch.nn.functional.cross_entropy(MA.logits(params, tr[:, 0], tr[:, 1]), tr[:, 2]).backward()
    opt.step()
    norm = math.sqrt(sum(float((p.detach().double() ** 2).sum()) for p in params.values()))
    assert h["norm"][-1] == pytest.approx(norm, rel=1e-6)


def test_ci_run_is_deterministic():
    c = profile_config("modadd", "ci")
    a, b = MA.train(c, progress=False), MA.train(c, progress=False)
    for k in a.metrics:
        assert np.array_equal(a[k], b[k]), k
    assert a["t"][-1] == pytest.approx(c.steps * c.lr) and a.final("train_acc") > a["train_acc"][0]
