"""Part A's chapters, one module per notebook (``notebooks/paper_a/<stem>.ipynb`` is
:mod:`grok_lib.paper_a.chapters.<stem>`), each holding that chapter's notebook call (``run``: its parameters are the
notebook's parameters; the five MLP chapters share one, :func:`grok_lib.paper_a.run_sets.mlp`), its bars and claims
(``CLAIMS``), its checks (``evaluate_*``), its key numbers and tables, the numbers its prose quotes (``*_reading``)
and its figures' drawing, declared at its end as ``CHAPTER`` (:class:`grok_lib.chapters.Chapter`) with its figures
(:class:`grok_lib.chapters.Figure`). What two chapters share is in a part-level module named for what it holds:
:mod:`~grok_lib.paper_a.claim_terms`, :mod:`~grok_lib.paper_a.run_sets`, :mod:`~grok_lib.paper_a.draws`,
:mod:`~grok_lib.paper_a.curve_numbers`, :mod:`~grok_lib.paper_a.robustness`, :mod:`~grok_lib.paper_a.words` and
:mod:`~grok_lib.paper_a.panels`. A chapter module names matplotlib and the plotting style with
:func:`grok_lib.chapters.deferred`: reading the declarations (as the GPU check does, on a machine with torch and
numpy only) imports neither.

Its chapters are Part A's notebooks in ``_toc.yml``, in that order (the book's contents are their index).

This package gathers them for the book: ``CHAPTERS`` in book order, ``REGISTRY`` (every claim of Part A by id, in
that order: what the claims report lists), ``load_set`` (the histories of a recorded set) and
``recorded_profiles`` (the profiles a recorded figure's caption compares its runs with).
"""

from __future__ import annotations

from ...chapters import gathering
from .. import config
from ..run_sets import default_runs, recorded


def load_set(name: str):
    """A recorded set's histories; ``default``: the default profile's sweep at seed 0, as recorded."""
    return default_runs() if name == "default" else recorded(name)


def recorded_profiles() -> dict[str, list]:
    """The profiles' sweeps a recorded figure's caption compares the recordings with, the default profile
    first: the caption (:func:`grok_lib.provenance.recorded_source`) names the settings in which the recorded
    runs differ from the default profile's, and the profile they are closest to."""
    return {name: config.sweep(name) for name in ("default", *sorted(set(config.PROFILES) - {"default", "ci"}))}


#: ``MODULES`` (the chapter modules in book order), ``CHAPTERS`` and ``REGISTRY`` (Part A's claims by id), gathered
#: at the first use of any.
__getattr__, __dir__ = gathering("paper_a", globals())
