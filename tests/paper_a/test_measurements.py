"""Paper A's metrics on inputs with known answers: Fourier spectra, reordering, polygon
regularity, the slow clock, pattern churn and the ReLU reduction."""

import math

import numpy as np
import pytest


from grok_lib.paper_a import geometry
from grok_lib.paper_a.clocks import t_rep_srank as t_rep
from grok_lib.history import History
from grok_lib.paper_a.relu_reduction import churn_rate, frozen_epoch, reduction_error
from grok_lib.paper_a.train import train

P = 31


def cosine_embedding(k, d=6, p=P, phase=0.4):
    t = 2 * np.pi * k * np.arange(p) / p + phase
    e = np.zeros((p, d))
    e[:, 2], e[:, 4] = 3 * np.cos(t), 3 * np.sin(t)
    return e


def test_spectrum_of_a_pure_cosine_embedding():
    e = cosine_embedding(5)
    power = geometry.fourier_power(e)
    assert power.shape == (P // 2 + 1,)
    assert power.sum() == pytest.approx((e**2).sum())  # Parseval
    assert power[5] == pytest.approx(power.sum())
    assert geometry.dominant_frequency(e) == 5
    assert geometry.top_frequencies(e + 0.01 * cosine_embedding(9), 2) == [5, 9]
    assert geometry.energy_fraction(e, 1) == pytest.approx(1.0)


def test_aliased_frequency_is_folded():
    # frequency p - k is the same real signal as k
    assert geometry.dominant_frequency(cosine_embedding(P - 4)) == 4


def test_reordering_is_a_relabelling():
    labels = geometry.reorder_labels(P, 7)
    assert sorted(labels.tolist()) == list(range(P))
    assert labels[1] == 7 and labels[5] == 35 % P
    with pytest.raises(ValueError, match="coprime"):
        geometry.reorder_labels(12, 4)


def test_a_clean_fourier_embedding_is_a_regular_polygon():
    e = cosine_embedding(5)
    dev = geometry.polygon_deviation(geometry.circle_projection(e, 5), 5)
    assert dev["radius_cv"] < 1e-9 and dev["angle_rms"] < 1e-9


def test_a_random_embedding_is_far_from_a_polygon():
    e = np.random.default_rng(0).normal(size=(P, 6))
    dev = geometry.polygon_deviation(geometry.circle_projection(e, 5), 5)
    assert dev["radius_cv"] > 0.2 and dev["angle_rms"] > 3


def test_slow_clock_of_a_synthetic_trace():
    steps = np.arange(0, 1501, 100)
    srank = np.array([30, 32, 34, 36, 38, 40, 39, 37, 35, 33, 31.9, 31, 30, 29, 28, 27.0])  # peak 40 at step 500
    h = History(steps=steps, metrics={"srank_E": srank}, config={})
    assert t_rep(h, "E") == 1000  # first value <= 0.8 x 40 = 32 after the peak
    assert t_rep(h, "E", fraction=0.95) == 700  # 37 <= 38
    assert math.isnan(t_rep(h, "E", fraction=0.1))


def test_churn_rate_and_frozen_epoch():
    steps = np.array([0, 1, 2, 50, 100, 150, 200])
    churn = np.array([np.nan, 0.01, 0.01, 0.02, 0.0005, 0.0002, 0.0001])
    h = History(steps=steps, metrics={"churn": churn}, config={})
    rate = churn_rate(h)
    assert math.isnan(rate[0])
    assert rate[1] == pytest.approx(0.5)  # 1% in one epoch = 50% per 50 epochs
    assert rate[3] == pytest.approx(0.02 * 50 / 48)
    assert frozen_epoch(h) == 100
    assert math.isnan(frozen_epoch(History(steps=steps, metrics={"churn": np.full(7, 0.5)}, config={})))


def test_reduced_model_is_exact_with_its_own_pattern(ci_config):
    h = train(ci_config, progress=False)
    same = reduction_error(h, 200, 200)
    assert same["bits_changed"] == 0 and same["rel_logit_error"] < 1e-12 and same["same_prediction"] == 1
    far = reduction_error(h, 0, 200)
    assert far["bits_changed"] > 0 and far["rel_logit_error"] > 0
