"""Overparameterised matrix completion (Paper B, Sec. 3.3.3): the multiplication table.

    X*_ij = i j / d^2 (i, j = 0 .. d-1; rank one),  W = U U^T - V V^T,  U = V = alpha I at init,
    F(U, V) = (1/n_obs) sum_{(i,j) in Omega} (W_ij - X*_ij)^2 + (lambda / 2)(||U||^2 + ||V||^2),

full-batch GD, numpy float64 (n_obs: the number of observed entries). With G = dL/dW = (2/n_obs) P_Omega(W - X*)
and S = G + G^T:
dF/dU = S U + lambda U, dF/dV = -S V + lambda V (checked against autograd in the tests).

Kernel regime (Cor. 3.11): near init W moves only on the observed entries and their
transposes (dW = alpha (dU + dU^T - dV - dV^T) with dU ~ S), so the entries outside
Omega u Omega^T stay at their initial value 0. Rich regime (Thm 3.12): the min-nuclear-norm
completion, which for this rank-one table is the table itself.
"""

from __future__ import annotations

import math
import time

import numpy as np
from tqdm import tqdm

from ..history import History
from .config import MatrixCompletionConfig
from .diagonal import record_steps


def target(d: int) -> np.ndarray:
    """The multiplication table X*_ij = i j / d^2, i, j = 0 .. d-1 (the paper's code)."""
    v = np.arange(d, dtype=np.float64) / d
    return np.outer(v, v)


def observed_mask(config: MatrixCompletionConfig) -> np.ndarray:
    """A boolean d x d mask with round(observed_frac d^2) entries, drawn without replacement."""
    d = config.d
    rng = np.random.default_rng(config.data_seed)
    mask = np.zeros(d * d, dtype=bool)
    mask[rng.permutation(d * d)[: round(config.observed_frac * d * d)]] = True
    return mask.reshape(d, d)


def init_params(config: MatrixCompletionConfig) -> tuple[np.ndarray, np.ndarray]:
    """U = V = alpha I (+ init_noise * N(0, 1) entries, independent for U and V)."""
    u = config.alpha * np.eye(config.d)
    v = config.alpha * np.eye(config.d)
    if config.init_noise > 0:
        rng = np.random.default_rng(config.init_seed)
        u = u + config.init_noise * rng.standard_normal(u.shape)
        v = v + config.init_noise * rng.standard_normal(v.shape)
    return u, v


def gradients(u, v, x_star, mask, weight_decay):
    """(dF/dU, dF/dV, W) at (U, V); ``mask`` boolean, or float already scaled by 2 / n_obs (faster)."""
    w = u @ u.T - v @ v.T
    scaled = mask if mask.dtype != bool else mask * (2.0 / mask.sum())
    g = (w - x_star) * scaled
    s = g + g.T
    return s @ u + weight_decay * u, -(s @ v) + weight_decay * v, w


def stable_rank(w: np.ndarray) -> float:
    """||W||_F^2 / ||W||_2^2 (0 for W = 0)."""
    sv = np.linalg.svd(w, compute_uv=False)
    return float((sv**2).sum() / sv[0] ** 2) if sv[0] > 0 else 0.0


def train(config: MatrixCompletionConfig, progress: bool = True, callbacks=()) -> History:
    """Train W = U U^T - V V^T full batch; a History of ``config.steps`` steps.

    Metrics: ``t`` (steps x lr), ``train_mse`` (observed entries), ``test_mse`` (the others),
    ``far_rms`` (RMS of W outside Omega u Omega^T: the kernel regime keeps it at 0),
    ``nuclear``, ``stable_rank``, ``sv_0``..``sv_2`` (singular values of W), ``norm``
    (||(U, V)||_F), ``objective``. Meta: the zero predictor's test MSE and the table's
    nuclear norm (what the rich regime recovers). ``callbacks``: each is called as ``cb(step, row)`` at every
    recorded step (the row as recorded).
    """
    t0 = time.perf_counter()
    x_star, mask = target(config.d), observed_mask(config)
    test, far = ~mask, ~(mask | mask.T)
    u, v = init_params(config)
    lam, lr = config.weight_decay, config.lr
    schedule = record_steps(config.steps, config.n_log)
    rows: dict[str, list[float]] = {}
    next_record = 0
    label = f"matrix completion alpha={config.alpha:g} wd={lam:g}"
    scaled = mask * (2.0 / mask.sum())
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        du, dv, w = gradients(u, v, x_star, scaled, lam)
        if step == schedule[next_record]:
            row = _record_row(w, u, v, x_star, mask, test, far, lam)
            if not math.isfinite(row["objective"]):
                raise FloatingPointError(f"matrix completion diverged at step {step}; lower lr (now {lr})")
            row["t"] = step * lr
            for k, val in row.items():
                rows.setdefault(k, []).append(val)
            for cb in callbacks:
                cb(step, row)
            next_record = min(next_record + 1, len(schedule) - 1)
        if step == config.steps:
            break
        u -= lr * du
        v -= lr * dv
    meta = {"seconds": round(time.perf_counter() - t0, 3),
            "zero_test_mse": float(np.mean(x_star[test] ** 2)),
            "target_nuclear": float(np.linalg.svd(x_star, compute_uv=False).sum()),
            "n_observed": int(mask.sum()), "n_far": int(far.sum())}
    return History(steps=schedule, metrics={k: np.asarray(val, dtype=np.float64) for k, val in rows.items()},
                   config=config.to_dict(), meta=meta, snapshot_steps=np.array([config.steps]),
                   snapshots={"W": (u @ u.T - v @ v.T)[None]})


def _record_row(w, u, v, x_star, mask, test, far, lam) -> dict:
    sv = np.linalg.svd(w, compute_uv=False)
    err = (w - x_star) ** 2
    row = {"train_mse": float(err[mask].mean()), "test_mse": float(err[test].mean()),
           "far_rms": float(np.sqrt(np.mean(w[far] ** 2))) if far.any() else 0.0,
           "nuclear": float(sv.sum()), "stable_rank": float((sv**2).sum() / sv[0] ** 2) if sv[0] > 0 else 0.0,
           "norm": math.sqrt(float((u * u).sum() + (v * v).sum()))}
    for i in range(min(3, len(sv))):
        row[f"sv_{i}"] = float(sv[i])
    row["objective"] = row["train_mse"] + 0.5 * lam * row["norm"] ** 2
    return row
