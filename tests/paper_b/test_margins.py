"""Max-margin classifiers on tiny separable sets with known answers."""

import math

import numpy as np
import pytest

from grok_lib.paper_b import margins as M


def test_single_point_l2_is_the_point_l1_is_its_largest_coordinate():
    x, y = np.array([[1.0, 2.0]]), np.array([1.0])
    l2, l1 = M.max_l2_margin(x, y), M.max_l1_margin(x, y)
    assert np.allclose(l2.w, [0.2, 0.4], atol=1e-6) and l2.margin == pytest.approx(math.sqrt(5), rel=1e-6)
    assert np.allclose(l1.w, [0.0, 0.5], atol=1e-9) and l1.margin == pytest.approx(2.0, rel=1e-9)


def test_symmetric_pair_and_two_axes():
    x, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    assert np.allclose(M.max_l2_margin(x, y).w, [1.0, 0.0], atol=1e-6)
    x, y = np.array([[2.0, 0.0], [0.0, 2.0]]), np.array([1.0, 1.0])
    l2, l1 = M.max_l2_margin(x, y), M.max_l1_margin(x, y)
    assert np.allclose(l2.w, [0.5, 0.5], atol=1e-6) and l2.margin == pytest.approx(math.sqrt(2), rel=1e-6)
    assert np.allclose(l1.w, [0.5, 0.5], atol=1e-9) and l1.margin == pytest.approx(1.0, rel=1e-9)


def test_two_constraints_meeting_at_a_vertex():
    x, y = np.array([[3.0, 1.0], [-1.0, -2.0]]), np.array([1.0, -1.0])
    l2, l1 = M.max_l2_margin(x, y), M.max_l1_margin(x, y)
    # L1: minimise |w1| + |w2| s.t. 3 w1 + w2 >= 1, w1 + 2 w2 >= 1 -> vertex (1/5, 2/5), norm 3/5
    assert np.allclose(l1.w, [0.2, 0.4], atol=1e-9) and l1.margin == pytest.approx(5 / 3, rel=1e-9)
    # L2: the projection of 0 on w1 + 2 w2 = 1 is (1/5, 2/5), which also meets the first constraint
    assert np.allclose(l2.w, [0.2, 0.4], atol=1e-6) and l2.margin == pytest.approx(1 / math.sqrt(0.2), rel=1e-6)


def test_kkt_and_gap_on_random_separable_data():
    rng = np.random.default_rng(0)
    x = rng.choice([-1.0, 1.0], size=(40, 120))
    y = np.where(x[:, :3].sum(axis=1) > 0, 1.0, -1.0)
    l2, l1 = M.max_l2_margin(x, y), M.max_l1_margin(x, y)
    q = y * (x @ l2.w)
    assert q.min() == pytest.approx(1.0, abs=1e-12) and abs(l2.gap) < 1e-5
    assert np.all(q >= 1 - 1e-9) and np.all(y * (x @ l1.w) >= 1 - 1e-9)
    # the L2 solution lies in the span of the support vectors (points with margin ~1)
    support = q < 1 + 1e-4
    coef, *_ = np.linalg.lstsq((y[support, None] * x[support]).T, l2.w, rcond=None)
    assert np.allclose((y[support, None] * x[support]).T @ coef, l2.w, atol=1e-6) and np.all(coef > -1e-6)
    # the L1 problem with n > k^2 log d finds the sparse teacher
    assert M.cosine(l1.w, np.r_[np.ones(3), np.zeros(117)]) > 0.999
    assert M.cosine(l2.w, np.r_[np.ones(3), np.zeros(117)]) < 0.9


def test_not_separable():
    x, y = np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, -1.0])
    with pytest.raises(M.NotSeparable):
        M.max_l1_margin(x, y)
    with pytest.raises(M.NotSeparable):
        M.max_l2_margin(x, y)


def test_accuracy_counts_zero_margin_as_half():
    x, y = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]), np.array([1.0, 1.0, 1.0])
    assert M.accuracy([1.0, 0.0], x, y) == pytest.approx((1 + 0.5 + 0) / 3)
