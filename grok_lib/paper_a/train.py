"""The full-batch AdamW trainer for Paper A's model: ``train(config) -> History``, and
``train_sweep(configs) -> [History]`` for members that differ only in numbers.

Every run is a stacked run (:mod:`grok_lib.stacked`): a solo run is a stack of one, and a
sweep over weight decay, seed or learning rate trains all its members in the same
batched steps, each member's numbers bitwise those of its solo run on the CPU.

Metrics are recorded on a schedule (log-spaced early steps plus every ``eval_every``
steps), so evaluation stays off the hot path while log-scale plots stay smooth. On a GPU
nothing is read back to the host between recorded steps. A run can be checkpointed and
resumed: the resumed run ends with exactly the numbers of an uninterrupted one, because
the whole state (parameters, AdamW moments, the history so far, the last activation
patterns) is saved and full-batch training draws no randomness.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np
import torch
from tqdm import tqdm

from ..config import resolve_device
from ..history import History
from .config import ModAddConfig
from .metrics import accuracy, cross_entropy64, logit_gradient_norms, stable_rank_and_norm
from .model import ModAddMLP
from .stacked import StackedAdamW, StackedMLP, check_stackable
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
    arrays: dict[str, np.ndarray]  # model/<block>, opt/<moment>/<block>, <member>/rows/<metric>, ...

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"step": np.array(self.step, dtype=np.int64), **self.arrays}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "TrainState":
        rest = {k: v for k, v in arrays.items() if k != "step"}
        return cls(step=int(arrays["step"]), arrays=rest)


def record_member(model: ModAddMLP, train, test, loss, logits, pre, prev_pattern) -> tuple[dict, torch.Tensor]:
    """One member's row of metrics at a recorded step, and its activation pattern.

    ``model`` holds the member's weights and gradients; ``loss``, ``logits``, ``pre`` are its
    slices of the stacked forward pass.
    """
    test_logits = model(test.a, test.b)
    pattern = pre > 0
    churn = math.nan if prev_pattern is None else float((pattern != prev_pattern).double().mean())
    row = {
        "train_loss": float(loss),
        "test_loss": float(cross_entropy64(test_logits, test.y, test.weight)),
        "train_acc": float(accuracy(logits, train.y, train.weight)),
        "test_acc": float(accuracy(test_logits, test.y, test.weight)),
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
    return row, pattern


class StackRun:
    """The live objects of one (stacked) training run: model, optimiser, data on the device."""

    def __init__(self, configs: Sequence[ModAddConfig], device: str):
        c0 = configs[0]
        dtype = getattr(torch, c0.dtype)
        train, test = make_split(c0.p, c0.train_frac, c0.data_seed, c0.split)
        self.train, self.test = train.to(device), test.to(device)
        self.members = [ModAddMLP(c.p, c.d_embed, c.width, c.init_seed, dtype, c.init) for c in configs]
        self.model = StackedMLP(self.members).to(device)
        self.model.bind(self.members)
        self.opt = StackedAdamW(self.model.blocks(), lr=[c.lr for c in configs],
                                weight_decay=[c.weight_decay for c in configs], betas=(c0.beta1, c0.beta2))
        self.rows: list[dict[str, list[float]]] = [{} for _ in configs]
        self.prev_pattern: list[Optional[torch.Tensor]] = [None] * len(configs)
        self.snap_steps: list[int] = []
        self.snaps: list[dict[str, list[np.ndarray]]] = [{} for _ in configs]

    # -- checkpoints ----------------------------------------------------------------
    def state(self, step: int) -> TrainState:
        arrays = {f"model/{k}": v.detach().cpu().numpy().copy() for k, v in self.model.blocks().items()}
        arrays |= {f"opt/{k}": v.cpu().numpy().copy() for k, v in self.opt.state_arrays().items()}
        for i, rows in enumerate(self.rows):
            arrays |= {f"{i}/rows/{name}": np.asarray(values, dtype=np.float64) for name, values in rows.items()}
            if self.prev_pattern[i] is not None:
                arrays[f"{i}/prev_pattern"] = self.prev_pattern[i].cpu().numpy()
            arrays |= {f"{i}/snap/{k}": np.stack(v) for k, v in self.snaps[i].items()}
        arrays["snap_steps"] = np.asarray(self.snap_steps, dtype=np.int64)
        return TrainState(step=step, arrays=arrays)

    def restore(self, state: TrainState) -> None:
        device = self.train.a.device
        with torch.no_grad():
            for k, v in self.model.blocks().items():
                v.copy_(torch.from_numpy(state.arrays[f"model/{k}"]))
        opt = {k[4:]: torch.from_numpy(v.copy()).to(device) for k, v in state.arrays.items() if k.startswith("opt/")}
        self.opt.load_state_arrays(opt, state.step)
        for i in range(len(self.rows)):
            tag = f"{i}/"
            self.rows[i] = {k[len(tag) + 5:]: list(v) for k, v in state.arrays.items() if k.startswith(tag + "rows/")}
            if tag + "prev_pattern" in state.arrays:
                self.prev_pattern[i] = torch.from_numpy(state.arrays[tag + "prev_pattern"]).to(device)
            self.snaps[i] = {k[len(tag) + 5:]: list(v) for k, v in state.arrays.items() if k.startswith(tag + "snap/")}
        self.snap_steps = state.arrays["snap_steps"].tolist()

    # -- one step -------------------------------------------------------------------
    def losses_and_patterns(self):
        """Per-member train losses (M,), logits (M x n x p) and pre-activations (M x n x width)."""
        pre = self.model.preactivation(self.train.a, self.train.b)
        logits = self.model.logits(pre)
        return cross_entropy64(logits, self.train.y, self.train.weight), logits, pre

    @torch.no_grad()
    def record(self, losses, logits, pre) -> list[dict]:
        self.model.share_grads(self.members)
        rows = []
        for i, member in enumerate(self.members):
            row, self.prev_pattern[i] = record_member(member, self.train, self.test, losses[i], logits[i], pre[i],
                                                      self.prev_pattern[i])
            rows.append(row)
        return rows

    @torch.no_grad()
    def record_updates(self, before: dict[str, torch.Tensor]) -> None:
        """The relative update AdamW actually applied, per member and block."""
        for k, v in self.model.blocks().items():
            for i, rows in enumerate(self.rows):
                rel = float((v[i] - before[k][i]).norm() / before[k][i].norm())
                rows.setdefault(f"update_{k}", []).append(rel)

    def snapshot(self, step: int) -> None:
        self.snap_steps.append(step)
        for i, member in enumerate(self.members):
            for k, v in member.blocks().items():
                self.snaps[i].setdefault(k, []).append(v.detach().cpu().numpy().copy())


def check_finite(losses: torch.Tensor, step: int, configs: Sequence[ModAddConfig]) -> None:
    """A FloatingPointError naming the step, lr and weight decay if any member's loss is NaN or infinite."""
    values = losses.detach().cpu().tolist()
    for value, config in zip(values, configs):
        if not math.isfinite(value):
            raise FloatingPointError(
                f"training diverged at step {step}: train loss is {value} "
                f"(lr={config.lr}, weight_decay={config.weight_decay}); lower lr or check the config"
            )


def checks_every_step(device: str) -> bool:
    """Whether the loss is checked for NaN at every step: on the CPU (free there), not on a GPU,
    where reading a value back would make the host wait for the device at every step."""
    return device == "cpu"


def train(
    config: ModAddConfig,
    callbacks: Sequence[Callback] = (),
    *,
    resume: Optional[TrainState] = None,
    on_checkpoint: Optional[Callable[[TrainState], None]] = None,
    progress: bool = True,
    device: Optional[str] = None,
) -> History:
    """Train ``config`` full batch and return its history (a stack of one; see :func:`train_sweep`)."""
    return train_sweep([config], callbacks, resume=resume, on_checkpoint=on_checkpoint, progress=progress,
                       device=device)[0]


def train_sweep(
    configs: Sequence[ModAddConfig],
    callbacks: Sequence[Callback] = (),
    *,
    resume: Optional[TrainState] = None,
    on_checkpoint: Optional[Callable[[TrainState], None]] = None,
    progress: bool = True,
    device: Optional[str] = None,
) -> list[History]:
    """Train ``configs`` (differing only in weight decay, init seed or lr) as one stack.

    ``callbacks`` are called as ``cb(step, row)`` at every recorded step, once per member
    (``row["member"]`` is its index). ``resume`` continues from a checkpoint;
    ``on_checkpoint`` receives one every ``checkpoint_every`` steps (of the first config).
    The losses are checked for NaN/inf at every step on the CPU, at recorded steps on a GPU
    (so the loop never waits for the device in between).
    """
    check_stackable(configs)
    c0 = configs[0]
    device = device or resolve_device(c0.device)
    run = StackRun(configs, device)
    start = 0
    if resume is not None:
        run.restore(resume)
        start = resume.step
    t0 = time.perf_counter()
    wds = ",".join(f"{c.weight_decay:g}" for c in configs)
    label = f"p={c0.p} wd={wds} width={c0.width}"
    bar = tqdm(total=c0.epochs, initial=start, desc=label, disable=not progress, mininterval=10, ascii=True)
    sweep_loop(run, configs, callbacks, bar, start=start, check=checks_every_step(device), on_checkpoint=on_checkpoint)
    bar.close()
    meta = {"device": device, "seconds": round(time.perf_counter() - t0, 3), "resumed_from": start,
            "stacked_with": len(configs)}
    return histories_of(run, configs, meta)


def sweep_loop(run: StackRun, configs: Sequence[ModAddConfig], callbacks: Sequence[Callback], bar, *, start: int,
               check: bool, on_checkpoint: Optional[Callable[[TrainState], None]] = None,
               plain_step: Optional[Callable[[int], bool]] = None, eager_step: Optional[Callable] = None,
               stop: Optional[Callable[[int], bool]] = None) -> Optional[int]:
    """The training loop of :func:`train_sweep` from step ``start`` to the last: each step run by ``eager_step``
    (:func:`step_eagerly`'s signature; it by default), a checkpoint every ``checkpoint_every`` steps.

    The hooks are for a trainer that takes the same steps faster (the GPU check's CUDA-graph replay,
    ``benchmarks/cuda_graphs.py``): ``plain_step(step)`` is offered each step that is neither recorded, a
    snapshot nor the last, and returns whether it took it (False: the step runs eagerly); ``stop(step)``, asked
    at each recorded step after ``start``, True ends the loop before that step, which is returned (None when
    the loop ran to the end)."""
    c0 = configs[0]
    eager_step = eager_step or step_eagerly
    schedule = set(record_schedule(c0.epochs, c0.eval_every).tolist())
    snapshots = set(snapshot_schedule(c0.epochs).tolist())
    for step in range(start, c0.epochs + 1):
        recorded, snapshot = step in schedule, step in snapshots
        if recorded and stop is not None and step > start and stop(step):
            return step
        plain = not (recorded or snapshot or step == c0.epochs)
        if not (plain and plain_step is not None and plain_step(step)):
            if eager_step(run, step, configs, callbacks, bar, recorded=recorded, snapshot=snapshot, check=check):
                break
        bar.update(1)
        if on_checkpoint is not None and (step + 1) % c0.checkpoint_every == 0 and step + 1 < c0.epochs:
            on_checkpoint(run.state(step + 1))
    return None


def step_eagerly(run: StackRun, step: int, configs: Sequence[ModAddConfig], callbacks: Sequence[Callback], bar, *,
                 recorded: bool, snapshot: bool, check: bool, record: Optional[Callable] = None,
                 record_updates: Optional[Callable] = None) -> bool:
    """Step ``step`` of the loop, run eagerly: forward and backward, the recording (``recorded``: rows for
    every member, passed to ``callbacks``), the snapshot (``snapshot``) and the AdamW update. ``check``:
    the losses are checked for NaN/inf even at an unrecorded step. ``record(losses, logits, pre)`` and
    ``record_updates(before)`` replace the run's per-member recording (the GPU check's batched recorder
    passes its own). True at the last step, which takes no update: the loop ends there."""
    record = record or run.record
    record_updates = record_updates or run.record_updates
    losses, logits, pre = run.losses_and_patterns()
    if check or recorded:
        check_finite(losses, step, configs)
    run.opt.zero_grad()
    losses.sum().backward()  # the sum of per-member means: each member gets its own gradient
    if recorded:
        rows = record(losses, logits, pre)
        for i, row in enumerate(rows):
            for name, value in row.items():
                run.rows[i].setdefault(name, []).append(value)
            run.rows[i].setdefault("step", []).append(step)
            for cb in callbacks:
                cb(step, row | {"member": i})
        bar.set_postfix(train=f"{max(r['train_loss'] for r in rows):.1e}", refresh=False)
    if snapshot:
        run.snapshot(step)
    if step == configs[0].epochs:
        if recorded:
            for rows in run.rows:
                for k in StackedMLP.BLOCKS:
                    rows.setdefault(f"update_{k}", []).append(math.nan)
        return True
    before = {k: v.detach().clone() for k, v in run.model.blocks().items()} if recorded else None
    run.opt.step()
    if before is not None:
        record_updates(before)
    return False


def histories_of(run: StackRun, configs: Sequence[ModAddConfig], meta: dict) -> list[History]:
    """Each member's history from the run's rows and snapshots (``meta``: the facts every member shares)."""
    out = []
    for i, config in enumerate(configs):
        rows = dict(run.rows[i])
        steps = np.asarray(rows.pop("step", []), dtype=np.int64)
        metrics = {k: np.asarray(v, dtype=np.float64) for k, v in rows.items()}
        snaps = {k: np.stack(v) for k, v in run.snaps[i].items()}
        out.append(History(steps=steps, metrics=metrics, config=config.to_dict(), meta=dict(meta),
                           snapshot_steps=np.asarray(run.snap_steps, dtype=np.int64), snapshots=snaps))
    return out
