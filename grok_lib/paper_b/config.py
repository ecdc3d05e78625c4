"""Paper B's runs: one frozen config per experiment, the profiles and the alpha / lambda sweeps.

Every config says everything that determines a run's numbers and is validated in
``__post_init__`` (one-line :class:`~grok_lib.config.ConfigError` naming the parameter).

Profiles (see :data:`PROFILES`): ``ci`` trains in seconds; ``default`` is what the book
shows, chosen by measurement on a 2-core CPU (all of Part B's default runs together
train in under two minutes on one thread, see :data:`DEFAULT_BUDGET_S`; the claim-only runs come on top); ``paper`` is the
paper's text (d = 1e5, up to 1e6 steps, GPU or hours advised).

The sweeps set each run's length from the theory's own clock: the transition is
predicted at continuous time t = ln(alpha) / lambda (t = sum of step sizes), so a run
goes to ``horizon`` times that, whatever alpha and lambda are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..config import (DEVICES, PROFILES as PROFILE_NAMES, ConfigError, from_dict, from_profile, need_choice, need_int, need_seeds,
                      need_list_of_numbers, need_real, spelled_as, to_dict)

LR_RULES = ("fixed", "stable")  # fixed: every step is lr; stable: min(lr, 1 / smoothness bound), see diagonal.py
EXPERIMENTS = ("sparse", "misgrokking", "matrix_completion", "modadd")
INF = math.inf
#: The largest initialisation scale: the objective holds ||theta||^2 = alpha^2 (and matrix completion
#: alpha^2 in W = U U^T), which float64 holds only below ~1.3e154.
ALPHA_MAX = 1e150
#: The most GD steps a run's length may come to (the paper profile's longest is about 3e6).
MAX_STEPS = 1e12


def _positive(name: str, value) -> None:
    need_real(name, value, 0.0, INF, lo_open=True, hi_open=True)


def _nonnegative(name: str, value) -> None:
    need_real(name, value, 0.0, INF, lo_open=False, hi_open=True)


def need_alpha(name: str, value) -> None:
    """An initialisation scale: a number in (0, ALPHA_MAX)."""
    need_real(name, value, 0.0, ALPHA_MAX, lo_open=True, hi_open=True)


def _fraction(name: str, value) -> None:
    need_real(name, value, 0.0, 1.0, lo_open=True, hi_open=True)


def need_decay_step(config, how: str = "each step multiplies the weights by 1 - lr x weight_decay") -> None:
    """GD (and AdamW) shrink every weight by 1 - lr x weight_decay a step: at or above 1 the decay alone flips or
    blows up the weights, so the run is not the paper's gradient flow and the loss leaves float64."""
    if config.lr * config.weight_decay >= 1:
        raise ConfigError(f"weight_decay must be < 1 / lr = {1 / config.lr:.4g} ({how}), "
                          f"got weight_decay={config.weight_decay!r} with lr={config.lr!r}")


def _flag(name: str, value) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be true or false, got {value!r}")


class _AsDict:
    """to_dict / from_dict of a frozen config (from_dict validates like the constructor)."""

    def to_dict(self) -> dict:
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict):
        return from_dict(cls, data)


@dataclass(frozen=True)
class DiagonalNetConfig(_AsDict):
    """What the two diagonal-net experiments share: f(x) = <u*u - v*v, x>, u = v = alpha/sqrt(2d) at init,
    logistic loss + (lambda/2)||theta||^2, full-batch GD. Use :class:`SparseConfig` or :class:`MisgrokkingConfig`."""

    d: int = 100_000  # input dimension
    n_train: int = 256  # training points
    n_test: int = 10_000  # test points
    alpha: float = 128.0  # initialisation scale: ||theta_0|| = alpha
    weight_decay: float = 1e-3  # lambda of (lambda / 2) ||theta||^2
    lr: float = 0.01  # GD step size (the cap of every step when lr_rule is "stable")
    lr_rule: str = "fixed"  # fixed | stable: min(lr, 1 / H_bound(theta)) so GD tracks gradient flow
    steps: int = 1_000_000  # full-batch GD steps
    data_seed: int = 0  # seeds w* and the train / test inputs
    n_log: int = 240  # recorded steps: this many log- and grid-spaced steps (plus 0 and the last)
    n_snapshots: int = 16  # beta = u*u - v*v kept at this many of the recorded steps
    margins: bool = True  # compute the max-L2 / max-L1 margin classifiers and record cosines to them

    def _check_shared(self) -> None:
        need_int("d", self.d, 1)
        need_int("n_train", self.n_train, 1)
        need_int("n_test", self.n_test, 1)
        need_alpha("alpha", self.alpha)
        _nonnegative("weight_decay", self.weight_decay)
        _positive("lr", self.lr)
        need_decay_step(self)
        need_choice("lr_rule", self.lr_rule, LR_RULES)
        need_int("steps", self.steps, 1)
        need_int("data_seed", self.data_seed, 0)
        need_int("n_log", self.n_log, 2)
        need_int("n_snapshots", self.n_snapshots, 0)
        _flag("margins", self.margins)

    def __post_init__(self) -> None:
        self._check_shared()


@dataclass(frozen=True)
class SparseConfig(DiagonalNetConfig):
    """Sparse linear classification (Fig. 1a): x uniform on {-1, +1}^d, y = sign(<w*, x>), w* with k
    non-zero +-1 entries (on the first k coordinates, as the paper's code; y = +1 iff <w*, x> > 0)."""

    k: int = 3  # non-zeros of w*

    def __post_init__(self) -> None:
        self._check_shared()
        need_int("k", self.k, 1)
        if self.k > self.d:
            raise ConfigError(f"k must be an integer in [1, d = {self.d}], got {self.k!r}")


@dataclass(frozen=True)
class MisgrokkingConfig(DiagonalNetConfig):
    """Misgrokking (Sec. 3.2.3): x = z + (gamma/2) sign(<z, w*>) w*, z ~ N(0, I_d), w* uniform on the
    unit sphere (dense), y = sign(<z, w*>): a large L2 margin, no sparse structure."""

    n_train: int = 32
    alpha: float = 128.0
    gamma: float = 25.0  # the L2 margin of the data along w* is gamma / 2
    #: 0: the run is ``steps`` steps. > 0: it stops at the first step whose clock lambda t / ln(alpha) is
    #: >= stop_clock, and ``steps`` is only an upper bound. With lr_rule "stable" steps can be shorter than
    #: lr, so a step count planned at the cap (:func:`steps_for`) ends the run early on the clock; the
    #: recorded paper-scale runs (:mod:`grok_lib.paper_b.recordings`) stop on the clock instead.
    stop_clock: float = 0.0

    def __post_init__(self) -> None:
        self._check_shared()
        # x = z + (gamma/2) sign(<z, w*>) w* with z ~ N(0, I): past 1e6 the margin LP and the spectra of
        # X^T X are dominated by one direction and lose the noise's digits
        need_real("gamma", self.gamma, 0.0, 1e6, lo_open=False, hi_open=False)
        _nonnegative("stop_clock", self.stop_clock)
        if self.stop_clock > 0 and (self.weight_decay <= 0 or self.alpha <= 1):
            raise ConfigError(f"stop_clock needs weight_decay > 0 and alpha > 1 (ln(alpha) / lambda is the clock); "
                              f"got weight_decay={self.weight_decay!r}, alpha={self.alpha!r}")


@dataclass(frozen=True)
class MatrixCompletionConfig(_AsDict):
    """Matrix completion of the multiplication table X*_ij = i j / d^2 (i, j = 0 .. d-1, as the paper's
    code): W = U U^T - V V^T, U = V = alpha I (+ optional noise), MSE over the observed entries +
    (lambda/2)(||U||^2 + ||V||^2), full-batch GD."""

    d: int = 97  # the table is d x d
    observed_frac: float = 0.05  # fraction of the d^2 entries observed (the training set)
    alpha: float = 10.0  # U = V = alpha I at init
    weight_decay: float = 1e-4  # lambda
    lr: float = 0.1  # GD step size
    steps: int = 2_000_000  # full-batch GD steps
    init_noise: float = 0.0  # std of Gaussian noise added to U and V at init (Remark 3.13); 0 = the paper's code
    data_seed: int = 0  # seeds which entries are observed
    init_seed: int = 0  # seeds the init noise (unused when init_noise = 0)
    n_log: int = 240  # recorded steps (log- and grid-spaced, plus 0 and the last)

    def __post_init__(self) -> None:
        need_int("d", self.d, 2)
        _fraction("observed_frac", self.observed_frac)
        need_alpha("alpha", self.alpha)
        _nonnegative("weight_decay", self.weight_decay)
        _positive("lr", self.lr)
        need_decay_step(self)
        need_int("steps", self.steps, 1)
        need_alpha("init_noise", self.init_noise) if self.init_noise else None  # its square enters W = U U^T
        need_int("data_seed", self.data_seed, 0)
        need_int("init_seed", self.init_seed, 0)
        need_int("n_log", self.n_log, 2)
        if round(self.observed_frac * self.d * self.d) < 1:
            raise ConfigError(f"observed_frac must observe at least one of the d^2 = {self.d ** 2} entries, "
                              f"got {self.observed_frac!r}")


@dataclass(frozen=True)
class ModAddConfig(_AsDict):
    """Modular addition with a two-layer ReLU net f = W2 ReLU(W1 x + b1), x = [onehot(a), onehot(b)],
    He init times alpha (b1 = 0), optionally W2 = 0, full-batch GD + weight decay, cross-entropy."""

    p: int = 97  # modulus
    train_frac: float = 0.4  # fraction of the p^2 ordered pairs (a, b) in the training set
    width: int = 1024  # hidden ReLU units
    alpha: float = 1.0  # He init of W1 and W2 times alpha
    zero_last: bool = True  # W2 = 0 at init (the paper's text)
    weight_decay: float = 1e-4  # lambda (on every parameter, as torch SGD weight_decay)
    lr: float = 0.002  # GD step size
    steps: int = 1_000_000  # full-batch GD steps
    data_seed: int = 0  # seeds the train / test split
    init_seed: int = 0  # seeds the initialisation
    n_log: int = 240  # recorded steps (log- and grid-spaced, plus 0 and the last)
    device: str = "auto"  # auto (cuda if present) | cpu | cuda; float32 either way, losses in float64

    def __post_init__(self) -> None:
        need_int("p", self.p, 2)
        _fraction("train_frac", self.train_frac)
        need_int("width", self.width, 1)
        need_alpha("alpha", self.alpha)
        _flag("zero_last", self.zero_last)
        _nonnegative("weight_decay", self.weight_decay)
        _positive("lr", self.lr)
        need_decay_step(self)
        need_int("steps", self.steps, 1)
        need_int("data_seed", self.data_seed, 0)
        need_int("init_seed", self.init_seed, 0)
        need_int("n_log", self.n_log, 2)
        need_choice("device", self.device, DEVICES)
        if round(self.train_frac * self.p * self.p) < 1:
            raise ConfigError(f"train_frac must keep at least one of the p^2 = {self.p ** 2} pairs, got {self.train_frac!r}")


@dataclass(frozen=True)
class StableModAddConfig(ModAddConfig):
    """:class:`ModAddConfig` with GD's step held inside its stable range, so that GD follows gradient flow (the
    theory's regime): every step is ``min(lr, stable_c / S_t)``, S_t the Gauss–Newton sharpness of the training
    loss (:mod:`grok_lib.paper_b.sharpness`), measured at initialisation and re-estimated every ``sharpness_every``
    steps; runs are compared in continuous time t = Σ lr_t. The run stops at the first step with
    lambda t >= ``stop_lambda_t`` (``steps``: the most steps it may take). Trained by
    :mod:`grok_lib.paper_b.stable_gd`."""

    stable_c: float = 1.0  # lr_t x S_t at most this (GD is stable along the top direction below 2)
    sharpness_every: int = 20  # re-estimate S_t every this many steps (power iteration, warm-started)
    stop_lambda_t: float = 12.0  # stop at lambda t >= this

    def __post_init__(self) -> None:
        super().__post_init__()
        need_real("stable_c", self.stable_c, 0.0, 2.0, lo_open=True, hi_open=True)
        need_int("sharpness_every", self.sharpness_every, 1)
        _positive("stop_lambda_t", self.stop_lambda_t)
        if self.weight_decay <= 0:
            raise ConfigError(f"stop_lambda_t needs weight_decay > 0 (the run stops at lambda t >= stop_lambda_t); "
                              f"got weight_decay={self.weight_decay!r}")


CONFIG_TYPES = {"sparse": SparseConfig, "misgrokking": MisgrokkingConfig,
                "matrix_completion": MatrixCompletionConfig, "modadd": ModAddConfig}


def steps_for(config, horizon: float) -> int:
    """GD steps that reach continuous time horizon * ln(alpha) / lambda at the config's lr (at least 1).

    With ``lr_rule = "stable"`` early steps can be shorter than lr, so such a run may end a
    little before the horizon; the history's ``t`` metric says where it ended.
    """
    need_real("horizon", horizon, 0.0, INF, lo_open=True, hi_open=True)
    if config.weight_decay <= 0 or config.alpha <= 1:
        raise ConfigError(f"steps_for needs weight_decay > 0 and alpha > 1 (ln(alpha) / lambda is the clock); "
                          f"got weight_decay={config.weight_decay!r}, alpha={config.alpha!r}")
    steps = horizon * math.log(config.alpha) / (config.weight_decay * config.lr)
    if not steps <= MAX_STEPS:
        raise ConfigError(f"weight_decay={config.weight_decay!r} with lr={config.lr!r} needs {steps:.3g} steps to reach "
                          f"horizon x ln(alpha) / lambda (at most {MAX_STEPS:.0e}): raise weight_decay or lr, or lower "
                          f"horizon")
    return max(1, math.ceil(steps))


# --- profiles ---------------------------------------------------------------------------------
#: Runs end at horizon * ln(alpha) / lambda in continuous time (the theorem's window is
#: (1 +- c) ln(alpha) / lambda, so 2 holds it for every c < 1). None: the profile's steps are
#: kept (the modular-addition MLP: its measured transition does not scale with ln(alpha) / lambda).
HORIZON = {"sparse": 2.0, "misgrokking": 3.0, "matrix_completion": 4.0, "modadd": None}
#: Part B's whole default profile must train within this many seconds, cold, on one CPU thread.
DEFAULT_BUDGET_S = 120.0


def _fitted(config, experiment: str):
    """``config`` with steps = steps_for(config, HORIZON[experiment]) (unchanged where the horizon is None)."""
    horizon = HORIZON[experiment]
    return config if horizon is None else replace(config, steps=steps_for(config, horizon))


# paper: the paper's text (Sec. 3.2.3, 3.3.3, 2; the misgrokking alpha is not stated, 128 as Fig. 1a).
# default: chosen by measurement on the 2-core CPU, one thread (the scaling study in the Part B
# notebooks): the diagonal nets keep n well below k d and above k^2 ln d with the max-L2-margin
# test accuracy near 55% (the paper's 52%); misgrokking scales gamma with d so that max-L2 stays
# ~98% and max-L1 ~62%; the MLP needs p = 31 and 80% of pairs to grok within seconds.
_RAW = {
    "paper": {
        "sparse": SparseConfig(lr_rule="stable"),  # = fixed lr 0.01 at alpha = 128; keeps alpha = 2048 stable
        "misgrokking": MisgrokkingConfig(lr_rule="stable"),
        "matrix_completion": MatrixCompletionConfig(),
        "modadd": ModAddConfig(),  # run length not stated: 1e6 steps is t = 2000, 0.04 ln(100) / lambda
    },
    "default": {
        "sparse": SparseConfig(d=4000, n_train=128, n_test=2000, alpha=128.0, weight_decay=0.02, lr=0.2,
                               lr_rule="stable", n_log=200),
        "misgrokking": MisgrokkingConfig(d=8000, n_train=32, n_test=1000, gamma=10.0, alpha=128.0,
                                         weight_decay=0.02, lr=0.2, lr_rule="stable", n_log=150),
        "matrix_completion": MatrixCompletionConfig(alpha=10.0, weight_decay=1e-3, lr=0.4, n_log=200),
        "modadd": ModAddConfig(p=31, train_frac=0.8, width=128, alpha=10.0, weight_decay=2e-3, lr=2.0,
                               steps=4000, n_log=120, device="cpu"),
    },
    "ci": {
        "sparse": SparseConfig(d=400, n_train=80, n_test=500, alpha=16.0, weight_decay=0.05, lr=0.2,
                               lr_rule="stable", n_log=60, n_snapshots=4),
        "misgrokking": MisgrokkingConfig(d=400, n_train=16, n_test=300, gamma=6.0, alpha=16.0, weight_decay=0.05,
                                         lr=0.2, lr_rule="stable", n_log=60, n_snapshots=4),
        "matrix_completion": MatrixCompletionConfig(d=20, observed_frac=0.3, alpha=3.0, weight_decay=1e-2,
                                                    lr=0.2, n_log=60),
        "modadd": ModAddConfig(p=11, train_frac=0.6, width=32, alpha=1.0, weight_decay=2e-3, lr=1.0,
                               steps=150, n_log=30, device="cpu"),
    },
}
PROFILES: dict[str, dict[str, object]] = {
    name: {exp: _fitted(c, exp) for exp, c in configs.items()} for name, configs in _RAW.items()}
assert set(PROFILES) == set(PROFILE_NAMES)

#: The sweeps (one run per value; everything else is the profile's base config).
SWEEPS = {
    "paper": {
        "sparse": {"alpha": (16.0, 128.0, 1024.0, 2048.0), "weight_decay": (5e-4, 1e-3, 2e-3)},
        "misgrokking": {},
        "matrix_completion": {},
        "modadd": {"alpha": (1.0, 10.0, 100.0), "weight_decay": (1e-4, 3e-4, 1e-3, 3e-3), "seeds": (0,)},
    },
    "default": {
        "sparse": {"alpha": (16.0, 128.0, 1024.0, 2048.0, 16384.0), "weight_decay": (0.01, 0.02, 0.04)},
        "misgrokking": {},
        "matrix_completion": {},
        # three seeds (split and init together): a grokking step moves with the seed and the arithmetic
        "modadd": {"alpha": (1.0, 10.0, 100.0), "weight_decay": (1e-3, 2e-3, 3e-3), "seeds": (0, 1, 2)},
    },
    "ci": {
        "sparse": {"alpha": (4.0, 16.0), "weight_decay": (0.05, 0.1)},
        "misgrokking": {},
        "matrix_completion": {},
        "modadd": {"alpha": (1.0, 10.0), "weight_decay": (2e-3, 4e-3), "seeds": (0,)},
    },
}


#: Claim-only runs (read by one claim's evaluation, never by a figure; see :mod:`grok_lib.paper_b.chapters`).
#: B.fig1a.fractions: the focus run of the sparse sweeps at this many data seeds in all (its own and the next ones).
FIG1A_DATA_SEEDS = 3
#: The modular-addition claims' in-regime runs (:class:`StableModAddConfig`): at every seed, an alpha sweep at the
#: figure alpha sweep's lambda and the figure lambda sweep's lambdas at its alpha, GD's step held at
#: min(lr, STABLE_C / S_t) (lr x sharpness at initialisation 0.09 / 9 / 900 at alpha = 1 / 10 / 100 with the
#: profile's fixed step 2.0: outside the regime), each run to lambda t = STABLE_STOP (the figure alpha sweep's
#: 4,000 steps x 2.0 x 2e-3) and at most STABLE_STEPS times the profile's steps. alpha = 100 is left out: its first
#: steps would be about 1 / 425 long, some 10^5 steps per run. In the default profile the 15 runs train in about
#: 150 s on the 2-core CPU.
STABLE_ALPHAS = (1.0, 3.0, 10.0, 30.0)
STABLE_C, STABLE_STOP, STABLE_STEPS, STABLE_N_LOG = 1.0, 16.0, 10, 240


def seeds_of(experiment: str, profile: str, seeds=None) -> list[int]:
    """The seeds of ``experiment``'s sweeps (None: the profile's; only the MLP has several)."""
    need_choice("profile", profile, tuple(PROFILES))
    return need_seeds(SWEEPS[profile][experiment].get("seeds", (0,)) if seeds is None else seeds)


def profile_config(experiment: str, profile: str, **overrides):
    """The base config of ``experiment`` in ``profile``, with ``overrides`` applied (None means: keep).

    Overriding alpha, weight_decay or lr keeps the profile's steps; :func:`sweep` (or
    :func:`steps_for`) sets the length from the theory's clock.
    """
    need_choice("experiment", experiment, EXPERIMENTS)
    need_choice("profile", profile, tuple(PROFILES))
    return from_profile({name: PROFILES[name][experiment] for name in PROFILES}, profile, **overrides)


#: The notebook's list parameter of each swept config field.
LIST_OF = {"alpha": "alphas", "weight_decay": "weight_decays"}


def sweep(experiment: str, profile: str, axis: str, values=None, horizon: float | None = None,
          fit_steps: bool = True, **overrides) -> list:
    """One config per value of ``axis`` ("alpha" or "weight_decay") on the profile's base config.

    ``values`` None: the profile's :data:`SWEEPS`. With ``fit_steps`` each run's length is
    :func:`steps_for` at ``horizon`` (None: :data:`HORIZON`); runs with alpha <= 1, lambda = 0
    or no horizon (the MLP) keep the base config's steps.
    """
    need_choice("experiment", experiment, EXPERIMENTS)
    need_choice("axis", axis, tuple(LIST_OF))
    base = profile_config(experiment, profile, **overrides)
    name = LIST_OF[axis]
    given = SWEEPS[profile][experiment].get(axis, ()) if values is None else values
    values = need_list_of_numbers(name, given, 0.0, INF, lo_open=axis == "alpha")
    horizon = HORIZON[experiment] if horizon is None else horizon
    if horizon is not None:  # once, not per value: it is no value's fault
        need_real("horizon", horizon, 0.0, INF, lo_open=True, hi_open=True)
    configs = []
    for value in values:
        with spelled_as({axis: name}, f"{name} value {value!r}"):
            config = replace(base, **{axis: float(value)})
            if fit_steps and horizon is not None and config.alpha > 1 and config.weight_decay > 0:
                config = replace(config, steps=steps_for(config, horizon))
        configs.append(config)
    return configs
