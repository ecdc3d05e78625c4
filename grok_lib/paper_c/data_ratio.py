"""Paper C's question on Part A's task: the grokking time of the modular-addition MLP vs its training fraction.

Paper C's Appendix G (grokking time on modular arithmetic) is not public, so nothing here reproduces it.
This module asks the same question of Part A's model instead and measures the answer: does the
linear theory's grokking time

    Delta t_grok ~ ln(1 / (1 - sqrt lambda)) / (2 eta (1 - sqrt lambda)^2),   lambda = d_in / N_tr < 1,

(:func:`grok_lib.paper_c.theory.grok_time_formula`) describe the ReLU MLP on (a + b) mod p, trained with
AdamW, as its training fraction ``f`` varies?

**Delta t on the MLP**, as Paper C defines it: t_train and t_test are the first recorded steps at which
the training and the test accuracy reach the same level, and Delta t = t_test - t_train. The level is
Paper C's, GROK_ACC = erf(sqrt 2) ~ 95.45% (the accuracy of a Gaussian error at loss eps/4); the
accuracies are the MLP's argmax accuracies (Part A's trainer records them every ``eval_every`` steps and
at log-spaced early steps, so t_train, reached in tens of steps, is read on a fine grid). A run whose test
accuracy never gets there is *censored*: Delta t > epochs - t_train.

**lambda on the MLP.** In the linear model lambda = d_in / N_tr: the number of numbers the student must
pin down (per output) over the number of training samples. The MLP's training samples are the unordered
pairs {a, b} in its training set (the model sees E[a] + E[b], so (a, b) and (b, a) are one input), N_tr =
f * p (p + 1) / 2. Its "d_in" has no a-priori value: the raw parameter count (p d + width d + width +
p width = 6,624 at the default setting, for 1,128 pairs) gives lambda = 5.9 / f > 1 at every f, where the
linear theory predicts a generalisation plateau and no grokking at all, and the MLP groks anyway. So the
count is left free: K effective constraints, lambda_eff = K / (f n_pairs) = c / f with c = K / n_pairs
fitted. The formula then says Delta t diverges at the critical fraction f = c, behaves like f^(-1/2)
far above it, and has one free scale A (for GD it would be 1/(2 eta); under AdamW eta has no such
meaning, so A is free and reported as A * 2 lr). A ratio, not an offset (lambda = c/f + b): it keeps
lambda -> 0 as the data grow and keeps the formula at two parameters, like its rivals.

**Fits**, each with two free parameters, by least squares on ln Delta t of the per-fraction geometric
mean over seeds (fractions where every seed groks; censored fractions are reported as lower bounds):

- ``formula``:      ln Delta t = ln A + ln g(c / f),  0 < c < min f,
                    g(lam) = ln(1/(1 - sqrt lam)) / (1 - sqrt lam)^2;
- ``power``:        ln Delta t = ln B + alpha ln(1 / f)  (a plain power law in 1/f, i.e. in lambda_eff);
- ``exponential``:  ln Delta t = ln B - k f.

They are compared by R^2 and, on held-out points, by the leave-one-fraction-out RMS error of ln Delta t
(each fraction predicted by the fit to the others). A formula fit that, without the held-out fraction,
puts the divergence c above it predicts that fraction never groks: an infinite error, and a real miss.

**Settings** (:data:`SETTINGS`), chosen by measurement on the 2-core CPU (pilot runs, seeds 0-2):
the default profile is p = 47, d_embed = 32, width = 64, AdamW lr = 2e-2, weight decay 1, betas (0.9,
0.98), full batch. At lr = 1e-2 the same net groks at f = 0.5-0.8 in 400-1,400 steps, but at f = 0.45 its
test accuracy is still below 95.45% after 8,000; lr = 2e-2 roughly halves every time and keeps the sweep
within the CPU budget. At f = 0.42-0.475 the test accuracy rises to 0.91-0.94 within ~2,000 steps and
stalls there (of six pilot runs, seeds 0 and 1 at f = 0.42, 0.45, 0.475, two crossed 95.45% within 5,000
steps): that is where grokking stops in this setting, and f = 0.45 is in the sweep as its edge. Each
fraction gets its own number of epochs (:data:`DEFAULT_EPOCHS`, about twice the slowest pilot test
crossing; full-batch training cannot stop early, and the large fractions cross in ~100-300 steps).
Training costs 1.4-2.3 ms per step on one thread; the whole default sweep (21 runs, 32,700 steps) took
66 s single-thread from a cold store.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from ..clocks import first_crossing
from ..config import PROFILES as PROFILE_NAMES, ConfigError, need_choice, need_int, need_list_of_numbers, need_seeds
from ..history import History
from ..paper_a.config import ModAddConfig
from .shape_fits import FORMS, fit_shape, leave_one_out, rms
from .theory import GROK_ACC

# --- the sweep ---------------------------------------------------------------------------------
#: The accuracy level of both crossings (Paper C's erf(sqrt 2) ~ 0.9545).
LEVEL = GROK_ACC

#: Default profile: epochs per training fraction (about 2x the slowest pilot test crossing; 0.45 is the
#: edge fraction, where the pilot seeds mostly stalled below LEVEL: it shows where grokking stops).
DEFAULT_EPOCHS = {0.45: 3000, 0.5: 2500, 0.55: 2000, 0.6: 1200, 0.7: 800, 0.8: 800, 0.9: 600}

#: Per profile: the base config (Part A's ModAddConfig; train_frac, epochs and seeds are set per run),
#: the epochs per training fraction, and the seeds (data split and initialisation move together).
SETTINGS = {
    # seconds: the mechanics only (tests); p = 23 groks at none of these fractions (measured up to 1,500 epochs)
    "ci": dict(base=ModAddConfig(p=23, train_frac=0.5, d_embed=16, width=32, lr=2e-2, weight_decay=1.0, epochs=300,
                                 eval_every=10, checkpoint_every=1000, device="cpu"),
               epochs={0.5: 300, 0.6: 300, 0.7: 300, 0.8: 300, 0.9: 300}, seeds=(0,)),
    # what the book shows: ~70 s single-thread on the 2-core CPU (see the module docstring)
    "default": dict(base=ModAddConfig(p=47, train_frac=0.5, d_embed=32, width=64, lr=2e-2, weight_decay=1.0,
                                      epochs=1000, eval_every=10, checkpoint_every=1000, device="cpu"),
                    epochs=DEFAULT_EPOCHS, seeds=(0, 1, 2)),
    # Part A's paper settings (p = 113, d = 128, width 512, lr 1e-3, weight decay 1, 15,000 epochs) over
    # the fractions where the standard recipe groks (Nanda et al.: 0.3); a GPU run, not measured by the book
    "paper": dict(base=ModAddConfig(p=113, train_frac=0.5, d_embed=128, width=512, lr=1e-3, weight_decay=1.0,
                                    epochs=15_000, eval_every=50, checkpoint_every=1000, device="auto"),
                  epochs={f: 15_000 for f in (0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8)}, seeds=(0, 1, 2)),
}


def data_ratio_configs(profile: str = "default", fractions=None, seeds=None, epochs=None,
                       device=None) -> list[ModAddConfig]:
    """One Part A MLP config per (seed, training fraction) of ``profile``'s sweep (seeds outermost).

    ``fractions`` (None: the profile's) must be fractions the profile has epochs for, unless ``epochs``
    (one number for every run) is given; ``seeds`` (None: the profile's) set data_seed = init_seed;
    ``device`` (None: the profile's: cpu for ci/default, auto for paper). Validated before anything runs:
    a ConfigError names what is wrong.
    """
    need_choice("profile", profile, PROFILE_NAMES)
    s = SETTINGS[profile]
    table: dict = s["epochs"]
    fractions = list(table) if fractions is None else need_list_of_numbers("fractions", fractions, 0.0, 1.0)
    seeds = list(s["seeds"]) if seeds is None else need_seeds(seeds)
    if epochs is not None:
        need_int("epochs", epochs, 1)
    else:
        unknown = [f for f in fractions if not any(math.isclose(f, g) for g in table)]
        if unknown:
            raise ConfigError(f"fractions {unknown} have no epochs in profile {profile!r} (it has "
                              f"{', '.join(f'{g:g}' for g in table)}); pass epochs= for other fractions")
    base = s["base"] if device is None else replace(s["base"], device=device)

    def run_epochs(f: float) -> int:
        return epochs if epochs is not None else next(e for g, e in table.items() if math.isclose(f, g))

    return [replace(base, train_frac=float(f), epochs=run_epochs(f), data_seed=int(seed), init_seed=int(seed))
            for seed in seeds for f in fractions]


# --- Delta t on the MLP ------------------------------------------------------------------------
def crossing_steps(history: History, level: float = LEVEL) -> tuple[float, float]:
    """(t_train, t_test): the first recorded steps with train / test accuracy >= ``level`` (nan if never)."""
    return (first_crossing(history.steps, history["train_acc"], level, below=False),
            first_crossing(history.steps, history["test_acc"], level, below=False))


def grokking_time(history: History, level: float = LEVEL) -> float:
    """Delta t = t_test - t_train at ``level`` (nan if either accuracy never gets there)."""
    t_train, t_test = crossing_steps(history, level)
    return t_test - t_train


@dataclass(frozen=True)
class RunPoint:
    """One run's crossings: t_train, t_test (nan if never), Delta t and whether it is censored."""

    train_frac: float
    seed: int
    epochs: int
    t_train: float
    t_test: float

    @property
    def dt(self) -> float:
        return self.t_test - self.t_train

    @property
    def censored(self) -> bool:
        """The test accuracy never reached the level within the run."""
        return not math.isfinite(self.t_test)

    @property
    def lower_bound(self) -> float:
        """What a censored run says: Delta t > epochs - t_train (the train crossing if any, else 0)."""
        return self.epochs - (self.t_train if math.isfinite(self.t_train) else 0.0)


@dataclass(frozen=True)
class FractionPoint:
    """One training fraction over its seeds."""

    train_frac: float
    runs: tuple[RunPoint, ...]

    @property
    def grokked(self) -> bool:
        """Every seed's test accuracy reached the level (only these fractions are fitted)."""
        return all(not r.censored for r in self.runs)

    @property
    def n_grokked(self) -> int:
        return sum(not r.censored for r in self.runs)

    @property
    def log_dts(self) -> np.ndarray:
        return np.log([r.dt for r in self.runs if not r.censored and r.dt > 0])

    @property
    def log_mean(self) -> float:
        """Mean of ln Delta t over the seeds that grokked (nan if none)."""
        v = self.log_dts
        return float(v.mean()) if len(v) else math.nan

    @property
    def log_sem(self) -> float:
        """Standard error of that mean (nan for fewer than two seeds)."""
        v = self.log_dts
        return float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.nan

    @property
    def geo_mean(self) -> float:
        """Geometric mean of Delta t over the seeds that grokked."""
        return math.exp(self.log_mean) if math.isfinite(self.log_mean) else math.nan


@dataclass(frozen=True)
class DataRatio:
    """The measurement: per-fraction points, the fits to the grokking fractions and their held-out errors."""

    fractions: tuple[FractionPoint, ...]
    fits: dict  # form -> ShapeFit (empty when fewer than 3 fractions grokked)
    loo: dict  # form -> leave-one-fraction-out errors of ln Delta t, in the order of ``fitted``
    level: float
    lr: float
    n_pairs: int

    @property
    def fitted(self) -> tuple[FractionPoint, ...]:
        """The fractions where every seed grokked (the fitted points), increasing f."""
        return tuple(p for p in self.fractions if p.grokked)

    @property
    def censored(self) -> tuple[FractionPoint, ...]:
        return tuple(p for p in self.fractions if not p.grokked)

    def loo_rms(self, form: str) -> float:
        return rms(self.loo[form]) if form in self.loo else math.nan

    def best_alternative(self) -> str | None:
        """The rival (power or exponential) with the smaller held-out error."""
        rivals = [k for k in ("power", "exponential") if k in self.loo]
        return min(rivals, key=self.loo_rms) if rivals else None


def _same_setting(histories: Sequence[History]) -> None:
    free = {"train_frac", "epochs", "data_seed", "init_seed", "checkpoint_every"}
    first = {k: v for k, v in histories[0].config.items() if k not in free}
    for h in histories[1:]:
        diff = sorted(k for k, v in h.config.items() if k not in free and first.get(k) != v)
        if diff:
            raise ValueError(f"the histories of one data-ratio sweep may differ only in {', '.join(sorted(free))}; "
                             f"these differ: {', '.join(diff)}")


def measure_data_ratio(histories: Sequence[History], level: float = LEVEL) -> DataRatio:
    """Crossings of every run, grouped by training fraction, and the three fits with their held-out errors."""
    if not histories:
        raise ValueError("no histories")
    _same_setting(histories)
    runs: dict[float, list[RunPoint]] = {}
    for h in histories:
        c = h.cfg
        t_train, t_test = crossing_steps(h, level)
        runs.setdefault(float(c.train_frac), []).append(
            RunPoint(float(c.train_frac), int(c.data_seed), int(c.epochs), t_train, t_test))
    points = tuple(FractionPoint(f, tuple(sorted(rs, key=lambda r: r.seed))) for f, rs in sorted(runs.items()))
    fitted = [p for p in points if p.grokked and math.isfinite(p.log_mean)]
    f = np.array([p.train_frac for p in fitted])
    y = np.array([p.log_mean for p in fitted])
    fits, loo = {}, {}
    if len(fitted) >= 3:
        fits = {k: fit_shape(k, f, y) for k in FORMS}
    if len(fitted) >= 4:
        loo = {k: leave_one_out(k, f, y) for k in FORMS}
    p = int(histories[0].cfg.p)
    return DataRatio(points, fits, loo, level, float(histories[0].cfg.lr), p * (p + 1) // 2)
