"""Picking a Part B notebook's runs out of its histories (in the order its setup call planned them,
:mod:`grok_lib.paper_b.setup`): the sparse runs and their alpha and lambda sweeps, the run a figure
focuses on, the misgrokking, matrix-completion, modular-addition and bridge runs."""

from __future__ import annotations

import math
from typing import Sequence

from ..history import History
from .config import MatrixCompletionConfig, MisgrokkingConfig, SparseConfig


def unique(histories: Sequence[History]) -> list[History]:
    """``histories`` without repeats (a run in both sweeps), in order."""
    seen, out = set(), []
    for h in histories:
        key = h.meta.get("key") or repr(sorted(h.config.items()))
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def halves(runs: list[History]) -> tuple[list[History], list[History]]:
    """(alpha sweep: runs at the first run's lambda, by alpha; lambda sweep: runs at the last run's alpha, by lambda)."""
    lam, alpha = runs[0].cfg.weight_decay, runs[-1].cfg.alpha
    alpha_sweep = sorted((h for h in runs if h.cfg.weight_decay == lam), key=lambda h: h.cfg.alpha)
    lambda_sweep = sorted((h for h in runs if h.cfg.alpha == alpha), key=lambda h: h.cfg.weight_decay)
    return alpha_sweep, lambda_sweep


def sparse_runs(histories: Sequence[History]) -> list[History]:
    """The sparse-classification runs (in order, once each)."""
    return [h for h in unique(histories) if type(h.cfg) is SparseConfig]


def split_sparse(histories: Sequence[History]) -> tuple[list[History], list[History]]:
    """(the alpha sweep, the lambda sweep) of the sparse runs."""
    return halves(sparse_runs(histories))


def focus_run(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> History:
    """The run both sweeps share (the profile's alpha and lambda: alpha = 128 in every profile but ci); where
    a rerun's lists leave out the profile's alpha, the alpha sweep's run nearest to it (in ln alpha)."""
    alpha = lambda_sweep[0].cfg.alpha
    return min(alpha_sweep, key=lambda h: abs(math.log(h.cfg.alpha / alpha)))


def misgrokking_run(histories: Sequence[History]) -> History:
    return next(h for h in histories if isinstance(h.cfg, MisgrokkingConfig))


def matrix_completion_run(histories: Sequence[History]) -> History:
    return next(h for h in histories if isinstance(h.cfg, MatrixCompletionConfig))


def seeds(histories: Sequence[History]) -> list[int]:
    """The seeds of an MLP chapter's runs, in planned order (split and init move together)."""
    return list(dict.fromkeys(h.cfg.data_seed for h in histories))


def split_modadd(histories: Sequence[History], seed: int | None = None) -> tuple[list[History], list[History]]:
    """(the alpha sweep, the lambda sweep) of the modular-addition runs of ``seed`` (None: the first
    seed's, which the figure shows)."""
    runs = [h for h in unique(histories) if h.meta.get("model") == "paper_b.modadd"]
    seed = seeds(runs)[0] if seed is None else seed
    return halves([h for h in runs if h.cfg.data_seed == seed])


def bridge_runs(histories: Sequence[History], seed: int | None = None) -> list[History]:
    """The bridge's runs of ``seed`` (None: the first seed's, which the figure shows), by lambda then alpha."""
    runs = [h for h in unique(histories) if h.meta.get("model") == "paper_b.init_scale"]
    seed = seeds(runs)[0] if seed is None else seed
    return sorted((h for h in runs if h.cfg.data_seed == seed),
                  key=lambda h: (h.cfg.weight_decay, h.cfg.alpha))
