"""The trainer of Paper A's theory model: a deep linear network A = W_L ... W_1 on a separable K-class task.

The task (our choice; Paper A states none): inputs x ~ N(0, I_d), labels
y = argmax_k (T x)_k from a random Gaussian teacher T (K x d), so the classes are
linearly separable by construction. The student is trained full batch on

    F(W) = L_CE(A) + (lambda / L) * sum_l ||W_l||_F^2,

the layerwise weight decay whose minimum over factorisations of A is
lambda * ||A||_{S_p}^p with p = 2/L (Paper A, eq. 2.7; :func:`schatten_power`). So the
structural energy E(A) = L_CE(A) + lambda ||A||_{S_p}^p (eq. 4.2) is the objective seen
through the end-to-end map. Everything is float64.

The optimiser is plain gradient descent (the paper's theory is gradient flow) or AdamW
with its decoupled decay set to 2 lambda / L, which is the penalty's gradient factor.
The networks are tiny (a 5 x 20 end-to-end map), so the model is written in numpy with
explicit gradients: a step costs tens of microseconds instead of a framework's
per-operation overhead (the gradients are checked against torch autograd in the tests).
"""

from __future__ import annotations

import math
import time

import numpy as np
from tqdm import tqdm

from ...history import History
from .config import DeepLinearConfig
from .optim import AdamW
from .theory import (cross_entropy, cross_entropy_grad, end_to_end, factor_gradients, factor_penalty, margins,
                     singular_value_drift)


def make_task(config: DeepLinearConfig) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): ``n_train`` Gaussian inputs (n x d) and their teacher labels argmax(T x)."""
    rng = np.random.default_rng(config.seed)
    teacher = rng.standard_normal((config.n_classes, config.d_in))
    x = rng.standard_normal((config.n_train, config.d_in))
    return x, (x @ teacher.T).argmax(axis=1)


def init_factors(config: DeepLinearConfig) -> list[np.ndarray]:
    """W_1 (width x d), ..., W_L (K x width), Gaussian with std init_scale / sqrt(fan_in)."""
    rng = np.random.default_rng([config.seed, 1])
    dims = [config.d_in] + [config.width] * (config.depth - 1) + [config.n_classes]
    return [rng.standard_normal((dims[i + 1], dims[i])) * config.init_scale / math.sqrt(dims[i])
            for i in range(config.depth)]


def record_steps(config: DeepLinearConfig) -> np.ndarray:
    """Step 0, ``n_log`` log-spaced steps, a regular grid of 100 and the last step."""
    log = np.round(np.geomspace(1, config.steps, config.n_log)).astype(np.int64)
    grid = np.linspace(0, config.steps, 101).round().astype(np.int64)
    return np.unique(np.concatenate([[0, config.steps], log, grid]))


def record_row(config: DeepLinearConfig, factors, a, logits, y, loss, grad_a) -> dict:
    s, prop43, factored = singular_value_drift(a, grad_a, config.weight_decay, config.depth)
    schatten = float((s**config.p).sum())
    row = {
        "train_loss": loss,
        "margin": float(margins(logits, y).min()),
        "train_acc": float((logits.argmax(axis=1) == y).mean()),
        "srank_A": float((s**2).sum() / s[0] ** 2) if s[0] > 0 else 0.0,
        "schatten": schatten,
        "energy": loss + config.weight_decay * schatten,
        "objective": loss + config.weight_decay * factor_penalty(factors),
    }
    for i in range(len(s)):
        row[f"sv_{i}"] = float(s[i])
        row[f"drift_prop43_{i}"] = float(prop43[i])
        row[f"drift_factored_{i}"] = float(factored[i])
    return row


def train_deep_linear(config: DeepLinearConfig, progress: bool = True) -> History:
    """Train one deep linear network full batch.

    The history records, on :func:`record_steps`: ``train_loss`` (L_CE), ``margin`` (the
    smallest margin over the training set), ``train_acc``, ``srank_A``, ``schatten``
    (||A||_{S_p}^p), ``energy`` (E(A), eq. 4.2), ``objective`` (the trained F(W)),
    ``sv_<i>`` (singular values of A), the two predicted drifts of
    :func:`singular_value_drift`, and ``drift_measured_<i>`` = (s_i(t+1) - s_i(t)) / lr.
    """
    x, y = make_task(config)
    factors = init_factors(config)
    adamw = AdamW(factors, config.lr, 2 * config.weight_decay / config.depth) if config.optimizer == "adamw" else None
    schedule = set(record_steps(config).tolist())
    rows: dict[str, list[float]] = {}
    steps: list[int] = []
    t0 = time.perf_counter()
    label = f"deep linear L={config.depth} {config.optimizer} wd={config.weight_decay:g}"
    onehot = np.eye(config.n_classes)[y]
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        a = end_to_end(factors)
        logits = x @ a.T
        grad_a = cross_entropy_grad(logits, onehot).T @ x
        recorded = step in schedule
        if recorded:
            loss = cross_entropy(logits, y)
            if not math.isfinite(loss):
                raise FloatingPointError(f"deep linear run diverged at step {step}; lower lr (now {config.lr})")
            steps.append(step)
            for k, v in record_row(config, factors, a, logits, y, loss, grad_a).items():
                rows.setdefault(k, []).append(v)
        if step == config.steps:
            break
        grads = factor_gradients(factors, grad_a)
        if adamw is not None:
            adamw.step(factors, grads)
        else:
            for w, g in zip(factors, grads):
                w -= config.lr * (g + (2 * config.weight_decay / config.depth) * w)
        if recorded:  # the singular values' velocity over the step just taken
            a_new = end_to_end(factors)
            if not np.isfinite(a_new).all():  # before the SVD, which fails on inf / nan with a LinAlgError
                raise FloatingPointError(f"deep linear run diverged at step {step + 1}; lower lr (now {config.lr})")
            for i, s_new in enumerate(np.linalg.svd(a_new, compute_uv=False)):
                rows.setdefault(f"drift_measured_{i}", []).append((s_new - rows[f"sv_{i}"][-1]) / config.lr)
    for i in range(sum(k.startswith("sv_") for k in rows)):  # no step follows the last record
        rows.setdefault(f"drift_measured_{i}", []).append(math.nan)
    metrics = {k: np.asarray(v, dtype=np.float64) for k, v in rows.items()}
    e_min, e_min_grad = minimum_energy(config, factors)
    meta = {"seconds": round(time.perf_counter() - t0, 3),
            "energy_min": e_min, "energy_min_grad_norm": e_min_grad}
    return History(steps=np.asarray(steps, dtype=np.int64), metrics=metrics, config=config.to_dict(), meta=meta,
                   snapshot_steps=np.array([config.steps]),
                   snapshots={f"W{i + 1}": w[None].copy() for i, w in enumerate(factors)})


def minimum_energy(config: DeepLinearConfig, factors, max_iter: int = 500) -> tuple[float, float]:
    """E(A_*): the ``factors`` a run ended with, polished to a stationary point of F by L-BFGS.

    At a stationary point of F the factors are balanced, so F there equals E(A_*), the
    reference of the gap Delta(t) = E(A_t) - E(A_*). (The last recorded E is not a good
    reference: it would force Delta to zero at the end of the run.) Returns (E_*, the
    gradient norm reached). Stored in the history's meta as ``energy_min``.
    """
    import torch  # only here: the training loop is numpy

    x, y = (torch.from_numpy(v) for v in make_task(config))
    factors = [torch.tensor(w, requires_grad=True) for w in factors]
    opt = torch.optim.LBFGS(factors, lr=1, max_iter=max_iter, tolerance_grad=1e-13, tolerance_change=1e-16,
                            history_size=50, line_search_fn="strong_wolfe")

    def objective():
        opt.zero_grad()
        a = factors[0]
        for w in factors[1:]:
            a = w @ a
        f = torch.nn.functional.cross_entropy(x @ a.T, y)
        f = f + config.weight_decay / config.depth * sum((w**2).sum() for w in factors)
        f.backward()
        return f

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # L-BFGS amplifies rounding: one thread gives the same result in any process
    try:
        opt.step(objective)
        value = objective().detach()
    finally:
        torch.set_num_threads(threads)
    grad_norm = math.sqrt(sum(float((w.grad**2).sum()) for w in factors))
    return float(value), grad_norm
