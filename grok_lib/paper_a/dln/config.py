"""The deep-linear chapter's runs: their config, the named profiles and the sweep.

The task (our choice; Paper A states none): inputs x ~ N(0, I_d), labels
y = argmax_k (T x)_k from a random Gaussian teacher T (K x d), so the classes are
linearly separable by construction (:func:`grok_lib.paper_a.dln.train.make_task`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ...config import (PROFILES as PROFILE_NAMES, ConfigError, given_overrides, need_choice, need_int,
                       need_list_of_numbers, need_real, to_dict)

OPTIMIZERS = ("gd", "adamw")
DEPTHS = (1, 2, 3, 4)


@dataclass(frozen=True)
class DeepLinearConfig:
    """One deep-linear-network run (all fields are in the run's key)."""

    depth: int = 2  # L, the number of weight matrices; p = 2/L
    n_classes: int = 5  # K
    d_in: int = 20  # input dimension d
    width: int = 20  # width of every hidden layer (unused for depth 1)
    n_train: int = 100  # training points
    init_scale: float = 0.5  # every W_l has i.i.d. N(0, init_scale^2 / fan_in) entries
    lr: float = 0.05  # step size (GD) or AdamW learning rate
    weight_decay: float = 1e-3  # lambda of the layerwise penalty (lambda / L) sum ||W_l||^2
    optimizer: str = "gd"  # gd | adamw
    steps: int = 20_000  # full-batch steps
    seed: int = 0  # seeds the teacher, the data and the init
    n_log: int = 300  # log-spaced record points (plus a regular grid of 100)

    def __post_init__(self) -> None:
        need_choice("depth", self.depth, DEPTHS)
        need_int("n_classes", self.n_classes, 2)
        need_int("d_in", self.d_in, 1)
        need_int("width", self.width, 1)
        need_int("n_train", self.n_train, 1)
        need_real("init_scale", self.init_scale, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("lr", self.lr, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("weight_decay", self.weight_decay, 0.0, math.inf, lo_open=False, hi_open=True)
        need_choice("optimizer", self.optimizer, OPTIMIZERS)
        need_int("steps", self.steps, 1)
        need_int("seed", self.seed, 0)
        need_int("n_log", self.n_log, 1)
        if self.depth > 1 and self.width < min(self.n_classes, self.d_in):
            raise ConfigError(f"width must be >= min(n_classes, d_in) = {min(self.n_classes, self.d_in)} "
                              f"so that A can have full rank; got {self.width}")

    @property
    def p(self) -> float:
        """The Schatten exponent p = 2/L of the end-to-end penalty."""
        return 2.0 / self.depth

    def to_dict(self) -> dict:
        return to_dict(self)


#: The sizes whose product sets a run's memory (see :func:`memory_estimate`).
SIZES = ("d_in", "width", "n_classes", "n_train", "n_log")


def memory_estimate(c: dict) -> float:
    """Bytes one run of the config fields ``c`` needs at its peak, an upper estimate: the factors
    with their gradients, AdamW moments and the L-BFGS polish's history (50 pairs), the data
    and activations, the recorded rows, and 128 MiB for the process."""
    dims = [c["d_in"]] + [c["width"]] * (c["depth"] - 1) + [c["n_classes"]]
    params = sum(a * b for a, b in zip(dims, dims[1:]))
    n_sv = min(dims)
    records = c["n_log"] + 103
    return (8.0 * params * 110 + 32.0 * c["n_train"] * (sum(dims) + 2 * c["n_classes"])
            + 40.0 * records * (8 + 3 * n_sv) + 2**27)


# --- profiles --------------------------------------------------------------------------------
# ci: a second, for unit tests. default: what the book shows (about a minute on 2 CPU cores
# for the whole sweep). paper: larger dimensions and ten times the steps.
PROFILES = {
    "ci": DeepLinearConfig(n_classes=3, d_in=8, width=8, n_train=40, lr=0.2, steps=2_000, n_log=60),
    "default": DeepLinearConfig(lr=0.2, steps=30_000),
    "paper": DeepLinearConfig(n_classes=10, d_in=50, width=50, n_train=500, lr=0.2, steps=300_000, n_log=400),
}
#: The runs of each depth: (optimiser, lambda). GD is the theory's setting (lambda = 0: the
#: fast clock alone); AdamW is what Paper A trains its MLP with.
SWEEP_RUNS = (("gd", 0.0), ("gd", 1e-3), ("gd", 3e-3), ("adamw", 0.0), ("adamw", 1e-3))
#: AdamW's learning rate (GD's lr is the profile's); a normalised step needs a smaller one.
ADAMW_LR = 1e-2


def sweep(profile: str, depths=DEPTHS, runs=SWEEP_RUNS, **overrides) -> list[DeepLinearConfig]:
    """One config per depth and (optimiser, lambda) of ``runs``; ``overrides`` (None = keep) apply to all."""
    need_choice("profile", profile, PROFILE_NAMES)
    depths = need_list_of_numbers("depths", depths)
    if not all(d in DEPTHS and isinstance(d, int) and not isinstance(d, bool) for d in depths):  # 2.0: not a depth
        raise ConfigError(f"depths must be a non-empty list of {', '.join(map(str, DEPTHS))}, got {list(depths)!r}")
    if not isinstance(runs, (list, tuple)) or len(runs) == 0:
        raise ConfigError(f"runs must be a non-empty list of (optimizer, weight_decay) pairs, got {runs!r}")
    given = given_overrides(DeepLinearConfig, overrides)
    base = replace(PROFILES[profile], **given)
    return [replace(base, depth=int(depth) if float(depth).is_integer() else depth, optimizer=opt, weight_decay=float(wd),
                    lr=ADAMW_LR if opt == "adamw" and "lr" not in given else base.lr)
            for depth in depths for opt, wd in runs]
