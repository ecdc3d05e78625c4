"""Paper C's closed forms, all in one module (Levi, Beck & Bar-Sinai, ICLR 2024).

Setting and conventions (the book's, stated once):

- inputs x ~ N(0, I_{d_in}); teacher y = T^T x; student S (d_in x d_out); D = S - T;
  N_tr training samples, lambda = d_in / N_tr; Sigma = X^T X / N_tr, the *sample* covariance.
- losses (paper): L_tr = (1/d_out) Tr[D^T Sigma D], L_gen = (1/d_out) ||D||_F^2.
- one GD step with learning rate eta and weight decay gamma is
  S <- S - eta * (grad L_tr + gamma * S), i.e. the L2 penalty (gamma/2) ||S||^2 (PyTorch's
  ``weight_decay``). In D and in the eigenbasis V of Sigma (Sigma = V diag(s) V^T), every mode
  evolves on its own:

      D~_{t+1} = (1 - eta * Lambda_i) D~_t + eta * b_i,   Lambda_i = 2 s_i / d_out + gamma,
      b = -gamma T~ + (2/d_out) h~,   h = X^T Xi / N_tr   (Xi: training label noise),

  so D~_t = phi_i(t) D~_0 + (1 - phi_i(t)) / Lambda_i * b_i, with
  phi_i(t) = (1 - eta Lambda_i)^t for discrete GD and phi_i(t) = exp(-eta Lambda_i t) for
  gradient flow. **The paper's theory is the gradient-flow one**: D(t) = e^{-2 eta Sigma t} D_0
  (d_out = 1, gamma = 0), with t the step count; its simulations are discrete GD. Both are here
  (``discrete=``); at eta = 0.01 they differ by O(eta * s) in the rates.
- accuracy: a sample is correct when its squared error ||S^T x - y||^2 <= eps.

Functions take plain numbers and arrays; integrals and special functions are scipy's.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import integrate, optimize, special

#: The accuracy at which the paper reads its grokking times: both losses at eps/4 give
#: erf(sqrt(eps / (2 eps/4))) = erf(sqrt 2) ~ 0.9545 for d_out = 1.
GROK_ACC = float(special.erf(math.sqrt(2.0)))


# --- learning-rate rescalings ----------------------------------------------------------------
def lr_single_output(eta: float, d_out: int) -> float:
    """eta -> eta / d_out: a d_out-output linear student moves like a single-output one with this rate
    (the 1/d_out of L = (1/d_out) Tr[...] divides the gradient)."""
    return eta / d_out


def lr_two_layer_single_output(eta: float, d_out: int) -> float:
    """eta -> eta / (2 d_out^2): the paper's single-output rate for a two-layer linear net S = W1 W2.

    It follows from dD/dt = -(2 eta / d_out) [Sigma D W2^T W2 + W1 W1^T Sigma D] when the
    first term dominates and W2^T W2 ~ I / (2 d_out), which is what the paper's initialisation
    N(0, 1/(2 fan_in fan_out)) gives each layer (our reading).
    """
    return eta / (2 * d_out**2)


def lr_two_layer_as_linear(eta: float, d_out: int) -> float:
    """The learning rate of the d_out-output *linear* student that the rescaling
    eta -> eta / (2 d_out^2) maps a two-layer net with rate eta onto: eta / (2 d_out)."""
    return eta / (2 * d_out)


# --- exact dynamics from the sample covariance's eigendecomposition ----------------------------
def mode_rates(s, gamma: float = 0.0, d_out: int = 1) -> np.ndarray:
    """Lambda_i = 2 s_i / d_out + gamma: mode i's rate per unit of eta (see the module docstring)."""
    return 2.0 * np.asarray(s, dtype=np.float64) / d_out + gamma


def decay_factors(s, t, eta: float, gamma: float = 0.0, d_out: int = 1, discrete: bool = False) -> np.ndarray:
    """phi_i(t) for every mode i (rows) and time t (columns).

    discrete: (1 - eta Lambda_i)^t, GD's exact power, computed as exp(t log1p(-eta Lambda_i))
    so that rates near 0 keep their digits; continuous (the paper): exp(-eta Lambda_i t).
    ``t`` may be np.inf (the fixed point).
    """
    r = eta * mode_rates(s, gamma, d_out)[:, None]
    t = np.atleast_1d(np.asarray(t, dtype=np.float64))[None, :]
    with np.errstate(invalid="ignore", over="ignore"):
        if discrete:
            if np.any(r >= 2):
                raise FloatingPointError(f"GD diverges: eta * Lambda_max = {r.max():.3g} >= 2")
            small = r < 1
            log_a = np.log1p(-np.where(small, r, 0.0))
            phi = np.where(small, np.exp(t * log_a), np.power(np.where(small, 0.5, 1.0 - r), t))
        else:
            phi = np.exp(-r * t)
    return np.where(r == 0, 1.0, phi)  # a mode with no rate does not move (inf * 0 is not nan)


def forcing_factors(s, phi, gamma: float = 0.0, d_out: int = 1) -> np.ndarray:
    """(1 - phi_i(t)) / Lambda_i: how much of the forcing b_i mode i has integrated by time t.

    Modes with Lambda_i = 0 (null directions of Sigma with gamma = 0) get 0: their forcing
    b_i vanishes exactly there (h lies in the row space of X, and gamma T~ = 0).
    """
    lam_i = mode_rates(s, gamma, d_out)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(lam_i > 0, (1.0 - phi) / np.where(lam_i > 0, lam_i, 1.0), 0.0)


def forcing(teacher_t, h_t, gamma: float = 0.0, d_out: int = 1) -> np.ndarray:
    """b = -gamma T~ + (2/d_out) h~ (per mode, d_in x d_out), the constant drive of D~."""
    return -gamma * np.asarray(teacher_t) + (2.0 / d_out) * np.asarray(h_t)


def exact_state(t: float, s, d0_t, teacher_t, h_t, eta: float, gamma: float = 0.0, d_out: int = 1,
                discrete: bool = True) -> np.ndarray:
    """D~_t = phi(t) D~_0 + (1 - phi(t)) / Lambda * b at one time t, in the eigenbasis (d_in x d_out).

    ``d0_t`` = V^T D_0, ``teacher_t`` = V^T T, ``h_t`` = V^T X^T Xi / N_tr (zeros without label noise).
    """
    phi = decay_factors(s, [t], eta, gamma, d_out, discrete)
    g = forcing_factors(s, phi, gamma, d_out)
    return phi * d0_t + g * forcing(teacher_t, h_t, gamma, d_out)


def exact_losses(t, s, d0_t, teacher_t=None, h_t=None, noise_sq: float = 0.0, eta: float = 0.01,
                 gamma: float = 0.0, d_out: int = 1, discrete: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(L_tr(t), L_gen(t)) of the exact dynamics, for an array of times.

    L_gen = (1/d_out) sum_i ||D~_i||^2 and, with label noise Xi on the training labels,
    L_tr = (1/d_out) [sum_i s_i ||D~_i||^2 - 2 sum_i <D~_i, h~_i> + ||Xi||^2 / N_tr].
    For d_out = 1, gamma = 0 and no noise these are the paper's
    L_tr = D_0^T e^{-4 eta Sigma t} Sigma D_0 and L_gen = D_0^T e^{-4 eta Sigma t} D_0 (continuous).
    """
    s = np.asarray(s, dtype=np.float64)
    d0_t = np.asarray(d0_t, dtype=np.float64).reshape(len(s), -1)
    teacher_t = np.zeros_like(d0_t) if teacher_t is None else np.asarray(teacher_t).reshape(d0_t.shape)
    h_t = np.zeros_like(d0_t) if h_t is None else np.asarray(h_t).reshape(d0_t.shape)
    b = forcing(teacher_t, h_t, gamma, d_out)
    phi = decay_factors(s, t, eta, gamma, d_out, discrete)
    g = forcing_factors(s, phi, gamma, d_out)
    # ||phi d0 + g b||^2 per mode, from the per-mode overlaps (no d_in x d_out x n_t array)
    dd, db, bb = (d0_t**2).sum(1)[:, None], (d0_t * b).sum(1)[:, None], (b**2).sum(1)[:, None]
    sq = phi**2 * dd + 2 * phi * g * db + g**2 * bb
    dh, bh = (d0_t * h_t).sum(1)[:, None], (b * h_t).sum(1)[:, None]
    gen = sq.sum(0) / d_out
    train = ((s[:, None] * sq).sum(0) - 2 * (phi * dh + g * bh).sum(0) + noise_sq) / d_out
    return train, gen


# --- Marchenko-Pastur ----------------------------------------------------------------------
def mp_edges(lam: float) -> tuple[float, float]:
    """(lambda_min, lambda_max) = ((1 - sqrt lambda)^2, (1 + sqrt lambda)^2), the support of the bulk."""
    return (1 - math.sqrt(lam)) ** 2, (1 + math.sqrt(lam)) ** 2


def mp_atom(lam: float) -> float:
    """The mass 1 - 1/lambda of the MP law at nu = 0 (lambda > 1: rank N_tr < d_in); 0 otherwise."""
    return max(0.0, 1.0 - 1.0 / lam)


def mp_density(nu, lam: float) -> np.ndarray:
    """The bulk density sqrt((lambda_max - nu)(nu - lambda_min)) / (2 pi lambda nu) on [lambda_min, lambda_max]
    (it integrates to min(1, 1/lambda); :func:`mp_atom` carries the rest)."""
    lo, hi = mp_edges(lam)
    nu = np.asarray(nu, dtype=np.float64)
    inside = (nu > lo) & (nu < hi)
    safe = np.where(inside, nu, 1.0)
    return np.where(inside, np.sqrt(np.clip((hi - safe) * (safe - lo), 0, None)) / (2 * math.pi * lam * safe), 0.0)


def mp_bulk_expectation(f, lam: float) -> float:
    """The integral of f(nu) against the bulk density (the atom left out), by scipy.integrate.quad.

    It is taken in nu = 1 + lambda - 2 sqrt(lambda) cos(theta), theta in [0, pi], which removes
    the square-root edges: the integrand becomes f(nu) (2 sqrt(lambda) sin theta)^2 / (2 pi lambda nu).
    """
    lo, hi = mp_edges(lam)
    mid, rad = (lo + hi) / 2, (hi - lo) / 2

    def integrand(theta):
        nu = mid - rad * math.cos(theta)
        return f(nu) * (rad * math.sin(theta)) ** 2 / (2 * math.pi * lam * nu) if nu > 0 else 0.0

    value, _ = integrate.quad(integrand, 0.0, math.pi, epsabs=0.0, epsrel=1e-9, limit=200)
    return value


def mp_expectation(f, lam: float) -> float:
    """E_MP[f(nu)] = bulk integral + (1 - 1/lambda) f(0) for lambda > 1."""
    return mp_bulk_expectation(f, lam) + (mp_atom(lam) * f(0.0) if lam > 1 else 0.0)


def mp_losses(t, lam: float, eta: float, d_out: int = 1, l0: float = 1.0,
              discrete: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(L_tr(t), L_gen(t)) in the MP approximation, gamma = 0 and no label noise:

        L_tr ~ l0 E_MP[nu e^{-4 eta' nu t}],   L_gen ~ l0 E_MP[e^{-4 eta' nu t}],   eta' = eta / d_out,

    l0 = L_gen(0) (1 for the paper's initialisation with d_out = 1; 1/d_out in general). With
    ``discrete`` the factor is (1 - 2 eta' nu)^{2t}. For lambda > 1 the atom keeps
    L_gen >= l0 (1 - 1/lambda): the generalisation plateau.
    """
    lo = mp_edges(lam)[0]
    eta1 = lr_single_output(eta, d_out)
    atom = mp_atom(lam)
    out_tr, out_gen = [], []
    for ti in np.atleast_1d(np.asarray(t, dtype=np.float64)):
        if discrete:
            shift = 1.0

            def w(nu, ti=ti):
                return (1 - 2 * eta1 * nu) ** (2 * ti)
        else:
            c = 4 * eta1 * ti
            shift = math.exp(-c * lo)  # e^{-c lambda_-} pulled out, so the integrand stays O(1) at long times

            def w(nu, c=c):
                return math.exp(-c * (nu - lo))
        out_gen.append(l0 * (shift * mp_bulk_expectation(w, lam) + atom))
        out_tr.append(l0 * shift * mp_bulk_expectation(lambda nu: nu * w(nu), lam))
    return np.asarray(out_tr), np.asarray(out_gen)


# --- accuracy --------------------------------------------------------------------------------
def accuracy_erf(loss, eps: float) -> np.ndarray:
    """d_out = 1: A = P(e^2 <= eps) for e ~ N(0, L) is erf(sqrt(eps / (2 L)))."""
    loss = np.asarray(loss, dtype=np.float64)
    with np.errstate(divide="ignore", over="ignore"):
        return special.erf(np.sqrt(eps / (2 * loss)))


def accuracy_gamma(loss, eps: float, d_out: int) -> np.ndarray:
    """d_out >= 1: A = P(||e||^2 <= eps) for an error vector with d_out independent N(0, L) coordinates
    (L = (1/d_out) ||D||^2, each coordinate's variance when D^T D is isotropic). ||e||^2 / L is
    chi-square with d_out degrees of freedom, so A = P(d_out/2, eps / (2 L)), the regularised lower
    incomplete gamma function; d_out = 1 gives :func:`accuracy_erf`."""
    loss = np.asarray(loss, dtype=np.float64)
    with np.errstate(divide="ignore", over="ignore"):
        return special.gammainc(d_out / 2, eps / (2 * loss))


def accuracy(loss, eps: float, d_out: int = 1) -> np.ndarray:
    """The threshold accuracy of a Gaussian error of per-coordinate variance ``loss`` (erf or gamma form)."""
    return accuracy_erf(loss, eps) if d_out == 1 else accuracy_gamma(loss, eps, d_out)


def loss_at_accuracy(acc: float, eps: float, d_out: int = 1) -> float:
    """The loss L at which :func:`accuracy_gamma` equals ``acc``: eps / (2 P^{-1}(d_out/2, acc)).
    At acc = GROK_ACC and d_out = 1 this is eps / 4, the paper's grokking level."""
    return eps / (2 * float(special.gammaincinv(d_out / 2, acc)))


# --- grokking time -------------------------------------------------------------------------
def grok_time_formula(lam: float, eta: float, d_out: int = 1) -> float:
    """The paper's grokking time, lambda < 1 (np.inf for lambda >= 1):

        Delta t_grok ~ ln(1 / (1 - sqrt lambda)) / (2 eta' (1 - sqrt lambda)^2),   eta' = eta / d_out.

    It is asymptotic: at late times both losses decay like e^{-4 eta' lambda_min t} with
    L_tr / L_gen -> lambda_min = (1 - sqrt lambda)^2, so L_gen needs ln(1/lambda_min) / (4 eta' lambda_min)
    more steps than L_tr to reach the same level. It holds as eps -> 0 (both crossings in the
    edge-dominated tail) and gets worse as lambda -> 1 (the tail starts later).
    """
    if lam >= 1:
        return math.inf
    edge = 1 - math.sqrt(lam)
    return math.log(1 / edge) / (2 * lr_single_output(eta, d_out) * edge**2)


def first_crossing(loss_fn, level: float, grid, values=None) -> float:
    """The first t on ``grid``'s range with loss_fn(t) <= level (continuous time; nan if none).

    The first grid bracket where the loss falls to ``level`` (``values`` = loss_fn on the grid,
    if already known) is refined by scipy.optimize.brentq on the log loss.
    """
    grid = np.asarray(grid, dtype=np.float64)
    values = np.array([loss_fn(t) for t in grid]) if values is None else np.asarray(values)
    below = np.nonzero(values <= level)[0]
    if len(below) == 0:
        return math.nan
    i = below[0]
    if i == 0:
        return float(grid[0])
    return optimize.brentq(lambda t: math.log(max(loss_fn(t), 1e-300)) - math.log(level), grid[i - 1], grid[i],
                           xtol=1e-9, rtol=1e-12)


def crossing_grid(t_max: float, n: int = 80) -> np.ndarray:
    """0 and ``n`` log-spaced times up to ``t_max``: where crossings are bracketed."""
    return np.concatenate([[0.0], np.geomspace(1e-2, t_max, n)])


def crossing_times(losses_fn, levels, t_max: float) -> list[tuple[float, float]]:
    """[(t_train, t_test)] per level: when L_tr and L_gen first fall to it. ``losses_fn(t_array)`` returns
    (L_tr, L_gen); it is evaluated once on :func:`crossing_grid` and then at single times by brentq."""
    grid = crossing_grid(t_max)
    tr, gen = losses_fn(grid)
    out = []
    for level in levels:
        t_tr = first_crossing(lambda t: float(losses_fn([t])[0][0]), level, grid, tr)
        t_gen = first_crossing(lambda t: float(losses_fn([t])[1][0]), level, grid, gen)
        out.append((t_tr, t_gen))
    return out


def mp_crossing_times(lam: float, eta: float, levels, d_out: int = 1, l0: float | None = None,
                      t_max: float = 1e9) -> list[tuple[float, float]]:
    """(t_train, t_test) per loss level for the MP losses (gamma = 0); at the level
    :func:`loss_at_accuracy` gives for GROK_ACC, t_test - t_train is the MP grokking time."""
    l0 = 1.0 / d_out if l0 is None else l0
    return crossing_times(lambda t: mp_losses(t, lam, eta, d_out, l0), levels, t_max)


def exact_crossing_times(s, d0_t, eta: float, levels, d_out: int = 1, t_max: float = 1e9) -> list[tuple[float, float]]:
    """(t_train, t_test) per loss level for the exact gradient-flow losses (gamma = 0, no noise)."""
    return crossing_times(lambda t: exact_losses(t, s, d0_t, eta=eta, d_out=d_out), levels, t_max)


def mp_grok_time(lam: float, eta: float, eps: float, d_out: int = 1, acc: float = GROK_ACC) -> float:
    """t_test - t_train of the MP losses at the grokking level (the formula's non-asymptotic counterpart)."""
    (t_tr, t_gen), = mp_crossing_times(lam, eta, [loss_at_accuracy(acc, eps, d_out)], d_out)
    return t_gen - t_tr


# --- weight decay ----------------------------------------------------------------------------
def wd_limits_paper(lam: float, gamma: float) -> tuple[float, float]:
    """The paper's small-gamma plateaus for lambda < 1: L_tr -> gamma^2 / (4 (1 - lambda)),
    L_gen -> gamma^2 / (4 (1 - lambda)^3)."""
    return gamma**2 / (4 * (1 - lam)), gamma**2 / (4 * (1 - lam) ** 3)


def wd_limits_mp(lam: float, gamma: float, d_out: int = 1, teacher_sq: float = 0.5) -> tuple[float, float]:
    """The same small-gamma limit derived in this book's convention, with the teacher's norm kept.

    The fixed point is D_inf = -gamma (2 Sigma / d_out + gamma)^{-1} T ~ -(gamma d_out / 2) Sigma^{-1} T,
    and with E_MP[1/nu] = 1/(1 - lambda), E_MP[1/nu^2] = 1/(1 - lambda)^3:
    L_tr -> gamma^2 d_out ||T||^2 / (4 (1 - lambda)),  L_gen -> gamma^2 d_out ||T||^2 / (4 (1 - lambda)^3).
    The paper's formula is this one at d_out ||T||_F^2 = 1; its initialisation has
    E||T||_F^2 = 1/2 (``teacher_sq``), which gives half of it.
    """
    k = gamma**2 * d_out * teacher_sq / 4
    return k / (1 - lam), k / (1 - lam) ** 3


def wd_fixed_point(s, teacher_t, gamma: float, d_out: int = 1, h_t=None, noise_sq: float = 0.0) -> tuple[float, float]:
    """(L_tr, L_gen) at t -> infinity from the sample spectrum (exact for any gamma > 0):
    D~_inf = b / Lambda, i.e. :func:`exact_losses` at t = inf (the start D_0 is forgotten)."""
    teacher_t = np.asarray(teacher_t, dtype=np.float64)
    tr, gen = exact_losses([np.inf], s, np.zeros_like(teacher_t), teacher_t, h_t, noise_sq, eta=1.0,
                           gamma=gamma, d_out=d_out)
    return float(tr[0]), float(gen[0])


# --- label noise ----------------------------------------------------------------------------
def noise_train_loss(train_loss_clean, sigma_n: float) -> np.ndarray:
    """The rebuttal's prediction with Gaussian training-label noise N(0, sigma_n^2):
    L_tr = Tr(D_0 D_0^T e^{-4 eta Sigma t} Sigma) + sigma_n^2 (the generalisation loss unchanged).
    It neglects the part of the noise the student fits, so it holds while that part is small."""
    return np.asarray(train_loss_clean) + sigma_n**2


def noise_fit_limits(lam: float, sigma_n: float) -> tuple[float, float]:
    """What the rebuttal's prediction leaves out, lambda < 1, t -> infinity (least squares on noisy labels):
    L_tr -> sigma_n^2 (1 - lambda) and L_gen -> sigma_n^2 lambda / (1 - lambda) (MP, gamma = 0)."""
    return sigma_n**2 * (1 - lam), sigma_n**2 * lam / (1 - lam)


def mp_noise_losses(t, lam: float, eta: float, sigma_n: float, l0: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(L_tr, L_gen) with training-label noise N(0, sigma_n^2), averaged over the noise, MP spectrum,
    d_out = 1, gamma = 0, gradient flow (the book's completion of the rebuttal's prediction).

    The noise drives D~_i by (1 - e^{-2 eta s_i t}) h~_i / s_i with E|h~_i|^2 = sigma_n^2 s_i / N_tr, so::

        L_gen = l0 E[e^{-4 eta nu t}]
                + sigma_n^2 lambda E[(1 - e^{-2 eta nu t})^2 / nu],
        L_tr  = l0 E[nu e^{-4 eta nu t}]
                + sigma_n^2 (1 - lambda E[1 - e^{-4 eta nu t}]).

    Early on this is the rebuttal's L_tr + sigma_n^2 and unchanged L_gen; at t -> infinity it gives
    :func:`noise_fit_limits`.
    """
    tr, gen = mp_losses(t, lam, eta, 1, l0)
    fit_gen, fit_tr = [], []
    for ti in np.atleast_1d(np.asarray(t, dtype=np.float64)):
        c = 2 * eta * ti
        fit_gen.append(mp_bulk_expectation(lambda nu: math.expm1(-c * nu) ** 2 / nu, lam))
        fit_tr.append(mp_bulk_expectation(lambda nu: -math.expm1(-2 * c * nu), lam))
    return (tr + sigma_n**2 * (1 - lam * np.asarray(fit_tr)), gen + sigma_n**2 * lam * np.asarray(fit_gen))


@lru_cache(maxsize=32)  # pure in its arguments, and the run sets ask for it when they are built
def noise_for_simultaneous_crossing(lam: float, eta: float, eps: float, d_out: int = 1, acc: float = GROK_ACC,
                                    model: str = "rebuttal") -> float:
    """The label-noise sigma_n at which the training accuracy reaches ``acc`` exactly when the test accuracy does
    (noise holds the training accuracy back; tuned this way its jump lands on the test saturation).

    ``model="rebuttal"``: by the rebuttal's prediction on the MP losses, sigma_n^2 = L* - L_tr^MP(t_test),
    L* = :func:`loss_at_accuracy` (any d_out). ``model="mp"``: by :func:`mp_noise_losses`, which keeps the
    noise the student fits (d_out = 1); solved by brentq, nan where no sigma_n works
    (lambda >= :func:`noise_tuning_lam_max`).
    """
    level = loss_at_accuracy(acc, eps, d_out)
    (_, t_test), = mp_crossing_times(lam, eta, [level], d_out)
    if not math.isfinite(t_test):
        return math.nan
    if model == "rebuttal":
        train_at = float(mp_losses([t_test], lam, eta, d_out, 1.0 / d_out)[0][0])
        return math.sqrt(max(level - train_at, 0.0))
    if model != "mp" or d_out != 1:
        raise ValueError(f"model must be rebuttal or mp (mp: d_out = 1); got {model!r}, d_out={d_out}")
    if lam >= noise_tuning_lam_max():
        return math.nan
    t_max = 1e3 * t_test

    def gap(sigma: float) -> float:  # t_train - t_test at this sigma_n, in units of the clean t_test
        (t_tr, t_te), = crossing_times(lambda t: mp_noise_losses(t, lam, eta, sigma), [level], t_max)
        if not math.isfinite(t_te):
            return 1.0  # the test accuracy never saturates: too much noise
        return ((t_tr if math.isfinite(t_tr) else t_max) - t_te) / t_test

    hi = math.sqrt(level / (1 - lam))  # the training floor sigma^2 (1 - lambda) at the level: t_train -> infinity
    return optimize.brentq(gap, 0.0, hi * (1 - 1e-9), xtol=1e-12 * hi)


def noise_tuning_lam_max() -> float:
    """(3 - sqrt 5)/2 ~ 0.382: below this lambda the fitted-noise floor of L_gen, sigma_n^2 lambda/(1-lambda),
    lies below that of L_tr, sigma_n^2 (1-lambda) (:func:`noise_fit_limits`). Only then can sigma_n hold the
    training accuracy back until the test accuracy saturates; above it the test floor reaches eps/4 first."""
    return (3 - math.sqrt(5)) / 2
