"""Paper B's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, runs, claim-only runs, figures."""

from __future__ import annotations

from ..chapters import Chapter, Figure
from . import bridge, figures, mlp_figures, setup

CHAPTERS = (
    Chapter("notebooks/paper_b/sparse_classification.ipynb", setup.sparse_configs, (
        Figure("paper_b/fig1a_sparse", "Paper B, Figure 1a: sparse classification with a diagonal net: accuracy, "
               "loss, and the norm against α e^(−λt)", figures.fig1a_sparse_numbers),
        Figure("paper_b/sparse_sweeps", "Paper B: α and λ sweeps of the diagonal net, against steps and against "
               "λt / ln α", figures.sparse_sweeps_numbers),
        Figure("paper_b/sparse_transition", "Paper B: transition start and end as fractions of ln α / λ, the window, "
               "the limit α → ∞, the slopes", figures.sparse_transition_numbers)),
        claim_runs=setup.fig1a_seed_configs),
    Chapter("notebooks/paper_b/kernel_vs_rich.ipynb", setup.kernel_rich_configs, (
        Figure("paper_b/margins_sparse", "Paper B: the diagonal net against the max-L2 and max-L1 margin classifiers "
               "on sparse data", figures.margins_sparse_numbers),
        Figure("paper_b/misgrokking", "Paper B, misgrokking: test accuracy falls from the max-L2 toward the max-L1 "
               "classifier's", figures.misgrokking_numbers))),
    Chapter("notebooks/paper_b/matrix_completion.ipynb", setup.matrix_completion_configs, (
        Figure("paper_b/matrix_completion", "Paper B: matrix completion of the multiplication table: kernel plateau, "
               "then low-rank recovery", figures.matrix_completion_numbers),)),
    Chapter("notebooks/paper_b/modular_addition.ipynb", setup.modadd_configs, (
        Figure("paper_b/modadd_sweeps", "Paper B: the two-layer ReLU net on modular addition, α and λ sweeps against "
               "steps and the clock", mlp_figures.modadd_sweeps_numbers),
        Figure("paper_b/modadd_fits", "Paper B: modular addition, transition time against ln α and against 1 / λ",
               mlp_figures.modadd_fits_numbers)),
        claim_runs=setup.clock_alpha_configs),
    Chapter("notebooks/paper_b/init_scale_adamw.ipynb", bridge.sweep, (
        Figure("paper_b/init_scale_adamw", "Bridge to Part A: Paper A's MLP and AdamW from α times the standard "
               "initialisation", mlp_figures.init_scale_numbers),)),
)

load_set = setup.recorded
