"""The runs more than one Part B chapter (or a chapter and the GPU check) plans: a sweep along one axis in the order of
its values, one run set from the theory's clock, the sparse chapter's groups (the kernel-vs-rich chapter plans them
too), the modular-addition chapter's groups (the GPU check trains the paper profile's, ``benchmarks/paper_b_runs.py``),
and the recorded sets' reader.

The chapters with sweeps plan their runs as named groups (:data:`grok_lib.chapters.Runs`), which the notebook reads
as ``run.groups`` and a figure's numbers receive in the same shape: ``"alpha"`` (the alpha sweep, at the profile's
lambda) and ``"weight_decay"`` (the lambda sweep, at the profile's alpha), each in the order of its values (the run
they share is trained once). None means: the profile's value."""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter

from .. import recorded as recorded_runs
from ..history import History
from . import config


def sweep(experiment: str, profile, axis: str, values=None, horizon=None, **overrides) -> list:
    """One sweep of ``experiment`` along ``axis`` (:func:`config.sweep`), in the order of its values."""
    return sorted(config.sweep(experiment, profile, axis, values, horizon, **overrides), key=attrgetter(axis))


def sparse_configs(profile, alphas=None, weight_decays=None, horizon=None, **overrides) -> dict[str, list]:
    """The sparse chapter's runs: the groups ``alpha`` (at the profile's lambda) and ``weight_decay`` (at the
    profile's alpha)."""
    return {"alpha": sweep("sparse", profile, "alpha", alphas, horizon, **overrides),
            "weight_decay": sweep("sparse", profile, "weight_decay", weight_decays, horizon, **overrides)}


def modadd_configs(profile, alphas=None, weight_decays=None, seeds=None, **overrides) -> dict[str, list]:
    """The modular-addition chapter's runs: the groups ``alpha`` and ``weight_decay``, each holding every seed's sweep
    (seeds outermost; split and init move together)."""
    per_seed = [{axis: sweep("modadd", profile, axis, values, data_seed=s, init_seed=s, **overrides)
                 for axis, values in (("alpha", alphas), ("weight_decay", weight_decays))}
                for s in config.seeds_of("modadd", profile, seeds)]  # seeds_of checks the list as "seeds"
    return {axis: [c for sweeps in per_seed for c in sweeps[axis]] for axis in ("alpha", "weight_decay")}


def single_config(experiment: str, profile, alpha=None, horizon=None, **overrides):
    """One run of ``experiment`` (no sweep): the profile's config with ``alpha`` and ``overrides``, its length
    set from the theory's clock as the sweeps set theirs (:func:`config.sweep`)."""
    base = config.profile_config(experiment, profile, alpha=alpha, **overrides)
    horizon = config.HORIZON[experiment] if horizon is None else horizon
    config.need_real("horizon", horizon, 0.0, config.INF, lo_open=True, hi_open=True)
    if base.alpha > 1 and base.weight_decay > 0:
        base = replace(base, steps=config.steps_for(base, horizon))
    return base


def recorded(name: str) -> list[History]:
    """The histories of Paper B's recorded set ``name`` (``mc_paper``, ``misgrokking_paper``; see
    :mod:`grok_lib.paper_b.recordings`), checked against its definition. They are read, never trained, and do not
    change when a notebook is rerun with other parameters."""
    return recorded_runs.part_set("paper_b", name)
