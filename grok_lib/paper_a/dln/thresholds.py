"""Paper A's bars and levels for the deep-linear claims, read by :mod:`grok_lib.paper_a.dln.checks` and declared in
the claims of :mod:`grok_lib.paper_a.dln.claims`."""

from __future__ import annotations

from ...grading import Bar

SCHATTEN_EXCESS = Bar(hi=1e-3)  #: relative excess of the factor penalty over the Schatten power: "balanced"
LEMMA_BOUND = Bar(hi=1.0)  #: L_CE over Lemma 3.1's bound: the lemma's own inequality
LINE_R2 = Bar(lo=0.95)  #: R^2 a line must reach to describe the margin
LINE_R2_GRID = (Bar(lo=0.9), Bar(lo=0.99))
#: Prop. 3.6's one mu: the slowest per-step contraction of the fast window over its median (1: one rate for every
#: step, within a factor of 2 here; a loss falling like 1/t gives t0 / t_end)
CONTRACTION = Bar(lo=0.5)
BETTER_FIT = Bar(lo=0.0)  #: a difference of R^2: the first law fits at least as well as the second
DRIFT_ERROR = Bar(hi=0.1)  #: median relative error of Prop. 4.3's drift
GD_STABLE = Bar(hi=2.0)  #: lr x the sharpness at initialisation: GD follows the gradient flow below it (the regime)
SEPARATION = Bar(lo=2.0)  #: T_rep(eta) / T_cls(floor)
ETA_GRID = (1e-5, 1e-6, 1e-7)  #: the gap level of T_rep in the separation claim (central 1e-6)
#: The smallest train-loss level of the fast clock's fit (levels 1e-1 down to it).
FAST_FLOOR_GRID = (1e-6, 1e-7, 1e-8)
#: The smallest gap level of the slow clock's fit (levels 1e-3 down to it).
SLOW_FLOOR_GRID = (1e-7, 1e-8, 1e-9)

#: Below this a Schatten excess is rounding noise of the run's float64 products (its sign and
#: digits change with the CPU's arithmetic): printed as "< 1e-09", never as digits.
EXCESS_RESOLUTION = 1e-9
