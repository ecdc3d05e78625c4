"""Paper B's modular-addition experiment (Sec. 2): a two-layer ReLU net with a large initialisation.

    f(a, b) = W2 ReLU(W1 [onehot(a); onehot(b)] + b1),   W1: width x 2p,  W2: p x width (no bias),

He init (kaiming normal: W1 std sqrt(2 / 2p), W2 std sqrt(1 / width)) times alpha, b1 = 0,
W2 = 0 with ``zero_last``; full-batch GD on cross-entropy with weight decay lambda on every
parameter (torch SGD's weight_decay: the objective is CE + (lambda/2)||theta||^2). The
model is 2-homogeneous in (W1, b1, W2), so the theory's clock is ln(alpha) / lambda.

torch, float32 parameters; the reported losses are float64. W1 x is computed as two row
gathers of W1^T (x is two one-hots), the same numbers as the dense product with far less
work. Deterministic on the CPU: the seeds are in the config and torch uses one code path.
"""

from __future__ import annotations

import math
import time

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


def train(config: ModAddConfig, progress: bool = True) -> History:
    """Train the two-layer net full batch; a History of ``config.steps`` steps.

    Metrics: ``t`` (steps x lr), ``train_loss``, ``test_loss`` (float64 cross-entropy),
    ``train_acc``, ``test_acc``, ``norm`` (||theta||), ``norm_W1``, ``norm_b1``, ``norm_W2``.
    """
    t0 = time.perf_counter()
    device = resolve_device(config.device)
    train_rows, test_rows = (torch.from_numpy(r).to(device) for r in make_split(config))
    params = init_params(config, device)
    lam, lr = config.weight_decay, config.lr
    schedule = record_steps(config.steps, config.n_log)
    rows: dict[str, list[float]] = {}
    next_record = 0
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
        if step == config.steps:
            break
        loss = torch.nn.functional.cross_entropy(logits(params, train_rows[:, 0], train_rows[:, 1]), train_rows[:, 2])
        grads = torch.autograd.grad(loss, list(params.values()))
        with torch.no_grad():
            for w, g in zip(params.values(), grads):
                w.sub_(lr * (g + lam * w))  # torch SGD with weight_decay, no momentum
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3),
            "n_train": int(len(train_rows)), "n_test": int(len(test_rows))}
    return History(steps=schedule, metrics={k: np.asarray(val, dtype=np.float64) for k, val in rows.items()},
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
