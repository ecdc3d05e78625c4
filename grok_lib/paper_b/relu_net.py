"""Paper B's modular-addition experiment (Sec. 2): a two-layer ReLU net with a large initialisation.

    f(a, b) = W2 ReLU(W1 [onehot(a); onehot(b)] + b1),   W1: width x 2p,  W2: p x width (no bias),

He init (kaiming normal: W1 std sqrt(2 / 2p), W2 std sqrt(1 / width)) times alpha, b1 = 0,
W2 = 0 with ``zero_last``; full-batch GD on cross-entropy with weight decay lambda on every
parameter (torch SGD's weight_decay: the objective is CE + (lambda/2)||theta||^2). The
model is 2-homogeneous in (W1, b1, W2), so the theory's clock is ln(alpha) / lambda.

torch, float32 parameters; the reported losses are float64. W1 x is computed as two row
gathers of W1^T (x is two one-hots), the same numbers as the dense product with far less
work. Deterministic on the CPU: the seeds are in the config and torch uses one code path.

One trainer: :func:`train` takes each step with :func:`gd_step`, or with the callable a ``stepper`` makes from
the run's tensors (the GPU check's CUDA-graph replay of :func:`gd_step`, ``benchmarks/paper_b_runs.py``).
"""

from __future__ import annotations

import math
import time
from typing import Callable, Optional

import numpy as np
import torch
from tqdm import tqdm

from ..config import resolve_device
from ..history import History
from .config import ModAddConfig
from .diagonal import record_steps


def make_split(config: ModAddConfig) -> tuple[np.ndarray, np.ndarray]:
    """(train, test): int64 arrays of rows (a, b, (a + b) mod p); round(train_frac p^2) ordered pairs train."""
    p = config.p
    a, b = np.divmod(np.arange(p * p), p)
    pairs = np.stack([a, b, (a + b) % p], axis=1)
    perm = np.random.default_rng(config.data_seed).permutation(p * p)
    n_train = round(config.train_frac * p * p)
    return pairs[perm[:n_train]], pairs[perm[n_train:]]


def init_params(config: ModAddConfig, device: str = "cpu") -> dict[str, torch.Tensor]:
    """{"W1": width x 2p, "b1": width, "W2": p x width}, He init times alpha (float32, seeded)."""
    gen = torch.Generator().manual_seed(config.init_seed)
    fan1, fan2 = 2 * config.p, config.width
    w1 = torch.randn(config.width, fan1, generator=gen, dtype=torch.float64) * math.sqrt(2.0 / fan1)
    w2 = torch.randn(config.p, fan2, generator=gen, dtype=torch.float64) * math.sqrt(1.0 / fan2)
    if config.zero_last:
        w2.zero_()
    params = {"W1": config.alpha * w1, "b1": torch.zeros(config.width, dtype=torch.float64), "W2": config.alpha * w2}
    return {k: v.to(device=device, dtype=torch.float32).requires_grad_(True) for k, v in params.items()}


def logits(params: dict[str, torch.Tensor], a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The net's logits for the pairs (a, b): W1 x = W1[:, a] + W1[:, p + b] (x is two one-hots)."""
    p = params["W2"].shape[0]
    w1t = params["W1"].T
    hidden = torch.relu(w1t[a] + w1t[p + b] + params["b1"])
    return hidden @ params["W2"].T


def dense_logits(params: dict[str, torch.Tensor], a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The same logits through the explicit one-hot input (what :func:`logits` must equal; for tests)."""
    p = params["W2"].shape[0]
    x = torch.cat([torch.nn.functional.one_hot(a, p), torch.nn.functional.one_hot(b, p)], dim=1).to(params["W1"].dtype)
    return torch.relu(x @ params["W1"].T + params["b1"]) @ params["W2"].T


def gd_step(params: dict[str, torch.Tensor], rows: torch.Tensor, lr: float, lam: float) -> None:
    """One full-batch GD step on the cross-entropy of ``rows`` (a, b, label) plus (lam / 2)||theta||^2, in place
    (torch SGD with weight_decay, no momentum)."""
    loss = torch.nn.functional.cross_entropy(logits(params, rows[:, 0], rows[:, 1]), rows[:, 2])
    grads = torch.autograd.grad(loss, list(params.values()))
    with torch.no_grad():
        for w, g in zip(params.values(), grads):
            w.sub_(lr * (g + lam * w))


#: Makes the callable that takes one step: (params, training rows, lr, lambda) -> step(). It must take
#: :func:`gd_step`'s step, in place on ``params``.
Stepper = Callable[[dict, torch.Tensor, float, float], Callable[[], None]]


def eager_stepper(params: dict[str, torch.Tensor], rows: torch.Tensor, lr: float, lam: float) -> Callable[[], None]:
    """:func:`gd_step` as it is (the store's runs)."""
    return lambda: gd_step(params, rows, lr, lam)


def train(config: ModAddConfig, progress: bool = True, *, stepper: Stepper = eager_stepper,
          stop: Optional[Callable[[int], bool]] = None) -> History:
    """Train the two-layer net full batch; a History of ``config.steps`` steps.

    Metrics: ``t`` (steps x lr), ``train_loss``, ``test_loss`` (float64 cross-entropy),
    ``train_acc``, ``test_acc``, ``norm`` (||theta||), ``norm_W1``, ``norm_b1``, ``norm_W2``.

    ``stepper`` makes the step (see :data:`Stepper`). ``stop(step)`` is asked at every recorded step but the last:
    when it says yes the run ends there, the history holds the steps recorded so far and ``meta["stopped_at"]`` that
    step (a stopped run is not its config's result: the GPU check reports it and stores only complete runs).
    """
    t0 = time.perf_counter()
    device = resolve_device(config.device)
    train_rows, test_rows = (torch.from_numpy(r).to(device) for r in make_split(config))
    params = init_params(config, device)
    lam, lr = config.weight_decay, config.lr
    take_step = stepper(params, train_rows, lr, lam)
    schedule = record_steps(config.steps, config.n_log)
    rows: dict[str, list[float]] = {}
    next_record, stopped_at = 0, None
    label = f"modadd alpha={config.alpha:g} wd={lam:g}"
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        if step == schedule[next_record]:
            row = _record_row(params, train_rows, test_rows)
            if not math.isfinite(row["train_loss"]):
                raise FloatingPointError(f"modadd diverged at step {step}; lower lr (now {lr})")
            row["t"] = step * lr
            for k, val in row.items():
                rows.setdefault(k, []).append(val)
            next_record = min(next_record + 1, len(schedule) - 1)
            if stop is not None and step < config.steps and stop(step):
                stopped_at = step
                break
        if step == config.steps:
            break
        take_step()
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3),
            "n_train": int(len(train_rows)), "n_test": int(len(test_rows))}
    if stopped_at is not None:
        meta["stopped_at"] = stopped_at
    recorded = schedule[:len(rows["t"])]
    return History(steps=recorded, metrics={k: np.asarray(val, dtype=np.float64) for k, val in rows.items()},
                   config=config.to_dict(), meta=meta)


@torch.no_grad()
def _record_row(params, train_rows, test_rows) -> dict:
    row = {}
    for name, rows in (("train", train_rows), ("test", test_rows)):
        out = logits(params, rows[:, 0], rows[:, 1]).double()
        row[f"{name}_loss"] = float(torch.nn.functional.cross_entropy(out, rows[:, 2]))
        row[f"{name}_acc"] = float((out.argmax(dim=1) == rows[:, 2]).double().mean())
    sq = {k: float((v.double() ** 2).sum()) for k, v in params.items()}
    row["norm"] = math.sqrt(sum(sq.values()))
    row |= {f"norm_{k}": math.sqrt(v) for k, v in sq.items()}
    return row
