"""The full-batch AdamW trainer for Paper A's model: ``train(config) -> History``.

Metrics are recorded on a schedule (log-spaced early steps plus every ``eval_every``
steps), so evaluation stays off the hot path while log-scale plots stay smooth. A run
can be checkpointed and resumed: the resumed run ends with exactly the numbers of an
uninterrupted one, because the whole state (parameters, AdamW moments, the history so
far, the last activation pattern) is saved and full-batch training draws no randomness.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np
import torch
from tqdm import tqdm

from .config import ModAddConfig, resolve_device
from .history import History
from .metrics import accuracy, cross_entropy64, stable_rank
from .model import ModAddMLP
from .task import make_split, pair_matrix

#: Log-spaced points between step 1 and the last step, on top of the regular grid.
N_LOG_POINTS = 60

Callback = Callable[[int, dict], None]


def record_schedule(epochs: int, eval_every: int, n_log: int = N_LOG_POINTS) -> np.ndarray:
    """The sorted steps at which metrics are recorded: 0, log-spaced, every ``eval_every``, last."""
    log = np.unique(np.round(np.geomspace(1, epochs, n_log)).astype(np.int64))
    grid = np.arange(0, epochs + 1, eval_every, dtype=np.int64)
    return np.unique(np.concatenate([[0, epochs], log, grid]))


@dataclass
class TrainState:
    """Everything needed to continue a run from ``step`` (updates already applied)."""

    step: int
    arrays: dict[str, np.ndarray]  # model/<block>, opt/<i>/<name>, rows/<metric>, prev_pattern

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"step": np.array(self.step, dtype=np.int64), **self.arrays}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "TrainState":
        rest = {k: v for k, v in arrays.items() if k != "step"}
        return cls(step=int(arrays["step"]), arrays=rest)


class _Run:
    """The live objects of one training run (model, optimiser, data on the device)."""

    def __init__(self, config: ModAddConfig, device: str):
        dtype = getattr(torch, config.dtype)
        train, test = make_split(config.p, config.train_frac, config.data_seed)
        self.train, self.test = train.to(device), test.to(device)
        self.m_train = pair_matrix(self.train, config.p, dtype)
        self.m_test = pair_matrix(self.test, config.p, dtype)
        self.model = ModAddMLP(config.p, config.d_embed, config.width, config.init_seed, dtype).to(device)
        self.opt = torch.optim.AdamW(
            self.model.parameters(),
            lr=config.lr,
            betas=(config.beta1, config.beta2),
            weight_decay=config.weight_decay,
        )
        self.rows: dict[str, list[float]] = {}
        self.prev_pattern: Optional[torch.Tensor] = None

    # -- checkpoints ----------------------------------------------------------------
    def state(self, step: int) -> TrainState:
        arrays = {f"model/{k}": v.detach().cpu().numpy().copy() for k, v in self.model.blocks().items()}
        for i, st in self.opt.state_dict()["state"].items():
            for name, value in st.items():
                arrays[f"opt/{i}/{name}"] = torch.as_tensor(value).detach().cpu().numpy().copy()
        for name, values in self.rows.items():
            arrays[f"rows/{name}"] = np.asarray(values, dtype=np.float64)
        if self.prev_pattern is not None:
            arrays["prev_pattern"] = self.prev_pattern.cpu().numpy()
        return TrainState(step=step, arrays=arrays)

    def restore(self, state: TrainState) -> None:
        device = self.m_train.device
        with torch.no_grad():
            for k, v in self.model.blocks().items():
                v.copy_(torch.from_numpy(state.arrays[f"model/{k}"]))
        sd = self.opt.state_dict()
        opt_state: dict[int, dict] = {}
        for key, value in state.arrays.items():
            if key.startswith("opt/"):
                _, i, name = key.split("/")
                opt_state.setdefault(int(i), {})[name] = torch.from_numpy(value.copy()).to(device)
        sd["state"] = opt_state
        self.opt.load_state_dict(sd)
        self.rows = {k[5:]: list(v) for k, v in state.arrays.items() if k.startswith("rows/")}
        if "prev_pattern" in state.arrays:
            self.prev_pattern = torch.from_numpy(state.arrays["prev_pattern"]).to(device)

    # -- one step -------------------------------------------------------------------
    def loss_and_pattern(self):
        pre = self.model.preactivation(self.m_train)
        logits = torch.relu(pre) @ self.model.U.T
        loss = cross_entropy64(logits, self.train.y, self.train.weight)
        return loss, logits, pre

    @torch.no_grad()
    def record(self, step: int, loss, logits, pre) -> dict:
        model = self.model
        test_logits = model(self.m_test)
        pattern = pre > 0
        churn = math.nan if self.prev_pattern is None else float((pattern != self.prev_pattern).double().mean())
        self.prev_pattern = pattern
        row = {
            "train_loss": float(loss),
            "test_loss": float(cross_entropy64(test_logits, self.test.y, self.test.weight)),
            "train_acc": float(accuracy(logits, self.train.y, self.train.weight)),
            "test_acc": float(accuracy(test_logits, self.test.y, self.test.weight)),
            "srank_E": stable_rank(model.E),
            "srank_W": stable_rank(model.W),
            "srank_U": stable_rank(model.U),
            "srank_EW": stable_rank(model.E @ model.W.T),
            "churn": churn,
        }
        for k, v in model.blocks().items():
            row[f"norm_{k}"] = float(v.norm())
            row[f"grad_{k}"] = float(v.grad.norm()) if v.grad is not None else math.nan
        return row


def _check_finite(loss: torch.Tensor, step: int, config: ModAddConfig) -> None:
    value = float(loss.detach())
    if not math.isfinite(value):
        raise FloatingPointError(
            f"training diverged at step {step}: train loss is {value} "
            f"(lr={config.lr}, weight_decay={config.weight_decay}); lower lr or check the config"
        )


def train(
    config: ModAddConfig,
    callbacks: Sequence[Callback] = (),
    *,
    resume: Optional[TrainState] = None,
    on_checkpoint: Optional[Callable[[TrainState], None]] = None,
    progress: bool = True,
    device: Optional[str] = None,
) -> History:
    """Train ``config`` full batch and return its history.

    ``callbacks`` are called as ``cb(step, row)`` at every recorded step.
    ``resume`` continues from a checkpoint; ``on_checkpoint`` receives one every
    ``config.checkpoint_every`` steps. The loss is checked for NaN/inf at every step on
    the CPU (on a GPU at every recorded step, to keep the loop free of host syncs).
    """
    device = device or resolve_device(config.device)
    run = _Run(config, device)
    start = 0
    if resume is not None:
        run.restore(resume)
        start = resume.step
    schedule = set(record_schedule(config.epochs, config.eval_every).tolist())
    check_every_step = device == "cpu"
    t0 = time.perf_counter()
    label = f"p={config.p} wd={config.weight_decay:g} width={config.width}"
    bar = tqdm(total=config.epochs, initial=start, desc=label, disable=not progress, mininterval=10, ascii=True)
    for step in range(start, config.epochs + 1):
        loss, logits, pre = run.loss_and_pattern()
        recorded = step in schedule
        if check_every_step or recorded:
            _check_finite(loss, step, config)
        run.opt.zero_grad(set_to_none=True)
        loss.backward()
        if recorded:
            row = run.record(step, loss, logits, pre)
            for name, value in row.items():
                run.rows.setdefault(name, []).append(value)
            run.rows.setdefault("step", []).append(step)
            for cb in callbacks:
                cb(step, row)
            bar.set_postfix(train=f"{row['train_loss']:.1e}", test=f"{row['test_loss']:.1e}", refresh=False)
        if step == config.epochs:
            break
        run.opt.step()
        bar.update(1)
        if on_checkpoint is not None and (step + 1) % config.checkpoint_every == 0 and step + 1 < config.epochs:
            on_checkpoint(run.state(step + 1))
    bar.close()
    steps = np.asarray(run.rows.pop("step"), dtype=np.int64)
    metrics = {k: np.asarray(v, dtype=np.float64) for k, v in run.rows.items()}
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3), "resumed_from": start}
    return History(steps=steps, metrics=metrics, config=config.to_dict(), meta=meta)
