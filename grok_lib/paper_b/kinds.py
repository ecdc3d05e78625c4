"""Paper B's rows in the table of run kinds (:mod:`grok_lib.kinds`): one per config type.

Every Paper B run takes seconds, so none checkpoints and none stacks (a group is one run).
The hashed ``code`` of each row is the modules whose source determines its numbers:

- the diagonal nets (sparse classification, misgrokking): :mod:`.diagonal` and :mod:`.margins`
  (the margin classifiers' cosines are recorded during training);
- matrix completion and the modular-addition MLP: their trainer and :mod:`.diagonal`, whose
  recording schedule they use;
- the bridge to Part A (:mod:`.bridge_train`): its trainer, and Paper A's model and split (a row
  may hash another part's modules: editing Paper A's model or task changes every bridge key).
"""

from __future__ import annotations

from ..kinds import RunKind, config_device, register
from ..paper_a import model as paper_a_model, task as paper_a_task
from . import bridge_train, diagonal, margins, matrix_completion, modadd
from .bridge import InitScaleConfig
from .config import MatrixCompletionConfig, MisgrokkingConfig, ModAddConfig, SparseConfig


def _one_by_one(train_one):
    """A group trainer (see :data:`grok_lib.kinds.GroupTrainer`) that trains each config alone, no checkpoints."""

    def train(configs, *, device, resume, on_checkpoint, progress, callbacks=()):
        return [train_one(c, progress=progress) for c in configs]

    train.__doc__ = f"Train each config with :func:`{train_one.__module__}.{train_one.__name__}` (no checkpoints)."
    return train


train_diagonal_group = _one_by_one(diagonal.train)
train_matrix_completion_group = _one_by_one(matrix_completion.train)
train_modadd_group = _one_by_one(modadd.train)
train_init_scale_group = _one_by_one(bridge_train.train)

SPARSE = register(RunKind(
    name="paper_b.sparse",
    config_type=SparseConfig,
    train=train_diagonal_group,
    code=(diagonal, margins),
    cost=lambda c: c.steps * c.d * c.n_train * 1e-9,
))

MISGROKKING = register(RunKind(
    name="paper_b.misgrokking",
    config_type=MisgrokkingConfig,
    train=train_diagonal_group,
    code=(diagonal, margins),
    cost=lambda c: c.steps * c.d * c.n_train * 1e-9,
))

MATRIX_COMPLETION = register(RunKind(
    name="paper_b.matrix_completion",
    config_type=MatrixCompletionConfig,
    train=train_matrix_completion_group,
    code=(matrix_completion, diagonal),
    cost=lambda c: c.steps * c.d**3 * 1e-9,
))

MODADD = register(RunKind(
    name="paper_b.modadd",
    config_type=ModAddConfig,
    train=train_modadd_group,
    code=(modadd, diagonal),
    device=config_device,
    cost=lambda c: c.steps * c.width * c.p**2 * c.train_frac * 1e-9,
))

INIT_SCALE = register(RunKind(
    name="paper_b.init_scale",
    config_type=InitScaleConfig,
    train=train_init_scale_group,
    code=(bridge_train, paper_a_model, paper_a_task),
    device=config_device,
    cost=lambda c: c.steps * c.width * c.p**2 * c.train_frac * 1e-9,
))
