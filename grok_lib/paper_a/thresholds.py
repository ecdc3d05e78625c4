"""Paper A's bars and levels for the MLP claims, each read by one check of :mod:`grok_lib.paper_a.checks` and
declared in its claim (:mod:`grok_lib.paper_a.claims`), so the page's words cannot drift from the check. The
deep-linear chapter's are in :mod:`grok_lib.paper_a.dln.thresholds`."""

from __future__ import annotations

from ..grading import Bar

FIT_EPOCH = 1500  #: Fig. 1b: train loss ~1e-6 by ~1.5k epochs
FIT_LOSS = Bar(1e-7, 1e-5, log=True)  #: "about 1e-6": a decade either side
GROK_WINDOW = Bar(3200, 10625)  #: the paper's ~4k-8.5k window, +-25%
DROP_LEVELS = (1e-2, 1e-3, 1e-4)  #: test-loss levels of "the drop"
ORDER_INVERSIONS = Bar(hi=0)  #: "earlier for larger weight decay": no inversion
FOURIER_TOPS, FOURIER_SHARE = (3, 5, 7), Bar(lo=0.5)  #: "a few" frequencies holding most (> half) of the energy
CIRCLE_CV = Bar(hi=0.1)  #: radius coefficient of variation of a circle
SPACING_STEPS = Bar(hi=2.0)  #: RMS angle error of evenly spaced tokens, in polygon steps
SRANK_PEAK, SRANK_FINAL = Bar(30, 42), Bar(8, 14)  #: Fig. 3: ~36 -> ~10-12
AFTER_FIT = Bar(lo=1)  #: the stable rank's peak at least one epoch after T_cls
FIT_EPS = 1e-3  #: T_cls level of "the train loss has saturated" (the book's central choice)
FIT_EPS_GRID = (1e-2, 1e-3, 1e-4)
RATIO_EPS, RATIO_EPS_GRID = 1e-4, (1e-3, 1e-4, 1e-5)  #: T_cls level of the clock ratio
T_REP_FRACTIONS = (0.9, 0.8, 0.7)  #: T_rep: the stable rank at f x its peak
CLOCK_RATIO = Bar(lo=2.0)  #: "several times slower": at least twice
HEAD_SHARE = Bar(lo=0.9)  #: share of the fitting phase's epochs with ||grad_U|| > ||grad_E||
FROZEN_CHURN_GRID = (3e-4, 1e-3, 3e-3)  #: churn (bits flipped per 50 epochs) below which patterns count as frozen
FROZEN_BEFORE = Bar(hi=1.0)  #: the frozen epoch at or before T_rep
GROK_ACC = 0.95  #: the grokking epoch of the tables (test accuracy)
#: The regime of the absolute-epoch claims: the paper's width and a run at least as long as its figures' axes.
PAPER_WIDTH, PAPER_AXIS_EPOCHS = 512, 12_000
#: The regime of every MLP claim: the transition completes within the run (test accuracy at least this).
COMPLETE_ACC = 0.99
