"""What several of Part B's chapters' claims share: the paper's source (the authors' rebuttal, quoted), the transition's
levels and the kernel window every timing claim reads, the slope bar and its grid, and the levels the regime checks
share with a chapter. A bar or level one chapter alone reads is declared in that chapter's module, beside its claim.

A bar that is the paper's own number at the precision it is read at is one bar; a bar the book chose where the
paper gives no number is graded over a grid of bars (:func:`grok_lib.grading.moved`, or explicit bars where moving
it would leave the quantity's range); a level the book had to choose is a grid of choices."""

from __future__ import annotations

from ..grading import Bar, Choice, moved


#: The transition's onset and end: the first recorded step with test accuracy at or above each (the levels of
#: every timing claim's choice; the central one is the end).
ONSET_ACC, END_ACC = 0.6, 0.9


TRANSITION_LEVELS = (ONSET_ACC, END_ACC)


#: The kernel window on the clock lambda t / ln(alpha): from KERNEL_START (after the first steps) to one of
#: KERNEL_ENDS (central 0.2, the window of the figures and tables: KERNEL_WINDOW).
KERNEL_START, KERNEL_ENDS = 0.02, (0.05, 0.1, 0.2)


KERNEL_WINDOW = (KERNEL_START, KERNEL_ENDS[-1])


SLOPE = Bar(0.8, 1.25, log=True)  #: a fitted slope over the clock's (ln(alpha) / lambda) slope


#: The slope's bar moved by a quarter of its width either way: halving it would ask the MLPs' runs for less than
#: their own spread over seeds (a sixth to a seventh of a decade).
SLOPE_GRID = moved(SLOPE, 1.25)


SAME_LAMBDA_T = Bar(hi=0.1)  #: lambda t at fixed alpha, the same for every lambda: max / min - 1 over the sweep


MC_DROP_LEVELS = (0.1, 0.5, 0.9)  #: the test MSE's drop from its plateau that marks "the transition" (central 0.5)


ORDER_INVERSIONS = Bar(hi=0)  #: "later for every larger alpha": no inversion in the sweep's order


BRIDGE_ACC = 0.9  #: the bridge's grokking step: first recorded step with test accuracy >= this


#: The rebuttal's words (``shared/seeds/dichotomy_implicit_biases_rebuttal.txt``).
REBUTTAL = "the authors' rebuttal"


CLOCK_QUOTE = (r"This is consistent with our theory, which predicts the grokking time to be scaled with "
               r"$\frac{1}{\lambda}$ and $\log(\text{init scale})$")


KERNEL_WINDOW_END = Choice("kernel window's end (λt / ln α; from 0.02)", KERNEL_ENDS[-1], KERNEL_ENDS,
                           "where the kernel phase is read: the paper gives no window")
