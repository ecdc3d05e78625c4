"""Paper C's closed forms: Marchenko-Pastur, accuracy laws, the exact dynamics, the formulas' limits."""

import math

import numpy as np
import pytest
from scipy import integrate

from grok_lib.paper_c import theory as th

LAMS = (0.1, 0.5, 0.9, 1.5, 3.0)


@pytest.mark.parametrize("lam", LAMS)
def test_mp_law_has_mass_one_mean_one_variance_lambda(lam):
    assert th.mp_expectation(lambda nu: 1.0, lam) == pytest.approx(1.0, abs=1e-9)
    mean = th.mp_expectation(lambda nu: nu, lam)
    assert mean == pytest.approx(1.0, abs=1e-9)
    assert th.mp_expectation(lambda nu: nu * nu, lam) - mean**2 == pytest.approx(lam, abs=1e-8)


@pytest.mark.parametrize("lam", LAMS)
def test_mp_density_integrates_to_the_bulk_mass_and_the_atom_carries_the_rest(lam):
    lo, hi = th.mp_edges(lam)
    # straight in nu (not the library's substitution): an independent check of the density's normalisation
    bulk, _ = integrate.quad(lambda nu: float(th.mp_density(nu, lam)), lo, hi, limit=200, epsabs=1e-12)
    assert bulk == pytest.approx(min(1.0, 1.0 / lam), abs=1e-7)
    assert bulk + th.mp_atom(lam) == pytest.approx(1.0, abs=1e-7)
    assert th.mp_atom(lam) == (pytest.approx(1 - 1 / lam) if lam > 1 else 0.0)
    assert th.mp_density([lo / 2 if lo > 0 else -1.0, hi * 1.01], lam).tolist() == [0.0, 0.0]


def test_mp_expectations_match_a_large_sample_spectrum():
    d, lam, eta = 800, 0.5, 0.01
    rng = np.random.default_rng(0)
    x = rng.standard_normal((round(d / lam), d))
    s = np.linalg.eigvalsh(x.T @ x / x.shape[0])
    t = np.array([0.0, 50.0, 200.0])
    tr, gen = th.mp_losses(t, lam, eta)
    emp_gen = np.exp(-4 * eta * np.outer(t, s)).mean(axis=1)
    emp_tr = (s * np.exp(-4 * eta * np.outer(t, s))).mean(axis=1)
    np.testing.assert_allclose(gen, emp_gen, rtol=0.02)
    np.testing.assert_allclose(tr, emp_tr, rtol=0.02)


def test_mp_losses_start_at_l0_and_plateau_at_the_atom_for_lambda_above_one():
    tr, gen = th.mp_losses([0.0, 1e7], 1.5, 0.01, l0=2.0)
    assert tr[0] == pytest.approx(2.0) and gen[0] == pytest.approx(2.0)
    assert tr[1] == pytest.approx(0.0, abs=1e-12)
    assert gen[1] == pytest.approx(2.0 * (1 - 1 / 1.5), rel=1e-9)


def test_mp_losses_discrete_and_continuous_agree_for_small_steps():
    t = np.array([10.0, 100.0])
    c = th.mp_losses(t, 0.5, 1e-4)
    dsc = th.mp_losses(t, 0.5, 1e-4, discrete=True)
    np.testing.assert_allclose(c, dsc, rtol=1e-4)  # they differ by O(t eta^2 nu^2)


@pytest.mark.parametrize("loss,eps", [(1e-3, 1e-3), (2.5e-4, 1e-3), (1e-2, 1e-3)])
def test_erf_accuracy_matches_monte_carlo(loss, eps):
    rng = np.random.default_rng(1)
    n = 400_000
    e = rng.normal(0.0, math.sqrt(loss), n)
    mc = np.mean(e**2 <= eps)
    a = float(th.accuracy_erf(loss, eps))
    assert abs(mc - a) < 5 * math.sqrt(a * (1 - a) / n) + 1e-12


@pytest.mark.parametrize("d_out", [1, 3, 10, 50])
def test_incomplete_gamma_accuracy_matches_monte_carlo(d_out):
    # per-coordinate variance L = (1/d_out) ||D||^2: the squared error is L times a chi-square(d_out)
    rng = np.random.default_rng(2)
    eps, n = 1e-3, 100_000
    loss = eps / d_out  # puts the accuracy in its middle range for every d_out
    e = rng.normal(0.0, math.sqrt(loss), (n, d_out))
    mc = np.mean((e**2).sum(axis=1) <= eps)
    a = float(th.accuracy_gamma(loss, eps, d_out))
    assert 0.05 < a < 0.95
    assert abs(mc - a) < 5 * math.sqrt(a * (1 - a) / n)
    assert float(th.accuracy(loss, eps, d_out)) == a


def test_gamma_form_reduces_to_erf_and_inverts():
    losses = np.geomspace(1e-6, 1, 20)
    np.testing.assert_allclose(th.accuracy_gamma(losses, 1e-3, 1), th.accuracy_erf(losses, 1e-3), rtol=1e-12)
    assert th.GROK_ACC == pytest.approx(math.erf(math.sqrt(2)))
    assert th.loss_at_accuracy(th.GROK_ACC, 1e-3) == pytest.approx(1e-3 / 4)
    for d_out in (1, 5, 50):
        level = th.loss_at_accuracy(0.9, 1e-4, d_out)
        assert float(th.accuracy(level, 1e-4, d_out)) == pytest.approx(0.9)
    assert float(th.accuracy_erf(0.0, 1e-3)) == 1.0


def test_grok_time_formula_limits():
    eta = 0.01
    # lambda -> 0: ln(1/(1 - sqrt l)) ~ sqrt l, so Delta t ~ sqrt(lambda) / (2 eta) -> 0
    for lam in (1e-4, 1e-6, 1e-8):  # relative correction 5 sqrt(lambda) / 2
        assert th.grok_time_formula(lam, eta) == pytest.approx(math.sqrt(lam) / (2 * eta), rel=3 * math.sqrt(lam))
    # lambda -> 1: diverges like ln(1/(1 - sqrt l)) / (2 eta (1 - sqrt l)^2)
    values = [th.grok_time_formula(lam, eta) for lam in (0.5, 0.9, 0.99, 0.999, 0.9999)]
    assert all(b > a for a, b in zip(values, values[1:]))
    assert values[-1] > 1e10
    assert th.grok_time_formula(1.0, eta) == math.inf and th.grok_time_formula(1.5, eta) == math.inf
    # eta -> eta / d_out
    assert th.grok_time_formula(0.5, eta, d_out=7) == pytest.approx(7 * th.grok_time_formula(0.5, eta))
    assert th.grok_time_formula(0.9, 0.01) == pytest.approx(math.log(1 / (1 - math.sqrt(0.9)))
                                                           / (2 * 0.01 * (1 - math.sqrt(0.9)) ** 2))


def test_mp_grok_time_approaches_the_formula_as_eps_shrinks():
    lam, eta = 0.5, 0.01
    ratios = [th.mp_grok_time(lam, eta, eps) / th.grok_time_formula(lam, eta) for eps in (1e-3, 1e-8, 1e-16)]
    assert ratios[0] < ratios[1] < ratios[2] < 1.05


def test_learning_rate_rescalings():
    assert th.lr_single_output(0.01, 5) == pytest.approx(0.002)
    assert th.lr_two_layer_single_output(0.5, 5) == pytest.approx(0.5 / 50)
    # the linear d_out model with the two-layer-equivalent rate has the same single-output rate
    as_linear = th.lr_two_layer_as_linear(0.5, 5)
    assert th.lr_single_output(as_linear, 5) == pytest.approx(th.lr_two_layer_single_output(0.5, 5))


def _small_problem(d=30, n=50, d_out=2, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    s, v = np.linalg.eigh(x.T @ x / n)
    return rng, x, s, v


def test_decay_factors_are_gd_powers_and_gradient_flow_exponentials():
    s = np.array([0.0, 0.3, 1.0, 2.5])
    phi = th.decay_factors(s, [0, 1, 7, np.inf], eta=0.1, gamma=0.05, d_out=2, discrete=True)
    a = 1 - 0.1 * (2 * s / 2 + 0.05)
    np.testing.assert_allclose(phi[:, 2], a**7, rtol=1e-13)
    assert phi[:, 0].tolist() == [1.0] * 4 and phi[:, 3].tolist() == [0.0] * 4
    flow = th.decay_factors(s, [7.0], eta=0.1, gamma=0.05, d_out=2, discrete=False)
    np.testing.assert_allclose(flow[:, 0], np.exp(-0.1 * (s + 0.05) * 7), rtol=1e-13)
    still = th.decay_factors(np.array([0.0]), [np.inf], eta=0.1)  # a null mode without decay never moves
    assert still[0, 0] == 1.0
    with pytest.raises(FloatingPointError):
        th.decay_factors(np.array([30.0]), [1], eta=0.1, discrete=True)


def test_exact_losses_match_the_state_and_the_paper_form():
    rng, x, s, v = _small_problem(d_out=1)
    d0 = rng.standard_normal((30, 1)) / 6
    d0_t = v.T @ d0
    t = np.array([0.0, 3.0, 40.0])
    tr, gen = th.exact_losses(t, s, d0_t, eta=0.05)
    sigma = x.T @ x / x.shape[0]
    for i, ti in enumerate(t):  # the paper's D0^T e^{-4 eta Sigma t} (Sigma) D0
        e = v @ np.diag(np.exp(-4 * 0.05 * s * ti)) @ v.T
        assert gen[i] == pytest.approx((d0.T @ e @ d0).item(), rel=1e-10)
        assert tr[i] == pytest.approx((d0.T @ e @ sigma @ d0).item(), rel=1e-10)
    state = th.exact_state(3.0, s, d0_t, np.zeros_like(d0_t), np.zeros_like(d0_t), eta=0.05, discrete=False)
    assert float((state**2).sum()) == pytest.approx(gen[1], rel=1e-12)


def test_weight_decay_fixed_point_is_the_ridge_solution():
    rng, x, s, v = _small_problem(d=30, n=60, d_out=2)
    teacher = rng.standard_normal((30, 2)) / math.sqrt(2 * 30 * 2)
    gamma, d_out = 0.03, 2
    sigma = x.T @ x / x.shape[0]
    d_inf = -gamma * np.linalg.solve(2 * sigma / d_out + gamma * np.eye(30), teacher)
    tr, gen = th.wd_fixed_point(s, v.T @ teacher, gamma, d_out)
    assert gen == pytest.approx(float((d_inf**2).sum()) / d_out, rel=1e-10)
    assert tr == pytest.approx(float(np.trace(d_inf.T @ sigma @ d_inf)) / d_out, rel=1e-10)


def test_weight_decay_limits_paper_and_book_convention():
    tr, gen = th.wd_limits_paper(0.5, 0.01)
    assert tr == pytest.approx(1e-4 / 2) and gen == pytest.approx(1e-4 / 0.5)
    # the book's small-gamma limit equals the paper's at d_out ||T||^2 = 1 and is half of it at E||T||^2 = 1/2
    assert th.wd_limits_mp(0.5, 0.01, d_out=1, teacher_sq=1.0) == pytest.approx((tr, gen))
    assert th.wd_limits_mp(0.5, 0.01) == pytest.approx((tr / 2, gen / 2))


def test_label_noise_predictions():
    np.testing.assert_allclose(th.noise_train_loss([1e-3, 1e-5], 0.01), [1e-3 + 1e-4, 1e-5 + 1e-4])
    assert th.noise_fit_limits(0.5, 0.1) == pytest.approx((0.005, 0.01))
    lam = th.noise_tuning_lam_max()
    assert lam / (1 - lam) == pytest.approx(1 - lam)  # the two floors coincide there
    sigma = th.noise_for_simultaneous_crossing(0.5, 0.01, 1e-3)
    assert 0 < sigma**2 < 1e-3 / 4
