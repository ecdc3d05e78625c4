"""Paper A's recorded sets (see :mod:`grok_lib.recorded`): runs too long for ``make book``,
trained once with ``scripts/record_runs.py`` and committed under ``recorded/``.

- ``paper_unordered``: the paper's settings (width 512, 15,000 epochs, λ = 0.6 ... 1.0) with the
  book's split, 0.5 of the unordered pairs (the coverage of the usual 0.3 of the ordered pairs).
- ``paper_ordered``: the same with the usual recipe itself, 0.3 of the ordered pairs (mirror leakage).
- ``init_scaled``: the default profile with E ~ N(0, 1/d) instead of PyTorch's N(0, 1).
- ``seeds``: the default profile at seeds 0, 1 and 2 (data split and initialisation). Seed 0 is the
  book's own run (the same store entries ``make book`` trains); it is recorded too, so that notebooks
  and tests compare the seeds without training the default profile into a scratch store.
"""

from __future__ import annotations

from dataclasses import replace

from . import config

#: The seeds of the ``seeds`` set (seed 0 is the default profile's own run).
SEEDS = (0, 1, 2)


def paper_unordered() -> list:
    return config.sweep("paper")


def paper_ordered() -> list:
    return config.sweep("paper", split="ordered", train_frac=0.3)


def init_scaled() -> list:
    return config.sweep("default", init="scaled_embed")


def seeds() -> list:
    return [replace(c, data_seed=s, init_seed=s) for s in SEEDS for c in config.sweep("default")]


#: name -> (description, the function returning its configs, the weight blocks kept at the first and
#: last kept step: E, what Figure 2's claims read)
RECORDINGS = {
    "paper_a/paper_unordered": ("Paper A at the paper's settings, the book's split (0.5 of the unordered pairs)",
                                paper_unordered, ("E",)),
    "paper_a/paper_ordered": ("Paper A at the paper's settings, the usual split (0.3 of the ordered pairs)",
                              paper_ordered, ("E",)),
    "paper_a/init_scaled": ("Paper A's default profile with embeddings drawn from N(0, 1/d)", init_scaled, ("E",)),
    "paper_a/seeds": ("Paper A's default profile at seeds 0, 1 and 2 (split and initialisation)", seeds, ("E",)),
}
