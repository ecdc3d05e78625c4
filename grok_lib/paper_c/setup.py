"""The one call each Part C notebook makes: its parameters in, configs and histories out.

The positional parameters of each function are exactly the parameters of the notebook that
calls it (its parameters cell assigns these names; anything else is an unknown parameter, see
:func:`grok_lib.notebook.parameters`); every one left at None takes the profile's value (or the
paper's sweep values). ``output_path`` is the output notebook, where a run with other than the
committed settings writes its figures and claims (see :func:`grok_lib.notebook.start`).
"""

from __future__ import annotations

from .. import recorded as recorded_runs
from ..history import History
from ..notebook import Run, start
from ..runs import run_all
from . import checks, config as C, figures, modadd, recordings
from .thresholds import WD_SEEDS


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


def wd_seed_configs(profile: str = "default", lams=None, gammas=None, **overrides) -> list:
    """The weight-decay runs in the small-gamma regime (checks.wd_small_at) with data and init seeds base + 1 ...
    base + WD_SEEDS - 1 (base: the overrides' data_seed, else the profile's), seeds outermost: claim-only runs of
    C.wd.limits (no figure draws them). The base seed's lowest ratio sits on the edge of the band's margin, so one
    seed cannot decide the verdict."""
    lams, gammas = _given(lams, C.WD_LAMS), _given(gammas, C.WD_GAMMAS)
    runs = _at_further_seeds(lambda **o: C.weight_decay_configs(profile, lams, gammas, **o), WD_SEEDS - 1, overrides)
    return [c for c in runs if checks.wd_small_at(c.lam_eff, c.gamma, c.d_out)]


def _at_further_seeds(make, count: int, overrides: dict) -> list:
    """``make(**overrides)``'s configs again at data and init seeds base + 1 ... base + ``count`` (base: the first
    config's seeds), seeds outermost: a claim's runs at further seeds."""
    overrides = {k: v for k, v in overrides.items() if v is not None}
    base = make(**overrides)[0]
    return [c for k in range(1, count + 1)
            for c in make(**(overrides | {"data_seed": base.data_seed + k, "init_seed": base.init_seed + k}))]


def _weight_decay_configs(profile: str, lams, gammas, overrides: dict) -> list:
    """The figure's runs, then the claim-only seeds of C.wd.limits (last; see :func:`.figures.weight_decay_runs`)."""
    return (C.weight_decay_configs(profile, _given(lams, C.WD_LAMS), _given(gammas, C.WD_GAMMAS), **overrides)
            + wd_seed_configs(profile, lams, gammas, **overrides))


def weight_decay(profile: str = "default", lams=None, gammas=None, d_in=None, eta=None, data_seed=None,
                 init_seed=None, *, output_path=None) -> Run:
    """One linear run per (λ, γ), then the small-γ runs at further seeds (claim-only runs of C.wd.limits, last;
    the figure's runs are :func:`.figures.weight_decay_runs`)."""
    overrides = _linear(d_in, eta, None, None, data_seed, init_seed)
    return start(profile, {"profile": profile, "lams": lams, "gammas": gammas, **overrides},
                 _weight_decay_configs(profile, lams, gammas, overrides), _weight_decay_configs("default", None, None, {}),
                 output_path)


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


def recorded(name: str) -> list[History]:
    """The histories of Part C's recorded set ``name`` (``nets_paper``: the two-layer linear and the tanh net at the
    paper's 1000-200-5, in that order; see :mod:`grok_lib.paper_c.recordings`), checked against its definition."""
    full = f"paper_c/{name}"
    if full not in recordings.RECORDINGS:
        names = ", ".join(n.split("/", 1)[1] for n in recordings.RECORDINGS)
        raise recorded_runs.RecordingError(f"name must be one of {names}, got {name!r}")
    return recorded_runs.load(full, recordings.RECORDINGS[full][1]()).histories


def _noise_configs(profile: str, fractions, overrides: dict) -> list:
    return C.noise_configs(profile, _given(fractions, C.NOISE_FRACTIONS), **overrides) + [
        C.noise_full_config(profile, **overrides)]


#: Further seeds of the run at sigma_n = sigma* (lambda = NOISE_LAM), added to the base seed's: claim-only runs of
#: C.noise.tuned (no figure draws them). The base seed's final L_gen sits on eps/4, so one seed cannot decide
#: whether its test accuracy crosses.
TUNED_NOISE_SEEDS = 3


def tuned_noise_seed_configs(profile: str = "default", **overrides) -> list:
    """The run at sigma_n = sigma* with data and init seeds base + 1 ... base + TUNED_NOISE_SEEDS (base: the
    overrides' data_seed, else the profile's)."""
    return _at_further_seeds(lambda **o: C.noise_configs(profile, (1.0,), **o)[:1], TUNED_NOISE_SEEDS, overrides)


def _label_noise_configs(profile: str, fractions, overrides: dict) -> list:
    """The figure's runs, then the claim-only seeds of C.noise.tuned (last; see :func:`.figures.label_noise_runs` and
    :func:`.checks.tuned_noise_runs`)."""
    return _noise_configs(profile, fractions, overrides) + tuned_noise_seed_configs(profile, **overrides)


def label_noise(profile: str = "default", fractions=None, d_in=None, eta=None, eps=None, data_seed=None,
                init_seed=None, *, output_path=None) -> Run:
    """Label-noise runs at λ = 0.5 (σ_n = fraction × the rebuttal's σ*), then one at λ = 0.3 with σ*
    from the book's full noise theory, then the claim-only seeds of C.noise.tuned (last; the figure's runs are
    :func:`.figures.label_noise_runs`)."""
    overrides = _linear(d_in, eta, eps, None, data_seed, init_seed)
    return start(profile, {"profile": profile, "fractions": fractions, **overrides},
                 _label_noise_configs(profile, fractions, overrides), _label_noise_configs("default", None, {}),
                 output_path)


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
    runs = C.part_c_configs(profile) + tuned_noise_seed_configs(profile) + wd_seed_configs(profile)
    return list(dict.fromkeys(runs)) + modadd.data_ratio_configs(profile)


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
