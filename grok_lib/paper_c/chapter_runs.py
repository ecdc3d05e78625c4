"""The one call each Part C notebook makes: its parameters in, configs and histories out.

A chapter whose runs play different roles plans them as named groups (:data:`grok_lib.chapters.Runs`), which the
notebook reads by name (``run.groups["tanh"]``): the nets chapter's ``two_layer`` and ``tanh`` (:func:`net_runs`),
the label-noise chapter's ``fractions`` and ``full`` (:func:`noise_runs`).

The positional parameters of each function are exactly the parameters of the notebook that
calls it (its parameters cell assigns these names; anything else is an unknown parameter, see
:func:`grok_lib.notebook.parameters`); every one left at None takes the profile's value (or the
paper's sweep values). ``output_path`` is the output notebook, where a run with other than the
committed settings writes its figures and claims (see :func:`grok_lib.notebook.start`).
"""

from __future__ import annotations

from dataclasses import replace

from .. import recorded as recorded_runs
from ..chapters import shaped, with_claim_runs
from ..history import History
from ..notebook import Run, start
from . import config as C, data_ratio, measure
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


def wd_seed_configs(configs: list) -> list:
    """The weight-decay claims' claim-only runs (no figure draws them): the small-gamma runs of the chapter's
    ``configs`` (measure.wd_small_at) at data and init seeds base + 1 ... base + WD_SEEDS - 1, seeds outermost:
    the plateaus rest on the few softest modes of one sample's spectrum, so one seed cannot decide a verdict."""
    return further_seeds([c for c in configs if measure.wd_small_at(c.lam_eff, c.gamma, c.d_out)], WD_SEEDS - 1)


def further_seeds(configs: list, count: int) -> list:
    """``configs`` again at data and init seeds + 1 ... + ``count``, seeds outermost: a claim's runs at further
    seeds."""
    return [replace(c, data_seed=c.data_seed + k, init_seed=c.init_seed + k) for k in range(1, count + 1)
            for c in configs]


def weight_decay(profile: str = "default", lams=None, gammas=None, d_in=None, eta=None, data_seed=None,
                 init_seed=None, *, output_path=None) -> Run:
    """One linear run per (λ, γ); the small-γ runs at further seeds are its claim-only runs (C.wd.*,
    ``run.claim_histories``)."""
    overrides = _linear(d_in, eta, None, None, data_seed, init_seed)
    configs = C.weight_decay_configs(profile, _given(lams, C.WD_LAMS), _given(gammas, C.WD_GAMMAS), **overrides)
    return with_claim_runs("paper_c/weight_decay", start(
        profile, {"profile": profile, "lams": lams, "gammas": gammas, **overrides}, configs,
        C.weight_decay_configs("default"), output_path))


def d_out(profile: str = "default", d_outs=None, seeds=None, d_in=None, eta=None, *, output_path=None) -> Run:
    """One linear run per d_out and seed at λ = 0.9."""
    overrides = {"d_in": d_in, "eta": eta}
    configs = C.d_out_configs(profile, _given(d_outs, C.D_OUTS), _given(seeds, C.D_OUT_SEEDS), **overrides)
    return start(profile, {"profile": profile, "d_outs": d_outs, "seeds": seeds, **overrides}, configs,
                 C.d_out_configs("default"), output_path)


#: The nets chapter's named groups: group name -> the model (:data:`.config.MODELS`) of its one run.
NET_MODELS = {"two_layer": "two_layer_linear", "tanh": "tanh"}


def net_runs(profile: str = "default", **overrides) -> dict[str, list]:
    """The nets chapter's runs as named groups: ``two_layer`` (the two-layer linear net) and ``tanh``, one run
    each (:data:`NET_MODELS`), at ``profile``'s :data:`.config.NET_SETTINGS` with ``overrides``."""
    return {name: C.net_configs(profile, models=(model,), **overrides) for name, model in NET_MODELS.items()}


def nets(profile: str = "default", steps=None, eta=None, data_seed=None, init_seed=None, *, output_path=None) -> Run:
    """The two-layer linear net and the tanh net (``run.groups["two_layer"]``, ``run.groups["tanh"]``)."""
    overrides = {"steps": steps, "eta": eta, "data_seed": data_seed, "init_seed": init_seed}
    return start(profile, {"profile": profile, **overrides}, net_runs(profile, **overrides), net_runs("default"),
                 output_path)


#: Recorded set name -> its configs as the named groups :func:`recorded` serves its histories in, in the recorded
#: set's order (its definition, :mod:`grok_lib.paper_c.recordings`): ``nets_paper`` is the nets chapter's groups
#: (:func:`net_runs`) at the ``paper`` profile.
RECORDED_GROUPS = {"nets_paper": lambda: net_runs("paper"), "nets_activation": lambda: C.activation_configs("paper")}


def recorded(name: str) -> dict[str, list[History]]:
    """The histories of Part C's recorded set ``name``, checked against its definition, in its named groups
    (:data:`RECORDED_GROUPS`; ``nets_paper``: the nets chapter's ``two_layer`` and ``tanh`` at the paper's
    1000-200-5; ``nets_activation``: ``two_layer``, ``relu`` and ``tanh_g<gain>``, one run per seed; see
    :mod:`grok_lib.paper_c.recordings`)."""
    return shaped(RECORDED_GROUPS[name](), recorded_runs.part_set("paper_c", name))


def noise_runs(profile: str, fractions=None, overrides: dict | None = None) -> dict[str, list]:
    """The label-noise chapter's runs as named groups: ``fractions``, at lambda = NOISE_LAM, one per noise
    fraction of sigma*; ``full``, the one run at NOISE_FULL_LAM with sigma* from the full noise theory."""
    overrides = overrides or {}
    return {"fractions": C.noise_configs(profile, _given(fractions, C.NOISE_FRACTIONS), **overrides),
            "full": [C.noise_full_config(profile, **overrides)]}


#: Further seeds of the runs at sigma_n = sigma*, added to the base seed's: claim-only runs (no figure draws them).
#: C.noise.tuned is graded on the run at lambda = NOISE_FULL_LAM with sigma* of the book's full noise theory (the
#: ``full`` group) and its further seeds; the run at lambda = NOISE_LAM with the rebuttal's sigma* (fraction 1 of the
#: ``fractions`` group) and its further seeds are its context. One seed's test crossing can sit on the knife-edge of
#: its noise floor, so one seed cannot decide either.
TUNED_NOISE_SEEDS = 3


def tuned_noise_seed_configs(runs: dict[str, list]) -> list:
    """The label-noise chapter's claim-only runs (``runs``: its groups): at data and init seeds + 1 ... +
    TUNED_NOISE_SEEDS, the run at the rebuttal's sigma* (lambda = NOISE_LAM, the noise tuned from the ``fractions``
    group's settings as :func:`.config.noise_configs` tunes it, whatever noise fractions the chapter was run with),
    then the ``full`` group's run (lambda = NOISE_FULL_LAM, sigma* of the full noise theory)."""
    from .theory import noise_for_simultaneous_crossing

    (base,) = {replace(c, label_noise=0.0, grok_eps=()) for c in runs["fractions"]}  # they differ in their noise only
    sigma = noise_for_simultaneous_crossing(base.lam_eff, base.eta, base.eps, base.d_out)
    return (further_seeds([replace(base, label_noise=1.0 * sigma)], TUNED_NOISE_SEEDS)
            + further_seeds(list(runs["full"]), TUNED_NOISE_SEEDS))


def test_noise_configs(runs: dict[str, list]) -> list:
    """C.noise.test_shift's claim-only runs (``runs``: the label-noise chapter's groups): every run with label noise,
    at its own seed and at seeds + 1 ... + TUNED_NOISE_SEEDS, with the same noise on its test labels."""
    noisy = [replace(c, test_label_noise=True) for c in [*runs["fractions"], *runs["full"]] if c.label_noise > 0]
    return noisy + further_seeds(noisy, TUNED_NOISE_SEEDS)


def noise_claim_configs(runs: dict[str, list]) -> list:
    """Every claim-only run of the label-noise chapter: :func:`tuned_noise_seed_configs`, then
    :func:`test_noise_configs`."""
    return tuned_noise_seed_configs(runs) + test_noise_configs(runs)


def label_noise(profile: str = "default", fractions=None, d_in=None, eta=None, eps=None, data_seed=None,
                init_seed=None, *, output_path=None) -> Run:
    """Label-noise runs at λ = 0.5, σ_n = fraction × the rebuttal's σ* (``run.groups["fractions"]``), and one at
    λ = 0.3 with σ* from the book's full noise theory (``run.groups["full"]``); both runs at σ* at further seeds are
    its claim-only runs (C.noise.*, ``run.claim_histories``)."""
    overrides = _linear(d_in, eta, eps, None, data_seed, init_seed)
    return with_claim_runs("paper_c/label_noise", start(
        profile, {"profile": profile, "fractions": fractions, **overrides}, noise_runs(profile, fractions, overrides),
        noise_runs("default"), output_path))


def modadd_data_ratio(profile: str = "default", fractions=None, seeds=None, epochs=None, device=None, *,
                      output_path=None) -> Run:
    """Part A's MLP at a small scale, one run per training fraction and seed (Paper C's question on
    modular addition)."""
    configs = data_ratio.data_ratio_configs(profile, fractions, seeds, epochs, device)
    return start(profile, {"profile": profile, "fractions": fractions, "seeds": seeds, "epochs": epochs,
                           "device": device}, configs, data_ratio.data_ratio_configs("default"), output_path)
