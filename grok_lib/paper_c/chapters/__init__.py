"""Part C's chapters, one module per notebook (``notebooks/paper_c/<stem>.ipynb`` is
:mod:`grok_lib.paper_c.chapters.<stem>`), each holding that chapter's notebook call (``run``: its parameters are the
notebook's parameters), its claim-only runs, its claims and their bars (``CLAIMS``), its checks (``evaluate_*``), its
key numbers and tables, the numbers its prose quotes (``*_reading``) and its figures' drawing, declared at its end
as ``CHAPTER`` (:class:`grok_lib.chapters.Chapter`) with its figures (:class:`grok_lib.chapters.Figure`). What
two chapters share is in a part-level module named for what it holds: :mod:`~grok_lib.paper_c.measure`,
:mod:`~grok_lib.paper_c.draws`, :mod:`~grok_lib.paper_c.claim_terms`, :mod:`~grok_lib.paper_c.curve_numbers`,
:mod:`~grok_lib.paper_c.run_sets` and :mod:`~grok_lib.paper_c.panels`.

- :mod:`.loss_curves`       losses and accuracies against the exact theory and MP (C.dyn.*, C.acc.law, C.plateau.*)
- :mod:`.grok_time`         the grokking time against λ and the paper's formula (C.grok.*)
- :mod:`.weight_decay`      the loss plateaus under weight decay (C.wd.*)
- :mod:`.d_out`             the grokking time against the output dimension, the accuracy law for d_out > 1
- :mod:`.nets`              the two-layer linear and tanh nets, the other activations (C.nets.*), the recorded sets
- :mod:`.label_noise`       label noise and the tuned crossings (C.noise.*)
- :mod:`.modadd_data_ratio` Paper C's question on Part A's task: the grokking time against the training fraction

This package gathers them for the book: ``CHAPTERS`` in book order, ``REGISTRY`` (every claim of Part C by id, in
that order: what the claims report lists) and ``load_set`` (the histories of a recorded set, in its named groups).
"""

from __future__ import annotations

from importlib import import_module

#: The chapter modules' names in book order.
STEMS = ("loss_curves", "grok_time", "weight_decay", "d_out", "nets", "label_noise", "modadd_data_ratio")


def _gathered(name: str):
    modules = tuple(import_module(f"{__name__}.{stem}") for stem in STEMS)
    return {"MODULES": modules,
            "CHAPTERS": tuple(m.CHAPTER for m in modules),
            "REGISTRY": {cid: claim for m in modules for cid, claim in m.CLAIMS.items()},  # in book order
            "load_set": modules[STEMS.index("nets")].recorded}[name]


def __getattr__(name: str):
    """``MODULES`` (the chapter modules in book order), ``CHAPTERS``, ``REGISTRY`` (Part C's claims by id) and
    ``load_set``, loaded at their first use and kept (PEP 562): a notebook that imports its own chapter module loads
    no other chapter, so an edit to one chapter re-executes only its notebook (and the claims report, which reads
    every chapter's claims)."""
    if name not in ("MODULES", "CHAPTERS", "REGISTRY", "load_set"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value = _gathered(name)
    return value


def __dir__():
    return sorted([*globals(), "MODULES", "CHAPTERS", "REGISTRY", "load_set"])
