"""Every training run the committed book needs, so that one command can train them all
up front, in parallel, before the notebooks read them from the run store."""

from __future__ import annotations

from . import deep_linear
from .config import paper_a_sweep


def book_configs(profile: str = "default") -> list:
    """The Paper A weight-decay sweep (all MLP notebooks) and the deep-linear sweep."""
    return paper_a_sweep(profile) + deep_linear.sweep(profile)
