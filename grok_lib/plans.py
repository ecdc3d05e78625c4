"""Planning runs: each config resolved once to its run kind, device and store key; the groups
of configs that train together; and whether a finished run is a result or diverged."""

from __future__ import annotations

import hashlib
import json
from dataclasses import MISSING, dataclass, fields
from typing import Optional, Sequence

from .arithmetic import arithmetic_id
from .config import ConfigError, need_memory, need_time, spelled_as
from .history import History
from .kinds import RunKind, code_version, kind_of


class DivergedError(FloatingPointError):
    """A run finished with a loss its kind calls diverged; it is stored as such, not as a result."""



@dataclass(frozen=True)
class Plan:
    """One config, planned once: its run kind, resolved device and store key."""

    config: object
    kind: RunKind
    device: str
    key: str


def plan(config) -> Plan:
    """Check ``config`` against the memory budget (its kind's estimate), resolve its kind and device and
    compute its key (once)."""
    kind = kind_of(config)
    need_run_memory(config, kind)
    device = kind.device(config)
    if device == "cpu":  # the cost per step is the CPU's; a GPU's is unknown here
        need_run_time(config, kind)
    return Plan(config, kind, device, run_key(config, device, kind))


def need_run_memory(config, kind: RunKind) -> None:
    """A one-line ConfigError if one run of ``config`` needs more memory than the budget, naming the size
    to lower as the notebook spells it (the kind's ``spelled``) and, among the kind's sizes, the one most
    above the config type's own default (the size a user raised)."""
    defaults = {f.name: f.default for f in fields(config) if f.default is not MISSING}
    with spelled_as(kind.spelled):
        need_memory(config.to_dict(), kind.memory, kind.sizes, reference=defaults)


def need_run_time(config, kind: RunKind) -> None:
    """A one-line ConfigError if one run of ``config`` would take longer on this CPU than the time budget
    (its kind's cost per step times its steps), naming what sets the steps and what fits."""
    values = config.to_dict()
    if kind.steps not in values:
        return
    defaults = {f.name: f.default for f in fields(config) if f.default is not MISSING}
    how = f" (about {kind.step_seconds(values) * 1e3:.2g} ms a step{'; ' + kind.steps_from if kind.steps_from else ''})"
    with spelled_as(kind.spelled):
        need_time(values, kind.seconds, (kind.steps,), reference=defaults, per_step=how)


def run_key(config, device: str, kind: Optional[RunKind] = None) -> str:
    """The store key of ``config`` run on ``device`` (``cpu`` or ``cuda``) in this process's arithmetic
    (results of different arithmetic never share an entry)."""
    kind = kind or kind_of(config)
    values = {k: v for k, v in config.to_dict().items() if k not in kind.not_in_key}
    values["device"] = device
    record = {"kind": kind.name, "config": values, "code": code_version(kind), "arithmetic": arithmetic_id()}
    payload = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:20]

def diverged(planned: Plan, history: History) -> Optional[str]:
    """Why the run of ``planned`` is not a result (recorded when stored, or the kind's check now), or None."""
    return history.meta.get("diverged") or planned.kind.check(planned.config, history)


def raise_if_diverged(plans: Sequence[Plan], histories: Sequence[History]) -> None:
    """A one-line :class:`DivergedError` naming the first diverged run (and how many more there are)."""
    bad = [(p, reason) for p, h in zip(plans, histories) if (reason := diverged(p, h))]
    if bad:
        p, reason = bad[0]
        more = f" (and {len(bad) - 1} more run(s) of this sweep)" if len(bad) > 1 else ""
        raise DivergedError(f"run {p.key} {reason}{more}; it is stored as diverged, not as a result")


def groups(plans: Sequence[Plan], stack: int | str = "auto") -> list[list[Plan]]:
    """``plans`` grouped by kind, device and stack signature, at most ``stack`` members per group
    ("auto": the kind's ``max_group`` for the device); kinds without a signature train alone."""
    if stack != "auto" and (isinstance(stack, bool) or not isinstance(stack, int) or stack < 1):
        raise ConfigError(f"stack must be a positive integer or 'auto', got {stack!r}")
    by_signature: dict[tuple, list[Plan]] = {}
    for p in plans:
        signature = p.kind.stack_signature(p.config) if p.kind.stack_signature else p.key
        by_signature.setdefault((p.kind.name, p.device, signature), []).append(p)
    out = []
    for members in by_signature.values():
        size = members[0].kind.max_group[members[0].device] if stack == "auto" else stack
        size = size if members[0].kind.stack_signature else 1
        out += [members[i:i + size] for i in range(0, len(members), size)]
    return out


def largest_first(gs: list[list[Plan]]) -> list[list[Plan]]:
    return sorted(gs, key=lambda g: -len(g) * g[0].kind.cost(g[0].config))
