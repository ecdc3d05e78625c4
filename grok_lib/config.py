"""What every paper's configs share: one-line validation errors, the named profiles, devices.

A paper's config is a frozen dataclass that says everything that determines a run's
numbers; its fields (as canonical JSON) are part of the run store's key (see
:func:`grok_lib.plans.run_key`). Validation happens in ``__post_init__`` with the
``need_*`` helpers below and only raises: no seeding, no device probing there. Every
error is one line naming the parameter and the allowed values. Sizes are bounded by an
estimate of the memory one run needs (each run kind's, checked by :func:`grok_lib.plans.plan`
with :func:`need_memory`; the budget is 16 GiB, or ``GROK_MAX_RUN_GIB``), so a size no machine
here can afford fails before anything runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import numbers
import os
import re
from dataclasses import fields, replace

DEVICES = ("auto", "cpu", "cuda")
DTYPES = ("float32", "float64")
#: ci: seconds, for unit tests. default: what the committed book shows, sized for a 2-core
#: CPU. paper: the paper's own settings (GPU advised where they are large).
PROFILES = ("ci", "default", "paper")
#: The largest integer a parameter may take: numpy's and torch's int64.
INT_MAX = 2**63 - 1
#: The largest seed a notebook's seed list may hold (32 bits: every generator here takes it, and a chapter's
#: further seeds, seed + k, stay far inside int64).
SEED_MAX = 2**32 - 1


class ConfigError(ValueError):
    """A bad parameter: the message names it and says what is allowed."""


def need_int(name: str, value, lo: int, hi: int | None = None) -> None:
    """``value`` an integer from ``lo`` to ``hi`` (default: the int64 limit every array library here has)."""
    hi = INT_MAX if hi is None else hi
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lo:
        raise ConfigError(f"{name} must be an integer >= {lo}, got {value!r}")
    if value > hi:
        limit = "2**63 - 1 (int64)" if hi == INT_MAX else f"{hi}"
        raise ConfigError(f"{name} must be an integer from {lo} to {limit}, got {value!r}")


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


#: A field's metadata key: the field was added after runs were recorded, and is left out of :func:`to_dict` while
#: it holds its default, so that those runs' keys and recorded configs stay what they were.
ADDED_LATER = "added_later"


def to_dict(config) -> dict:
    """A config's fields as a plain dict (what the run store hashes and records); a field marked
    :data:`ADDED_LATER` appears only when it is not at its default."""
    values = dataclasses.asdict(config)
    for f in fields(config):
        if f.metadata.get(ADDED_LATER) and values[f.name] == f.default:
            del values[f.name]
    return values


def aligned_dicts(configs) -> list[dict]:
    """The configs' :func:`to_dict` over the union of their names, so that every dict has the same keys (a field
    left out at its default in one config is filled in from that config where another config has it): for tables
    and labels that compare configs field by field."""
    names = dict.fromkeys(k for c in configs for k in to_dict(c))
    return [{k: getattr(c, k) for k in names} for c in configs]


def from_profile(bases: dict, profile: str, **overrides):
    """The base config of ``profile`` in ``bases`` (profile -> config), with ``overrides``
    applied (None means: keep the profile's value); unknown names and profiles are ConfigErrors."""
    need_choice("profile", profile, tuple(bases))
    base = bases[profile]
    return replace(base, **given_overrides(type(base), overrides))


def resolve_device(requested: str) -> str:
    """The device a run uses: ``GROK_DEVICE`` overrides the config; ``auto`` picks cuda if present."""
    if "GROK_DEVICE" in os.environ:
        requested = os.environ["GROK_DEVICE"]
        need_choice("GROK_DEVICE", requested, DEVICES)
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
    _need_known(cls, given, "")
    return given


def _need_known(cls, names, of: str) -> None:
    """A ConfigError naming the allowed fields if ``names`` has one that ``cls`` lacks (``of``: " for X" or "")."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(names) - known)
    if unknown:
        raise ConfigError(f"unknown parameter(s) {', '.join(unknown)}{of}; allowed: {', '.join(sorted(known))}")


def from_dict(cls, data: dict):
    """The ``cls`` config of a plain dict (a history's or a manifest's: JSON gives lists where a frozen
    config keeps tuples); an unknown name is a ConfigError naming the allowed ones, and the values
    are checked as any config's are."""
    _need_known(cls, data, f" for {cls.__name__}")
    return cls(**{k: _frozen(v) for k, v in data.items()})


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


#: The most memory one run may need (estimated before anything runs, see :func:`need_memory`), in GiB;
#: ``GROK_MAX_RUN_GIB`` raises or lowers it for a larger machine.
MAX_RUN_GIB = 16.0
#: The longest one run may take on the CPU (estimated before anything runs, see :func:`need_time`), in hours;
#: ``GROK_MAX_RUN_HOURS`` raises it (the explicit override for a run you mean to wait for).
MAX_RUN_HOURS = 24.0


def _budget(variable: str, default: float, unit: str) -> float:
    """The positive number the environment ``variable`` holds (``default`` if unset), or a ConfigError."""
    value = os.environ.get(variable)
    if value is None:
        return default
    try:
        amount = float(value)
    except ValueError:
        amount = float("nan")
    if not amount > 0 or amount == float("inf"):
        raise ConfigError(f"{variable} must be a positive number of {unit}, got {value!r}")
    return amount


def max_run_bytes() -> float:
    """The memory budget of one run: ``GROK_MAX_RUN_GIB`` if set, else :data:`MAX_RUN_GIB` (GiB)."""
    return _budget("GROK_MAX_RUN_GIB", MAX_RUN_GIB, "GiB") * 2**30


def max_run_seconds() -> float:
    """The time budget of one run on the CPU: ``GROK_MAX_RUN_HOURS`` if set, else :data:`MAX_RUN_HOURS`."""
    return _budget("GROK_MAX_RUN_HOURS", MAX_RUN_HOURS, "hours") * 3600


def need_memory(values: dict, estimate, sizes: tuple[str, ...], reference: dict | None = None) -> None:
    """A one-line ConfigError if ``estimate(values)`` (the bytes one run with the settings
    ``values``, a config's fields as a dict, needs) is over the budget of :func:`max_run_bytes`,
    naming the size to lower and the largest value of it that fits (see :func:`need_within`)."""
    need = estimate(values)
    if need > max_run_bytes():
        raise ConfigError(need_within(values, estimate, sizes, max_run_bytes(), reference,
                                      f"needs about {need / 2**30:.3g} GiB for one run",
                                      f"a run may use at most {max_run_bytes() / 2**30:g} GiB (GROK_MAX_RUN_GIB)"))


def need_time(values: dict, estimate, sizes: tuple[str, ...], reference: dict | None = None,
              per_step: str = "") -> None:
    """A one-line ConfigError if ``estimate(values)`` (the seconds one run takes on this CPU: its kind's
    cost per step times its steps) is over :func:`max_run_seconds`, naming the setting that drives it
    and the largest value of it that fits; ``per_step`` says how the estimate was made."""
    need = estimate(values)
    if need > max_run_seconds():
        raise ConfigError(need_within(
            values, estimate, sizes, max_run_seconds(), reference,
            f"would take about {need / 3600:.3g} h on this machine's CPU{per_step}",
            f"a run may take at most {max_run_seconds() / 3600:g} h (GROK_MAX_RUN_HOURS; set it higher to run it "
            f"anyway)"))


def need_within(values: dict, estimate, sizes: tuple[str, ...], budget: float, reference: dict | None,
                need: str, limit: str) -> str:
    """The one-line message for settings ``values`` whose ``estimate`` is over ``budget``: it names a
    size of ``sizes`` that can be lowered to fit and the largest value of it that fits, so that a
    too-large value fails before anything runs: of the sizes that can, the one furthest above its
    value in ``reference`` (the config's defaults: the size the user raised), else the one whose
    halving saves the most."""
    total = estimate(values)

    def with_(name: str, value) -> dict:
        return values | {name: value}

    def largest_fitting(name: str) -> int:
        lo, hi = 1, int(values[name])
        if estimate(with_(name, lo)) > budget:
            return 0
        while hi - lo > 1:  # estimate(lo) fits, estimate(hi) does not
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if estimate(with_(name, mid)) <= budget else (lo, mid)
        return lo

    fitting = {n: largest_fitting(n) for n in sizes}
    # blame a size that can be lowered to fit, the one whose halving saves the most
    candidates = [n for n in sizes if fitting[n]] or list(sizes)

    def raised(n: str) -> float:
        base = (reference or {}).get(n)
        return values[n] / base if isinstance(base, (int, float)) and base > 0 else 0.0

    name = max(candidates, key=lambda n: (raised(n) > 1, raised(n) if raised(n) > 1 else 0,
                                          total - estimate(with_(n, max(1, int(values[n]) // 2)))))
    others = ", ".join(f"{n}={values[n]}" for n in sizes if n != name)
    others = f" (with {others})" if others else ""
    fits = fitting[name]
    allowed = f"{name} <= {fits} fits with these settings" if fits else f"no {name} fits with these settings"
    return f"{name}={values[name]} {need}{others}; {limit}: {allowed}"


def need_list_of_numbers(name: str, values, lo: float = -math.inf, hi: float = math.inf,
                         lo_open: bool = True, hi_open: bool = True, integer: bool = False) -> list:
    """The one check of a notebook's list parameter (every part's): ``values`` as a list, or a one-line
    ConfigError naming ``name`` (the list as the notebook spells it, not a config field) if it is not a
    non-empty list of numbers (integers where ``integer``) in the interval from ``lo`` to ``hi``, or if
    it repeats a value (a repeated run adds nothing but a second copy of the same curve).

    (papermill's ``-p name '[1, 2]'`` passes the *string* "[1, 2]"; lists need ``-y``.)
    """
    def inside(v) -> bool:
        return (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)

    kind = numbers.Integral if integer else numbers.Real
    what = "integers" if integer else "numbers"
    if integer and hi > INT_MAX:  # every integer reaches numpy or torch as an int64
        hi, hi_open = INT_MAX, False
    if not isinstance(values, (list, tuple)):
        raise ConfigError(f"{name} must be a non-empty list of {what}, got {values!r} "
                          f"(with papermill pass lists as YAML: -y \"{name}: [...]\")")
    ok = len(values) > 0 and all(isinstance(v, kind) and not isinstance(v, bool) and math.isfinite(v) and inside(v)
                                 for v in values)
    if not ok:
        bounded = lo != -math.inf or hi != math.inf
        interval = f" in {'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}" if bounded else ""
        raise ConfigError(f"{name} must be a non-empty list of {what}{interval}, got {list(values)!r}")
    need_distinct(name, list(values))
    return [int(v) for v in values] if integer else list(values)


def need_seeds(values, name: str = "seeds") -> list[int]:
    """``values`` as a list of distinct non-negative integers (seeds), or a one-line ConfigError naming ``name``."""
    return need_list_of_numbers(name, values, 0, SEED_MAX, lo_open=False, hi_open=False, integer=True)


@contextlib.contextmanager
def spelled_as(names: dict, setting: str | None = None):
    """ConfigErrors raised inside, named as the notebook spells its parameters: an error about a config
    field of ``names`` (field -> the notebook parameter that sets it; such a message starts with the
    field's name) names the parameter instead; any other error is prefixed with ``setting`` (e.g.
    ``"gammas value 1e+10"``: the setting that made another field's check fail), if given. An error
    already spelled by an inner context passes through unchanged."""
    try:
        yield
    except ConfigError as err:
        if getattr(err, "spelled", False):
            raise
        text = str(err)
        renamed = next((re.sub(rf"\b{re.escape(f)}\b(?=(=| <=| must| fits))", parameter, text)
                        for f, parameter in names.items() if re.match(rf"{re.escape(f)}(?=[ =])", text)), None)
        if renamed is None and setting is None:
            raise
        spelled = ConfigError(renamed if renamed is not None else f"{setting}: {text}")
        spelled.spelled = True
        raise spelled from None


def need_distinct(name: str, values: list) -> None:
    """A one-line ConfigError if the list ``values`` of parameter ``name`` repeats a value (a
    repeated run adds nothing but a second copy of the same curve)."""
    seen = [v for i, v in enumerate(values) if v in values[:i]]
    if seen:
        raise ConfigError(f"{name} must not repeat a value, got {list(values)!r} ({seen[0]!r} twice)")
