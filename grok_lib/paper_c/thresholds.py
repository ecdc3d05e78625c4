"""Paper C's bars and levels, each read by one check (:mod:`grok_lib.paper_c.checks` and its siblings) and declared
in its claim (:mod:`grok_lib.paper_c.claims`), so the page's words cannot drift from the check. A bar the book chose
where the paper gives no number is graded over a grid of bars moved either way (:func:`grok_lib.grading.moved`, in
the claims); a bar at a natural point of the statement ("within the test's own bound", "at least as well", "no
decrease") has none."""

from __future__ import annotations

from ..grading import Bar, moved

# --- how the losses are read -------------------------------------------------------------------------------------
LOSS_FLOOR = 1e-10  #: relative errors are read where the reference loss is >= this
#: Below this the simulation's relative error against GD's exact discrete powers is float64 rounding accumulated over
#: up to 1e6 steps (about steps x 1e-16; its digits change with the CPU's arithmetic): printed as "< 1e-10".
GD_RESOLUTION = 1e-10
GD_OK = 1e-8  #: the simulation against GD's exact discrete powers: above this the simulation itself is wrong
PAPER_EPS = 1e-3  #: the paper's accuracy threshold eps
#: The loss level down to which a curve is compared with its theory (the book's choice: the range where the
#: paper's accuracy figures move): eps/2, eps/4 (the paper's grokking level, the central choice) and eps/8, where
#: the erf law puts the accuracy at 84%, 95.4% and 99.5%.
WINDOW_LEVELS = (PAPER_EPS / 2, PAPER_EPS / 4, PAPER_EPS / 8)
WINDOW_LEVEL = PAPER_EPS / 4

# --- the linear student: dynamics, MP, the accuracy law, the plateau ---------------------------------------------
DYN_ERROR = Bar(hi=0.05)  #: simulation vs the exact gradient-flow theory: largest relative error
MP_ERROR = Bar(hi=0.10)  #: MP vs the exact theory averaged over D_0's direction: largest relative error
#: The accuracy law: the largest binomial z over the Bonferroni bound at the family-wise level (the test's own bound).
ACC_BOUND = Bar(hi=1.0)
ACC_LEVELS, ACC_LEVEL = (0.01, 0.05, 0.1), 0.05  #: family-wise levels of the binomial test of every comparison
PLATEAU_RATIO = Bar(0.9, 1.1)  #: lambda > 1: final L_gen / (L_gen(0) (1 - 1/lambda)), within 10%
#: GD is stable (the paper's full-batch GD regime): lr x the sharpness of L_tr, 2 s_max / d_out, below 2.
GD_STABLE = 2.0

# --- the grokking time --------------------------------------------------------------------------------------------
FORMULA_EPS = (1e-3, 1e-5, 1e-8)  #: the thresholds the formula's ratios are shown at (graded at the paper's, 1e-3)
RATIO_BAND = Bar(0.8, 1.25, log=True)  #: simulated Delta t_grok / formula counted as agreement
NO_DECREASE = Bar(hi=0)  #: "grows with lambda": no decrease of Delta t_grok over lambda

# --- weight decay and several outputs -----------------------------------------------------------------------------
WD_SMALL = 0.1  #: ``gamma d_out / (2 lambda_-)`` <= this: the formula's small-gamma regime (the claims' runs)
WD_BAND = Bar(0.8, 1.25, log=True)  #: final loss / the plateau formula with the teacher's norm
#: The weight-decay claims are judged on this many seeds (data and initialisation): the book's and WD_SEEDS - 1
#: claim-only further seeds of its small-gamma runs (chapter_runs.wd_seed_configs).
WD_SEEDS = 3
#: "a peak near d_out ~ 50": the largest seed-mean Delta t at an interior d_out in [20, 100] over the larger of the
#: two ends' must be at least 1 (the peak is a maximum).
PEAK_RANGE = (20, 100)
PEAK_OVER_ENDS = Bar(lo=1.0)
#: The step cap of the hypothesis shown beside C.dout.peak (the book's own 10^6-step runs; the paper's cap is not
#: stated): a run stopped here records no test crossing after it.
STEP_CAP = 1_000_000

# --- the nets --------------------------------------------------------------------------------------------------------
NET_BAND = Bar(0.8, 1.25, log=True)  #: net crossing times / the rescaled theory's (or the linear net's)
#: The tanh net's near-linear regime: the mean square of the nonlinear part of its output on the test inputs,
#: W2^T (tanh(W1^T x) - W1^T x), per output, over the loss at which the test accuracy reaches erf(sqrt 2), below 1
#: at every record step until the later crossing: the nonlinearity moves the output less than the accuracy
#: threshold can see.
NEAR_LINEAR = 1.0
#: The rebuttal's other activations (ReLU, a tanh gain above 1) "deviate" from the linear prediction: the factor
#: between a net's crossing step and the two-layer linear net's, the larger of train and test, leaves NET_BAND
#: (at least its edge 1.25); moved as NET_BAND's half-width is (its edges 1.118 and 1.5625).
NET_DEVIATION = Bar(lo=NET_BAND.hi)
NET_DEVIATION_BARS = tuple(Bar(lo=b.hi) for b in moved(NET_BAND))

# --- label noise -------------------------------------------------------------------------------------------------------
NOISE_ERROR = Bar(hi=0.10)  #: label noise: largest relative error against a prediction
TUNED_GAP = Bar(hi=0.10)  #: ``|t_train - t_test| / t_test`` at the tuned sigma_n

# --- Paper C's question on Part A's task -------------------------------------------------------------------------
#: At least this many training fractions must grok for every seed (the regime: a shape needs points).
MIN_FRACTIONS = 5
R2_OK = Bar(lo=0.90)  #: R^2 of the formula fit (ln of the per-fraction geometric mean Delta t)
R2_GRID = (Bar(lo=0.80), Bar(lo=0.95))
#: The formula's leave-one-fraction-out RMS error of ln Delta t over the better rival's: at least as good.
LOO_RATIO = Bar(hi=1.0)
