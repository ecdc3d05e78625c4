"""Paper A's rows in the table of run kinds (:mod:`grok_lib.kinds`): the MLP and the deep linear net."""

from __future__ import annotations

import functools
import math

import numpy as np

from ..kinds import RunKind, config_device, register
from . import config as mlp_config, metrics, model, stacked, task, train
from .config import NOT_IN_KEY, ModAddConfig
from .dln import config as dln_config, optim as dln_optim, theory as dln_theory, train as dln_train
from .dln.config import DeepLinearConfig


def train_mlp_group(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
    """A stack of MLP configs (see :func:`train.train_sweep`), with checkpoints as plain arrays."""
    return train.train_sweep(
        configs, callbacks,
        resume=None if resume is None else train.TrainState.from_arrays(resume),
        on_checkpoint=None if on_checkpoint is None else (lambda state: on_checkpoint(state.to_arrays())),
        progress=progress, device=device)


def train_dln_group(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
    """One deep linear run (seconds; no checkpoints, no callbacks)."""
    return [dln_train.train_deep_linear(c, progress=progress) for c in configs]


#: A run has diverged when its final train loss is above this many times chance (ln of the class
#: count: a uniform guess). A run stuck at chance is not diverged; one 10x above it predicts the
#: wrong classes with confidence, which no converging optimiser ends at.
DIVERGED_FACTOR = 10.0


def check_loss(config, history, n_classes: int, lr_names: str) -> str | None:
    """Why a finished run is diverged (its final train loss far above chance, ln n_classes), or None."""
    final, chance = history.final("train_loss"), math.log(n_classes)
    if math.isfinite(final) and final <= DIVERGED_FACTOR * chance:
        return None
    return (f"({lr_names}) diverged: its final train loss {final:.3g} is more than {DIVERGED_FACTOR:g}x chance "
            f"(ln {n_classes} = {chance:.3g}); lower lr")


def check_mlp(config, history) -> str | None:
    return check_loss(config, history, config.p, f"lr={config.lr}, weight_decay={config.weight_decay}")


def check_dln(config, history) -> str | None:
    return check_loss(config, history, config.n_classes,
                      f"depth={config.depth}, {config.optimizer}, lr={config.lr}, weight_decay={config.weight_decay}")


@functools.cache
def row_names() -> tuple[str, ...]:
    """The rows a checkpoint keeps per member: what the trainer records, read off one step of a tiny run."""
    tiny = ModAddConfig(p=3, train_frac=0.5, d_embed=2, width=2, epochs=1, eval_every=1, device="cpu")
    return ("step", *train.train_sweep([tiny], progress=False, device="cpu")[0].metrics)


def check_mlp_resume(configs, arrays: dict) -> str | None:
    """Why ``arrays`` (a checkpoint) cannot continue the stack ``configs``, or None: its step must lie
    inside the run, and every array the trainer restores must be there with the shape and length
    the configs and that step imply (the recorded rows and kept snapshots of the steps before it)."""
    c, m = configs[0], len(configs)
    step = arrays.get("step")
    if step is None or np.shape(step) != () or np.asarray(step).dtype.kind not in "iu":
        return "it has no integer step"
    step = int(step)
    if not 0 < step < c.epochs:
        return f"its step {step} is not inside the run (1 .. {c.epochs - 1})"
    dtype = np.dtype(c.dtype)
    blocks = {"E": (c.p, c.d_embed), "W": (c.width, c.d_embed), "b": (c.width,), "U": (c.p, c.width)}
    recorded = [s for s in train.record_schedule(c.epochs, c.eval_every) if s < step]
    kept = [s for s in train.snapshot_schedule(c.epochs) if s < step]
    n_rows = task.make_split(c.p, c.train_frac, c.data_seed, c.split)[0].n_unordered
    expected = {f"{prefix}/{k}": ((m, *shape), dtype) for k, shape in blocks.items()
                for prefix in ("model", "opt/exp_avg", "opt/exp_avg_sq")}
    expected["snap_steps"] = ((len(kept),), np.dtype(np.int64))
    expected["step"] = ((), np.asarray(arrays["step"]).dtype)
    rows = row_names() if recorded else ()
    for i in range(m):
        expected |= {f"{i}/snap/{k}": ((len(kept), *shape), dtype) for k, shape in blocks.items()}
        expected |= {f"{i}/rows/{name}": ((len(recorded),), np.dtype(np.float64)) for name in rows}
        if recorded:
            expected[f"{i}/prev_pattern"] = ((n_rows, c.width), np.dtype(bool))
    for name in sorted(expected.keys() | arrays.keys()):
        if name not in arrays:
            return f"array {name} is missing"
        if name not in expected:
            return f"array {name} does not belong to this run"
        shape, kind = expected[name]
        if arrays[name].shape != shape or arrays[name].dtype != kind:
            return f"array {name} is {arrays[name].dtype}{list(arrays[name].shape)}, expected {kind}{list(shape)}"
    if not np.array_equal(arrays["snap_steps"], kept):
        return "its kept snapshot steps do not match its step"
    for i in range(m):
        if recorded and not np.array_equal(arrays[f"{i}/rows/step"], recorded):
            return f"its recorded steps (member {i}) do not match its step {step}"
    if not all(np.isfinite(v).all() for k, v in arrays.items() if k.startswith(("model/", "opt/"))):
        return "its weights or optimiser state are not finite"
    return None


MLP = register(RunKind(
    name="paper_a.mlp",
    config_type=ModAddConfig,
    train=train_mlp_group,
    code=(task, model, stacked, metrics, train),
    memory=mlp_config.memory_estimate,
    sizes=mlp_config.SIZES,
    spelled={"weight_decay": "weight_decays"},
    device=config_device,
    stack_signature=stacked.stack_signature,
    # Measured with benchmarks/bench_sweep.py: on the 2-core CPU a 5-member stack of the default
    # profile runs at 0.80-0.96x the speed of its members one by one (its M x n x width activations
    # no longer fit the cache), so the CPU trains one member at a time; a GPU takes the whole sweep.
    max_group={"cpu": 1, "cuda": 64},
    cost=lambda c: c.epochs * c.width * c.p**2 * c.train_frac * 1e-9,
    # seconds per step on the book's CPU: the run store's wall times over these units (median 14e-9, 105 runs)
    steps="epochs",
    step_seconds=lambda c: 14e-9 * c["width"] * c["p"] ** 2 * c["train_frac"],
    not_in_key=NOT_IN_KEY,
    check=check_mlp,
    check_resume=check_mlp_resume,
))

DEEP_LINEAR = register(RunKind(
    name="paper_a.deep_linear",
    config_type=DeepLinearConfig,
    train=train_dln_group,
    code=(dln_theory, dln_optim, dln_train),
    memory=dln_config.memory_estimate,
    sizes=dln_config.SIZES,
    spelled={"depth": "depths"},
    cost=lambda c: c.steps * c.depth * 1e-6,
    step_seconds=lambda c: 18e-6 * c["depth"],  # the run store's wall times: median 18 us per layer and step
    check=check_dln,
))
