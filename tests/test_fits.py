"""Fits and the deep-linear clocks, on synthetic curves with known slopes and exponents."""

import math
from types import SimpleNamespace

import numpy as np
import pytest


from grok_lib.paper_a.dln import clocks as dc
from grok_lib.fits import linear_fit, power_law_fit, theta_from_gap_exponent, theta_from_trep_exponent
from grok_lib.history import History


def test_linear_fit_recovers_an_exact_line():
    f = linear_fit([0, 1, 2, 3], [1, 3, 5, 7])
    assert (f.slope, f.intercept, f.r2) == pytest.approx((2, 1, 1))
    assert f.slope_se == pytest.approx(0, abs=1e-12)


def test_linear_fit_uncertainty_covers_the_true_slope():
    rng = np.random.default_rng(0)
    x = np.linspace(0, 10, 200)
    misses = 0
    for _ in range(200):
        f = linear_fit(x, 0.7 * x + rng.normal(scale=0.5, size=x.size))
        misses += abs(f.slope - 0.7) > 2 * f.slope_se
    assert 2 <= misses <= 20  # about 5% outside two standard errors


def test_power_law_fit_recovers_the_exponent_and_ignores_non_positive_points():
    x = np.geomspace(1, 1e4, 20)
    f = power_law_fit(np.append(x, -1), np.append(3 * x**-1.5, 5))
    assert f.slope == pytest.approx(-1.5) and f.r2 == pytest.approx(1) and f.n == 20


def test_fits_need_two_distinct_points():
    with pytest.raises(ValueError, match="at least two distinct"):
        linear_fit([1, 1], [2, 3])


def test_kl_exponent_conversions():
    assert theta_from_trep_exponent(0.5) == pytest.approx(0.75)  # T_rep ~ eta^-(2 theta - 1)
    assert theta_from_gap_exponent(-2.0) == pytest.approx(0.75)  # Delta ~ t^-(1 / (2 theta - 1))


def history(steps, config=None, meta=None, **metrics):
    config = {"depth": 2, "optimizer": "gd", "weight_decay": 1e-3, "lr": 0.2, "n_classes": 5} | (config or {})
    return History(steps=np.asarray(steps, dtype=np.int64), metrics={k: np.asarray(v, float) for k, v in metrics.items()},
                   config=config, meta=meta or {})


T = np.arange(0, 20001, 10)


def test_margin_growth_tells_a_line_from_a_logarithm():
    lin = dc.margin_growth(history(T, margin=-1 + 0.01 * T, train_loss=np.exp(-0.01 * T)))
    assert lin["t0"] == 110 and lin["linear"].slope == pytest.approx(0.01) and lin["linear"].r2 == pytest.approx(1)
    assert lin["nu_hold"] == pytest.approx(0.01)
    log = dc.margin_growth(history(T, margin=np.log1p(T / 10.0) - 1, train_loss=1 / (1 + T)))
    assert log["log"].r2 > 0.99 > log["linear"].r2


def test_fast_clock_of_an_exponential_loss_is_logarithmic():
    h = history(T, train_loss=2 * np.exp(-T / 500.0), margin=T / 500.0)
    f = dc.fast_clock_fits(h)
    assert f["log"].r2 > 0.999 and f["log"].slope == pytest.approx(500, rel=0.02)
    assert f["log"].r2 > f["power"].r2


def test_slow_clock_reads_the_exponent_of_a_power_law_gap():
    steps = np.unique(np.geomspace(1, 1e7, 2000).astype(np.int64))
    h = history(steps, energy=1.0 + (steps / 10.0) ** -2.0, meta={"energy_min": 1.0})
    s = dc.slow_clock_fits(h)
    assert s["power"].slope == pytest.approx(0.5, rel=0.02)  # T_rep ~ (1/eta)^(1/2)
    assert s["theta"] == pytest.approx(0.75, abs=0.01)
    assert s["power"].r2 > s["log"].r2


def test_slow_clock_of_an_exponential_gap_and_its_predicted_rate():
    t = np.arange(0, 60001, 10)
    h = history(t, energy=0.5 + np.exp(-4e-4 * t), meta={"energy_min": 0.5})
    s = dc.slow_clock_fits(h)
    assert s["log"].r2 > s["power"].r2
    assert -dc.tail_rate(h).slope == pytest.approx(4e-4, rel=1e-6)
    assert dc.predicted_tail_rate(SimpleNamespace(depth=2, weight_decay=1e-3, lr=0.2)) == pytest.approx(4e-4)


def test_t_rep_is_when_the_gap_stays_below():
    h = history([0, 1, 2, 3, 4], energy=[1.0, 0.1, 0.5, 0.05, 0.01], meta={"energy_min": 0.0})
    assert dc.t_rep_gap(h, 0.2) == 3  # crosses at 1, comes back above at 2
    assert dc.t_rep_gap(h, 1e-3) != dc.t_rep_gap(h, 1e-3)  # never: NaN
    assert dc.t_rep_gap(h, 2.0) == 0


def test_theorem35_bound_only_on_its_window():
    b = dc.theorem35_bound([0, 10, 20, 30], t0=10, gamma0=1.0, nu=0.1, n_classes=3, t_end=20)
    assert math.isnan(b[0]) and math.isnan(b[3])
    assert b[1] == pytest.approx(2 * math.exp(-1)) and b[2] == pytest.approx(2 * math.exp(-2))
