"""The deep linear network's closed forms and exact gradients (numpy, float64).

A = W_L ... W_1; the layerwise penalty (1/L) sum ||W_l||_F^2 is >= ||A||_{S_{2/L}}^{2/L}
with equality for balanced factors (Paper A, eq. 2.7); Lemma 3.1's loss bound; Prop.
4.3's singular-value drift; and the cross-entropy with its gradient, written so that
losses near 1e-12 keep their digits.
"""

from __future__ import annotations

import math

import numpy as np


def end_to_end(factors) -> np.ndarray:
    """A = W_L ... W_1."""
    a = factors[0]
    for w in factors[1:]:
        a = w @ a
    return a



def cross_entropy(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy, written as log(1 + sum_{j != y} exp(z_j - z_y)) so that losses
    near 1e-12 keep their digits (log-sum-exp minus z_y would cancel them away)."""
    n = len(y)
    diff = logits - logits[np.arange(n), y][:, None]
    diff[np.arange(n), y] = -np.inf
    top = diff.max(axis=1)
    lse = top + np.log(np.exp(diff - top[:, None]).sum(axis=1))  # log sum_{j != y} exp(diff)
    return float(np.logaddexp(0.0, lse).mean())


def cross_entropy_grad(logits: np.ndarray, onehot: np.ndarray) -> np.ndarray:
    """d mean-CE / d logits = (softmax(logits) - onehot(y)) / n."""
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    return (prob - onehot) / len(onehot)


def margins(logits: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-sample logit margin z_y - max_{j != y} z_j (positive: classified correctly)."""
    n = len(y)
    others = logits.copy()
    others[np.arange(n), y] = -np.inf
    return logits[np.arange(n), y] - others.max(axis=1)


def lemma31_bound(gamma: float, n_classes: int) -> float:
    """Lemma 3.1: every margin >= gamma implies L_CE <= (K - 1) exp(-gamma)."""
    return (n_classes - 1) * math.exp(-gamma)


def schatten_power(a: np.ndarray, p: float) -> float:
    """||A||_{S_p}^p = sum_i s_i^p over the singular values of A."""
    return float((np.linalg.svd(a, compute_uv=False) ** p).sum())


def factor_penalty(factors) -> float:
    """(1/L) sum_l ||W_l||_F^2, which is >= ||A||_{S_{2/L}}^{2/L} with equality when balanced."""
    return float(sum((w**2).sum() for w in factors)) / len(factors)


def balanced_factors(a: np.ndarray, depth: int) -> list[np.ndarray]:
    """A balanced factorisation of A = U S V^T: W_1 = S^{1/L} V^T, W_l = S^{1/L}, W_L = U S^{1/L}.

    Each factor has the singular values s_i^{1/L}, so (1/L) sum ||W_l||^2 = sum s_i^{2/L}:
    it attains the minimum in Paper A's eq. 2.7.
    """
    if depth == 1:
        return [a.copy()]
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    root = np.diag(s ** (1.0 / depth))
    return [root @ vt] + [root.copy() for _ in range(depth - 2)] + [u @ root]


def singular_value_drift(a: np.ndarray, grad_a: np.ndarray, weight_decay: float, depth: int):
    """Two predictions of ds_i/dt at A, from the loss gradient grad_a = dL_CE/dA.

    - ``prop43``: Paper A's Prop. 4.3, ds_i/dt = g_i - lambda p s_i^(p-1), g_i = -u_i^T grad_a v_i
      (gradient flow of E on A itself);
    - ``factored``: gradient flow on balanced factors, which multiplies the same bracket
      by L s_i^(2 - 2/L) (Arora et al. 2019); the two agree for L = 1.

    Returns (s, prop43, factored), s in decreasing order.
    """
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    g = -(u * (grad_a @ vt.T)).sum(axis=0)
    p = 2.0 / depth
    with np.errstate(divide="ignore"):
        bracket = g - weight_decay * p * s ** (p - 1)
    return s, bracket, depth * s ** (2 - p) * bracket


def factor_gradients(factors, grad_a: np.ndarray) -> list[np.ndarray]:
    """dL/dW_l = (W_L ... W_{l+1})^T grad_a (W_{l-1} ... W_1)^T, for every l."""
    right = [None] * len(factors)  # right[l] = W_{l-1} ... W_1 (None: identity)
    for i in range(1, len(factors)):
        right[i] = factors[i - 1] if i == 1 else factors[i - 1] @ right[i - 1]
    grads, left = [None] * len(factors), None  # left = W_L ... W_{l+1}
    for i in reversed(range(len(factors))):
        g = grad_a if left is None else left.T @ grad_a
        grads[i] = g if right[i] is None else g @ right[i].T
        left = factors[i] if left is None else left @ factors[i]
    return grads
