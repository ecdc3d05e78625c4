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


@pytest.mark.parametrize("p,frac", [(2, 0.5), (23, 0.3), (113, 0.3), (97, 0.4)])
def test_ordered_split_counts_every_ordered_pair_once(p, frac):
    train, test = make_split(p, frac, seed=0, split="ordered")
    assert train.n_ordered == round(frac * p * p)
    assert train.n_ordered + test.n_ordered == p * p
    for side in (train, test):
        assert torch.all(side.a <= side.b) and torch.all(side.count >= 1)
        assert torch.all(side.count <= torch.where(side.a == side.b, 1, 2))
        assert torch.allclose(side.weight, side.count.double() / side.count.sum(), rtol=0, atol=1e-15)
    # a row on both sides is a mirror pair: one ordered pair trains, the other tests
    both = _pairs(train) & _pairs(test)
    assert all(a != b for a, b in both)


def test_ordered_split_leaks_mirrors_as_the_arithmetic_says():
    """At p = 113 and 0.3 of the ordered pairs, the training set covers 1 - 0.7^2 = 51% of the
    unordered pairs and about 30% of the test pairs are mirrors of training pairs."""
    p = 113
    train, test = make_split(p, 0.3, seed=0, split="ordered")
    assert train.n_unordered / (p * (p + 1) // 2) == pytest.approx(1 - 0.7**2, abs=0.01)
    seen = _pairs(train)
    leaked = sum(c for a, b, c in zip(test.a.tolist(), test.b.tolist(), test.count.tolist()) if (a, b) in seen)
    assert leaked / test.n_ordered == pytest.approx(0.3, abs=0.01)


def test_unknown_split():
    with pytest.raises(ConfigError, match=r"^split must be one of unordered, ordered, got 'mirror'"):
        make_split(11, 0.5, 0, split="mirror")
