"""Paper C's runs: the config of one teacher-student run, its profiles and the run sets of Part C.

Part C keeps the paper's letters: ``lam`` is lambda = d_in / N_tr (not a weight decay), ``gamma``
is the weight decay, ``eta`` the learning rate, ``eps`` the accuracy threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..config import (ADDED_LATER, PROFILES as PROFILE_NAMES, ConfigError, from_profile, given_overrides, need_choice,
                      need_int, need_list_of_numbers, need_real, need_seeds, spelled_as, to_dict)

MODELS = ("linear", "two_layer_linear", "tanh", "relu")
#: eigen: exact powers of GD's linear recursion in the eigenbasis of the sample covariance
#: (any step in O(1)); direct: plain GD steps with matrix-vector products. Linear student only.
SOLVERS = ("eigen", "direct")


#: The accuracy thresholds eps are squared errors per sample against a teacher of unit scale: below 1e-12
#: float64's rounding of the residuals (about 1e-16 of the labels) reaches them, so a crossing step there is
#: rounding, not dynamics; at 1 or above almost every sample counts as correct from step 0.
EPS_MIN = 1e-12
#: The most training samples a run may have (N_tr = d_in / lam): the memory estimate then decides d_in.
MAX_N_TRAIN = 10**7


@dataclass(frozen=True)
class LinearEstimatorConfig:
    """One teacher-student run of Paper C (every field is in the run's key)."""

    d_in: int = 1000  # input dimension
    d_out: int = 1  # output dimension
    lam: float = 0.5  # lambda = d_in / N_tr (Paper C's letter); N_tr = round(d_in / lam)
    eta: float = 0.01  # GD learning rate
    gamma: float = 0.0  # weight decay: S <- S - eta (grad L_tr + gamma S)
    eps: float = 1e-3  # accuracy threshold: a sample is correct when ||S^T x - y||^2 <= eps
    grok_eps: tuple = ()  # further thresholds whose train/test crossing steps are measured (eps always is)
    steps: int = 1_000_000  # full-batch GD steps
    n_test: int = 10_000  # test samples (fresh draws of x)
    label_noise: float = 0.0  # sigma_n: training labels y = T^T x + N(0, sigma_n^2 I)
    test_label_noise: bool = False  # the test labels carry the same noise (the rebuttal's variant)
    model: str = "linear"  # linear | two_layer_linear (S = W1 W2) | tanh (W2^T tanh(W1^T x)) | relu (W2^T relu(W1^T x))
    hidden: int = 200  # hidden width of the two-layer nets (unused for linear)
    # the tanh net's gain g: its activation is tanh(g z) / g, whose slope at 0 stays 1, so that the linear theory and
    # the two-layer linear net are the same prediction at every g (only the curvature grows); tanh only
    gain: float = field(default=1.0, metadata={ADDED_LATER: True})
    solver: str = "eigen"  # eigen | direct (linear only; the two agree to ~1e-10)
    data_seed: int = 0  # seeds the teacher, the train and test inputs, the label noise
    init_seed: int = 0  # seeds the student's initialisation
    n_log: int = 200  # log-spaced record steps (plus the regular grid, step 0 and the last step)
    n_grid: int = 20  # regularly spaced record steps (the figures have log step axes)

    def __post_init__(self) -> None:
        need_int("d_in", self.d_in, 1)
        need_int("d_out", self.d_out, 1)
        need_real("lam", self.lam, 0.0, math.inf, lo_open=True, hi_open=True)
        if self.d_in / self.lam > MAX_N_TRAIN:
            raise ConfigError(f"lam must be >= d_in / {MAX_N_TRAIN:.0e} so that N_tr = round(d_in / lam) is at most "
                              f"{MAX_N_TRAIN:.0e} samples; got lam={self.lam!r} with d_in={self.d_in}")
        if round(self.d_in / self.lam) < 1:
            raise ConfigError(f"lam must be <= 2 * d_in so that N_tr = round(d_in / lam) >= 1; got lam={self.lam!r}"
                              f" with d_in={self.d_in}")
        need_real("eta", self.eta, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("gamma", self.gamma, 0.0, math.inf, lo_open=False, hi_open=True)
        need_real("eps", self.eps, EPS_MIN, 1.0, lo_open=False, hi_open=True)
        if not isinstance(self.grok_eps, tuple):
            raise ConfigError(f"grok_eps must be a tuple of numbers in [{EPS_MIN}, 1), got {self.grok_eps!r}")
        for e in self.grok_eps:
            need_real("grok_eps", e, EPS_MIN, 1.0, lo_open=False, hi_open=True)
        need_int("steps", self.steps, 1)
        need_int("n_test", self.n_test, 1)
        # sigma_n^2 is a loss: float64 (and Python's float power) holds it only below ~1e154
        need_real("label_noise", self.label_noise, 0.0, 1e150, lo_open=False, hi_open=True)
        need_choice("test_label_noise", self.test_label_noise, (False, True))
        need_choice("model", self.model, MODELS)
        need_int("hidden", self.hidden, 1)
        need_real("gain", self.gain, 0.0, 1e6, lo_open=True, hi_open=False)
        if self.gain != 1.0 and self.model != "tanh":
            raise ConfigError(f"gain must be 1 for model {self.model!r} (it is the tanh net's); got gain={self.gain!r}")
        need_choice("solver", self.solver, SOLVERS)
        if self.solver == "direct" and self.model != "linear":
            raise ConfigError(f"solver must be eigen for model {self.model!r} (direct is the linear student's check)")
        need_int("data_seed", self.data_seed, 0)
        need_int("init_seed", self.init_seed, 0)
        need_int("n_log", self.n_log, 1)
        need_int("n_grid", self.n_grid, 0)
        if self.model == "linear":
            # GD on the linear student diverges once eta (2 s_max / d_out + gamma) >= 2; the sample
            # covariance's top eigenvalue is near the MP edge (1 + sqrt(lam))^2 (the simulator checks the real one)
            top = self.eta * (2 * (1 + math.sqrt(self.lam)) ** 2 / self.d_out + self.gamma)
            if top >= 2:
                raise ConfigError(f"eta must be < 2 / (2 (1 + sqrt(lam))^2 / d_out + gamma) = "
                                  f"{2 / (top / self.eta):.4g} for GD to converge; got eta={self.eta!r}")

    @property
    def n_train(self) -> int:
        """N_tr = round(d_in / lam)."""
        return round(self.d_in / self.lam)

    @property
    def lam_eff(self) -> float:
        """The realised ratio d_in / N_tr (lam up to the rounding of N_tr)."""
        return self.d_in / self.n_train

    @property
    def all_eps(self) -> tuple:
        """eps and the grok_eps thresholds, without repeats, in decreasing order."""
        return tuple(sorted({float(self.eps), *map(float, self.grok_eps)}, reverse=True))

    def to_dict(self) -> dict:
        return to_dict(self)

    @classmethod
    def from_dict(cls, values: dict) -> "LinearEstimatorConfig":
        """The config of ``to_dict`` (JSON gives lists; grok_eps is a tuple); unknown names are a ConfigError."""
        given = given_overrides(cls, dict(values))
        if "grok_eps" in given and isinstance(given["grok_eps"], list):
            given["grok_eps"] = tuple(given["grok_eps"])
        return cls(**given)


# --- profiles --------------------------------------------------------------------------------
#: The thresholds of the Delta t_grok-vs-lambda figure (the paper's eps = 1e-3 down to 1e-8).
GROK_EPS = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)

# ci: tiny, for unit tests (well under a second). default: the paper's own settings (eta = 0.01,
# d_in = 1000, eps = 1e-3): by exact powers in the eigenbasis, a run costs about a second whatever
# its number of steps. paper: the same (the paper's settings are already cheap); only the
# two-layer nets differ (see net_configs).
PROFILES = {
    "ci": LinearEstimatorConfig(d_in=40, lam=0.5, eta=0.05, steps=20_000, n_test=400, n_log=80, n_grid=20,
                                hidden=16),
    "default": LinearEstimatorConfig(grok_eps=GROK_EPS[1:]),
    "paper": LinearEstimatorConfig(grok_eps=GROK_EPS[1:]),
}


def profile_config(profile: str, **overrides) -> LinearEstimatorConfig:
    """The base config of a named profile with ``overrides`` (None means: keep); unknown names are ConfigErrors."""
    if "grok_eps" in overrides and isinstance(overrides["grok_eps"], list):
        overrides = dict(overrides, grok_eps=tuple(overrides["grok_eps"]))
    return from_profile(PROFILES, profile, **overrides)


# --- the run sets of Part C -------------------------------------------------------------------
#: lambda of the loss/accuracy curves (Fig. 1-like): fast grokking, slow grokking, a plateau.
CURVE_LAMS = (0.1, 0.9, 1.5)
#: lambda of the Delta t_grok sweep (every run measures every eps of GROK_EPS).
GROK_LAMS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: (lambda, gamma) of the weight-decay runs. gamma << 2 lambda_min is the formula's small-gamma regime.
WD_LAMS = (0.3, 0.5, 0.7)
WD_GAMMAS = (1e-3, 1e-2)
#: d_out of the Delta t vs d_out sweep at lambda = 0.9 (the paper: a peak near d_out ~ 50).
D_OUTS = (1, 2, 5, 10, 20, 50, 100)
D_OUT_LAM = 0.9
D_OUT_SEEDS = (0, 1, 2)
#: The label-noise runs: lambda and sigma_n as multiples of the tuned sigma* (theory.noise_for_simultaneous_crossing
#: with the rebuttal's prediction), and one run at NOISE_FULL_LAM with sigma* from the book's full noise theory
#: (which keeps the fitted noise; it has a solution only for lambda < 0.382).
NOISE_LAM = 0.5
NOISE_FRACTIONS = (0.0, 0.5, 1.0)
NOISE_FULL_LAM = 0.3


#: The notebook's list parameter of each swept config field.
LIST_OF = {"lam": "lams", "gamma": "gammas", "d_out": "d_outs", "label_noise": "fractions"}


def _sweep(profile: str, values: dict, overrides: dict) -> list[LinearEstimatorConfig]:
    """The profile's base config with ``overrides``, once per combination of ``values`` (field -> list),
    the first field outermost; an error names the notebook's list parameter and its value."""
    base = profile_config(profile, **overrides)
    out = [base]
    for k, vs in values.items():
        nxt = []
        for c in out:
            for v in vs:
                with spelled_as({k: LIST_OF[k]}, f"{LIST_OF[k]} value {v!r}"):
                    nxt.append(replace(c, **{k: v}))
        out = nxt
    return out


def curve_configs(profile: str = "default", lams=CURVE_LAMS, **overrides) -> list[LinearEstimatorConfig]:
    """One linear run per lambda of ``lams`` (losses and accuracies vs step)."""
    lams = need_list_of_numbers("lams", lams, 0.0, math.inf)
    return _sweep(profile, {"lam": [float(x) for x in lams]}, overrides)


def grok_time_configs(profile: str = "default", lams=GROK_LAMS, **overrides) -> list[LinearEstimatorConfig]:
    """One linear run per lambda < 1 (above, the test loss never reaches eps); each measures its crossings at
    every eps of ``eps`` + ``grok_eps``."""
    lams = need_list_of_numbers("lams", lams, 0.0, 1.0)
    return _sweep(profile, {"lam": [float(x) for x in lams]}, overrides)


def weight_decay_configs(profile: str = "default", lams=WD_LAMS, gammas=WD_GAMMAS, **overrides) -> list:
    """One linear run per (lambda, gamma), lambda < 1 (the plateau formulas' range); crossings at eps only (the
    plateaus are what these runs are for)."""
    lams = need_list_of_numbers("lams", lams, 0.0, 1.0)
    gammas = need_list_of_numbers("gammas", gammas, 0.0, math.inf, lo_open=False)
    overrides = {"grok_eps": ()} | {k: v for k, v in overrides.items() if v is not None}
    return _sweep(profile, {"lam": [float(x) for x in lams], "gamma": [float(g) for g in gammas]}, overrides)


def d_out_configs(profile: str = "default", d_outs=D_OUTS, seeds=D_OUT_SEEDS, **overrides) -> list:
    """One linear run per d_out and seed at lambda = 0.9 (data and init seeds move together).

    These runs only need the crossing steps at eps, so they record few steps (n_log = 40) and a
    smaller test set (2000): their cost grows like d_out.
    """
    d_outs = need_list_of_numbers("d_outs", d_outs, 1, math.inf, lo_open=False, integer=True)
    seeds = need_seeds(seeds)
    overrides = {"lam": D_OUT_LAM, "n_log": 40, "n_grid": 0, "n_test": 2000, "grok_eps": (), "steps": 10**8} | {
        k: v for k, v in overrides.items() if v is not None}
    base = profile_config(profile, **overrides)
    # seeds outermost: the runs of one seed share their training inputs (and their eigendecomposition)
    out = []
    for s in seeds:
        for d in d_outs:
            with spelled_as({"d_out": "d_outs"}, f"d_outs value {d!r}"):
                out.append(replace(base, d_out=d, data_seed=s, init_seed=s))
    return out


#: The two-layer nets: (d_in, hidden, d_out, lam, eta, steps) per profile. The paper's tanh net
#: is 1000-200-5; its per-sample GD costs N_tr * d_in * hidden per step, ~50 ms at lambda = 0.5 on
#: one core, so the default profile scales the widths by 1/5 (200-40-5); the paper profile keeps them.
NET_SETTINGS = {
    "ci": dict(d_in=40, hidden=16, d_out=2, lam=0.5, eta=0.2, steps=2_000),
    "default": dict(d_in=200, hidden=40, d_out=5, lam=0.5, eta=0.5, steps=3_000),
    "paper": dict(d_in=1000, hidden=200, d_out=5, lam=0.5, eta=0.5, steps=3_000),
}


def net_configs(profile: str = "default", models=("two_layer_linear", "tanh"), **overrides) -> list:
    """The two-layer linear and tanh students of ``profile`` (NET_SETTINGS); a test set of 2000 (the tanh
    net's test pass at every record step would otherwise cost more than its training)."""
    need_choice("profile", profile, PROFILE_NAMES)
    for m in models:
        need_choice("models", m, MODELS[1:])
    settings = NET_SETTINGS[profile] | {"n_log": 200, "n_grid": 20, "n_test": 2000, "grok_eps": ()}
    given = settings | {k: v for k, v in overrides.items() if v is not None}
    return [profile_config(profile, **(given | {"model": m})) for m in models]


#: The rebuttal's remarks on other activations (C.nets.relu, C.nets.tanh_gain), at the paper's 1000-200-5: the tanh
#: net's gains g (activation tanh(g z) / g). The initial pre-activations have RMS sqrt(d_in / (2 d_in hidden)) = 0.05
#: at hidden 200, so g = 20 puts them at tanh's unit scale (g z ~ 1: the first gain where the curvature is not
#: small from the start) and g = 2 a tenth of it; chosen from that scale before any run.
ACTIVATION_GAINS = (2.0, 20.0)
#: The data and initialisation seeds of those runs (each seed's nets share its data and initialisation).
ACTIVATION_SEEDS = (0, 1, 2)


def activation_configs(profile: str = "paper", gains=ACTIVATION_GAINS, seeds=ACTIVATION_SEEDS) -> dict[str, list]:
    """Per seed, the two-layer linear net (the reference), the ReLU net and the tanh net at each gain, as named
    groups ``two_layer``, ``relu`` and ``tanh_g<gain>``, each one run per seed in ``seeds``' order."""
    def nets(model: str, gain: float = 1.0) -> list:
        return [replace(net_configs(profile, models=(model,), data_seed=s, init_seed=s)[0], gain=gain)
                for s in seeds]
    return {"two_layer": nets("two_layer_linear"), "relu": nets("relu"),
            **{f"tanh_g{g:g}": nets("tanh", g) for g in gains}}


def noise_configs(profile: str = "default", fractions=NOISE_FRACTIONS, **overrides) -> list:
    """Label-noise runs at lambda = NOISE_LAM: sigma_n = fraction * sigma*, sigma* tuned by the rebuttal's
    prediction so that the training accuracy reaches its level just when the test accuracy does."""
    from .theory import noise_for_simultaneous_crossing  # late: scipy is only needed here

    fractions = need_list_of_numbers("fractions", fractions, 0.0, math.inf, lo_open=False)
    base = profile_config(profile, **({"lam": NOISE_LAM} | {k: v for k, v in overrides.items() if v is not None}))
    sigma = noise_for_simultaneous_crossing(base.lam_eff, base.eta, base.eps, base.d_out)
    # the noiseless run is the Delta t sweep's run at this lambda; the noisy ones need eps's crossings only
    out = []
    for f in fractions:
        with spelled_as({}, f"fractions value {f!r} (sigma_n = {f!r} x sigma* = {float(f) * sigma:.4g})"):
            out.append(replace(base, label_noise=float(f) * sigma, grok_eps=base.grok_eps if f == 0 else ()))
    return out


def noise_full_config(profile: str = "default", **overrides) -> LinearEstimatorConfig:
    """One label-noise run at lambda = NOISE_FULL_LAM with sigma* from the book's full noise theory
    (theory.mp_noise_losses, d_out = 1): the tuning done with the noise the student fits."""
    from .theory import noise_for_simultaneous_crossing

    base = profile_config(profile, **({"lam": NOISE_FULL_LAM, "grok_eps": ()}
                                      | {k: v for k, v in overrides.items() if v is not None}))
    sigma = noise_for_simultaneous_crossing(base.lam_eff, base.eta, base.eps, base.d_out, model="mp")
    return replace(base, label_noise=float(sigma))


def part_c_configs(profile: str = "default") -> list[LinearEstimatorConfig]:
    """Every run Part C needs, without duplicates (equal configs are one run)."""
    runs = (curve_configs(profile) + grok_time_configs(profile) + weight_decay_configs(profile)
            + d_out_configs(profile) + net_configs(profile) + noise_configs(profile) + [noise_full_config(profile)])
    return list(dict.fromkeys(runs))

