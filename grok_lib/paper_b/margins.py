"""Max-margin linear classifiers of a training set, computed independently of any training.

For homogeneous linear classifiers x -> <w, x> (no bias, like the diagonal net's beta):

- max L2 margin: min ||w||_2^2 / 2 s.t. y_i <w, x_i> >= 1, solved through its dual
  max_a sum(a) - ||Z^T a||^2 / 2, a >= 0 (Z = y * X), a bound-constrained problem
  (scipy L-BFGS-B); w = Z^T a. The kernel regime's predictor (Paper B, Thm 3.4).
- max L1 margin: min ||w||_1 s.t. y_i <w, x_i> >= 1, a linear program (scipy linprog,
  HiGHS) in w = w+ - w-. The rich regime's predictor for the diagonal net (Thm 3.5).

Both return the direction w / ||w|| (in the norm of its problem) and the margin
min_i y_i <w, x_i> / ||w||, plus a number that says how well the solver did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MaxMargin:
    w: np.ndarray  # the classifier, scaled so that min_i y_i <w, x_i> = 1
    margin: float  # min_i y_i <w, x_i> / ||w|| in the problem's norm (= 1 / ||w||)
    norm: str  # "l2" or "l1"
    gap: float  # relative optimality gap (l2: (primal - dual) / primal; l1: HiGHS's reported gap, 0 if none)

    @property
    def direction(self) -> np.ndarray:
        """w / ||w||_2 (what cosines are taken against)."""
        return self.w / np.linalg.norm(self.w)


class NotSeparable(ValueError):
    """The training set is not linearly separable through the origin."""


def _signed(x, y) -> np.ndarray:
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or y.shape != (x.shape[0],) or not np.all(np.abs(y) == 1):
        raise ValueError(f"need x of shape (n, d) and labels y in {{-1, +1}} of shape (n,); got {x.shape}, {y.shape}")
    return y[:, None] * x


def _rescale(w: np.ndarray, z: np.ndarray, norm: str, gap: float) -> MaxMargin:
    m = float((z @ w).min())
    if not m > 0:
        raise NotSeparable(f"the {norm} solution does not separate the data (min margin {m:.3g})")
    w = w / m  # min_i y_i <w, x_i> = 1 exactly
    size = np.abs(w).sum() if norm == "l1" else np.linalg.norm(w)
    return MaxMargin(w=w, margin=float(1.0 / size), norm=norm, gap=gap)


def max_l2_margin(x, y, tol: float = 1e-12, max_iter: int = 20_000) -> MaxMargin:
    """The hard-margin (max L2 margin) homogeneous linear classifier of (x, y), via its dual with L-BFGS-B."""
    from scipy.optimize import minimize

    z = _signed(x, y)
    q = z @ z.T  # the dual only sees the Gram matrix: n x n, whatever d is
    scale = float(np.trace(q)) / len(q)  # precondition: the dual in b = scale * a has a unit-size Hessian

    def neg_dual(b):
        qa = q @ b / scale
        return float(0.5 * b @ qa / scale - b.sum() / scale), (qa - 1.0) / scale

    res = minimize(neg_dual, np.full(len(q), 1.0 / len(q)), jac=True, method="L-BFGS-B",
                   bounds=[(0.0, None)] * len(q), options={"ftol": tol, "gtol": tol, "maxiter": max_iter,
                                                           "maxcor": 50})
    a = res.x / scale
    w = z.T @ a
    if not np.any(a > 0) or not float((z @ w).min()) > 0:
        raise NotSeparable("max_l2_margin: the data are not separable through the origin (dual is unbounded)")
    # primal value of the rescaled w against the dual value: a certificate of optimality
    dual = float(a.sum() - 0.5 * w @ w)
    w_feasible = w / float((z @ w).min())
    primal = 0.5 * float(w_feasible @ w_feasible)
    return _rescale(w, z, "l2", gap=(primal - dual) / primal if primal > 0 else math.nan)


def max_l1_margin(x, y) -> MaxMargin:
    """The max L1 margin homogeneous linear classifier of (x, y): min ||w||_1 s.t. y_i <w, x_i> >= 1 (HiGHS)."""
    from scipy.optimize import linprog

    z = _signed(x, y)
    n, d = z.shape
    # variables [w+, w-] >= 0; minimise sum(w+ + w-) subject to -Z (w+ - w-) <= -1
    res = linprog(np.ones(2 * d), A_ub=np.hstack([-z, z]), b_ub=-np.ones(n), bounds=(0, None), method="highs")
    if res.status == 2:
        raise NotSeparable("max_l1_margin: the data are not separable through the origin (LP infeasible)")
    if res.status != 0:
        raise RuntimeError(f"max_l1_margin: HiGHS stopped with status {res.status}: {res.message}")
    gap = float(getattr(res, "mip_gap", 0.0) or 0.0)
    return _rescale(res.x[:d] - res.x[d:], z, "l1", gap=gap)


def cosine(a, b) -> float:
    """Cosine of the angle between two vectors (0 if either is zero)."""
    a, b = np.ravel(a), np.ravel(b)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    return float(a @ b / (na * nb)) if na > 0 and nb > 0 else 0.0


def accuracy(w, x, y) -> float:
    """Accuracy of x -> sign(<w, x>), a zero margin counting 1/2 (as the paper's code)."""
    x, w = np.asarray(x), np.ravel(w).astype(np.float64)
    q = np.asarray(y, dtype=np.float64) * np.concatenate(
        [x[i:i + 1024].astype(np.float64) @ w for i in range(0, len(x), 1024)])
    return float(np.mean((q > 0) + 0.5 * (q == 0)))
