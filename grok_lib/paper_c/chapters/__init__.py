"""Part C's chapters, one module per notebook (``notebooks/paper_c/<stem>.ipynb`` is
:mod:`grok_lib.paper_c.chapters.<stem>`), each holding that chapter's notebook call (``run``: its parameters are the
notebook's parameters), its claim-only runs, its claims and their bars (``CLAIMS``), its checks (``evaluate_*``), its
key numbers and tables, the numbers its prose quotes (``*_reading``) and its figures' drawing, declared at its end
as ``CHAPTER`` (:class:`grok_lib.chapters.Chapter`) with its figures (:class:`grok_lib.chapters.Figure`). What
two chapters share is in a part-level module named for what it holds: :mod:`~grok_lib.paper_c.measure`,
:mod:`~grok_lib.paper_c.draws`, :mod:`~grok_lib.paper_c.claim_terms`, :mod:`~grok_lib.paper_c.curve_numbers`,
:mod:`~grok_lib.paper_c.run_sets` and :mod:`~grok_lib.paper_c.panels`.

Its chapters are Part C's notebooks in ``_toc.yml``, in that order (the book's contents are their index).

This package gathers them for the book: ``CHAPTERS`` in book order, ``REGISTRY`` (every claim of Part C by id, in
that order: what the claims report lists) and ``load_set`` (the histories of a recorded set, in its named groups).
"""

from __future__ import annotations

import re
from importlib import import_module

from ...paths import TOC


def _stems() -> tuple[str, ...]:
    """The chapter modules' names in book order: Part C's notebooks as ``_toc.yml`` lists them. A new chapter is
    listed there, not here, so adding one changes no module the other chapters' notebooks import (they do not
    re-execute)."""
    return tuple(re.findall(r"^\s*- file: notebooks/paper_c/(\w+)\s*$", TOC.read_text(), re.M))


def _gathered() -> dict:
    stems = _stems()
    modules = tuple(import_module(f"{__name__}.{stem}") for stem in stems)
    return {"MODULES": modules,
            "CHAPTERS": tuple(m.CHAPTER for m in modules),
            # in book order; a chapter that grades no claim declares no CLAIMS
            "REGISTRY": {cid: claim for m in modules for cid, claim in getattr(m, "CLAIMS", {}).items()},
            "load_set": modules[stems.index("nets")].recorded}


def __getattr__(name: str):
    """``MODULES`` (the chapter modules in book order), ``CHAPTERS``, ``REGISTRY`` (Part C's claims by id) and
    ``load_set``, gathered together at the first use of any and kept (PEP 562): a notebook that imports its own
    chapter module loads no other chapter, so an edit to one chapter re-executes only its notebook (and the claims
    report, which reads every chapter's claims)."""
    if name not in ("MODULES", "CHAPTERS", "REGISTRY", "load_set"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals().update(_gathered())
    return globals()[name]


def __dir__():
    return sorted([*globals(), "MODULES", "CHAPTERS", "REGISTRY", "load_set"])
