"""Paper C's thresholds: the numbers each claim's verdict is judged by, fixed before the book's
runs; the tolerance texts of :mod:`grok_lib.paper_c.claims` are formatted from them."""

from __future__ import annotations

# --- thresholds -------------------------------------------------------------------------------
LOSS_FLOOR = 1e-10  #: relative errors are read where the reference loss is >= this
DYN_OK, DYN_PARTLY = 0.05, 0.25  #: simulation vs the exact gradient-flow theory: max relative error
GD_OK = 1e-8  #: simulation vs the exact discrete-GD powers (the book's own consistency check)
#: Below this that relative error is float64 rounding accumulated over up to 1e6 steps (about
#: steps x 1e-16; its digits change with the CPU's arithmetic): printed as "< 1e-10", not as digits.
GD_RESOLUTION = 1e-10
PAPER_EPS = 1e-3  #: the paper's eps: the dynamics, MP and the label-noise prediction are read until L = eps/4
MP_OK, MP_PARTLY = 0.10, 0.25  #: exact theory vs MP: max relative error
#: Accuracy law: the family-wise level of the binomial test of every (curve, record step) comparison; the
#: reproduced bound on ``|simulated - law|`` / binomial sd is the two-sided normal quantile at ACC_LEVEL / (number
#: of comparisons) (Bonferroni: conservative, since neighbouring steps count the same samples).
ACC_LEVEL = 0.05
ACC_PARTLY = 0.10  #: simulated accuracy vs the accuracy law: max absolute difference for "partly"
#: A reproduced verdict needs this margin: a worst value within this fraction of the reproduced threshold
#: (either side) is "partly" at most, since a slightly different threshold would flip it.
EDGE = 0.10
FORMULA_EPS = (1e-3, 1e-5, 1e-8)  #: the thresholds the grokking-time formula is checked at
RATIO_BAND = (0.8, 1.25)  #: simulated Delta t_grok / formula counted as agreement
PLATEAU_OK, PLATEAU_PARTLY = 0.10, 0.25  #: lambda > 1: L_gen plateau / (l0 (1 - 1/lambda)) - 1
WD_SMALL = 0.1  #: gamma d_out / (2 lambda-minus) <= this: the formula's small-gamma regime
WD_BAND = (0.8, 1.25)  #: simulated plateau / the paper's formula
WD_SPREAD = 1.25  #: max/min of those ratios: the lambda and gamma dependence hold up to one prefactor
#: C.wd.limits is judged on this many seeds (data and initialisation): the book's and WD_SEEDS - 1 claim-only further
#: seeds of its small-gamma runs (chapter_runs.wd_seed_configs); its verdict is theirs in common, partly where they differ.
WD_SEEDS = 3
PEAK_RANGE = (20, 100)  #: "a peak near d_out ~ 50"
PEAK_SE = 2.0  #: the peak must beat both ends by this many standard errors (seed mean)
#: The step cap of the hypothesis shown beside C.dout.peak (the book's own 10^6-step runs; the paper's cap is not
#: stated): a run stopped here records no test crossing after it.
STEP_CAP = 1_000_000
NET_BAND, NET_PARTLY = (0.8, 1.25), (0.5, 2.0)  #: net crossing times / rescaled-theory crossing times
NOISE_OK, NOISE_PARTLY = 0.10, 0.30  #: label noise: max relative error vs the rebuttal's prediction
TUNED_OK, TUNED_PARTLY = 0.10, 0.30  #: the gap between t_train and t_test, over t_test, at the tuned sigma_n
#: At least this many training fractions must grok for every seed (else there is no shape to test).
MIN_FRACTIONS = 5
#: R^2 of the formula fit (ln of the per-fraction geometric mean Delta t) counted as describing the points.
R2_OK = 0.90
#: The formula is preferred by held-out data when its leave-one-fraction-out RMS error of ln Delta t is at
#: most this times the smaller one of the power law's and the exponential's.
LOO_MARGIN = 1.0
