"""The one call each Part B notebook makes: its parameters in, configs and histories out.

The positional parameters of each function below are exactly the parameters of the notebook
that calls it (its parameters cell assigns these names; anything else is an unknown parameter,
see :func:`grok_lib.notebook.parameters`); ``output_path`` is the output notebook, where a run
with other than the committed settings writes its figures and claims (see
:func:`grok_lib.notebook.start`). None means: the profile's value.

The chapters with sweeps plan their runs as named groups (:data:`grok_lib.chapters.Runs`), which the notebook
reads as ``run.groups`` and a figure's numbers receive in the same shape: ``"alpha"`` (the alpha sweep, at the
profile's lambda) and ``"weight_decay"`` (the lambda sweep, at the profile's alpha), each in the order of its
values (the run they share is trained once); the MLP chapter's groups hold every seed's sweep (seeds outermost),
and the kernel-vs-rich chapter's add ``"misgrokking"``. Matrix completion (one run) and the bridge (one grid)
plan lists.
"""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter

from .. import recorded as recorded_runs
from ..chapters import with_claim_runs
from ..config import spelled_as
from ..history import History
from ..notebook import Run, start
from . import bridge, config, selection


def _sweep(experiment: str, profile, axis: str, values=None, horizon=None, **overrides) -> list:
    """One sweep of ``experiment`` along ``axis`` (:func:`config.sweep`), in the order of its values."""
    return sorted(config.sweep(experiment, profile, axis, values, horizon, **overrides), key=attrgetter(axis))


def sparse_configs(profile, alphas=None, weight_decays=None, horizon=None, **overrides) -> dict[str, list]:
    """The sparse chapter's runs: the groups ``alpha`` (at the profile's lambda) and ``weight_decay`` (at the
    profile's alpha)."""
    return {"alpha": _sweep("sparse", profile, "alpha", alphas, horizon, **overrides),
            "weight_decay": _sweep("sparse", profile, "weight_decay", weight_decays, horizon, **overrides)}


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


def modadd_configs(profile, alphas=None, weight_decays=None, seeds=None, **overrides) -> dict[str, list]:
    """The groups ``alpha`` and ``weight_decay``, each holding every seed's sweep (seeds outermost; split and init
    move together)."""
    per_seed = [{axis: _sweep("modadd", profile, axis, values, data_seed=s, init_seed=s, **overrides)
                 for axis, values in (("alpha", alphas), ("weight_decay", weight_decays))}
                for s in config.seeds_of("modadd", profile, seeds)]  # seeds_of checks the list as "seeds"
    return {axis: [c for sweeps in per_seed for c in sweeps[axis]] for axis in ("alpha", "weight_decay")}


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
    configs = {**sparse_configs(profile, alphas, weight_decays),
               "misgrokking": [_misgrokking_config(profile, misgrokking_alpha, **mis)]}
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "gamma": gamma,
                  "misgrokking_alpha": misgrokking_alpha, "misgrokking_n_train": misgrokking_n_train}
    return start(profile, parameters, configs, kernel_rich_configs("default"), output_path)


def kernel_rich_configs(profile) -> dict[str, list]:
    """The kernel-vs-rich chapter's runs at a profile: the sparse sweeps' groups and ``misgrokking`` (its one run)."""
    return {**sparse_configs(profile), "misgrokking": [_misgrokking_config(profile)]}


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
    """Paper B's two-layer net on modular addition: per seed, the alpha sweep and the lambda sweep (fixed steps)."""
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
def _focus_config(groups: dict[str, list]):
    """The sparse run both sweeps share, as :func:`selection.focus_run` picks it from histories: the alpha sweep's run
    at the lambda sweep's alpha (where a rerun leaves it out, the one nearest in ln(alpha))."""
    alpha_sweep = groups["alpha"]
    return alpha_sweep[selection.nearest_alpha([c.alpha for c in alpha_sweep], groups["weight_decay"][0].alpha)]


def fig1a_seed_configs(groups: dict[str, list]) -> list:
    """B.fig1a.fractions: the focus run at the next data seeds (its own seed's run is the notebook's)."""
    focus = _focus_config(groups)
    return [replace(focus, data_seed=focus.data_seed + i) for i in range(1, config.FIG1A_DATA_SEEDS)]


def stable_modadd_configs(groups: dict[str, list]) -> list:
    """The modular-addition claims' in-regime runs (:class:`~grok_lib.paper_b.config.StableModAddConfig`), planned from
    the figure runs' groups: at every seed, the alpha sweep ``config.STABLE_ALPHAS`` at the group ``alpha``'s lambda and
    the group ``weight_decay``'s lambdas at its alpha (the run both share once), GD's step held stable, each run to
    lambda t = ``config.STABLE_STOP``."""
    out = []
    for seed in dict.fromkeys(c.data_seed for c in groups["alpha"]):
        alpha_sweep = [c for c in groups["alpha"] if c.data_seed == seed]
        lambda_sweep = [c for c in groups["weight_decay"] if c.data_seed == seed]
        base = alpha_sweep[0]
        stable = config.StableModAddConfig(**{**base.to_dict(), "steps": base.steps * config.STABLE_STEPS,
                                              "n_log": config.STABLE_N_LOG, "stable_c": config.STABLE_C,
                                              "stop_lambda_t": config.STABLE_STOP})
        out += [replace(stable, alpha=float(a)) for a in config.STABLE_ALPHAS]
        out += [replace(stable, alpha=c.alpha, weight_decay=c.weight_decay) for c in lambda_sweep]
    return list(dict.fromkeys(out))


def recorded(name: str) -> list[History]:
    """The histories of Paper B's recorded set ``name`` (``mc_paper``, ``misgrokking_paper``; see
    :mod:`grok_lib.paper_b.recordings`), checked against its definition. They are read, never trained, and do not
    change when a notebook is rerun with other parameters."""
    return recorded_runs.part_set("paper_b", name)


def paper_alphas() -> list:
    """The paper's own modular-addition alpha sweep (its settings, not trained: the page measures their regime)."""
    return modadd_configs("paper")["alpha"]
