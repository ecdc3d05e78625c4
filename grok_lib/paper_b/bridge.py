"""The bridge from Part B to Part A: does a large initialisation delay grokking under Paper A's AdamW?

Paper A trains its MLP (:class:`grok_lib.paper_a.model.ModAddMLP`) with AdamW at weight
decay 0.6-1.0 from PyTorch's standard initialisation; Paper B's clock ln(alpha) / lambda is
a statement about gradient flow from a *large* initialisation alpha * theta_bar. Neither
paper asks what happens in between: Paper A's model and optimiser, with every initial weight
multiplied by alpha.

The prediction this book tests is the shrinking argument of Paper B carried over to AdamW.
AdamW's decoupled weight decay multiplies every weight by (1 - lr lambda) per step, while
Adam's own update moves each weight by about lr per step whatever the gradient's size; so
from alpha times the standard init the weights first shrink as alpha e^{-lambda t}
(t = lr x steps, the same continuous time as Paper B's) and only come back to the scale
where the standard run grokked after about ln(alpha) / lambda of continuous time, i.e.

    T_grok(alpha) - T_grok(1)  ~  ln(alpha) / (lambda lr)   steps.

This module holds the config, its profiles and the alpha x lambda sweep; the trainer is
:mod:`grok_lib.paper_b.bridge_train` (its source is what the run store hashes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..config import (DEVICES, ConfigError, from_dict, from_profile, need_choice, need_int, need_seeds,
                      need_list_of_numbers, need_real, spelled_as, to_dict)
from .config import need_decay_step


@dataclass(frozen=True)
class InitScaleConfig:
    """Paper A's MLP on (a + b) mod p with every initial weight times ``alpha``, trained full batch with
    plain ``torch.optim.AdamW`` (decoupled weight decay on every parameter)."""

    p: int = 113  # modulus (Paper A: 113)
    train_frac: float = 0.5  # fraction of the unordered pairs {a, b} in the training set (Paper A's book: 0.5)
    d_embed: int = 128  # embedding width d
    width: int = 512  # hidden ReLU units
    alpha: float = 1.0  # every initial weight (E, W, b, U) times alpha; 1 = Paper A's init
    weight_decay: float = 1.0  # AdamW's decoupled weight decay lambda
    lr: float = 1e-3  # AdamW learning rate
    beta1: float = 0.9  # AdamW betas (Paper A's)
    beta2: float = 0.98
    steps: int = 15_000  # full-batch steps
    eval_every: int = 10  # record the metrics every this many steps (and at step 0 and the last)
    data_seed: int = 0  # seed of the train / test split
    init_seed: int = 0  # seed of the initialisation (before scaling)
    device: str = "auto"  # auto (cuda if present) | cpu | cuda; float32 weights, losses in float64

    def __post_init__(self) -> None:
        need_int("p", self.p, 2)
        need_real("train_frac", self.train_frac, 0.0, 1.0, lo_open=True, hi_open=True)
        need_int("d_embed", self.d_embed, 1)
        need_int("width", self.width, 1)
        need_real("alpha", self.alpha, 0.0, 1e150, lo_open=True, hi_open=True)  # as every alpha of Part B
        need_real("weight_decay", self.weight_decay, 0.0, math.inf, lo_open=False, hi_open=True)
        need_real("lr", self.lr, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("beta1", self.beta1, 0.0, 1.0, lo_open=False, hi_open=True)
        need_real("beta2", self.beta2, 0.0, 1.0, lo_open=False, hi_open=True)
        need_decay_step(self, "AdamW multiplies the weights by 1 - lr x weight_decay a step")
        need_int("steps", self.steps, 1)
        need_int("eval_every", self.eval_every, 1)
        need_int("data_seed", self.data_seed, 0)
        need_int("init_seed", self.init_seed, 0)
        need_choice("device", self.device, DEVICES)
        n = self.p * (self.p + 1) // 2
        if not 0 < round(self.train_frac * n) < n:
            raise ConfigError(f"train_frac must leave at least one of the {n} unordered pairs of p={self.p} on each "
                              f"side, got {self.train_frac!r}")

    def to_dict(self) -> dict:
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "InitScaleConfig":
        return from_dict(cls, data)


def predicted_delay(config) -> float:
    """ln(alpha) / (lambda lr): the steps by which the shrinking argument delays grokking (nan for lambda = 0)."""
    lam, lr, alpha = float(config.weight_decay), float(config.lr), float(config.alpha)
    return math.log(alpha) / (lam * lr) if lam > 0 else math.nan


#: paper: Paper A's own setting (p = 113, d = 128, width 512, train fraction 0.5, lr 1e-3, betas
#: (0.9, 0.98)); GPU advised. default: small enough for about 30 s of one CPU thread for all eight
#: runs (chosen in exploratory runs, see the bridge notebook): p = 41, d = 32, width 64, train fraction
#: 0.7 (the standard init then groks within a few hundred steps), lr 2e-2 (twenty times Paper A's, so that
#: ln(alpha) / (lambda lr) is tens to hundreds of steps), 3,000 steps. ci: seconds.
PROFILES = {
    "paper": InitScaleConfig(),
    "default": InitScaleConfig(p=41, train_frac=0.7, d_embed=32, width=64, lr=2e-2, steps=3000, eval_every=20,
                               device="cpu"),
    "ci": InitScaleConfig(p=13, train_frac=0.7, d_embed=8, width=16, lr=2e-2, steps=120, eval_every=5, device="cpu"),
}

#: The sweep: every alpha at every lambda (alpha = 1 is Paper A's init, the reference; 0.6 and 1.0 are
#: the ends of Paper A's weight-decay range).
#: The seeds (data split and initialisation move together): a grokking step moves by hundreds of steps
#: with the seed (and with the last bits of the arithmetic), so the default profile judges every claim
#: on three seeds; the paper profile (a GPU run) and ci train one.
SWEEPS = {
    "paper": {"alpha": (1.0, 10.0, 100.0, 1000.0), "weight_decay": (0.6, 1.0), "seeds": (0,)},
    "default": {"alpha": (1.0, 10.0, 100.0, 1000.0), "weight_decay": (0.6, 1.0), "seeds": (0, 1, 2)},
    "ci": {"alpha": (1.0, 10.0), "weight_decay": (1.0,), "seeds": (0,)},
}


def profile_config(profile: str, **overrides) -> InitScaleConfig:
    """The base config of ``profile`` with ``overrides`` (None: keep the profile's value)."""
    return from_profile(PROFILES, profile, **overrides)


def sweep(profile: str, alphas=None, weight_decays=None, seeds=None, **overrides) -> list[InitScaleConfig]:
    """seed x alpha x lambda configs on the profile's base (None: the profile's :data:`SWEEPS`),
    seed-major, then lambda-major."""
    need_choice("profile", profile, tuple(PROFILES))
    base = profile_config(profile, **overrides)
    alphas = need_list_of_numbers("alphas", SWEEPS[profile]["alpha"] if alphas is None else alphas, 0.0)
    lams = need_list_of_numbers("weight_decays", SWEEPS[profile]["weight_decay"] if weight_decays is None
                                else weight_decays, 0.0, lo_open=False)
    seeds = need_seeds(SWEEPS[profile]["seeds"] if seeds is None else seeds)
    out = []
    for s in seeds:
        for lam in lams:
            for a in alphas:
                with spelled_as({"alpha": "alphas", "weight_decay": "weight_decays"},
                                f"alphas value {a!r} with weight_decays value {lam!r}"):
                    out.append(replace(base, alpha=float(a), weight_decay=float(lam), data_seed=s, init_seed=s))
    return out
