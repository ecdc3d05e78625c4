"""What several of Paper A's chapters' claims share: the train-fit level and its grid, the regimes' levels (the
transition complete, the paper's width and its figures' axis), the bar on an order's inversions, and the paper's
abstract as the claims quote it. A bar or level one chapter alone reads is declared in that chapter's module, beside
its claim."""

from __future__ import annotations

from ..grading import Bar, Choice


ORDER_INVERSIONS = Bar(hi=0)  #: "earlier for larger weight decay": no inversion


FIT_EPS = 1e-3  #: T_cls level of "the train loss has saturated" (the book's central choice)


FIT_EPS_GRID = (1e-2, 1e-3, 1e-4)


GROK_ACC = 0.95  #: the grokking epoch of the tables (test accuracy)


#: The regime of the absolute-epoch claims: the paper's width and a run at least as long as its figures' axes.
PAPER_WIDTH, PAPER_AXIS_EPOCHS = 512, 12_000


#: The regime of every MLP claim: the transition completes within the run (test accuracy at least this).
COMPLETE_ACC = 0.99


ABSTRACT = "the paper's abstract (arXiv 2606.05863)"


FIT_LEVEL = Choice("train-loss level ε of T_cls", 1e-3, FIT_EPS_GRID, "the paper's 'fitted' names no level", ".0e")
