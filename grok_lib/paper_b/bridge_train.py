"""The bridge's trainer: Paper A's MLP with its initial weights times alpha, plain ``torch.optim.AdamW``.

The model and the split are Paper A's own (:class:`grok_lib.paper_a.model.ModAddMLP`,
:func:`grok_lib.paper_a.task.make_split`: unordered pairs, each standing for its ordered
pairs with a weight); this module only scales the initial weights and runs the optimiser
Paper A names: AdamW, decoupled weight decay on every parameter, full batch (torch's fused
implementation). The loss that is differentiated is torch's cross-entropy in float32, weighted
by the pairs' weights (the mean over ordered pairs, as in Paper A); the recorded losses are
evaluated in float64. Paper A's own trainer differentiates a float64 loss, which matters for
its train losses near 1e-6; here only accuracies and norms are read, and the float32 loss makes
a step about 40% cheaper.

Paper A's modules are not edited or copied: their source is part of this run kind's name
(:mod:`grok_lib.paper_b.kinds`), so a change to them retrains these runs too.
"""

from __future__ import annotations

import math
import time

import numpy as np
import torch
from tqdm import tqdm

from ..config import resolve_device
from ..history import History
from ..paper_a.model import ModAddMLP
from ..paper_a.task import make_split


def record_steps(steps: int, every: int) -> np.ndarray:
    """0, every ``every`` steps, and the last step."""
    return np.unique(np.concatenate([np.arange(0, steps + 1, every), [steps]])).astype(np.int64)


def weighted_ce(logits: torch.Tensor, y: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """sum_i w_i (-log softmax(logits_i)[y_i]) in float64 (the weights sum to one): the recorded losses."""
    logp = torch.log_softmax(logits.double(), dim=-1)
    return -(logp.gather(1, y[:, None])[:, 0] * weight).sum()


def training_loss(logits: torch.Tensor, y: torch.Tensor, weight32: torch.Tensor) -> torch.Tensor:
    """The loss that is differentiated: torch's cross-entropy in the logits' dtype (float32), weighted."""
    return (torch.nn.functional.cross_entropy(logits, y, reduction="none") * weight32).sum()


def scaled_model(config, device: str) -> ModAddMLP:
    """Paper A's MLP at its standard init (seeded), every weight then multiplied by alpha."""
    model = ModAddMLP(config.p, config.d_embed, config.width, config.init_seed)
    with torch.no_grad():
        for w in model.parameters():
            w.mul_(config.alpha)
    return model.to(device)


def train(config, progress: bool = True) -> History:
    """Train one run; metrics at every recorded step: ``t`` (lr x step), ``train_loss``, ``test_loss``,
    ``train_acc``, ``test_acc`` (over ordered pairs), ``norm`` (||theta||) and ``norm_E``, ``norm_W``,
    ``norm_b``, ``norm_U``, and ``adam_step`` (Adam's own move in units of lr, see :func:`_adam_step`;
    at the last recorded step, where no step follows, it repeats the previous value)."""
    t0 = time.perf_counter()
    device = resolve_device(config.device)
    train_split, test_split = (s.to(device) for s in make_split(config.p, config.train_frac, config.data_seed))
    model = scaled_model(config, device)
    # fused: the same AdamW update in one kernel per step (a third faster on the CPU at this size than the
    # per-tensor loop, whose Python overhead dominates for these small matrices)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, betas=(config.beta1, config.beta2),
                            weight_decay=config.weight_decay, fused=True)
    weight32 = train_split.weight.to(torch.float32)
    schedule = record_steps(config.steps, config.eval_every)
    recorded = set(schedule.tolist())
    rows: dict[str, list[float]] = {}
    label = f"bridge alpha={config.alpha:g} wd={config.weight_decay:g}"
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        logits = model(train_split.a, train_split.b)
        loss = training_loss(logits, train_split.y, weight32)
        if step in recorded:
            row = _record_row(model, logits, train_split, test_split)
            if not math.isfinite(row["train_loss"]):
                raise FloatingPointError(f"the bridge run diverged at step {step}; lower lr (now {config.lr})")
            row["t"] = step * config.lr
            for k, v in row.items():
                rows.setdefault(k, []).append(v)
        if step == config.steps:
            break
        opt.zero_grad(set_to_none=True)
        loss.backward()
        before = [w.detach().clone() for w in model.parameters()] if step in recorded else None
        opt.step()
        if before is not None:
            rows.setdefault("adam_step", []).append(_adam_step(model, before, config))
    rows["adam_step"].append(rows["adam_step"][-1] if rows["adam_step"] else math.nan)  # no step after the last
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3),
            "n_train_unordered": train_split.n_unordered, "n_test_unordered": test_split.n_unordered}
    return History(steps=schedule, metrics={k: np.asarray(v, dtype=np.float64) for k, v in rows.items()},
                   config=config.to_dict(), meta=meta)


@torch.no_grad()
def _adam_step(model, before, config) -> float:
    """RMS over every weight of Adam's own move in units of lr: (w_new - w_old + lr lambda w_old) / lr.

    Of order one when Adam takes full steps; far below while its second-moment average still
    remembers the huge gradients of a large initialisation (it forgets them at rate 1 - beta2 per step).
    """
    sq, n = 0.0, 0
    for w, w0 in zip(model.parameters(), before):
        move = (w - w0 * (1 - config.lr * config.weight_decay)) / config.lr
        sq += float((move.double() ** 2).sum())
        n += w.numel()
    return math.sqrt(sq / n)


@torch.no_grad()
def _record_row(model, logits, train_split, test_split) -> dict:
    test_logits = model(test_split.a, test_split.b)
    row = {"train_loss": float(weighted_ce(logits.detach(), train_split.y, train_split.weight)),
           "test_loss": float(weighted_ce(test_logits, test_split.y, test_split.weight))}
    for name, out, split in (("train", logits, train_split), ("test", test_logits, test_split)):
        row[f"{name}_acc"] = float(((out.argmax(dim=1) == split.y).double() * split.weight).sum())
    sq = {k: float((v.double() ** 2).sum()) for k, v in model.blocks().items()}
    row["norm"] = math.sqrt(sum(sq.values()))
    row |= {f"norm_{k}": math.sqrt(v) for k, v in sq.items()}
    return row
