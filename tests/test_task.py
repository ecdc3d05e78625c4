import numpy as np
import pytest
import torch

from grok_lib.config import ConfigError
from grok_lib.paper_a.task import make_split, unordered_pairs


def _pairs(split):
    return set(zip(split.a.tolist(), split.b.tolist()))


@pytest.mark.parametrize("p,frac", [(2, 0.5), (23, 0.3), (113, 0.5), (97, 0.4)])
def test_split_sizes_disjoint_and_complete(p, frac):
    train, test = make_split(p, frac, seed=0)
    n = p * (p + 1) // 2
    assert train.n_unordered == round(frac * n)
    assert train.n_unordered + test.n_unordered == n
    assert not _pairs(train) & _pairs(test)
    assert _pairs(train) | _pairs(test) == set(map(tuple, unordered_pairs(p).tolist()))
    # every ordered pair is counted exactly once across the two sides
    assert train.n_ordered + test.n_ordered == p * p


def test_split_is_deterministic_per_seed():
    a1, _ = make_split(31, 0.3, seed=7)
    a2, _ = make_split(31, 0.3, seed=7)
    b, _ = make_split(31, 0.3, seed=8)
    assert torch.equal(a1.a, a2.a) and torch.equal(a1.b, a2.b)
    assert _pairs(a1) != _pairs(b)


def test_labels_and_weights():
    train, test = make_split(17, 0.4, seed=0)
    for side in (train, test):
        assert torch.equal(side.y, (side.a + side.b) % 17)
        assert torch.all(side.a <= side.b)
        assert side.weight.sum().item() == pytest.approx(1.0)
        # a weighted mean over unordered pairs is the plain mean over ordered ones
        ratio = side.weight / side.weight.min()
        assert set(ratio.round().tolist()) <= {1.0, 2.0}


@pytest.mark.parametrize("p", [1, 0, -3, 2.5, "7", True])
def test_bad_modulus(p):
    with pytest.raises(ConfigError, match=r"^p must be an integer >= 2"):
        make_split(p, 0.5, 0)


@pytest.mark.parametrize("frac", [0.0, 1.0, -0.1, 1.5])
def test_bad_fraction(frac):
    with pytest.raises(ConfigError, match=r"^train_frac must be a number in \(0, 1\)"):
        make_split(11, frac, 0)


def test_fraction_that_empties_a_side():
    with pytest.raises(ConfigError, match="train_frac=0.01 leaves an empty side"):
        make_split(3, 0.01, 0)
