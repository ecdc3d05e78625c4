import pytest
import torch

from grok_lib.paper_a.model import ModAddMLP, pair_sum_grad_onehot, pair_sum_grad_scatter
from grok_lib.paper_a.task import make_split


def test_shapes():
    m = ModAddMLP(p=11, d_embed=6, width=9, seed=0)
    assert m.E.shape == (11, 6) and m.W.shape == (9, 6) and m.b.shape == (9,) and m.U.shape == (11, 9)
    train, _ = make_split(11, 0.5, 0)
    assert m(train.a, train.b).shape == (train.n_unordered, 11)


def test_forward_and_gradients_equal_the_per_sample_definition():
    m = ModAddMLP(p=11, d_embed=6, width=9, seed=3, dtype=torch.float64)
    train, _ = make_split(11, 0.5, 0)
    weights = torch.randn(train.n_unordered, 11, dtype=torch.float64)

    z = m.E[train.a] + m.E[train.b]  # z = E[a] + E[b]
    expected = torch.relu(z @ m.W.T + m.b) @ m.U.T  # logits = U ReLU(W z + b)
    (expected * weights).sum().backward()
    want = {k: v.grad.clone() for k, v in m.blocks().items()}
    m.zero_grad()

    got = m(train.a, train.b)
    (got * weights).sum().backward()
    assert torch.allclose(got, expected)
    for k, v in m.blocks().items():
        assert torch.allclose(v.grad, want[k]), k


def test_the_cpu_and_gpu_backward_paths_agree():
    a = torch.tensor([0, 1, 2, 2, 4])
    b = torch.tensor([3, 1, 4, 0, 4])
    g = torch.randn(5, 7, dtype=torch.float64)
    assert torch.allclose(pair_sum_grad_scatter(g, a, b, 6), pair_sum_grad_onehot(g, a, b, 6))


def test_init_is_seeded():
    a, b, c = (ModAddMLP(11, 6, 9, seed=s) for s in (0, 0, 1))
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))
    assert not torch.equal(a.E, c.E)


def test_init_schemes_differ_only_in_the_embedding_scale():
    a = ModAddMLP(113, 128, 16, seed=0, dtype=torch.float64)
    b = ModAddMLP(113, 128, 16, seed=0, dtype=torch.float64, init="scaled_embed")
    assert torch.allclose(b.E * 128**0.5, a.E, rtol=1e-12, atol=0)
    assert all(torch.equal(getattr(a, k), getattr(b, k)) for k in ("W", "b", "U"))
    assert float(a.E.norm()) == pytest.approx((113 * 128) ** 0.5, rel=0.02)
