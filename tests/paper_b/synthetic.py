"""Synthetic Paper B histories with known transitions (no training)."""

import math
from dataclasses import replace

import numpy as np

from grok_lib.history import History
from grok_lib.paper_b.config import ModAddConfig


def classification(alpha=128.0, lam=0.02, lr=0.1, start=0.5, end=0.8, steps=4000, kernel_acc=0.55, seed=0):
    """A history whose test accuracy ramps linearly on the clock from kernel_acc at ``start`` to 1 at ``end``.

    0.6 is crossed at start + (0.6 - k) / (1 - k) (end - start), 0.9 at start + (0.9 - k) / (1 - k) (end - start).
    """
    s = np.arange(0, steps + 1, 10)
    t = s * lr
    x = lam * t / math.log(alpha)
    ramp = np.clip((x - start) / (end - start), 0, 1)
    test = kernel_acc + (1 - kernel_acc) * ramp
    metrics = {"t": t, "test_acc": test, "train_acc": np.where(s > 0, 1.0, 0.5), "norm": alpha * np.exp(-lam * t),
               "cos_l2": np.where(s > 0, 1 - 0.9 * ramp, 0.0), "cos_l1": np.where(s > 0, 0.2 + 0.8 * ramp, 0.0),
               "cos_star": 0.3 + 0.7 * ramp, "train_loss": np.exp(-x), "test_loss": 1 - 0.5 * ramp}
    config = {"alpha": alpha, "weight_decay": lam, "lr": lr, "steps": steps, "data_seed": seed}
    meta = {"l2_test_acc": kernel_acc, "l1_test_acc": 1.0}
    return History(steps=s, metrics=metrics, config=config, meta=meta)


def crossing(start, end, level, kernel_acc=0.55):
    return start + (level - kernel_acc) / (1 - kernel_acc) * (end - start)


def regression(alpha=10.0, lam=1e-3, lr=0.4, drop_at=1.5, steps=20000, d=8, every=50):
    """A matrix-completion-like history: test MSE 0.1 until clock ``drop_at``, then exponential decay (recorded every
    ``every`` steps)."""
    s = np.arange(0, steps + 1, every)
    t = s * lr
    x = lam * t / math.log(alpha)
    test = 0.1 * np.exp(-np.clip(x - drop_at, 0, None) * 3)
    metrics = {"t": t, "test_mse": test, "train_mse": 0.1 * np.exp(-t), "far_rms": np.where(x < drop_at, 1e-6, 0.1),
               "nuclear": 60 - 30 * (test < 0.05), "stable_rank": np.where(test < 0.05, 1.0, 6.0),
               "norm": alpha * np.exp(-lam * t)}
    config = {"alpha": alpha, "weight_decay": lam, "lr": lr, "steps": steps, "d": d, "data_seed": 0}
    return History(steps=s, metrics=metrics, config=config, meta={"zero_test_mse": 0.105, "target_nuclear": 30.0})


def bridge(alpha=10.0, lam=1.0, lr=1e-3, beta2=0.98, fit_at=300, grok_at=1500, steps=3000):
    """An AdamW bridge-like history: train accuracy rises at ``fit_at``, test accuracy at ``grok_at`` (steps),
    the norm decays from alpha and Adam's step recovers from a small start."""
    s = np.arange(0, steps + 1, 20)
    rise = lambda at: 1 / (1 + np.exp(-(s - at) / 60))  # noqa: E731
    metrics = {"t": s * lr, "train_acc": 0.01 + 0.99 * rise(fit_at), "test_acc": 0.01 + 0.99 * rise(grok_at),
               "norm": 40 * alpha * np.exp(-lam * lr * s) + 30.0, "adam_step": 0.5 - 0.45 * np.exp(-s / 400)}
    config = {"alpha": alpha, "weight_decay": lam, "lr": lr, "beta2": beta2, "steps": steps}
    return History(steps=s, metrics=metrics, config=config, meta={})


def fractions(start_frac, end_frac, alpha=128.0, lam=0.02, lr=0.01, steps=200_000, seed=0):
    """A classification history whose test accuracy crosses 0.6 at clock ``start_frac`` and 0.9 at ``end_frac``."""
    width = (end_frac - start_frac) / (crossing(0, 1, 0.9) - crossing(0, 1, 0.6))
    start = start_frac - crossing(0, width, 0.6)
    return classification(alpha=alpha, lam=lam, lr=lr, start=start, end=start + width, steps=steps, seed=seed)


def grokking_at(step, alpha=10.0, lam=0.002, lr=2.0, steps=4000, seed=0):
    """An MLP-like history whose test accuracy jumps from 0.5 to 1 at ``step`` (recorded every 10 steps)."""
    s = np.arange(0, steps + 1, 10)
    metrics = {"t": s * lr, "test_acc": np.where(s >= step, 1.0, 0.5), "train_acc": np.ones(s.size)}
    config = replace(ModAddConfig(), alpha=alpha, weight_decay=lam, lr=lr, steps=steps, data_seed=seed)
    return History(steps=s, metrics=metrics, config=config.to_dict(), config_type=ModAddConfig)
