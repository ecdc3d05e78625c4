"""The three two-parameter shapes a grokking time is fitted by against the training fraction f —
Paper C's formula with lambda_eff = c / f, a power law in 1/f and an exponential in f — with R^2
and leave-one-fraction-out errors of ln Delta t (used by :mod:`grok_lib.paper_c.data_ratio`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import optimize

from ..config import need_choice


FORMS = ("formula", "power", "exponential")


def log_g(lam) -> np.ndarray:
    """ln g(lambda), g = ln(1/(1 - sqrt lambda)) / (1 - sqrt lambda)^2: the formula's shape without 1/(2 eta)
    (+inf for lambda >= 1, where the linear theory's grokking time is infinite)."""
    lam = np.asarray(lam, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(np.clip(lam, 0.0, 1.0))
        out = np.log(-np.log1p(-root)) - 2.0 * np.log1p(-root)
    return np.where(lam >= 1.0, np.inf, out)


@dataclass(frozen=True)
class ShapeFit:
    """A fitted shape: ``form`` (FORMS) and its two parameters, ln Delta t = :meth:`log_predict`.

    formula: (ln A, c); power: (ln B, alpha); exponential: (ln B, k). ``r2`` and ``rmse`` are over the
    fitted points, in ln Delta t; ``at_bound`` says the formula's c ended at the edge of its range
    (0 or the smallest fitted fraction), where the fit is degenerate.
    """

    form: str
    params: tuple[float, float]
    r2: float
    rmse: float
    n: int
    at_bound: bool = False

    def log_predict(self, f) -> np.ndarray:
        f = np.asarray(f, dtype=np.float64)
        a, b = self.params
        if self.form == "formula":
            return a + log_g(b / f)
        if self.form == "power":
            return a + b * np.log(1.0 / f)
        if self.form == "exponential":
            return a - b * f
        raise ValueError(f"form must be one of {', '.join(FORMS)}, got {self.form!r}")

    def __call__(self, f) -> np.ndarray:
        """Predicted Delta t (inf where the formula says the fraction never groks)."""
        return np.exp(self.log_predict(f))

    def describe(self) -> str:
        a, b = self.params
        if self.form == "formula":
            return f"Δt = {math.exp(a):.3g}·g({b:.3g}/f)"
        if self.form == "power":
            return f"Δt = {math.exp(a):.3g}·f^-{b:.3g}"
        return f"Δt = {math.exp(a):.3g}·exp(-{b:.3g} f)"


def _r2_rmse(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    resid = y - pred
    sst = float(((y - y.mean()) ** 2).sum())
    sse = float((resid**2).sum())
    return (1.0 - sse / sst if sst > 0 else 1.0), math.sqrt(sse / len(y))


def fit_shape(form: str, fractions, log_dt) -> ShapeFit:
    """Least-squares fit of ``form`` to (f, ln Delta t); at least three points with two distinct fractions."""
    need_choice("form", form, FORMS)
    f, y = np.asarray(fractions, dtype=np.float64), np.asarray(log_dt, dtype=np.float64)
    ok = np.isfinite(f) & np.isfinite(y) & (f > 0)
    f, y = f[ok], y[ok]
    if len(f) < 3 or np.ptp(f) == 0:
        raise ValueError(f"a two-parameter fit needs at least 3 finite points at 2 distinct fractions, got {len(f)}")
    at_bound = False
    if form in ("power", "exponential"):
        x = np.log(1.0 / f) if form == "power" else -f
        slope, intercept = np.polyfit(x, y, 1)
        params = (float(intercept), float(slope))
    else:
        f_min = float(f.min())

        def sse(u: float) -> float:  # u = c / f_min in (0, 1); ln A profiled out
            r = y - log_g(u * f_min / f)
            return float(((r - r.mean()) ** 2).sum())

        # u on a grid dense at both ends (c -> 0 is the f^-1/2 limit, c -> f_min the divergence), then Brent
        grid = np.unique(np.concatenate([np.geomspace(1e-6, 0.5, 120), 1.0 - np.geomspace(0.5, 1e-9, 240)]))
        values = np.array([sse(u) for u in grid])
        i = int(np.argmin(values))
        at_bound = i in (0, len(grid) - 1)
        if not at_bound:
            res = optimize.minimize_scalar(sse, bounds=(grid[i - 1], grid[i + 1]), method="bounded",
                                           options={"xatol": 1e-12})
            u = float(res.x) if res.fun <= values[i] else float(grid[i])
        else:
            u = float(grid[i])
        c = u * f_min
        params = (float(np.mean(y - log_g(c / f))), c)
    fit = ShapeFit(form, params, math.nan, math.nan, len(f), at_bound)
    r2, rmse = _r2_rmse(y, fit.log_predict(f))
    return replace(fit, r2=r2, rmse=rmse)


def leave_one_out(form: str, fractions, log_dt) -> np.ndarray:
    """Held-out errors: for each point, its ln Delta t minus the prediction of ``form`` fitted to the others
    (-inf where a formula fit without it puts the divergence c at or above its fraction)."""
    f, y = np.asarray(fractions, dtype=np.float64), np.asarray(log_dt, dtype=np.float64)
    out = np.empty(len(f))
    for i in range(len(f)):
        keep = np.arange(len(f)) != i
        out[i] = y[i] - float(fit_shape(form, f[keep], y[keep]).log_predict(f[i]))
    return out


def rms(errors) -> float:
    """Root mean square (inf if any error is infinite)."""
    e = np.asarray(errors, dtype=np.float64)
    return float(np.sqrt(np.mean(e**2))) if len(e) else math.nan
