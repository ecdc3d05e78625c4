"""The one call each Part B notebook makes: its parameters in, configs and histories out.

The positional parameters of each function below are exactly the parameters of the notebook
that calls it (its parameters cell assigns these names; anything else is an unknown parameter,
see :func:`grok_lib.notebook.parameters`); ``output_path`` is the output notebook, where a run
with other than the committed settings writes its figures and claims (see
:func:`grok_lib.notebook.start`). None means: the profile's value.

Order of the configs (the figure functions rely on it, see :mod:`grok_lib.paper_b.figures` and
:mod:`grok_lib.paper_b.mlp_figures`):
a sweep's alpha runs come first (all at the base lambda), its lambda runs last (all at the
base alpha); the MLP chapters repeat this per seed (seeds outermost).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

from .. import recorded as recorded_runs
from ..chapters import with_claim_runs
from ..config import spelled_as
from ..history import History
from ..notebook import Run, start
from . import bridge, config


def sparse_configs(profile, alphas=None, weight_decays=None, horizon=None, **overrides) -> list:
    return (config.sweep("sparse", profile, "alpha", alphas, horizon, **overrides)
            + config.sweep("sparse", profile, "weight_decay", weight_decays, horizon, **overrides))


def _single_config(experiment: str, profile, alpha=None, horizon=None, **overrides):
    """One run of ``experiment`` (no sweep): the profile's config with ``alpha`` and ``overrides``, its length
    set from the theory's clock as the sweeps set theirs (:func:`config.sweep`)."""
    base = config.profile_config(experiment, profile, alpha=alpha, **overrides)
    horizon = config.HORIZON[experiment] if horizon is None else horizon
    config.need_real("horizon", horizon, 0.0, config.INF, lo_open=True, hi_open=True)
    if base.alpha > 1 and base.weight_decay > 0:
        base = replace(base, steps=config.steps_for(base, horizon))
    return base


def _misgrokking_config(profile, alpha=None, horizon=None, **overrides):
    """The misgrokking run; its notebook parameters are ``misgrokking_alpha`` and ``misgrokking_n_train``."""
    with spelled_as({"n_train": "misgrokking_n_train", "alpha": "misgrokking_alpha"}):
        return _single_config("misgrokking", profile, alpha, horizon, **overrides)


def _matrix_completion_config(profile, alpha=None, horizon=None, **overrides):
    return _single_config("matrix_completion", profile, alpha, horizon, **overrides)


def modadd_configs(profile, alphas=None, weight_decays=None, seeds=None, **overrides) -> list:
    """Per seed (outermost; split and init move together): the alpha sweep, then the lambda sweep."""
    return [c for s in config.seeds_of("modadd", profile, seeds)  # seeds_of checks the list as "seeds"
            for c in (config.sweep("modadd", profile, "alpha", alphas, data_seed=s, init_seed=s, **overrides)
                      + config.sweep("modadd", profile, "weight_decay", weight_decays, data_seed=s, init_seed=s,
                                     **overrides))]


def sparse(profile: str = "default", alphas=None, weight_decays=None, d=None, n_train=None, k=None, lr=None,
           horizon=None, data_seed=None, *, output_path=None) -> Run:
    """Sparse linear classification with the diagonal net: the alpha sweep (at the profile's lambda) and the
    lambda sweep (at the profile's alpha), each run ending at ``horizon`` x ln(alpha) / lambda."""
    overrides = {"d": d, "n_train": n_train, "k": k, "lr": lr, "data_seed": data_seed}
    configs = sparse_configs(profile, alphas, weight_decays, horizon, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "horizon": horizon,
                  **overrides}
    return with_claim_runs("paper_b/sparse_classification", start(profile, parameters, configs, sparse_configs("default"),
                                                         output_path))


def kernel_rich(profile: str = "default", alphas=None, weight_decays=None, gamma=None, misgrokking_alpha=None,
                misgrokking_n_train=None, *, output_path=None) -> Run:
    """The sparse sweeps (as :func:`sparse`) and the misgrokking run, with the margin classifiers of their data."""
    mis = {"gamma": gamma, "n_train": misgrokking_n_train}
    configs = sparse_configs(profile, alphas, weight_decays) + [_misgrokking_config(profile, misgrokking_alpha,
                                                                                     **mis)]
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "gamma": gamma,
                  "misgrokking_alpha": misgrokking_alpha, "misgrokking_n_train": misgrokking_n_train}
    return start(profile, parameters, configs, kernel_rich_configs("default"), output_path)


def kernel_rich_configs(profile) -> list:
    """The kernel-vs-rich chapter's runs at a profile: the sparse sweeps, then the misgrokking run."""
    return sparse_configs(profile) + [_misgrokking_config(profile)]


def matrix_completion_configs(profile) -> list:
    """The matrix-completion chapter's one run at a profile."""
    return [_matrix_completion_config(profile)]


def matrix_completion(profile: str = "default", alpha=None, weight_decay=None, lr=None, d=None, observed_frac=None,
                      init_noise=None, horizon=None, data_seed=None, *, output_path=None) -> Run:
    """One matrix-completion run, ending at ``horizon`` x ln(alpha) / lambda."""
    overrides = {"weight_decay": weight_decay, "lr": lr, "d": d, "observed_frac": observed_frac,
                 "init_noise": init_noise, "data_seed": data_seed}
    configs = [_matrix_completion_config(profile, alpha, horizon, **overrides)]
    parameters = {"profile": profile, "alpha": alpha, "horizon": horizon, **overrides}
    return start(profile, parameters, configs, matrix_completion_configs("default"), output_path)


def modadd(profile: str = "default", alphas=None, weight_decays=None, seeds=None, p=None, train_frac=None, width=None,
           lr=None, steps=None, device=None, *, output_path=None) -> Run:
    """Paper B's two-layer net on modular addition: per seed, the alpha sweep, then the lambda sweep (fixed steps)."""
    overrides = {"p": p, "train_frac": train_frac, "width": width, "lr": lr, "steps": steps, "device": device}
    configs = modadd_configs(profile, alphas, weight_decays, seeds, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "seeds": seeds, **overrides}
    return with_claim_runs("paper_b/modular_addition", start(profile, parameters, configs, modadd_configs("default"), output_path))


def init_scale(profile: str = "default", alphas=None, weight_decays=None, seeds=None, p=None, train_frac=None,
               width=None, lr=None, beta2=None, steps=None, device=None, *, output_path=None) -> Run:
    """The bridge to Part A: Paper A's MLP and AdamW from alpha times the standard init, seed x alpha x lambda."""
    overrides = {"p": p, "train_frac": train_frac, "width": width, "lr": lr, "beta2": beta2, "steps": steps,
                 "device": device}
    configs = bridge.sweep(profile, alphas, weight_decays, seeds, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "seeds": seeds, **overrides}
    return start(profile, parameters, configs, bridge.sweep("default"), output_path)


# --- claim-only runs: more seeds and alphas that one claim reads, never a figure --------------------------------
def _focus_config(configs: Sequence):
    """The sparse run both sweeps share (the alpha sweep's lambda, the lambda sweep's alpha), as
    :func:`selection.focus_run` picks it from histories: where a rerun leaves it out, the alpha sweep's run
    nearest in ln(alpha)."""
    sparse = [c for c in configs if type(c) is config.SparseConfig]
    lam, alpha = sparse[0].weight_decay, sparse[-1].alpha
    return min((c for c in sparse if c.weight_decay == lam), key=lambda c: abs(math.log(c.alpha / alpha)))


def fig1a_seed_configs(configs: Sequence) -> list:
    """B.fig1a.fractions: the focus run at the next data seeds (its own seed's run is the notebook's)."""
    focus = _focus_config(configs)
    return [replace(focus, data_seed=focus.data_seed + i) for i in range(1, config.FIG1A_DATA_SEEDS)]


def clock_alpha_configs(configs: Sequence) -> list:
    """B.modadd.clock: every seed's alpha sweep (the runs at the first run's lambda) at the alphas of
    config.CLOCK_ALPHAS it does not have."""
    modadd = [c for c in configs if type(c) is config.ModAddConfig]
    out = []
    for seed in dict.fromkeys(c.data_seed for c in modadd):
        sweep = [c for c in modadd if c.data_seed == seed and c.weight_decay == modadd[0].weight_decay]
        have = {c.alpha for c in sweep}
        out += [replace(sweep[0], alpha=float(a)) for a in config.CLOCK_ALPHAS if float(a) not in have]
    return out


def recorded(name: str) -> list[History]:
    """The histories of Paper B's recorded set ``name`` (``mc_paper``, ``misgrokking_paper``; see
    :mod:`grok_lib.paper_b.recordings`), checked against its definition. They are read, never trained, and do not
    change when a notebook is rerun with other parameters."""
    return recorded_runs.part_set("paper_b", name)
