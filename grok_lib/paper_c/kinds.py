"""Part C's row in the table of run kinds (:mod:`grok_lib.kinds`): the teacher-student linear estimators."""

from __future__ import annotations

from ..kinds import RunKind, register
from . import config, simulate, theory
from .config import LinearEstimatorConfig


def train_group(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
    """One run per config (numpy float64, seconds each: no checkpoints, no callbacks)."""
    return [simulate.train(c, progress=progress) for c in configs]


LINEAR_ESTIMATOR = register(RunKind(
    name="paper_c.linear_estimator",
    config_type=LinearEstimatorConfig,
    train=train_group,
    code=(config, theory, simulate),  # config: N_tr and the eta check are derived there
    # eigenbasis runs cost ~d_in^3 whatever the steps; the tanh net costs per step
    cost=lambda c: (c.d_in / 1000) ** 3 + (c.steps * c.d_in * c.hidden * 1e-10 if c.model == "tanh" else 0.0),
))
