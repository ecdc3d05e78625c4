"""Paper B's modular-addition net trained by gradient descent held inside its stable range (the theory's regime).

The net, split and initialisation are :mod:`grok_lib.paper_b.relu_net`'s, unchanged. Only the step differs: at
every step ``lr_t = min(lr, stable_c / S_t)`` with S_t the Gauss–Newton sharpness of the training loss
(:mod:`grok_lib.paper_b.sharpness`), measured at initialisation (power iteration to convergence) and re-estimated
every ``sharpness_every`` steps by a few power iterations started from the last top direction. With
``stable_c`` = 1, lr_t × S_t stays at half the limit 2 past which GD is unstable, so GD follows gradient flow;
the run is read in continuous time t = Σ lr_t (the theory's time), recorded as ``t``, and stops at the first step
with λ t ≥ ``stop_lambda_t``.

Recorded (on a grid of continuous time: half log-spaced, half evenly spaced up to the stop): what
:func:`grok_lib.paper_b.relu_net.train` records, and ``lr`` (the step taken there) and ``sharpness`` (the current
estimate of S_t). Meta: ``sharpness_init`` (S at initialisation), ``max_lr_sharpness`` (the largest lr_t × S_t of
any step, against the estimate of that step), ``lambda_t_end``.
"""

from __future__ import annotations

import math
import time

import numpy as np
import torch
from tqdm import tqdm

from ..config import resolve_device
from ..history import History
from .config import StableModAddConfig
from .relu_net import _record_row, init_params, logits, make_split
from .sharpness import ITERATIONS, GaussNewton

#: Power iterations of each re-estimate, warm-started from the last top direction.
REESTIMATE_ITERATIONS = 2


def record_times(stop_t: float, n_log: int) -> np.ndarray:
    """Continuous times to record at: n_log / 2 log-spaced from stop_t / 1e4 and n_log / 2 evenly spaced to stop_t."""
    log = np.geomspace(stop_t * 1e-4, stop_t, max(n_log // 2, 1))
    grid = np.linspace(0.0, stop_t, max(n_log - n_log // 2, 2))[1:]
    return np.unique(np.concatenate([log, grid]))


def train(config: StableModAddConfig, progress: bool = True) -> History:
    """Train the two-layer net full batch with the stable step until λ t ≥ ``stop_lambda_t`` (or ``steps``)."""
    t0 = time.perf_counter()
    device = resolve_device(config.device)
    train_rows, test_rows = (torch.from_numpy(r).to(device) for r in make_split(config))
    params = init_params(config, device)
    lam, cap, c = config.weight_decay, config.lr, config.stable_c
    stop_t = config.stop_lambda_t / lam
    s_value, direction = GaussNewton(params, train_rows).top(ITERATIONS)
    meta = {"sharpness_init": s_value}
    times = record_times(stop_t, config.n_log)
    rows: dict[str, list[float]] = {}
    steps: list[int] = []
    next_time, t, worst = 0, 0.0, 0.0
    label = f"modadd stable alpha={config.alpha:g} wd={lam:g}"
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        if step and step % config.sharpness_every == 0:
            s_value, direction = GaussNewton(params, train_rows).top(REESTIMATE_ITERATIONS, start=direction)
        lr = min(cap, c / s_value) if s_value > 0 else cap
        last = step == config.steps or lam * t >= config.stop_lambda_t
        if step == 0 or last or (next_time < len(times) and t >= times[next_time]):
            row = _record_row(params, train_rows, test_rows)
            if not math.isfinite(row["train_loss"]):
                raise FloatingPointError(f"stable modadd diverged at step {step}")
            row |= {"t": t, "lr": lr, "sharpness": s_value}
            for k, val in row.items():
                rows.setdefault(k, []).append(val)
            steps.append(step)
            while next_time < len(times) and t >= times[next_time]:
                next_time += 1
        if last:
            break
        worst = max(worst, lr * s_value)
        loss = torch.nn.functional.cross_entropy(logits(params, train_rows[:, 0], train_rows[:, 1]), train_rows[:, 2])
        grads = torch.autograd.grad(loss, list(params.values()))
        with torch.no_grad():
            for w, g in zip(params.values(), grads):
                w.sub_(lr * (g + lam * w))  # torch SGD with weight_decay, no momentum
        t += lr
    meta |= {"max_lr_sharpness": worst, "lambda_t_end": lam * t, "seconds": round(time.perf_counter() - t0, 3),
             "device": device, "n_train": int(len(train_rows)), "n_test": int(len(test_rows))}
    return History(steps=np.asarray(steps, dtype=np.int64),
                   metrics={k: np.asarray(v, dtype=np.float64) for k, v in rows.items()},
                   config=config.to_dict(), meta=meta)
