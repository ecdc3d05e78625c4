"""What every paper's configs share: one-line validation errors, the named profiles, devices.

A paper's config is a frozen dataclass that says everything that determines a run's
numbers; its fields (as canonical JSON) are part of the run store's key (see
:func:`grok_lib.store.run_key`). Validation happens in ``__post_init__`` with the
``need_*`` helpers below and only raises: no seeding, no device probing there. Every
error is one line naming the parameter and the allowed values.
"""

from __future__ import annotations

import dataclasses
import numbers
import os
from dataclasses import fields, replace

DEVICES = ("auto", "cpu", "cuda")
DTYPES = ("float32", "float64")
#: ci: seconds, for unit tests. default: what the committed book shows, sized for a 2-core
#: CPU. paper: the paper's own settings (GPU advised where they are large).
PROFILES = ("ci", "default", "paper")


class ConfigError(ValueError):
    """A bad parameter: the message names it and says what is allowed."""


def need_int(name: str, value, lo: int) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lo:
        raise ConfigError(f"{name} must be an integer >= {lo}, got {value!r}")


def need_real(name: str, value, lo: float, hi: float, lo_open: bool, hi_open: bool) -> None:
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and value == value
    if ok:
        ok = (value > lo if lo_open else value >= lo) and (value < hi if hi_open else value <= hi)
    if not ok:
        left, right = "(" if lo_open else "[", ")" if hi_open else "]"
        raise ConfigError(f"{name} must be a number in {left}{lo}, {hi}{right}, got {value!r}")


def need_choice(name: str, value, choices) -> None:
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(map(str, choices))}; got {value!r}")


def to_dict(config) -> dict:
    """A config's fields as a plain dict (what the run store hashes and records)."""
    return dataclasses.asdict(config)


def from_profile(bases: dict, profile: str, **overrides):
    """The base config of ``profile`` in ``bases`` (profile -> config), with ``overrides``
    applied (None means: keep the profile's value); unknown names and profiles are ConfigErrors."""
    need_choice("profile", profile, tuple(bases))
    base = bases[profile]
    return replace(base, **given_overrides(type(base), overrides))


def resolve_device(requested: str) -> str:
    """The device a run uses: ``GROK_DEVICE`` overrides the config; ``auto`` picks cuda if present."""
    requested = os.environ.get("GROK_DEVICE", requested)
    need_choice("device", requested, DEVICES)
    import torch  # late: importing the config module should not need torch

    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested == "cuda" and not torch.cuda.is_available():
        raise ConfigError("device 'cuda' was requested but torch.cuda.is_available() is False; use cpu or auto")
    return requested


def given_overrides(cls, overrides: dict) -> dict:
    """The overrides that are set (None means: keep the profile's value); an unknown name is a ConfigError."""
    given = {k: v for k, v in overrides.items() if v is not None}
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(given) - known)
    if unknown:
        raise ConfigError(f"unknown parameter(s) {', '.join(unknown)}; allowed: {', '.join(sorted(known))}")
    return given


def need_list_of_numbers(name: str, values) -> list:
    """``values`` as a list, or a one-line ConfigError if it is not a non-empty list of numbers.

    (papermill's ``-p name '[1, 2]'`` passes the *string* "[1, 2]"; lists need ``-y``.)
    """
    ok = isinstance(values, (list, tuple)) and len(values) > 0 and all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values)
    if not ok:
        raise ConfigError(f"{name} must be a non-empty list of numbers, got {values!r} "
                          f"(with papermill pass lists as YAML: -y \"{name}: [...]\")")
    return list(values)


