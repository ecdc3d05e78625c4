"""Transition and fit helpers on synthetic histories with known answers."""

import math

import numpy as np
import pytest

from grok_lib.paper_b import measure as M
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter

from .synthetic import classification, crossing, regression


def test_clock_and_crossings():
    h = classification(alpha=math.e**2, lam=0.01, lr=0.1, start=0.4, end=0.8)
    assert M.clock_unit(h.cfg) == pytest.approx(200.0)
    tr = M.accuracy_transition(h)
    s, e = tr.fractions
    grid = 10 * 0.1 / 200  # the clock advances this much per recorded step
    assert s == pytest.approx(crossing(0.4, 0.8, 0.6), abs=grid) and s >= crossing(0.4, 0.8, 0.6)
    assert e == pytest.approx(crossing(0.4, 0.8, 0.9), abs=grid)
    assert tr.start.t == pytest.approx(s * 200) and tr.start.step == round(tr.start.t / 0.1)
    assert M.first_crossing(h, "test_acc", 1.5) is None


def test_time_from_steps_when_no_t():
    h = classification()
    del h.metrics["t"]
    assert np.allclose(M.continuous_time(h), h.steps * 0.1)


def test_window_fit():
    w = M.window_fit([0.5, 0.7, 0.9], [0.8, 1.2, 1.1])
    assert w.c == pytest.approx(0.5) and w.c_per_run == pytest.approx((0.5, 0.3, 0.1))
    assert w.center == pytest.approx(np.mean([0.65, 0.95, 1.0])) and w.half_width == pytest.approx(np.mean([0.15, 0.25, 0.1]))
    assert w.center_se == pytest.approx(np.std([0.65, 0.95, 1.0], ddof=1) / math.sqrt(3))
    assert math.isnan(M.window_fit([0.5], [float("nan")]).c)
    with pytest.raises(ValueError):
        M.window_fit([0.5], [0.6, 0.7])


def test_line_fit_exact_and_noisy():
    f = M.line_fit([1, 2, 3, 4], [3, 5, 7, 9])
    assert (f.slope, f.intercept) == pytest.approx((2.0, 1.0)) and f.slope_se == pytest.approx(0.0, abs=1e-12)
    rng = np.random.default_rng(0)
    x = np.linspace(0, 1, 30)
    y = 3 * x + 1 + 0.1 * rng.standard_normal(30)
    f = M.line_fit(x, y)
    (p, cov) = np.polyfit(x, y, 1, cov="unscaled")
    resid = y - np.polyval(p, x)
    se = np.sqrt(np.diag(cov) * (resid @ resid) / (30 - 2))
    assert f.slope == pytest.approx(p[0]) and f.slope_se == pytest.approx(se[0]) and f.intercept_se == pytest.approx(se[1])
    assert math.isnan(M.line_fit([0, 1], [0, 1]).slope_se)
    with pytest.raises(ValueError):
        M.line_fit([1, 1], [0, 1])


def test_slopes_recover_the_clock():
    """Transitions ending at (ln alpha - 1) / lambda: slope x lambda = 1 against ln(alpha)."""
    lam = 0.02
    runs = []
    q = (0.9 - 0.55) / (1 - 0.55)  # where on the ramp test accuracy 0.9 is crossed
    for alpha in (16.0, 128.0, 1024.0, 8192.0):
        target = (math.log(alpha) - 1) / math.log(alpha)
        runs.append(classification(alpha=alpha, lam=lam, lr=0.01, start=target - 0.2 * q, end=target + 0.2 * (1 - q),
                                   steps=80000))
    f = M.fit_vs_log_alpha(runs)
    assert f.slope * lam == pytest.approx(1.0, abs=0.02) and f.intercept * lam == pytest.approx(-1.0, abs=0.05)
    runs = [classification(alpha=128.0, lam=lam, lr=0.01, start=0.5, end=0.8, steps=100000) for lam in (0.01, 0.02, 0.04)]
    g = M.fit_vs_inverse_lambda(runs)
    expected = crossing(0.5, 0.8, 0.9) * math.log(128)
    assert g.slope == pytest.approx(expected, rel=0.01) and g.r2 > 0.999
    with pytest.raises(ValueError):
        M.fit_vs_log_alpha([classification(lam=0.01), classification(lam=0.02)])


def test_drop_transition_and_plateau():
    h = regression(drop_at=1.5)
    assert M.plateau(h) == pytest.approx(0.1)
    s, e = M.drop_transition(h).fractions
    assert s == pytest.approx(1.5 + math.log(1 / 0.9) / 3, abs=0.02) and e == pytest.approx(1.5 + math.log(10) / 3, abs=0.02)


def test_norm_deviation_and_clock_windows():
    h = classification()
    assert M.norm_deviation(h) == pytest.approx(0.0, abs=1e-12)
    h.metrics["norm"] = h["norm"] * 1.03
    assert M.norm_deviation(h) == pytest.approx(0.03)
    assert M.value_in_clock(h, "test_acc", 0.0, 0.3) == pytest.approx(0.55)
    assert math.isnan(M.value_in_clock(h, "test_acc", 50, 60))


def test_crossing_step_and_runs_by_alpha():
    h = classification(alpha=math.e**2, lam=0.01, lr=0.1, start=0.4, end=0.8)
    tr = M.accuracy_transition(h)
    assert M.crossing_step(tr.end) == float(tr.end.step)
    assert math.isnan(M.crossing_step(M.first_crossing(h, "test_acc", 1.5)))  # never crosses
    runs = [classification(alpha=a, seed=s) for a, s in ((64.0, 0), (8.0, 1), (64.0, 2), (512.0, 3))]
    assert [(h.cfg.alpha, h.cfg.data_seed) for h in sparse_chapter.by_alpha(runs)] == [(8, 1), (64, 0), (64, 2), (512, 3)]
