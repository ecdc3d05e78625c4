"""Picking a Part B notebook's runs out of its histories: the sweeps out of its named groups (``"alpha"``,
``"weight_decay"``, ``"misgrokking"``; see :mod:`grok_lib.paper_b.chapter_runs`), read by name, never by the values a
run happens to have; the run a figure focuses on, one seed's sweeps, the matrix-completion and bridge runs."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..history import History
from .bridge import InitScaleConfig
from .config import MatrixCompletionConfig

#: A notebook's histories as named groups (``run.groups``; a figure's numbers get them in this shape).
Groups = Mapping[str, Sequence[History]]


def unique(histories: Sequence[History]) -> list[History]:
    """``histories`` without repeats (a run in both sweeps), in order."""
    seen, out = set(), []
    for h in histories:
        key = h.meta.get("key") or repr(sorted(h.config.items()))
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out


def sweep_runs(groups: Groups) -> list[History]:
    """The runs of both sweeps, once each: the alpha sweep's, then the lambda sweep's it does not hold."""
    return unique([*groups["alpha"], *groups["weight_decay"]])


def by_alpha(histories: Sequence[History]) -> list[History]:
    """``histories`` sorted by alpha (runs with the same alpha keep their order)."""
    return sorted(histories, key=lambda h: h.cfg.alpha)


def nearest_alpha(alphas: Sequence[float], alpha: float) -> int:
    """The index of the value of ``alphas`` nearest ``alpha`` in ln(alpha) (the first, on a tie)."""
    return min(range(len(alphas)), key=lambda i: abs(math.log(alphas[i] / alpha)))


def focus_run(groups: Groups) -> History:
    """The run both sweeps share: the alpha sweep's run at the lambda sweep's alpha (the profile's: alpha = 128 in
    every profile but ci); where a rerun's lists leave that alpha out, the alpha sweep's run nearest to it (in
    ln alpha)."""
    alpha_sweep = groups["alpha"]
    return alpha_sweep[nearest_alpha([h.cfg.alpha for h in alpha_sweep], groups["weight_decay"][0].cfg.alpha)]


def misgrokking_run(groups: Groups) -> History:
    """The kernel-vs-rich chapter's one misgrokking run."""
    return groups["misgrokking"][0]


def matrix_completion_run(histories: Sequence[History]) -> History:
    return next(h for h in histories if isinstance(h.cfg, MatrixCompletionConfig))


def seeds(histories: Sequence[History]) -> list[int]:
    """The seeds of an MLP chapter's runs, in planned order (split and init move together)."""
    return list(dict.fromkeys(h.cfg.data_seed for h in histories))


def seed_sweeps(groups: Groups, seed: int | None = None) -> tuple[list[History], list[History]]:
    """(the alpha sweep, the lambda sweep) of ``seed`` (None: the first seed's, which the figures show): the runs of
    the groups ``"alpha"`` and ``"weight_decay"`` at that data seed, in their order."""
    seed = seeds(groups["alpha"])[0] if seed is None else seed
    alpha_sweep, lambda_sweep = ([h for h in groups[name] if h.cfg.data_seed == seed]
                                 for name in ("alpha", "weight_decay"))
    return alpha_sweep, lambda_sweep


def stable_sweeps(groups: Groups, stable_runs: Sequence[History]) -> tuple[list[History], list[History]]:
    """(every seed's in-regime alpha sweep, every seed's in-regime lambda sweep) of the modular-addition chapter's
    claim-only runs (``stable_runs``, planned by :func:`grok_lib.paper_b.chapter_runs.stable_modadd_configs` from the
    groups): the alpha sweep at the group ``"alpha"``'s lambda, the lambda sweep at the group ``"weight_decay"``'s
    alpha (the run both share in both)."""
    lam, alpha = groups["alpha"][0].cfg.weight_decay, groups["weight_decay"][0].cfg.alpha
    return ([h for h in stable_runs if h.cfg.weight_decay == lam],
            [h for h in stable_runs if h.cfg.alpha == alpha])


def init_scale_runs(histories: Sequence[History]) -> list[History]:
    """The bridge's runs: Paper A's MLP from alpha times the standard init (in order, once each)."""
    return [h for h in unique(histories) if type(h.cfg) is InitScaleConfig]


def bridge_runs(histories: Sequence[History], seed: int | None = None) -> list[History]:
    """The bridge's runs of ``seed`` (None: the first seed's, which the figure shows), by lambda then alpha."""
    runs = init_scale_runs(histories)
    seed = seeds(runs)[0] if seed is None else seed
    return sorted((h for h in runs if h.cfg.data_seed == seed),
                  key=lambda h: (h.cfg.weight_decay, h.cfg.alpha))
