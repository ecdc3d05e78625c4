"""Paper A's rows in the table of run kinds (:mod:`grok_lib.kinds`): the MLP and the deep linear net."""

from __future__ import annotations

from ..kinds import RunKind, config_device, register
from . import metrics, model, stacked, task, train
from .config import NOT_IN_KEY, ModAddConfig
from .dln import optim as dln_optim, theory as dln_theory, train as dln_train
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


MLP = register(RunKind(
    name="paper_a.mlp",
    config_type=ModAddConfig,
    train=train_mlp_group,
    code=(task, model, stacked, metrics, train),
    device=config_device,
    stack_signature=stacked.stack_signature,
    # Measured with benchmarks/bench_sweep.py: on the 2-core CPU a 5-member stack of the default
    # profile runs at 0.80-0.96x the speed of its members one by one (its M x n x width activations
    # no longer fit the cache), so the CPU trains one member at a time; a GPU takes the whole sweep.
    max_group={"cpu": 1, "cuda": 64},
    cost=lambda c: c.epochs * c.width * c.p**2 * c.train_frac * 1e-9,
    not_in_key=NOT_IN_KEY,
))

DEEP_LINEAR = register(RunKind(
    name="paper_a.deep_linear",
    config_type=DeepLinearConfig,
    train=train_dln_group,
    code=(dln_theory, dln_optim, dln_train),
    cost=lambda c: c.steps * c.depth * 1e-6,
))
