"""Paper B's checks: the claims each notebook records, as :class:`grok_lib.grading.Result` objects, one ``evaluate_*``
per notebook (and per setting): those of the diagonal-net chapters and of matrix completion in
:mod:`grok_lib.paper_b.checks_diagonal`, those of the MLP chapters in :mod:`grok_lib.paper_b.checks_mlp`. Each grades
its claims of :mod:`grok_lib.paper_b.claims` by the one rule, in the regime :mod:`grok_lib.paper_b.regimes` measures.
A notebook with sweeps passes its histories as named groups (``run.groups``)."""

from __future__ import annotations

from .checks_diagonal import (PAPER_LAMBDA, evaluate_matrix_completion, evaluate_misgrokking, evaluate_noisy_init,
                              evaluate_regimes, evaluate_sample_gap, evaluate_sparse, evaluate_sparse_paper_lambda)
from .checks_mlp import FIXED_LR, evaluate_bridge, evaluate_modadd, evaluate_modadd_fixed

__all__ = ["evaluate_sparse", "evaluate_sparse_paper_lambda", "PAPER_LAMBDA", "evaluate_regimes", "evaluate_misgrokking", "evaluate_matrix_completion",
           "evaluate_noisy_init", "evaluate_sample_gap",
           "evaluate_modadd", "evaluate_modadd_fixed", "evaluate_bridge", "FIXED_LR"]
