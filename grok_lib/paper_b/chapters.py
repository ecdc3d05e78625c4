"""Paper B's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, the call it makes, runs, claim-only
runs, figures.

Each chapter's ``call`` is the one :mod:`grok_lib.paper_b.chapter_runs` function its notebook calls:

- ``sparse_classification``: :func:`grok_lib.paper_b.chapter_runs.sparse` (named groups ``"alpha"`` and
  ``"weight_decay"``);
- ``kernel_vs_rich``: :func:`grok_lib.paper_b.chapter_runs.kernel_rich` (``"alpha"``, ``"weight_decay"`` and
  ``"misgrokking"``);
- ``matrix_completion``: :func:`grok_lib.paper_b.chapter_runs.matrix_completion` (one run);
- ``modular_addition``: :func:`grok_lib.paper_b.chapter_runs.modadd` (``"alpha"`` and ``"weight_decay"``, each with
  every seed's sweep);
- ``init_scale_adamw``: :func:`grok_lib.paper_b.chapter_runs.init_scale` (the bridge to Part A: seed x alpha x lambda,
  a list).
"""

from __future__ import annotations

from ..chapters import Chapter, Figure
from . import bridge, chapter_runs, key_numbers, mlp_numbers

CHAPTERS = (
    Chapter("notebooks/paper_b/sparse_classification.ipynb", chapter_runs.sparse, chapter_runs.sparse_configs, (
        Figure("paper_b/fig1a_sparse", "Paper B, Figure 1a: sparse classification with a diagonal net: accuracy, "
               "loss, and the norm against α e^(−λt)", key_numbers.fig1a_sparse_numbers),
        Figure("paper_b/sparse_sweeps", "Paper B: α and λ sweeps of the diagonal net, against steps and against "
               "λt / ln α", key_numbers.sparse_sweeps_numbers),
        Figure("paper_b/sparse_transition", "Paper B: transition start and end as fractions of ln α / λ, the window, "
               "the limit α → ∞, the slopes", key_numbers.sparse_transition_numbers)),
        claim_runs=chapter_runs.fig1a_seed_configs),
    Chapter("notebooks/paper_b/kernel_vs_rich.ipynb", chapter_runs.kernel_rich, chapter_runs.kernel_rich_configs, (
        Figure("paper_b/margins_sparse", "Paper B: the diagonal net against the max-L2 and max-L1 margin classifiers "
               "on sparse data", key_numbers.margins_sparse_numbers),
        Figure("paper_b/misgrokking", "Paper B, misgrokking: test accuracy falls from the max-L2 toward the max-L1 "
               "classifier's", key_numbers.misgrokking_numbers))),
    Chapter("notebooks/paper_b/matrix_completion.ipynb", chapter_runs.matrix_completion,
            chapter_runs.matrix_completion_configs, (
        Figure("paper_b/matrix_completion", "Paper B: matrix completion of the multiplication table: kernel plateau, "
               "then low-rank recovery", key_numbers.matrix_completion_numbers),)),
    Chapter("notebooks/paper_b/modular_addition.ipynb", chapter_runs.modadd, chapter_runs.modadd_configs, (
        Figure("paper_b/modadd_sweeps", "Paper B: the two-layer ReLU net on modular addition, α and λ sweeps against "
               "steps and the clock", mlp_numbers.modadd_sweeps_numbers),
        Figure("paper_b/modadd_fits", "Paper B: modular addition, transition time against ln α and against 1 / λ",
               mlp_numbers.modadd_fits_numbers)),
        claim_runs=chapter_runs.clock_alpha_configs),
    Chapter("notebooks/paper_b/init_scale_adamw.ipynb", chapter_runs.init_scale, bridge.sweep, (
        Figure("paper_b/init_scale_adamw", "Bridge to Part A: Paper A's MLP and AdamW from α times the standard "
               "initialisation", mlp_numbers.init_scale_numbers),)),
)

load_set = chapter_runs.recorded
