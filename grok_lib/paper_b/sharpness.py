"""The Gauss–Newton sharpness of Paper B's modular-addition net: the regime check of its GD runs.

Full-batch gradient descent follows gradient flow (what the theory is about) only while ``lr`` times the loss's
sharpness stays below 2; past it, GD is not even stable along the top direction. For the cross-entropy of
:mod:`grok_lib.paper_b.relu_net` the curvature that matters at initialisation is the Gauss–Newton matrix

    G = (1/n) Σ_i J_iᵀ H_i J_i,   J_i = ∂ logits_i / ∂θ,   H_i = diag(s_i) − s_i s_iᵀ  (s_i = softmax(logits_i)),

over the training set; its top eigenvalue is the sharpness S this module measures, by power iteration on products
with G (the net's Jacobian-vector and vector-Jacobian products, never the matrix), in float64.

With ``W2 = 0`` at initialisation (the paper's text) it has a closed form, which the tests check the power
iteration against: the logits are 0 (every softmax uniform, H = (I − 11ᵀ/K)/K, top eigenvalue 1/K), and only W2
moves them (∂ logits / ∂(W1, b1) = 0), so G = M ⊗ H with M = (1/n) Σ_i h_i h_iᵀ the hidden features' second-moment
matrix: S = λ_max(M) / K. Weight decay adds λ to every eigenvalue of the objective's Hessian (reported, negligible).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from .config import ModAddConfig
from .relu_net import init_params, make_split

#: Power-iteration steps (the top eigenvalue of a positive semidefinite matrix; the tests check it against the
#: closed form to 1e-6 relative).
ITERATIONS = 100


def _float64(params: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k: v.detach().to(torch.float64) for k, v in params.items()}


class GaussNewton:
    """The Gauss–Newton matrix of the mean cross-entropy over ``rows`` ((a, b, label) per row) at ``params``, as
    products with it (float64, by hand: the two-layer net's Jacobian-vector and vector-Jacobian products, which
    the tests check against torch autograd's)."""

    def __init__(self, params: dict[str, torch.Tensor], rows: torch.Tensor):
        self.theta = _float64(params)
        self.a, self.b = rows[:, 0], rows[:, 1]
        self.p = self.theta["W2"].shape[0]
        w1t = self.theta["W1"].T
        pre = w1t[self.a] + w1t[self.p + self.b] + self.theta["b1"]
        self.active = (pre > 0).to(torch.float64)
        self.h = torch.relu(pre)
        self.s = torch.softmax(self.h @ self.theta["W2"].T, dim=1)
        self.n = rows.shape[0]

    def jvp(self, v: dict[str, torch.Tensor]) -> torch.Tensor:
        """J v: the logits' change along ``v``, one row per training pair."""
        v1t = v["W1"].T
        du = (v1t[self.a] + v1t[self.p + self.b] + v["b1"]) * self.active
        return self.h @ v["W2"].T + du @ self.theta["W2"].T

    def vjp(self, w: torch.Tensor) -> dict[str, torch.Tensor]:
        """Jᵀ w for one row of ``w`` per training pair."""
        gu = (w @ self.theta["W2"]) * self.active
        g1t = torch.zeros_like(self.theta["W1"].T)
        g1t.index_add_(0, self.a, gu)
        g1t.index_add_(0, self.p + self.b, gu)
        return {"W1": g1t.T, "b1": gu.sum(dim=0), "W2": w.T @ self.h}

    def __call__(self, v: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """G v = (1/n) Σ_i J_iᵀ H_i J_i v."""
        jv = self.jvp(v)
        hjv = self.s * jv - self.s * (self.s * jv).sum(dim=1, keepdim=True)  # H_i (J v)_i, row by row
        return self.vjp(hjv / self.n)

    def top(self, iterations: int = ITERATIONS, start: dict[str, torch.Tensor] | None = None,
            seed: int = 0) -> tuple[float, dict[str, torch.Tensor]]:
        """The top eigenvalue by power iteration from ``start`` (None: a seeded random direction), and the last
        vector (to start the next estimate from, where the parameters have moved little)."""
        if start is None:
            gen = torch.Generator().manual_seed(seed)
            start = {k: torch.randn(t.shape, generator=gen, dtype=torch.float64).to(t.device) for k, t in self.theta.items()}
        v, value = start, 0.0
        for _ in range(iterations):
            norm = math.sqrt(sum(float((x * x).sum()) for x in v.values()))
            if norm == 0.0:
                return 0.0, v
            v = {k: x / norm for k, x in v.items()}
            gv = self(v)
            value = sum(float((x * gv[k]).sum()) for k, x in v.items())
            v = gv
        return value, v


def gauss_newton_top(params: dict[str, torch.Tensor], rows: torch.Tensor, iterations: int = ITERATIONS,
                     seed: int = 0) -> float:
    """The top eigenvalue of the Gauss–Newton matrix of the mean cross-entropy over ``rows`` at ``params``."""
    return GaussNewton(params, rows).top(iterations, seed=seed)[0]


def at_init(config: ModAddConfig, iterations: int = ITERATIONS) -> float:
    """The Gauss–Newton sharpness of ``config``'s net at initialisation over its training set (power iteration)."""
    train_rows, _ = make_split(config)
    return gauss_newton_top(init_params(config), torch.from_numpy(train_rows), iterations)


def closed_form_at_init(config: ModAddConfig) -> float:
    """The same at ``W2 = 0``: λ_max of the hidden features' second-moment matrix over the training set, times 1/K
    (the top eigenvalue of the softmax Hessian at uniform logits), K = p classes."""
    if not config.zero_last:
        raise ValueError("the closed form holds only with W2 = 0 at initialisation (zero_last)")
    train_rows, _ = make_split(config)
    ps = _float64(init_params(config))
    w1t = ps["W1"].T
    rows = torch.from_numpy(train_rows)
    h = torch.relu(w1t[rows[:, 0]] + w1t[config.p + rows[:, 1]] + ps["b1"]).numpy()
    m = h.T @ h / len(h)
    return float(np.linalg.eigvalsh(m)[-1]) / config.p


# --- the diagonal nets and matrix completion: the top eigenvalue of the objective's Hessian at initialisation ---
def _top_eigenvalue(matvec, size: int) -> float:
    """The largest (algebraic) eigenvalue of the symmetric operator ``matvec`` on R^size (scipy's Lanczos)."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    if size == 1:
        return float(matvec(np.ones(1))[0])
    op = LinearOperator((size, size), matvec=matvec, dtype=np.float64)
    return float(eigsh(op, k=1, which="LA", tol=1e-10, v0=np.ones(size) / math.sqrt(size))[0][0])


def diagonal_at_init(config) -> float:
    """The sharpness at initialisation of a diagonal net's objective (:mod:`grok_lib.paper_b.diagonal`): the top
    eigenvalue of the Hessian of F = L(u⊙u − v⊙v) + (λ/2)‖θ‖² at u = v = α/√(2d), by Lanczos on exact
    Hessian-vector products. At init every margin is 0, so s = 1/2 and with g = ∂L/∂β = −Xᵀy / (2n),
    D = 1/4: H (a, b) = (2 a⊙g + 2 u⊙δg + λ a, −2 b⊙g − 2 v⊙δg + λ b), δg = Xᵀ D X (2 u⊙a − 2 v⊙b) / n."""
    from dataclasses import replace

    from .diagonal import init_params as diagonal_init, make_data

    x, y, *_ = make_data(replace(config, n_test=1))  # the training set is drawn first: the same at any n_test
    u, v = diagonal_init(config)
    n, d, lam = len(y), config.d, config.weight_decay
    g = -(x.T @ y) / (2 * n)

    def matvec(z):
        a, b = z[:d], z[d:]
        dg = x.T @ (0.25 * (x @ (2 * u * a - 2 * v * b))) / n
        return np.concatenate([2 * a * g + 2 * u * dg + lam * a, -2 * b * g - 2 * v * dg + lam * b])

    return _top_eigenvalue(matvec, 2 * d)


def matrix_completion_at_init(config) -> float:
    """The sharpness at initialisation of matrix completion's objective (:mod:`grok_lib.paper_b.matrix_completion`):
    the top eigenvalue of the Hessian of F = (1/n) Σ_Ω (W − X*)² + (λ/2)(‖U‖² + ‖V‖²), W = UUᵀ − VVᵀ, at
    U = V = αI (+ the init noise), by Lanczos on exact Hessian-vector products: with G = (2/n) P_Ω(W − X*),
    S = G + Gᵀ, along (A, B): δW = AUᵀ + UAᵀ − BVᵀ − VBᵀ, δS from δG = (2/n) P_Ω(δW), and
    H (A, B) = (δS U + S A + λA, −δS V − S B + λB)."""
    from .matrix_completion import init_params as mc_init, observed_mask, target

    u, v = mc_init(config)
    x_star, d, lam = target(config.d), config.d, config.weight_decay
    scale = observed_mask(config) * (2.0 / observed_mask(config).sum())
    gm = (u @ u.T - v @ v.T - x_star) * scale
    s = gm + gm.T

    def matvec(z):
        a, b = z[: d * d].reshape(d, d), z[d * d:].reshape(d, d)
        dg = (a @ u.T + u @ a.T - b @ v.T - v @ b.T) * scale
        ds = dg + dg.T
        return np.concatenate([(ds @ u + s @ a + lam * a).ravel(), (-ds @ v - s @ b + lam * b).ravel()])

    return _top_eigenvalue(matvec, 2 * d * d)
