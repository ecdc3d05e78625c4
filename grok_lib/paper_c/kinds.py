"""Part C's row in the table of run kinds (:mod:`grok_lib.kinds`): the teacher-student linear estimators."""

from __future__ import annotations

from ..kinds import RunKind, register
from . import config, run_theory, samples, simulate, theory
from .config import LinearEstimatorConfig


def train_group(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
    """One run per config (numpy float64, no checkpoints); ``callbacks`` are called as ``cb(step, row)`` at each
    record step (:func:`.simulate.train`)."""
    return [simulate.train(c, progress=progress, callbacks=callbacks) for c in configs]


def memory(c: dict) -> float:
    """Bytes of one run's peak, an upper estimate: the training and test inputs (float64, each also
    rotated into the eigenbasis), the sample covariance, its eigenvectors and eigh's workspace
    (d_in x d_in), the labels and residuals, the two-layer nets' hidden activations, the per-sample
    error blocks (simulate: about 16 MB each) and the process."""
    d, n, n_test, d_out = c["d_in"], max(1, round(c["d_in"] / c["lam"])), c["n_test"], c["d_out"]
    hidden = c["hidden"] if c["model"] != "linear" else 0
    return 8.0 * (2 * n * d + 2 * n_test * d + 5 * d * d + 6 * (n + n_test) * d_out + 4 * (n + n_test) * hidden
                  + 4 * d * (hidden + d_out)) + 2.0**26 + 2.0**28


def step_seconds(c: dict) -> float:
    """Seconds per GD step on the book's CPU: the linear model in its eigenbasis is closed form (no cost per
    step); the two-layer nets' step is about 1e-9 s per sample x input x hidden unit (the tanh runs in the run
    store: 2.4-15.5 s for 3,000 steps at 400 x 200 x 40); the direct solver's about 1e-9 s per sample x input
    x output."""
    n = max(1, round(c["d_in"] / c["lam"]))
    if c["model"] != "linear":
        return 1e-9 * n * c["d_in"] * c["hidden"]
    return 1e-9 * n * c["d_in"] * c["d_out"] if c["solver"] == "direct" else 0.0


LINEAR_ESTIMATOR = register(RunKind(
    name="paper_c.linear_estimator",
    config_type=LinearEstimatorConfig,
    train=train_group,
    code=(config, theory, samples, run_theory, simulate),  # config: N_tr and the eta check are derived there
    memory=memory,
    sizes=("d_in", "n_test", "d_out", "hidden"),
    spelled={"d_out": "d_outs", "lam": "lams", "gamma": "gammas"},
    # eigenbasis runs cost ~d_in^3 whatever the steps; the nonlinear nets (tanh, ReLU) cost per step
    cost=lambda c: (c.d_in / 1000) ** 3 + (c.steps * c.d_in * c.hidden * 1e-10 if c.model in ("tanh", "relu") else 0.0),
    step_seconds=step_seconds,
))
