"""The one call each Paper A notebook makes: its parameters in, configs and histories out."""

from __future__ import annotations

from ..notebook import Run
from ..store import run_all
from . import config, figures
from .dln import figures as dln_figures
from .dln import config as dln_config


def mlp(profile: str = "default", weight_decays=None, **overrides) -> Run:
    """The weight-decay sweep of every MLP notebook (None: the profile's value / the paper's λs),
    served by the run store, trained on a miss."""
    configs = config.sweep(profile, weight_decays, **overrides)
    parameters = {"profile": profile, "weight_decays": weight_decays, **overrides}
    return Run(profile, parameters, configs, run_all(configs))


def deep_linear(profile: str = "default", depths=None, **overrides) -> Run:
    """The deep-linear sweep (depths x the (optimiser, λ) runs), served by the run store."""
    configs = dln_config.sweep(profile, dln_config.DEPTHS if depths is None else depths, **overrides)
    parameters = {"profile": profile, "depths": depths, **overrides}
    return Run(profile, parameters, configs, run_all(configs))


def book_configs(profile: str = "default") -> list:
    """Every run Paper A's notebooks need (trained up front by ``make``)."""
    return config.sweep(profile) + dln_config.sweep(profile)


def figure_numbers() -> dict:
    """Figure name -> a function computing its regression numbers from the default profile's runs."""
    mlp_runs = lambda: run_all(config.sweep("default"), progress=False)  # noqa: E731
    dln_runs = lambda: run_all(dln_config.sweep("default"), progress=False)  # noqa: E731
    return ({name: (lambda f=f: f(mlp_runs())) for name, f in figures.NUMBERS.items()}
            | {name: (lambda f=f: f(dln_runs())) for name, f in dln_figures.NUMBERS.items()})
