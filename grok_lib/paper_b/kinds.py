"""Paper B's rows in the table of run kinds (:mod:`grok_lib.kinds`): one per config type.

Every Paper B run takes seconds, so none checkpoints and none stacks (a group is one run).
The hashed ``code`` of each row is the modules whose source determines its numbers:

- the diagonal nets (sparse classification, misgrokking): :mod:`.diagonal` and :mod:`.margins`
  (the margin classifiers' cosines are recorded during training);
- matrix completion and the modular-addition MLP: their trainer and :mod:`.diagonal`, whose
  recording schedule they use; the MLP with the stable step (the book's in-regime runs): :mod:`.stable_gd`,
  :mod:`.sharpness` and the MLP's own modules;
- the bridge to Part A (:mod:`.bridge_train`): its trainer, and Paper A's model and split (a row
  may hash another part's modules: editing Paper A's model or task changes every bridge key).
"""

from __future__ import annotations

from ..kinds import RunKind, config_device, register
from ..paper_a import model as paper_a_model, task as paper_a_task
from . import bridge_train, diagonal, margins, matrix_completion, relu_net, sharpness, stable_gd
from .bridge import InitScaleConfig
from .config import MatrixCompletionConfig, MisgrokkingConfig, ModAddConfig, SparseConfig, StableModAddConfig


def _one_by_one(train_one):
    """A group trainer (see :data:`grok_lib.kinds.GroupTrainer`) that trains each config alone, no checkpoints.
    ``callbacks`` (each called as ``cb(step, row)`` at every recorded step, as :func:`grok_lib.recorded.retrain_prefix`
    needs) are handed on to the trainers that take them: the diagonal nets' and matrix completion's."""

    def train(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
        extra = {"callbacks": tuple(callbacks)} if callbacks else {}
        return [blamed(train_one, c, progress=progress, **extra) for c in configs]

    train.__doc__ = f"Train each config with :func:`{train_one.__module__}.{train_one.__name__}` (no checkpoints)."
    return train


def blamed(train_one, config, **kwargs):
    """``train_one(config)``; a run that diverges from a large initialisation also names alpha: GD's stable step
    shrinks as 1 / alpha^2 for these two-layer nets, so the trainer's "lower lr" is only half the remedy."""
    try:
        return train_one(config, **kwargs)
    except FloatingPointError as err:
        if isinstance(config, ModAddConfig) and config.alpha > 1:
            raise FloatingPointError(f"{err}, or lower alpha (now {config.alpha:g}): GD's stable step shrinks as "
                                     f"1 / alpha^2") from None
        raise


# --- memory: upper estimates of one run's peak, in bytes (checked before anything runs) ---------------
PROCESS = 2.0**28  # the interpreter, numpy / torch and scipy themselves


def diagonal_memory(c: dict) -> float:
    """The float64 training inputs (and their int8 / Gaussian draw), the test inputs (compact: 1 byte
    per sign or 4 per Gaussian, past diagonal.COMPACT_ENTRIES), the margin classifiers' linear program
    (the signed inputs twice, and HiGHS's sparse copy of them), d-vectors and the beta snapshots."""
    n, d, n_test = c["n_train"], c["d"], c["n_test"]
    compact = n_test * d > diagonal.COMPACT_ENTRIES
    test = n_test * d * ((1 if "k" in c else 4) if compact else 8) * 2
    margins_lp = 16.0 * n * d * 4 if c["margins"] else 0.0
    return 16.0 * n * d + test + margins_lp + 8.0 * d * (40 + c["n_snapshots"]) + 8.0 * 1024 * d + PROCESS


def matrix_completion_memory(c: dict) -> float:
    """U, V, W = U U^T - V V^T, the target, the mask, their gradients and temporaries: d x d float64s."""
    return 8.0 * 24 * c["d"] ** 2 + 8.0 * 64 * (c["n_log"] + 2) + PROCESS


def modadd_memory(c: dict) -> float:
    """Every ordered pair's hidden pre-activations, activations and their gradients (float64, p^2 x width)
    and its logits (p^2 x p), with the one-hot inputs of the dense check, and the weights."""
    p, width = c["p"], c["width"]
    return 8.0 * (6 * p * p * width + 6 * p**3 + 8 * width * 3 * p) + PROCESS


def init_scale_memory(c: dict) -> float:
    """Paper A's MLP at the bridge's settings (Part A's estimate, with steps as its epochs)."""
    from ..paper_a.config import memory_estimate

    return memory_estimate(c | {"epochs": c["steps"], "split": "unordered"})


#: How a run's steps are set where no parameter sets them (the time error names these).
HORIZON_STEPS = "steps = horizon x ln(alpha) / (weight_decay x lr)"


def mlp_step_seconds(c: dict) -> float:
    """Seconds per full-batch step of the modular-addition MLPs: the run store's wall times over
    width x p^2 x train_frac (median 9e-9 for GD, 10e-9 for AdamW; 162 runs), rounded up."""
    return 10e-9 * c["width"] * c["p"] ** 2 * c["train_frac"]


train_diagonal_group = _one_by_one(diagonal.train)
train_matrix_completion_group = _one_by_one(matrix_completion.train)
train_modadd_group = _one_by_one(relu_net.train)
train_stable_modadd_group = _one_by_one(stable_gd.train)
train_init_scale_group = _one_by_one(bridge_train.train)

SPARSE = register(RunKind(
    name="paper_b.sparse",
    config_type=SparseConfig,
    train=train_diagonal_group,
    code=(diagonal, margins),
    memory=diagonal_memory,
    sizes=("d", "n_train", "n_test"),
    spelled={"alpha": "alphas", "weight_decay": "weight_decays"},
    cost=lambda c: c.steps * c.d * c.n_train * 1e-9,
    step_seconds=lambda c: 10e-9 * c["d"] * c["n_train"],  # the run store's wall times: median 10e-9 (36 runs)
    steps_from=HORIZON_STEPS,
))

MISGROKKING = register(RunKind(
    name="paper_b.misgrokking",
    config_type=MisgrokkingConfig,
    train=train_diagonal_group,
    code=(diagonal, margins),
    memory=diagonal_memory,
    sizes=("d", "n_train", "n_test"),
    spelled={"n_train": "misgrokking_n_train", "alpha": "misgrokking_alpha"},
    cost=lambda c: c.steps * c.d * c.n_train * 1e-9,
    step_seconds=lambda c: 10e-9 * c["d"] * c["n_train"],  # as the sparse runs' (the same trainer)
    steps_from=HORIZON_STEPS,
))

MATRIX_COMPLETION = register(RunKind(
    name="paper_b.matrix_completion",
    config_type=MatrixCompletionConfig,
    train=train_matrix_completion_group,
    code=(matrix_completion, diagonal),
    memory=matrix_completion_memory,
    sizes=("d", "n_log"),
    spelled={},
    cost=lambda c: c.steps * c.d**3 * 1e-9,
    step_seconds=lambda c: 7e-9 * c["d"] ** 3,  # the run store's wall times: median 7e-9 (4 runs)
    steps_from=HORIZON_STEPS,
))

MODADD = register(RunKind(
    name="paper_b.modadd",
    config_type=ModAddConfig,
    train=train_modadd_group,
    code=(relu_net, diagonal),
    device=config_device,
    memory=modadd_memory,
    sizes=("p", "width"),
    spelled={"data_seed": "seeds", "init_seed": "seeds"},
    cost=lambda c: c.steps * c.width * c.p**2 * c.train_frac * 1e-9,
    step_seconds=mlp_step_seconds,
))

INIT_SCALE = register(RunKind(
    name="paper_b.init_scale",
    config_type=InitScaleConfig,
    train=train_init_scale_group,
    code=(bridge_train, paper_a_model, paper_a_task),
    device=config_device,
    memory=init_scale_memory,
    sizes=("p", "width", "d_embed", "steps"),
    spelled={"data_seed": "seeds", "init_seed": "seeds"},
    cost=lambda c: c.steps * c.width * c.p**2 * c.train_frac * 1e-9,
    step_seconds=mlp_step_seconds,
))

STABLE_MODADD = register(RunKind(
    name="paper_b.modadd_stable",
    config_type=StableModAddConfig,
    train=train_stable_modadd_group,
    code=(stable_gd, sharpness, relu_net, diagonal),
    device=config_device,
    memory=modadd_memory,
    sizes=("p", "width"),
    spelled={"data_seed": "seeds", "init_seed": "seeds"},
    cost=lambda c: c.steps * c.width * c.p**2 * c.train_frac * 1e-9,
    step_seconds=mlp_step_seconds,
))
