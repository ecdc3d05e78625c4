"""The table of run kinds: for each config type, how it is trained and what is in its key.

The run store (:mod:`grok_lib.store`) is only a cache; it asks this table what to do with
a config. A paper adds one row per config type (in its package's ``kinds`` module, which
its ``__init__`` imports, so the row exists as soon as the config class does) and never
edits the store::

    register(RunKind(name="paper_x.model", config_type=XConfig,
                     train=train_group, code=(model_module, train_module),
                     memory=memory_estimate, sizes=("d", "width")))

A row's ``train`` trains a *group* of configs and returns one history per config. Kinds
that cannot stack get groups of one; kinds with a ``stack_signature`` get groups of
configs whose signatures are equal (see :func:`grok_lib.runs.missing_groups`).

Every row estimates the memory one run needs (``memory``: the config's fields as a dict -> bytes,
an upper estimate) and names the ``sizes`` a user can lower; :func:`grok_lib.plans.plan` checks
every config against the budget (:func:`grok_lib.config.need_memory`) before anything is trained
or written, so a size no machine here can afford is a one-line ConfigError naming it.

Every row also states its cost per step on the book's CPU (``step_seconds``, calibrated against the run
store's wall times), so that :func:`grok_lib.plans.plan` refuses a run that would take longer than a day
(:func:`grok_lib.config.need_time`; ``GROK_MAX_RUN_HOURS`` overrides) before it starts.

Two optional checks keep what only the paper knows out of the store: ``check(config,
history)`` says why a finished history is not a result (a run that diverged: its loss
ended far above chance, which is the paper's to define), and ``check_resume(configs,
arrays)`` says why a checkpoint cannot continue the group ``configs`` (its step, its
arrays and their shapes against the configs). Each returns a reason, or None if fine.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Optional, Sequence

from .config import ConfigError, resolve_device
from .history import History

#: A group trainer: ``train(configs, *, device, resume, on_checkpoint, progress) -> [History]``.
#: ``resume`` is the arrays of the group's last checkpoint (or None); ``on_checkpoint(arrays)``
#: saves one. Kinds without checkpoints ignore both.
GroupTrainer = Callable[..., list[History]]


def cpu_only(config) -> str:
    """The device of kinds that always run on the CPU (numpy models)."""
    return "cpu"


def config_device(config) -> str:
    """The device of kinds whose config has a ``device`` field (auto | cpu | cuda)."""
    return resolve_device(config.device)


@dataclass(frozen=True)
class RunKind:
    name: str  # unique, e.g. "paper_a.mlp"; part of every key of this kind
    config_type: type  # the frozen dataclass this row trains
    train: GroupTrainer  # trains a group of configs (see GroupTrainer)
    code: tuple[ModuleType, ...]  # the modules whose source determines the numbers (hashed into keys)
    memory: Callable[[dict], float]  # bytes one run of these config fields needs at its peak (an upper estimate)
    sizes: tuple[str, ...]  # the fields a memory error may ask to lower (integers: dimensions, counts, steps)
    device: Callable[[object], str] = cpu_only  # the resolved device of a config (part of its key)
    stack_signature: Optional[Callable[[object], tuple]] = None  # equal signatures may train as one group
    max_group: dict = field(default_factory=lambda: {"cpu": 1, "cuda": 1})  # members per group, by device
    cost: Callable[[object], float] = lambda config: 1.0  # relative cost, to start the largest tasks first
    not_in_key: tuple[str, ...] = ()  # config fields that change how a run is carried out, not its numbers
    check: Callable[[object, History], Optional[str]] = lambda config, history: None  # why not a result (diverged)
    check_resume: Callable[[list, dict], Optional[str]] = lambda configs, arrays: None  # why a checkpoint can't resume
    spelled: dict = field(default_factory=dict)  # config field -> the notebook parameter that sets it, for messages
    # The run's length and its cost: ``steps`` the field counting its steps, ``step_seconds`` the seconds one
    # step takes on the book's 2-core CPU (the config's fields as a dict -> seconds; measured, see each row),
    # and ``steps_from`` how the notebook sets the steps when no parameter does (for the time error).
    steps: str = "steps"
    step_seconds: Callable[[dict], float] = lambda c: 0.0
    steps_from: str = ""


    def seconds(self, values: dict) -> float:
        """The estimated seconds of one run with the config fields ``values`` on the book's CPU (0: no steps field)."""
        return self.step_seconds(values) * values[self.steps] if self.steps in values else 0.0


KINDS: dict[type, RunKind] = {}


def register(kind: RunKind) -> RunKind:
    """Add ``kind`` to the table (once per config type; re-registering the same row is a no-op)."""
    known = KINDS.get(kind.config_type)
    if known is not None and known.name != kind.name:
        raise ValueError(f"{kind.config_type.__name__} already has a run kind: {known.name}")
    if any(k.name == kind.name and k.config_type is not kind.config_type for k in KINDS.values()):
        raise ValueError(f"run kind name {kind.name!r} is taken")
    KINDS[kind.config_type] = kind
    return kind


def kind_of(config) -> RunKind:
    """The row of ``config``'s type; a ConfigError for a type no paper registered."""
    try:
        return KINDS[type(config)]
    except KeyError:
        known = ", ".join(sorted(k.__name__ for k in KINDS)) or "none"
        raise ConfigError(f"no run kind is registered for {type(config).__name__} (registered: {known})") from None


_CODE_HASHES: dict[str, str] = {}


def code_version(kind: RunKind) -> str:
    """A short hash of the source of ``kind.code`` (computed once per process and kind)."""
    if kind.name not in _CODE_HASHES:
        _CODE_HASHES[kind.name] = source_hash(kind.code)
    return _CODE_HASHES[kind.name]


def source_hash(modules: Sequence[ModuleType]) -> str:
    """A short hash of the source files of ``modules``, by module name."""
    h = hashlib.sha256()
    for module in modules:
        h.update(module.__name__.encode())
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()[:12]
