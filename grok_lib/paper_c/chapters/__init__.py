"""Part C's chapters, one module per notebook (``notebooks/paper_c/<stem>.ipynb`` is
:mod:`grok_lib.paper_c.chapters.<stem>`), each holding that chapter's notebook call (``run``: its parameters are the
notebook's parameters), its claim-only runs, its claims and their bars (``CLAIMS``), its checks (``evaluate_*``), its
key numbers and tables, the numbers its prose quotes (``*_reading``) and its figures' drawing, declared at its end
as ``CHAPTER`` (:class:`grok_lib.chapters.Chapter`) with its figures (:class:`grok_lib.chapters.Figure`). What
two chapters share is in a part-level module named for what it holds: :mod:`~grok_lib.paper_c.measure`,
:mod:`~grok_lib.paper_c.draws`, :mod:`~grok_lib.paper_c.claim_terms`, :mod:`~grok_lib.paper_c.curve_numbers`,
:mod:`~grok_lib.paper_c.run_sets` and :mod:`~grok_lib.paper_c.panels`.

Its chapters are Part C's notebooks in ``_toc.yml``, in that order (the book's contents are their index).

This package gathers them for the book: ``CHAPTERS`` in book order and ``REGISTRY`` (every claim of Part C by id, in
that order: what the claims report lists).
"""

from __future__ import annotations

from ...chapters import gathering

#: ``MODULES`` (the chapter modules in book order), ``CHAPTERS`` and ``REGISTRY`` (Part C's claims by id), gathered
#: at the first use of any.
__getattr__, __dir__ = gathering("paper_c", globals())
