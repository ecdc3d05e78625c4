"""The one call each Part C notebook makes: its parameters in, configs and histories out.

The positional parameters of each function are exactly the parameters of the notebook that
calls it (its parameters cell assigns these names; anything else is an unknown parameter, see
:func:`grok_lib.notebook.parameters`); every one left at None takes the profile's value (or the
paper's sweep values). ``output_path`` is the output notebook, where a run with other than the
committed settings writes its figures and claims (see :func:`grok_lib.notebook.start`).
"""

from __future__ import annotations

from ..notebook import Run, start
from ..runs import run_all
from . import config as C, figures, modadd


def _given(values, default):
    return default if values is None else values


def _linear(d_in, eta, eps, steps, data_seed, init_seed) -> dict:
    return {"d_in": d_in, "eta": eta, "eps": eps, "steps": steps, "data_seed": data_seed, "init_seed": init_seed}


def loss_curves(profile: str = "default", lams=None, d_in=None, eta=None, eps=None, data_seed=None, init_seed=None,
                steps=None, *, output_path=None) -> Run:
    """One linear run per λ (default: the paper's 0.1, 0.9, 1.5): losses and accuracies vs step."""
    overrides = _linear(d_in, eta, eps, steps, data_seed, init_seed)
    configs = C.curve_configs(profile, _given(lams, C.CURVE_LAMS), **overrides)
    return start(profile, {"profile": profile, "lams": lams, **overrides}, configs, C.curve_configs("default"),
                 output_path)


def grok_time(profile: str = "default", lams=None, d_in=None, eta=None, data_seed=None, init_seed=None, steps=None,
              *, output_path=None) -> Run:
    """One linear run per λ < 1, each measuring its crossings at ε = 1e-3 ... 1e-8."""
    overrides = _linear(d_in, eta, None, steps, data_seed, init_seed)
    configs = C.grok_time_configs(profile, _given(lams, C.GROK_LAMS), **overrides)
    return start(profile, {"profile": profile, "lams": lams, **overrides}, configs, C.grok_time_configs("default"),
                 output_path)


def weight_decay(profile: str = "default", lams=None, gammas=None, d_in=None, eta=None, data_seed=None,
                 init_seed=None, *, output_path=None) -> Run:
    """One linear run per (λ, γ)."""
    overrides = _linear(d_in, eta, None, None, data_seed, init_seed)
    configs = C.weight_decay_configs(profile, _given(lams, C.WD_LAMS), _given(gammas, C.WD_GAMMAS), **overrides)
    return start(profile, {"profile": profile, "lams": lams, "gammas": gammas, **overrides}, configs,
                 C.weight_decay_configs("default"), output_path)


def d_out(profile: str = "default", d_outs=None, seeds=None, d_in=None, eta=None, *, output_path=None) -> Run:
    """One linear run per d_out and seed at λ = 0.9."""
    overrides = {"d_in": d_in, "eta": eta}
    configs = C.d_out_configs(profile, _given(d_outs, C.D_OUTS), _given(seeds, C.D_OUT_SEEDS), **overrides)
    return start(profile, {"profile": profile, "d_outs": d_outs, "seeds": seeds, **overrides}, configs,
                 C.d_out_configs("default"), output_path)


def nets(profile: str = "default", steps=None, eta=None, data_seed=None, init_seed=None, *, output_path=None) -> Run:
    """The two-layer linear net and the tanh net, in that order."""
    overrides = {"steps": steps, "eta": eta, "data_seed": data_seed, "init_seed": init_seed}
    return start(profile, {"profile": profile, **overrides}, C.net_configs(profile, **overrides),
                 C.net_configs("default"), output_path)


def _noise_configs(profile: str, fractions, overrides: dict) -> list:
    return C.noise_configs(profile, _given(fractions, C.NOISE_FRACTIONS), **overrides) + [
        C.noise_full_config(profile, **overrides)]


def label_noise(profile: str = "default", fractions=None, d_in=None, eta=None, eps=None, data_seed=None,
                init_seed=None, *, output_path=None) -> Run:
    """Label-noise runs at λ = 0.5 (σ_n = fraction × the rebuttal's σ*), then one at λ = 0.3 with σ*
    from the book's full noise theory (last)."""
    overrides = _linear(d_in, eta, eps, None, data_seed, init_seed)
    return start(profile, {"profile": profile, "fractions": fractions, **overrides},
                 _noise_configs(profile, fractions, overrides), _noise_configs("default", None, {}), output_path)


def modadd_data_ratio(profile: str = "default", fractions=None, seeds=None, epochs=None, device=None, *,
                      output_path=None) -> Run:
    """Part A's MLP at a small scale, one run per training fraction and seed (Paper C's question on
    modular addition)."""
    configs = modadd.data_ratio_configs(profile, fractions, seeds, epochs, device)
    return start(profile, {"profile": profile, "fractions": fractions, "seeds": seeds, "epochs": epochs,
                           "device": device}, configs, modadd.data_ratio_configs("default"), output_path)


def book_configs(profile: str = "default") -> list:
    """Every run Part C's notebooks need (trained up front by ``make``): the linear estimators and
    the MLP runs of the data-ratio chapter."""
    return C.part_c_configs(profile) + modadd.data_ratio_configs(profile)


#: Figure name -> the default profile's configs it is drawn from.
FIGURE_RUNS = {
    "paper_c/loss_curves": lambda: C.curve_configs("default"),
    "paper_c/agreement": lambda: C.curve_configs("default"),
    "paper_c/grok_time": lambda: C.grok_time_configs("default"),
    "paper_c/weight_decay": lambda: C.weight_decay_configs("default"),
    "paper_c/d_out": lambda: C.d_out_configs("default"),
    "paper_c/nets": lambda: C.net_configs("default"),
    "paper_c/label_noise": lambda: _noise_configs("default", None, {}),
    "paper_c/modadd_data_ratio": lambda: modadd.data_ratio_configs("default"),
}


def figure_numbers() -> dict:
    """Figure name -> a function computing its regression numbers from the default profile's runs."""
    return {name: (lambda name=name, configs=configs: figures.NUMBERS[name](run_all(configs(), progress=False)))
            for name, configs in FIGURE_RUNS.items()}
