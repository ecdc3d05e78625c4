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
from .metrics import accuracy, cross_entropy64, logit_gradient_norms, stable_rank_and_norm
from .model import ModAddMLP
from .task import make_split

#: Log-spaced points between step 1 and the last step, on top of the regular grid.
N_LOG_POINTS = 60

Callback = Callable[[int, dict], None]


def snapshot_schedule(epochs: int) -> np.ndarray:
    """Steps at which the weights themselves are kept: 0, 100, 200, 500, then every 500, last."""
    early = np.array([0, 100, 200], dtype=np.int64)
    grid = np.arange(500, epochs + 1, 500, dtype=np.int64)
    steps = np.unique(np.concatenate([early, grid, [epochs]]))
    return steps[steps <= epochs]


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
        self.model = ModAddMLP(config.p, config.d_embed, config.width, config.init_seed, dtype).to(device)
        self.opt = torch.optim.AdamW(
            self.model.parameters(),
            lr=config.lr,
            betas=(config.beta1, config.beta2),
            weight_decay=config.weight_decay,
        )
        self.rows: dict[str, list[float]] = {}
        self.prev_pattern: Optional[torch.Tensor] = None
        self.snap_steps: list[int] = []
        self.snaps: dict[str, list[np.ndarray]] = {}

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
        arrays["snap_steps"] = np.asarray(self.snap_steps, dtype=np.int64)
        for k, v in self.snaps.items():
            arrays[f"snap/{k}"] = np.stack(v)
        return TrainState(step=step, arrays=arrays)

    def restore(self, state: TrainState) -> None:
        device = self.train.a.device
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
        self.snap_steps = state.arrays["snap_steps"].tolist()
        self.snaps = {k[5:]: list(v) for k, v in state.arrays.items() if k.startswith("snap/")}

    # -- one step -------------------------------------------------------------------
    def loss_and_pattern(self):
        pre = self.model.preactivation(self.train.a, self.train.b)
        logits = torch.relu(pre) @ self.model.U.T
        loss = cross_entropy64(logits, self.train.y, self.train.weight)
        return loss, logits, pre

    @torch.no_grad()
    def record(self, step: int, loss, logits, pre) -> dict:
        model, train = self.model, self.train
        test_logits = model(self.test.a, self.test.b)
        pattern = pre > 0
        churn = math.nan if self.prev_pattern is None else float((pattern != self.prev_pattern).double().mean())
        self.prev_pattern = pattern
        row = {
            "train_loss": float(loss),
            "test_loss": float(cross_entropy64(test_logits, self.test.y, self.test.weight)),
            "train_acc": float(accuracy(logits, train.y, train.weight)),
            "test_acc": float(accuracy(test_logits, self.test.y, self.test.weight)),
            "churn": churn,
        }
        for name, mat in (("E", model.E), ("W", model.W), ("U", model.U), ("EW", model.E @ model.W.T)):
            row[f"srank_{name}"], row[f"spec_{name}"] = stable_rank_and_norm(mat)
        for k, v in model.blocks().items():
            row[f"norm_{k}"] = float(v.norm())
            row[f"grad_{k}"] = float(v.grad.norm()) if v.grad is not None else math.nan
        # Per-sample factors of Paper A's Prop. 4.2 bounds, averaged with the pair weights:
        # ||grad_U l|| = |delta| |h|, ||grad_W l|| <= ||U||_2 |z| |delta|, ||grad_E l|| <= ||B||_2 ||W||_2 ||U||_2 |delta|.
        delta = logit_gradient_norms(logits, train.y)
        w = train.weight
        row["mean_delta"] = float((w * delta).sum())
        row["mean_delta_h"] = float((w * delta * torch.relu(pre).norm(dim=1).double()).sum())
        z = model.E[train.a] + model.E[train.b]
        row["mean_delta_z"] = float((w * delta * z.norm(dim=1).double()).sum())
        norm_b = torch.where(train.a == train.b, 2.0, math.sqrt(2.0)).to(w)  # ||e_a + e_b||
        row["mean_delta_B"] = float((w * delta * norm_b).sum())
        return row

    def snapshot(self, step: int) -> None:
        self.snap_steps.append(step)
        for k, v in self.model.blocks().items():
            self.snaps.setdefault(k, []).append(v.detach().cpu().numpy().copy())


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
    snapshots = set(snapshot_schedule(config.epochs).tolist())
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
        if step in snapshots:
            run.snapshot(step)
        if step == config.epochs:
            if recorded:
                for k in run.model.blocks():
                    run.rows.setdefault(f"update_{k}", []).append(math.nan)
            break
        before = {k: v.detach().clone() for k, v in run.model.blocks().items()} if recorded else None
        run.opt.step()
        if before is not None:  # the relative update AdamW actually applied, per block
            for k, v in run.model.blocks().items():
                rel = float((v.detach() - before[k]).norm() / before[k].norm())
                run.rows.setdefault(f"update_{k}", []).append(rel)
        bar.update(1)
        if on_checkpoint is not None and (step + 1) % config.checkpoint_every == 0 and step + 1 < config.epochs:
            on_checkpoint(run.state(step + 1))
    bar.close()
    steps = np.asarray(run.rows.pop("step"), dtype=np.int64)
    metrics = {k: np.asarray(v, dtype=np.float64) for k, v in run.rows.items()}
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3), "resumed_from": start}
    snaps = {k: np.stack(v) for k, v in run.snaps.items()}
    return History(steps=steps, metrics=metrics, config=config.to_dict(), meta=meta,
                   snapshot_steps=np.asarray(run.snap_steps, dtype=np.int64), snapshots=snaps)
