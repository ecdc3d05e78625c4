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

from ..chapters import Chapter, Figure, lazy_import
from . import bridge, chapter_runs, key_numbers, mlp_numbers, selection

# How each figure is drawn from its chapter's runs (named groups of histories, or a list): the notebook's figure
# cell and the image tests both draw through these. The plot module loads when a figure is drawn, not when the
# declarations are read (lazy_import: no matplotlib then).
plots = lazy_import("grok_lib.paper_b.plots")


def _fig1a(groups):
    return plots.fig1a_sparse(selection.focus_run(groups), groups["alpha"])


def _sparse_sweeps(groups):
    return plots.sweeps_figure(groups["alpha"], groups["weight_decay"])


def _sparse_transition(groups):
    return plots.sparse_transition(groups["alpha"], groups["weight_decay"])


def _margins(groups):
    return plots.margins_sparse(selection.focus_run(groups), groups["alpha"])


def _misgrokking(groups):
    return plots.misgrokking_figure(selection.misgrokking_run(groups))


def _matrix_completion(histories):
    return plots.matrix_completion_figure(selection.matrix_completion_run(histories))


def _modadd_sweeps(groups):
    return plots.sweeps_figure(*selection.seed_sweeps(groups), logx=False)  # the first seed's sweeps


def _modadd_fits(groups):
    return plots.modadd_fits(*selection.seed_sweeps(groups))


def _init_scale(histories):
    return plots.init_scale_figure(selection.bridge_runs(histories), mlp_numbers.bridge_delay_rows(histories))


CHAPTERS = (
    Chapter("notebooks/paper_b/sparse_classification.ipynb", chapter_runs.sparse, chapter_runs.sparse_configs, (
        Figure("paper_b/fig1a_sparse", "Paper B, Figure 1a: sparse classification with a diagonal net: accuracy, "
               "loss, and the norm against α e^(−λt)", key_numbers.fig1a_sparse_numbers, _fig1a),
        Figure("paper_b/sparse_sweeps", "Paper B: α and λ sweeps of the diagonal net, against steps and against "
               "λt / ln α", key_numbers.sparse_sweeps_numbers, _sparse_sweeps,
               interactive=True),
        Figure("paper_b/sparse_transition", "Paper B: transition start and end as fractions of ln α / λ, the window, "
               "the limit α → ∞, the slopes", key_numbers.sparse_transition_numbers, _sparse_transition)),
        claim_runs=chapter_runs.fig1a_seed_configs,
        claims=("B.fig1a.fit_at_once", "B.fig1a.kernel_acc", "B.fig1a.final_acc", "B.fig1a.start_fraction",
                "B.fig1a.end_fraction", "B.fig1a.norm", "B.thm.window", "B.thm.limit", "B.thm.log_alpha_slope",
                "B.thm.inverse_lambda_slope")),
    Chapter("notebooks/paper_b/kernel_vs_rich.ipynb", chapter_runs.kernel_rich, chapter_runs.kernel_rich_configs, (
        Figure("paper_b/margins_sparse", "Paper B: the diagonal net against the max-L2 and max-L1 margin classifiers "
               "on sparse data", key_numbers.margins_sparse_numbers, _margins),
        Figure("paper_b/misgrokking", "Paper B, misgrokking: test accuracy falls from the max-L2 toward the max-L1 "
               "classifier's", key_numbers.misgrokking_numbers, _misgrokking)),
        claims=("B.regimes.kernel_l2", "B.regimes.rich_l1", "B.regimes.kernel_acc_match", "B.regimes.rich_acc_match",
                "B.misgrokking.starts_high", "B.misgrokking.falls", "B.bounds.sample_gap")),
    Chapter("notebooks/paper_b/matrix_completion.ipynb", chapter_runs.matrix_completion,
            chapter_runs.matrix_completion_configs, (
        Figure("paper_b/matrix_completion", "Paper B: matrix completion of the multiplication table: kernel plateau, "
               "then low-rank recovery", key_numbers.matrix_completion_numbers, _matrix_completion),),
        claims=("B.mc.train_fit", "B.mc.kernel_plateau", "B.mc.recovery", "B.mc.rank_one", "B.mc.clock",
                "B.mc.noisy_init")),
    Chapter("notebooks/paper_b/modular_addition.ipynb", chapter_runs.modadd, chapter_runs.modadd_configs, (
        Figure("paper_b/modadd_sweeps", "Paper B: the two-layer ReLU net on modular addition, α and λ sweeps against "
               "steps and the clock", mlp_numbers.modadd_sweeps_numbers, _modadd_sweeps),
        Figure("paper_b/modadd_fits", "Paper B: modular addition, transition time against ln α and against 1 / λ",
               mlp_numbers.modadd_fits_numbers, _modadd_fits)),
        claim_runs=chapter_runs.stable_modadd_configs,
        claims=("B.modadd.alpha_order", "B.modadd.lambda_order", "B.modadd.log_alpha_clock",
                "B.modadd.inverse_lambda_clock")),
    Chapter("notebooks/paper_b/init_scale_adamw.ipynb", chapter_runs.init_scale, bridge.sweep, (
        Figure("paper_b/init_scale_adamw", "Bridge to Part A: Paper A's MLP and AdamW from α times the standard "
               "initialisation", mlp_numbers.init_scale_numbers, _init_scale),),
        claims=("B.bridge.delay", "B.bridge.clock")),
)

load_set = chapter_runs.recorded
