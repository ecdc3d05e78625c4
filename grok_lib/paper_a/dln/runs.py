"""Which runs of the deep-linear sweep each figure and claim uses (one place for the filters)."""

from __future__ import annotations

from typing import Sequence

from ...history import History


def plain_runs(histories: Sequence[History]) -> list[History]:
    """The runs without weight decay, GD then AdamW (the fast clock alone)."""
    return [h for opt in ("gd", "adamw") for h in histories
            if h.cfg.optimizer == opt and h.cfg.weight_decay == 0]


def gd_decayed_runs(histories: Sequence[History]) -> list[History]:
    """The GD runs with weight decay (the slow clock: the theory's setting)."""
    return [h for h in histories if h.cfg.optimizer == "gd" and h.cfg.weight_decay > 0]


def separation_runs(histories: Sequence[History], weight_decay: float = 1e-3) -> list[History]:
    """The GD runs at one weight decay, one per depth (the separation figure)."""
    return [h for h in gd_decayed_runs(histories) if h.cfg.weight_decay == weight_decay]


def focus_depth(histories: Sequence[History]) -> int:
    """The depth the chapter follows: 2, its running example; a sweep without depth 2 shows its first depth."""
    return 2 if any(h.cfg.depth == 2 for h in histories) else histories[0].cfg.depth
