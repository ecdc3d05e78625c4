"""Paper B's bars and levels, each read by one check of :mod:`grok_lib.paper_b.checks` and declared in its claim
(:mod:`grok_lib.paper_b.claims`), so the page's words cannot drift from the check; and the levels of the regime
checks (:mod:`grok_lib.paper_b.regimes`).

A bar that is the paper's own number at the precision it is read at is one bar; a bar the book chose where the
paper gives no number is graded over a grid of bars (:func:`grok_lib.grading.moved`, or explicit bars where moving
it would leave the quantity's range); a level the book had to choose is a grid of choices."""

from __future__ import annotations

import math

from ..grading import Bar, moved

# --- the transition and the kernel window ---------------------------------------------------------------------
#: The transition's onset and end: the first recorded step with test accuracy at or above each (the levels of
#: every timing claim's choice; the central one is the end).
ONSET_ACC, END_ACC = 0.6, 0.9
TRANSITION_LEVELS = (ONSET_ACC, END_ACC)
#: The kernel window on the clock lambda t / ln(alpha): from KERNEL_START (after the first steps) to one of
#: KERNEL_ENDS (central 0.2, the window of the figures and tables: KERNEL_WINDOW).
KERNEL_START, KERNEL_ENDS = 0.02, (0.05, 0.1, 0.2)
KERNEL_WINDOW = (KERNEL_START, KERNEL_ENDS[-1])

# --- Fig. 1a ----------------------------------------------------------------------------------------------------
#: "train acc 100% at once": 100% from this clock on through the kernel window (central 0.05).
FIT_CLOCKS = (0.02, 0.05, 0.1)
TRAIN_FIT = Bar(lo=1.0)
#: An accuracy read off a figure's 0-100% axis is good to about 5 points.
FIGURE_ACC_READING = 0.05
KERNEL_ACC = Bar(0.52 - FIGURE_ACC_READING, 0.52 + FIGURE_ACC_READING)  #: the paper's ~52% (Fig. 1a)
FINAL_ACC = Bar(lo=1.0 - FIGURE_ACC_READING)  #: the paper's 100% (Fig. 1a)
#: Our reading of Fig. 1a: the test accuracy rises between ~1.7e5 and ~3.6e5 steps, ln(alpha) / lambda = 4.85e5 steps.
PAPER_FIG1A_STEPS = (1.7e5, 3.6e5)
PAPER_FIG1A_UNIT = math.log(128.0) / (1e-3 * 0.01)
PAPER_FIG1A_FRACTIONS = tuple(s / PAPER_FIG1A_UNIT for s in PAPER_FIG1A_STEPS)  #: 0.35 and 0.74 of the clock
#: The steps are read off the figure to about half of 1e5 steps: 0.10 of the clock.
FIG1A_STEP_READING = 0.5e5 / PAPER_FIG1A_UNIT
START_FRACTION, END_FRACTION = (Bar(f - FIG1A_STEP_READING, f + FIG1A_STEP_READING) for f in PAPER_FIG1A_FRACTIONS)
NORM_DEV = Bar(hi=0.05)  #: ||theta|| against alpha e^{-lambda t} in the kernel phase (relative)

# --- the theorems -----------------------------------------------------------------------------------------------
WINDOW_SHRINK = Bar(lo=0.0)  #: c shrinks from each alpha to the next (beyond the recording grid): no inversion
LIMIT = Bar(0.9, 1.1)  #: the fraction extrapolated to alpha -> infinity (1 / ln alpha -> 0)
SLOPE = Bar(0.8, 1.25, log=True)  #: a fitted slope over the clock's (ln(alpha) / lambda) slope
#: The slope's bar moved by a quarter of its width either way: halving it would ask the MLPs' runs for less than
#: their own spread over seeds (a sixth to a seventh of a decade).
SLOPE_GRID = moved(SLOPE, 1.25)
SAME_LAMBDA_T = Bar(hi=0.1)  #: lambda t at fixed alpha, the same for every lambda: max / min - 1 over the sweep

# --- kernel and rich regimes, misgrokking -------------------------------------------------------------------------
COS_GAP = Bar(hi=0.1)  #: 1 - cosine of beta with the regime's margin classifier
ACC_MATCH = Bar(hi=0.03)  #: ``|net's test accuracy - the regime's margin classifier's|`` (absolute)
MISGROK_HIGH = Bar(lo=0.9)  #: "starts high" (the paper gives no number)
MISGROK_HIGH_GRID = (Bar(lo=0.8), Bar(lo=0.95))
#: "falls to ~50%": a round number, read to the ten points it is rounded to (as "~1e6 steps" is read to a decade).
MISGROK_FALLS = Bar(0.4, 0.6)

# --- matrix completion --------------------------------------------------------------------------------------------
#: "train loss fit in ~10 steps" at the paper's step 0.1: continuous time ~1, read to a decade either side.
MC_FIT_T = Bar(0.1, 10.0, log=True)
MC_FIT_LEVELS = (1e-1, 1e-2, 1e-3)  #: train MSE at this fraction of its initial value (central 1e-2)
MC_PLATEAU = Bar(lo=0.8)  #: kernel-phase test MSE over the zero predictor's: "no progress" on the unobserved entries
MC_PLATEAU_GRID = (Bar(lo=0.7), Bar(lo=0.9))
MC_PLATEAU_CLOCKS = (0.05, 0.1, 0.2)  #: the clock the kernel plateau is read at (central 0.1)
MC_RECOVERY = Bar(hi=0.1)  #: final test MSE over the kernel plateau
MC_RANK_EXCESS = Bar(hi=0.5)  #: final stable rank of W minus 1 ("rank one")
#: The paper's "~1e6 steps" at lr 0.1, lambda 1e-4, alpha 10 on the clock: 4.3.
MC_PAPER_CLOCK = 1e6 * 0.1 * 1e-4 / math.log(10)
#: "~1e6" is an order of magnitude on a log axis: a decade either side.
MC_CLOCK = Bar(MC_PAPER_CLOCK / 10, MC_PAPER_CLOCK * 10, log=True)
MC_DROP_LEVELS = (0.1, 0.5, 0.9)  #: the test MSE's drop from its plateau that marks "the transition" (central 0.5)
#: Remark 3.13's "small" initialisation noise (std of each entry of U and V, against alpha = 10): the paper names none.
MC_NOISE_LEVELS = (1e-4, 1e-3, 1e-2)
#: "close to the original one": the noisy run's transition clock within 10% of the noise-free run's.
MC_NOISE_CLOCK = Bar(hi=0.1)

# --- the generalisation bounds (Sec. E): samples each margin classifier needs --------------------------------------
#: "needs far more samples": the kernel classifier's smallest n at an accuracy level over the rich one's, at least an
#: order of magnitude (the bounds' own ratio kd / (k^2 ln d) is about 160 at the chapter's d = 4,000, k = 3)
SAMPLE_GAP = Bar(lo=10.0)
#: The test-accuracy levels a classifier "generalises" at (central 0.95): the bounds name none.
SAMPLE_LEVELS = (0.9, 0.95, 0.99)
#: The data seeds of the sample-size sweep (each draws w* and every size's data).
SAMPLE_SEEDS = (0, 1, 2)

# --- modular addition and the bridge ----------------------------------------------------------------------------
ORDER_INVERSIONS = Bar(hi=0)  #: "later for every larger alpha": no inversion in the sweep's order
BRIDGE_ACC = 0.9  #: the bridge's grokking step: first recorded step with test accuracy >= this
BRIDGE_SLOPE = SLOPE  #: measured delay over ln(alpha) / (lambda lr) steps (its grid: SLOPE_GRID)

# --- the regime checks (grok_lib.paper_b.regimes) -----------------------------------------------------------------
#: Full-batch GD is stable along the top direction of the loss's curvature only where lr x sharpness is below this.
GD_STABLE = 2.0
#: Misgrokking's fall has completed when the test accuracy falls by at most this over the last FALL_TAIL of the clock.
FALL_DONE, FALL_TAIL = 0.01, 0.5
