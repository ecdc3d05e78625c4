"""Picking runs out of the histories of more than one Part B chapter: the sweeps out of its named groups
(``"alpha"``, ``"weight_decay"``; see :mod:`grok_lib.paper_b.run_sets`), read by name, never by the values a run
happens to have; the sparse run both sweeps share (the focus run), the MLP chapters' seeds. What one chapter alone
picks (its misgrokking, matrix-completion or bridge runs, one seed's sweeps) is in its chapter module."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..history import History

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


def nearest_alpha(alphas: Sequence[float], alpha: float) -> int:
    """The index of the value of ``alphas`` nearest ``alpha`` in ln(alpha) (the first, on a tie)."""
    return min(range(len(alphas)), key=lambda i: abs(math.log(alphas[i] / alpha)))


def focus_run(groups: Groups) -> History:
    """The run both sweeps share: the alpha sweep's run at the lambda sweep's alpha (the profile's: alpha = 128 in
    every profile but ci); where a rerun's lists leave that alpha out, the alpha sweep's run nearest to it (in
    ln alpha)."""
    alpha_sweep = groups["alpha"]
    return alpha_sweep[nearest_alpha([h.cfg.alpha for h in alpha_sweep], groups["weight_decay"][0].cfg.alpha)]


def seeds(histories: Sequence[History]) -> list[int]:
    """The seeds of an MLP chapter's runs, in planned order (split and init move together)."""
    return list(dict.fromkeys(h.cfg.data_seed for h in histories))


