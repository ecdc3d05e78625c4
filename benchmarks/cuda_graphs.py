"""Paper A's trainer with the unrecorded steps replayed from a CUDA graph.

Between two recorded steps :func:`grok_lib.paper_a.train.train_sweep` does the same thing
at every step: a forward pass, a backward pass and an AdamW update, nothing read back. At
the paper's sizes (1-7 GFLOP per stacked step) a GPU spends that step waiting for the
~70 operations Python launches one by one. :func:`train_sweep_captured` captures the
step once as a CUDA graph and replays it, one launch per step. Everything else is the code of
:mod:`~grok_lib.paper_a.train` itself: its loop (:func:`~grok_lib.paper_a.train.sweep_loop`, which
offers each unrecorded step to the replay), its :class:`~grok_lib.paper_a.train.StackRun`, its
recorded steps, snapshots and checkpoints.

Why a replay computes what the eager step computes:

- the AdamW scalars that change with the step count (the bias corrections, Python floats
  in :meth:`StackedAdamW.step <grok_lib.paper_a.stacked.StackedAdamW.step>`) would be
  frozen into the graph. The kernels only ever see them in the parameters' dtype, and there
  they stop changing after some hundreds of steps (``(1 - beta2**t) ** 0.5`` rounds to 1 and
  ``-lr / (1 - beta1**t)`` to ``-lr``): the loop runs eagerly until :func:`frozen_from`
  and replays from there, with the very values the eager step would pass;
- the update is :class:`StackedAdamW`'s, operation by operation, except that the
  per-member decay and step-size tensors are made once (``StackedAdamW`` builds them from
  Python lists at every step: a host-to-device copy that waits for the device);
- gradients are written into buffers the graph owns; the eager steps' ``zero_grad`` (set
  to None) does not disturb them.

This is not the run store's trainer (the table of run kinds still trains with
:func:`~grok_lib.paper_a.train.train_sweep`; nothing here is in a run key). The switch
``capture`` defaults to False, the path that is tested everywhere: the same step run
eagerly, whose histories are bitwise those of ``train_sweep`` on the CPU
(``tests/test_gpu_check.py``). ``capture=True`` needs CUDA; whether its replays are bitwise
the eager GPU steps is measured by ``benchmarks/gpu_check.py``, which reports both.

``recorder="batched"`` records all members at once (one batched SVD per matrix, one read
back per recorded step) instead of member by member; its rows agree with the per-member
recording to float32 rounding (tested on the CPU).
"""

from __future__ import annotations

import math
import time
from typing import Callable, Optional, Sequence

import grok_lib  # noqa: F401  before numpy and torch: it pins the arithmetic (grok_lib/arithmetic.py)
import numpy as np
import torch
from tqdm import tqdm

from grok_lib.config import ConfigError, need_choice, resolve_device
from grok_lib.history import History
from grok_lib.paper_a.config import ModAddConfig
from grok_lib.paper_a.metrics import cross_entropy64, svdvals
from grok_lib.paper_a.stacked import StackedMLP, check_stackable
from grok_lib.paper_a.train import (Callback, StackRun, TrainState, check_finite, checks_every_step, histories_of,
                                    step_eagerly, sweep_loop)

RECORDERS = ("eager", "batched")


# -- the AdamW scalars that depend on the step count ---------------------------------------------------
def adamw_scalars(lrs: Sequence[float], beta1: float, beta2: float, count: int) -> tuple[float, list[float]]:
    """``(bias2 ** 0.5, [-lr / bias1, ...])`` as :meth:`StackedAdamW.step` computes them at step ``count``."""
    step = float(count)
    bias1, bias2 = 1 - beta1**step, 1 - beta2**step
    return bias2**0.5, [-lr / bias1 for lr in lrs]


def _as_kernels_see_them(lrs, beta1, beta2, count, dtype: str) -> tuple:
    """The scalars in the parameters' dtype: Python floats reach float32 kernels rounded to float32."""
    sqrt_bias2, sizes = adamw_scalars(lrs, beta1, beta2, count)
    cast = np.float32 if dtype == "float32" else float
    return (cast(sqrt_bias2), *(cast(s) for s in sizes))


def frozen_from(configs: Sequence[ModAddConfig]) -> int:
    """The first optimiser step count from which the step-dependent AdamW scalars, in the
    parameters' dtype (as the kernels receive them), equal those of every later step up to
    ``epochs``.

    From this step on one captured update serves every step. With the profiles' betas
    (0.9, 0.98) it is step 824 in float32 (about 1,800 in float64); it is ``epochs`` itself if
    the scalars never settle.
    """
    c0 = configs[0]
    lrs = [c.lr for c in configs]
    last = _as_kernels_see_them(lrs, c0.beta1, c0.beta2, c0.epochs, c0.dtype)
    t = c0.epochs
    while t > 1 and _as_kernels_see_them(lrs, c0.beta1, c0.beta2, t - 1, c0.dtype) == last:
        t -= 1
    return t


# -- one step, eager or replayed ------------------------------------------------------------------------
class CapturedStep:
    """One training step of a :class:`StackRun` (forward, backward, AdamW update), run eagerly or
    replayed from a CUDA graph (``capture=True``).

    Made at optimiser step count ``run.opt.step_count + 1``, which must be at least
    :func:`frozen_from` of the run's configs: the step-dependent scalars are those of that
    step, equal (in the parameters' dtype) to those of every later one. Each call advances
    ``run.opt.step_count``, so eager steps of ``StackedAdamW`` can follow.
    """

    def __init__(self, run: StackRun, configs: Sequence[ModAddConfig], capture: bool = False, warmup: int = 3):
        opt = run.opt
        count = opt.step_count + 1
        if count < frozen_from(configs):
            raise ValueError(f"step {count} is before the AdamW scalars settle (step {frozen_from(configs)})")
        self.run, self.graph, self.static_losses = run, None, None
        sqrt_bias2, step_sizes = adamw_scalars(opt.lr, opt.beta1, opt.beta2, count)
        self.sqrt_bias2 = sqrt_bias2
        # Made once, with StackedAdamW's own rule (a float when the members agree, else an (M, 1, ...) tensor).
        self.decay = {k: opt.per_member([1 - lr * wd for lr, wd in zip(opt.lr, opt.wd)], p)
                      for k, p in opt.params.items()}
        self.step_size = {k: opt.per_member(step_sizes, p) for k, p in opt.params.items()}
        if capture:
            self._capture(warmup)

    # the step itself: the order of operations of train_sweep + StackedAdamW.step
    def _step(self) -> torch.Tensor:
        run = self.run
        run.opt.zero_grad()
        losses, _, _ = run.losses_and_patterns()
        losses.sum().backward()
        self._update()
        return losses.detach()

    @torch.no_grad()
    def _update(self) -> None:
        opt = self.run.opt
        for name, param in opt.params.items():
            grad, exp_avg, exp_avg_sq = param.grad, opt.exp_avg[name], opt.exp_avg_sq[name]
            decay = self.decay[name]
            if not (isinstance(decay, float) and decay == 1.0):  # AdamW skips the multiply when wd == 0
                param.mul_(decay)
            exp_avg.lerp_(grad, 1 - opt.beta1)
            exp_avg_sq.mul_(opt.beta2).addcmul_(grad, grad, value=1 - opt.beta2)
            denom = (exp_avg_sq.sqrt() / self.sqrt_bias2).add_(opt.eps)
            step_size = self.step_size[name]
            if isinstance(step_size, float):
                param.addcdiv_(exp_avg, denom, value=step_size)
            else:
                param.add_(exp_avg.mul(step_size).div_(denom))

    def _state(self) -> list[torch.Tensor]:
        opt = self.run.opt
        return [*opt.params.values(), *opt.exp_avg.values(), *opt.exp_avg_sq.values()]

    def _capture(self, warmup: int) -> None:
        """Warm up on a side stream (lazy initialisation must not happen inside the capture), put
        the state back as it was, then capture one step on that stream."""
        if not torch.cuda.is_available() or self.run.train.a.device.type != "cuda":
            raise ConfigError("capture=True needs a run on a CUDA device")
        saved = [t.detach().clone() for t in self._state()]
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(warmup):
                self._step()
        torch.cuda.current_stream().wait_stream(stream)
        with torch.no_grad():
            for t, s in zip(self._state(), saved):
                t.copy_(s)
        del saved
        self.run.opt.zero_grad()  # before the capture: no block allocated outside it is freed inside it
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph, stream=stream):
            self.static_losses = self._step()
        # The graph writes its gradients here at every replay (held so they stay alive).
        self.static_grads = {k: p.grad for k, p in self.run.opt.params.items()}

    def __call__(self) -> torch.Tensor:
        """One step; returns the members' train losses before it (the graph's buffer when captured)."""
        if self.graph is not None:
            self.graph.replay()
            losses = self.static_losses
        else:
            losses = self._step()
        self.run.opt.step_count += 1
        return losses


# -- recording all members at once ------------------------------------------------------------------------
#: The row of :func:`~grok_lib.paper_a.train.record_member`, in its order.
ROW = ("train_loss", "test_loss", "train_acc", "test_acc", "churn",
       *(f"{kind}_{name}" for name in ("E", "W", "U", "EW") for kind in ("srank", "spec")),
       *(f"{kind}_{k}" for k in StackedMLP.BLOCKS for kind in ("norm", "grad")),
       "mean_delta", "mean_delta_h", "mean_delta_z", "mean_delta_B")


@torch.no_grad()
def record_batched(run: StackRun, losses, logits, pre, svd_device: Optional[str] = None) -> list[dict]:
    """The rows of :func:`~grok_lib.paper_a.train.record_member` for every member at once.

    The same quantities with batched operations (one SVD call per matrix for all members),
    read back in one transfer. ``svd_device`` moves the SVDs (e.g. "cpu" while training on
    CUDA). Updates ``run.prev_pattern`` like :meth:`StackRun.record`.
    """
    model, train, test = run.model, run.train, run.test
    cols: dict[str, torch.Tensor] = {}
    nan = torch.full_like(losses, math.nan)
    test_logits = model.logits(model.preactivation(test.a, test.b))
    pattern = pre > 0
    cols["train_loss"] = losses.detach()
    cols["test_loss"] = cross_entropy64(test_logits, test.y, test.weight)
    cols["train_acc"] = ((logits.argmax(dim=-1) == train.y).to(torch.float64) * train.weight).sum(dim=-1)
    cols["test_acc"] = ((test_logits.argmax(dim=-1) == test.y).to(torch.float64) * test.weight).sum(dim=-1)
    if run.prev_pattern[0] is None:
        cols["churn"] = nan
    else:
        cols["churn"] = (pattern != torch.stack(run.prev_pattern)).double().mean(dim=(1, 2))
    run.prev_pattern = list(pattern.unbind(0))
    mats = {"E": model.E, "W": model.W, "U": model.U, "EW": torch.bmm(model.E, model.W.transpose(1, 2))}
    for name, mat in mats.items():
        s = svdvals(mat.detach().to(svd_device) if svd_device else mat)  # float64, (M, k), descending
        cols[f"sumsq_{name}"], cols[f"spec_{name}"] = (s**2).sum(dim=-1), s[:, 0]
    for k, v in model.blocks().items():
        cols[f"norm_{k}"] = v.flatten(1).norm(dim=1)
        cols[f"grad_{k}"] = nan if v.grad is None else v.grad.flatten(1).norm(dim=1)
    prob = torch.softmax(logits.to(torch.float64), dim=-1)
    prob[:, torch.arange(len(train.y), device=train.y.device), train.y] -= 1.0
    delta = prob.norm(dim=-1)  # ||softmax - onehot|| per member and row, as logit_gradient_norms
    w = train.weight
    cols["mean_delta"] = (w * delta).sum(dim=-1)
    cols["mean_delta_h"] = (w * delta * torch.relu(pre).norm(dim=-1).double()).sum(dim=-1)
    z = model.E.index_select(1, train.a) + model.E.index_select(1, train.b)
    cols["mean_delta_z"] = (w * delta * z.norm(dim=-1).double()).sum(dim=-1)
    norm_b = torch.where(train.a == train.b, 2.0, math.sqrt(2.0)).to(w)
    cols["mean_delta_B"] = (w * delta * norm_b).sum(dim=-1)
    values = {}
    for dev in {t.device for t in cols.values()}:  # one read back per device
        names = [n for n in cols if cols[n].device == dev]
        table = torch.stack([cols[n].to(torch.float64) for n in names]).cpu().numpy()
        values |= {n: [float(x) for x in row] for n, row in zip(names, table)}
    for name in mats:  # srank in Python, as stable_rank_and_norm does it
        values[f"srank_{name}"] = [sq / top**2 if top > 0 else 0.0
                                   for sq, top in zip(values.pop(f"sumsq_{name}"), values[f"spec_{name}"])]
    return [{n: values[n][i] for n in ROW} for i in range(len(losses))]


@torch.no_grad()
def record_updates_batched(run: StackRun, before: dict[str, torch.Tensor]) -> None:
    """:meth:`StackRun.record_updates` for every member at once (one read back)."""
    blocks = run.model.blocks()
    rel = torch.stack([(v - before[k]).flatten(1).norm(dim=1) / before[k].flatten(1).norm(dim=1)
                       for k, v in blocks.items()]).cpu().numpy()
    for j, k in enumerate(blocks):
        for i, rows in enumerate(run.rows):
            rows.setdefault(f"update_{k}", []).append(float(rel[j, i]))


# -- the loop ------------------------------------------------------------------------------------------------
def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def train_sweep_captured(
    configs: Sequence[ModAddConfig],
    callbacks: Sequence[Callback] = (),
    *,
    resume: Optional[TrainState] = None,
    on_checkpoint: Optional[Callable[[TrainState], None]] = None,
    progress: bool = False,
    device: Optional[str] = None,
    capture: bool = False,
    recorder: str = "eager",
    svd_device: Optional[str] = None,
    deadline: Optional[float] = None,
    timings: Optional[dict] = None,
) -> list[History]:
    """:func:`~grok_lib.paper_a.train.train_sweep`, with the unrecorded steps from step
    :func:`frozen_from` on taken by a :class:`CapturedStep` (replayed from a CUDA graph when
    ``capture``).

    ``recorder`` is "eager" (the per-member recording of ``train_sweep``) or "batched"
    (:func:`record_batched`). ``deadline`` (a ``time.perf_counter()`` value) stops the run at
    the first recorded step past it, with the history so far (``meta["stopped_at"]``).
    ``timings``, a dict, receives the seconds spent in the eagerly run steps (recorded,
    snapshot, last and early ones; with a device synchronisation around each), in making
    the captured step (capture and warm-up) and in the rest, the replayed steps.
    """
    check_stackable(configs)
    need_choice("recorder", recorder, RECORDERS)
    c0 = configs[0]
    device = device or resolve_device(c0.device)
    if capture and device != "cuda":
        raise ConfigError(f"capture=True needs device 'cuda', got {device!r}")
    run = StackRun(configs, device)
    start = 0
    if resume is not None:
        run.restore(resume)
        start = resume.step
    check_every_step = checks_every_step(device)
    settle = frozen_from(configs)
    recorders = {} if recorder == "eager" else {
        "record": lambda losses, logits, pre: record_batched(run, losses, logits, pre, svd_device),
        "record_updates": lambda before: record_updates_batched(run, before)}
    captured: list[CapturedStep] = []  # made at the first plain step past ``settle``
    clock = {"eager_s": 0.0, "eager_steps": 0, "replayed_steps": 0, "capture_s": 0.0}

    def plain_step(step: int) -> bool:
        """The trainer's loop offers each unrecorded step: taken here once the AdamW scalars have settled."""
        if run.opt.step_count + 1 < settle:
            return False
        if not captured:
            t = time.perf_counter()
            captured.append(CapturedStep(run, configs, capture=capture))
            clock["capture_s"] = time.perf_counter() - t
        losses = captured[0]()
        if check_every_step:
            check_finite(losses, step, configs)
        clock["replayed_steps"] += 1
        return True

    def eager_step(*args, **kwargs) -> bool:
        """The trainer's own step, with the batched recorder if chosen, timed (the last step too), with a device
        synchronisation around it when ``timings`` asks."""
        if timings is not None:
            _sync(device)
        t = time.perf_counter()
        last = step_eagerly(*args, **kwargs, **recorders)
        if timings is not None:
            _sync(device)
        clock["eager_s"] += time.perf_counter() - t
        clock["eager_steps"] += 1
        return last

    t0 = time.perf_counter()
    wds = ",".join(f"{c.weight_decay:g}" for c in configs)
    bar = tqdm(total=c0.epochs, initial=start, desc=f"p={c0.p} wd={wds} width={c0.width} (captured)",
               disable=not progress, mininterval=10, ascii=True)
    stopped_at = sweep_loop(run, configs, callbacks, bar, start=start, check=check_every_step,
                            on_checkpoint=on_checkpoint, plain_step=plain_step, eager_step=eager_step,
                            stop=None if deadline is None else lambda step: time.perf_counter() > deadline)
    _sync(device)
    bar.close()
    seconds = round(time.perf_counter() - t0, 3)
    if timings is not None:
        timings.update(clock, total_s=seconds, settle_step=settle,
                       replay_s=round(seconds - clock["eager_s"] - clock["capture_s"], 3))
    meta = {"device": device, "seconds": seconds, "resumed_from": start, "stacked_with": len(configs),
            "trainer": "cuda_graphs", "captured": bool(capture and captured), "recorder": recorder,
            "replayed_from_step": settle}
    if stopped_at is not None:
        meta["stopped_at"] = stopped_at
    return histories_of(run, configs, meta)
