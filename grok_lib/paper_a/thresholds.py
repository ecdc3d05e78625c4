"""Paper A's thresholds for the MLP claims: the numbers each verdict is judged by, each read by one
check of :mod:`grok_lib.paper_a.checks`; the tolerance texts of :mod:`grok_lib.paper_a.claims` are
formatted from them, so the prose cannot drift from the check. The deep-linear chapter's are in
:mod:`grok_lib.paper_a.dln.thresholds`."""

from __future__ import annotations

FIT_EPOCH = 1500  #: Fig. 1b: train loss ~1e-6 by ~1.5k epochs
FIT_RANGE, FIT_RANGE_PARTLY = (1e-7, 1e-5), (1e-8, 1e-4)  #: train loss at FIT_EPOCH: reproduced, partly
GROK_ACC = 0.95  #: the grokking epoch: first epoch with test accuracy >= this
GROK_WINDOW = (3200, 10625)  #: the paper's ~4k-8.5k window, +-25%
FOURIER_TOP, FOURIER_SHARE = 5, 0.5  #: top-n frequencies and the share of E's energy they must hold
POLYGON_CV, POLYGON_ANGLE = 0.1, 2  #: radius CV and angle error (polygon steps) of a regular polygon
SRANK_PEAK, SRANK_FINAL, SRANK_FALL = (30, 42), 14, 0.8  #: Fig. 3: ~36 -> ~10-12; partly: a 20% fall
FIT_EPS = 1e-3  #: T_cls level of "the train loss has saturated"
RATIO_EPS, CLOCK_RATIO = 1e-4, (2.5, 6)  #: T_rep / T_cls(RATIO_EPS): our reading of Figs 1b and 3 is 3-6
HEAD_SHARE, HEAD_SHARE_PARTLY = 0.9, 0.5  #: share of the fitting phase's epochs with ``||grad_U|| > ||grad_E||``
