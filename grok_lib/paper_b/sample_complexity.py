"""How many training samples each margin classifier needs on the sparse data (Paper B's generalisation bounds,
Sec. E: the max-L2-margin, kernel, classifier needs O(kd) samples, the max-L1-margin, rich, one O(k^2 log d)).

Computed from data alone, never from a run: for a doubling grid of training-set sizes n, the data of the sparse
chapter's config at that n (w* is the seed's; each n draws its own training and test sets) and each classifier's
test accuracy (:mod:`.margins`). A classifier's sweep stops at the first n where it reaches the highest accuracy
level asked for, since only the smallest n reaching each level is read; the max-L1 linear program is the cost
(seconds at n = 256, d = 4,000, a minute and a half at n = 1,024), and the rich classifier stops early.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from ..history import History
from . import margins
from .config import SparseConfig
from .diagonal import make_data

#: The test-accuracy levels a classifier "generalises" at (central 0.95): the bounds name none.
SAMPLE_LEVELS = (0.9, 0.95, 0.99)
#: The data seeds of the sample-size sweep (each draws w* and every size's data).
SAMPLE_SEEDS = (0, 1, 2)

#: The smallest training set of the grid (the grid doubles from here).
N_MIN = 16


def n_grid(d: int) -> tuple[int, ...]:
    """N_MIN, 2 N_MIN, ... up to the first size >= d: beyond n = d the kernel classifier interpolates any labels,
    and the O(kd) bound is then past the grid (a classifier that has not reached a level by then is reported as
    needing more than the grid's last size)."""
    top = max(N_MIN, 2 ** math.ceil(math.log2(d)))
    return tuple(2**e for e in range(int(math.log2(N_MIN)), int(math.log2(top)) + 1))


@dataclass(frozen=True)
class Sweep:
    """One seed's sweep: the grid and each classifier's test accuracy at the sizes it was computed for."""

    config: SparseConfig  # the chapter's config (its d, k, n_test and data seed); n_train is set per size
    grid: tuple[int, ...]
    accuracy: dict  # "l2" / "l1" -> {n: test accuracy}

    def smallest_n(self, norm: str, level: float) -> float:
        """The smallest n of the grid at which the classifier's test accuracy is at least ``level``; when none
        is, twice the grid's last size (a lower bound: it needs more than the grid)."""
        reached = [n for n, acc in sorted(self.accuracy[norm].items()) if acc >= level]
        return float(reached[0]) if reached else 2.0 * self.grid[-1]

    def gap(self, level: float) -> float:
        """n_L2 / n_L1 at ``level`` (a lower bound when the kernel classifier never reaches it)."""
        return self.smallest_n("l2", level) / self.smallest_n("l1", level)


def sweep(config: SparseConfig, top_level: float) -> Sweep:
    """Both classifiers' test accuracies over :func:`n_grid`, each stopped once it reaches ``top_level``."""
    grid = n_grid(config.d)
    solvers = {"l2": margins.max_l2_margin, "l1": margins.max_l1_margin}
    accuracy = {norm: {} for norm in solvers}
    for n in grid:
        x, y, x_test, y_test, _ = make_data(replace(config, n_train=n, margins=False))
        for norm, solve in solvers.items():
            done = accuracy[norm] and max(accuracy[norm].values()) >= top_level
            if not done:
                accuracy[norm][n] = margins.accuracy(solve(x, y).w, x_test, y_test)
        if all(accuracy[norm] and max(accuracy[norm].values()) >= top_level for norm in solvers):
            break
    return Sweep(config, grid, accuracy)


def sweeps(config: SparseConfig, seeds: Sequence[int], top_level: float) -> list[Sweep]:
    """:func:`sweep` per data seed (each seed draws w* and every size's data)."""
    return [sweep(replace(config, data_seed=s), top_level) for s in seeds]


def for_run(history: History, seeds: Sequence[int] = SAMPLE_SEEDS, levels: Sequence[float] = SAMPLE_LEVELS) -> list[Sweep]:
    """The sweeps B.bounds.sample_gap reads: on the data of ``history``'s sparse config (the chapter's focus run:
    its d, k and test size), per seed of ``seeds``, each classifier up to the highest of ``levels``."""
    return sweeps(SparseConfig.from_dict(history.config), seeds, max(levels))
