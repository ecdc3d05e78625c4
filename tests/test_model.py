import torch

from grok_lib.model import ModAddMLP
from grok_lib.task import make_split, pair_matrix


def test_shapes():
    m = ModAddMLP(p=11, d_embed=6, width=9, seed=0)
    assert m.E.shape == (11, 6) and m.W.shape == (9, 6) and m.b.shape == (9,) and m.U.shape == (11, 9)
    train, _ = make_split(11, 0.5, 0)
    logits = m(pair_matrix(train, 11))
    assert logits.shape == (train.n_unordered, 11)


def test_forward_equals_the_per_sample_definition():
    m = ModAddMLP(p=11, d_embed=6, width=9, seed=3, dtype=torch.float64)
    train, _ = make_split(11, 0.5, 0)
    z = m.E[train.a] + m.E[train.b]  # z = E[a] + E[b]
    expected = torch.relu(z @ m.W.T + m.b) @ m.U.T  # logits = U ReLU(W z + b)
    assert torch.allclose(m(pair_matrix(train, 11, torch.float64)), expected)


def test_init_is_seeded():
    a, b, c = (ModAddMLP(11, 6, 9, seed=s) for s in (0, 0, 1))
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))
    assert not torch.equal(a.E, c.E)
