"""Paper A's MLP experiment: its config, the named profiles and the weight-decay sweep.

The sweep values are written here once; every notebook, the figure manifest and the
tests read them from :data:`WEIGHT_DECAYS`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..config import (DEVICES, DTYPES, ConfigError, from_profile, need_choice, need_int,
                      need_list_of_numbers, need_real, to_dict)

#: How the pairs are split (see :mod:`grok_lib.paper_a.task`) and how E is initialised
#: (see :mod:`grok_lib.paper_a.model`).
SPLITS = ("unordered", "ordered")
INITS = ("pytorch", "scaled_embed")

#: Paper A's weight-decay sweep (Figures 1 and 3).
WEIGHT_DECAYS = (0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class ModAddConfig:
    """Paper A's experiment: a ReLU MLP learning (a + b) mod p, trained full batch with AdamW."""

    p: int = 113  # modulus; tokens are 0..p-1 and so are the labels
    train_frac: float = 0.3  # fraction of the pairs in the training set (of the unordered or ordered ones: split)
    split: str = "unordered"  # unordered: a pair and its mirror on one side; ordered: the usual recipe (mirror leakage)
    init: str = "pytorch"  # pytorch: E ~ N(0, 1), PyTorch's embedding default; scaled_embed: E ~ N(0, 1/d)
    d_embed: int = 128  # embedding width d (E is p x d)
    width: int = 512  # hidden ReLU units (W is width x d, U is p x width)
    lr: float = 1e-3  # AdamW learning rate
    beta1: float = 0.9  # AdamW beta1
    beta2: float = 0.98  # AdamW beta2
    weight_decay: float = 1.0  # AdamW (decoupled) weight decay lambda, on every parameter
    epochs: int = 15_000  # full-batch steps
    data_seed: int = 0  # seed of the train/test split
    init_seed: int = 0  # seed of the parameter initialisation
    eval_every: int = 50  # record metrics every this many steps (plus log-spaced early steps)
    checkpoint_every: int = 1000  # save a resumable checkpoint every this many steps
    dtype: str = "float32"  # parameter dtype; losses are always evaluated in float64
    device: str = "auto"  # auto (cuda if present, else cpu), cpu or cuda

    def __post_init__(self) -> None:
        need_int("p", self.p, 2)
        need_real("train_frac", self.train_frac, 0.0, 1.0, lo_open=True, hi_open=True)
        need_choice("split", self.split, SPLITS)
        need_choice("init", self.init, INITS)
        need_int("d_embed", self.d_embed, 1)
        need_int("width", self.width, 1)
        need_real("lr", self.lr, 0.0, float("inf"), lo_open=True, hi_open=True)
        need_real("beta1", self.beta1, 0.0, 1.0, lo_open=False, hi_open=True)
        need_real("beta2", self.beta2, 0.0, 1.0, lo_open=False, hi_open=True)
        need_real("weight_decay", self.weight_decay, 0.0, float("inf"), lo_open=False, hi_open=True)
        need_int("epochs", self.epochs, 1)
        need_int("data_seed", self.data_seed, 0)
        need_int("init_seed", self.init_seed, 0)
        need_int("eval_every", self.eval_every, 1)
        need_int("checkpoint_every", self.checkpoint_every, 1)
        need_choice("dtype", self.dtype, DTYPES)
        need_choice("device", self.device, DEVICES)
        need_split(self.p, self.train_frac, self.split)

    def to_dict(self) -> dict:
        return to_dict(self)


#: Fields that change how a run is carried out but not its numbers (not in the store key).
NOT_IN_KEY = ("checkpoint_every",)

#: The sizes whose product sets a run's memory (see :func:`memory_estimate`).
SIZES = ("p", "width", "d_embed", "epochs")


def need_split(p: int, train_frac: float, split: str = "unordered") -> None:
    """A one-line ConfigError unless ``train_frac`` leaves at least one pair on each side of the
    split of p's pairs (the rule of :func:`grok_lib.paper_a.task.make_split`: ``round(train_frac * n)``
    of the n unordered, or ordered, pairs go to train)."""
    n = p * (p + 1) // 2 if split == "unordered" else p * p
    if not 0 < round(train_frac * n) < n:
        raise ConfigError(f"train_frac must be a number in ({0.5 / n:.4g}, {1 - 0.5 / n:.4g}) for p={p} "
                          f"({n} {split} pairs, at least one on each side), got {train_frac!r}")


def memory_estimate(c: dict) -> float:
    """Bytes one run of the config fields ``c`` needs at its peak, an upper estimate measured on the
    CPU (tens of bytes per logit of every pair, per hidden unit and embedding entry of every
    training pair, the kept weight snapshots and recorded rows, and 256 MiB for the process)."""
    n_pairs = c["p"] * (c["p"] + 1) / 2
    # an ordered split's training rows are unordered pairs with at least one ordered pair in train
    n_train = min(1.0, c["train_frac"] * (2 if c.get("split") == "ordered" else 1)) * n_pairs
    weights = c["p"] * c["d_embed"] + c["width"] * c["d_embed"] + c["width"] + c["p"] * c["width"]
    snapshots = c["epochs"] / 500 + 5
    records = c["epochs"] / c["eval_every"] + 61
    return (48.0 * n_pairs * c["p"] + 24.0 * n_train * c["width"] + 16.0 * n_train * c["d_embed"]
            + 4.0 * weights * (8 + 2 * snapshots) + 4096.0 * records + 100.0 * c["epochs"] / 500 + 2**28)


# ci: seconds, for unit tests. default: what the committed book shows, sized for a
# 2-core CPU. paper: the paper's own settings (15,000 epochs), GPU advised.
PROFILES = {
    "ci": ModAddConfig(p=23, train_frac=0.5, d_embed=16, width=32, lr=1e-2, epochs=200, eval_every=10,
                       checkpoint_every=50),
    # Chosen by measurement on the 2-core CPU (see notebooks/fig1_loss_curves.ipynb): with
    # train_frac 0.3 nothing groks within the budget; with 0.5 every weight decay does.
    "default": ModAddConfig(train_frac=0.5, width=256, epochs=4500),
    "paper": ModAddConfig(train_frac=0.5, width=512, epochs=15_000),
}


def profile_config(profile: str, **overrides) -> ModAddConfig:
    """The base config of a named profile, with ``overrides`` applied (None means: keep)."""
    return from_profile(PROFILES, profile, **overrides)


def weight_decay_sweep(base: ModAddConfig, weight_decays=None) -> list[ModAddConfig]:
    """One config per weight decay (None: :data:`WEIGHT_DECAYS`), otherwise identical (Figures 1 and 3)."""
    weight_decays = need_list_of_numbers("weight_decays", WEIGHT_DECAYS if weight_decays is None else weight_decays,
                                         0.0, float("inf"), lo_open=False, hi_open=True)
    return [replace(base, weight_decay=float(wd)) for wd in weight_decays]


def sweep(profile: str, weight_decays=None, **overrides) -> list[ModAddConfig]:
    """The weight-decay sweep every Paper A MLP notebook uses: a profile, overrides (None = keep), one run per λ."""
    return weight_decay_sweep(profile_config(profile, **overrides), weight_decays)
