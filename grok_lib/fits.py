"""Least-squares fits used to read clocks off measured curves, with their uncertainty.

Every fit reports slope, intercept, the slope's standard error and R^2, so a notebook
can say both what the exponent is and how well the model describes the points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Fit:
    slope: float
    intercept: float
    slope_se: float  # standard error of the slope (nan with fewer than 3 points)
    r2: float  # coefficient of determination
    n: int  # number of points used

    def __call__(self, x):
        return self.slope * np.asarray(x, dtype=float) + self.intercept


def linear_fit(x, y) -> Fit:
    """Ordinary least squares y = slope * x + intercept over the finite points."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 2 or np.ptp(x) == 0:
        raise ValueError(f"a linear fit needs at least two distinct finite x values, got {len(x)} point(s)")
    xm, ym = x.mean(), y.mean()
    sxx = ((x - xm) ** 2).sum()
    slope = float(((x - xm) * (y - ym)).sum() / sxx)
    intercept = float(ym - slope * xm)
    resid = y - (slope * x + intercept)
    sst = ((y - ym) ** 2).sum()
    r2 = float(1 - (resid**2).sum() / sst) if sst > 0 else 1.0
    se = float(math.sqrt((resid**2).sum() / (len(x) - 2) / sxx)) if len(x) > 2 else math.nan
    return Fit(slope, intercept, se, r2, len(x))


def power_law_fit(x, y) -> Fit:
    """y = C x^slope, fitted as a line in (ln x, ln y) over the positive finite points."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = (x > 0) & (y > 0) & np.isfinite(x) & np.isfinite(y)
    return linear_fit(np.log(x[ok]), np.log(y[ok]))


def theta_from_trep_exponent(slope: float) -> float:
    """The KL exponent theta implied by T_rep(eta) ~ (1/eta)^slope (Paper A, Thm 4.9: slope = 2 theta - 1)."""
    return (1.0 + slope) / 2.0


def theta_from_gap_exponent(slope: float) -> float:
    """The KL exponent theta implied by Delta(t) ~ t^slope (Thm 4.8: slope = -1 / (2 theta - 1))."""
    return 0.5 * (1.0 - 1.0 / slope) if slope != 0 else math.inf
