"""Paper A's thresholds for the deep-linear claims: the numbers each verdict is judged by, read by
:mod:`grok_lib.paper_a.dln.checks`; the tolerance texts of :mod:`grok_lib.paper_a.dln.claims` are
formatted from them."""

from __future__ import annotations

SCHATTEN_EXCESS = 1e-3  #: relative excess of the factor penalty over the Schatten power: "balanced"
LINE_R2 = 0.95  #: R^2 a fit must reach to count as holding
DRIFT_ERROR = 0.1  #: median relative error of Prop. 4.3's drift
SEPARATION = 2  #: T_rep(1e-6) / T_cls(floor)

#: Below this a Schatten excess is rounding noise of the run's float64 products (its sign and
#: digits change with the CPU's arithmetic): printed as "< 1e-09", never as digits.
EXCESS_RESOLUTION = 1e-9
