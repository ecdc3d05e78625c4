"""Reading Paper B's transition off histories: when it starts and ends, on the theory's clock.

The clock is lambda t / ln(alpha) with t the continuous time (the sum of the step sizes:
the history's ``t`` metric, else steps x lr); the theorem puts the transition in the
window (1 +- c) ln(alpha) / lambda, i.e. between 1 - c and 1 + c on this clock, for every
c in (0, 1) as alpha -> infinity.

Thresholds are arguments with the paper-B defaults below; nothing here trains.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..history import History

#: Test accuracy at which a classification transition starts / ends.
START_ACC, END_ACC = 0.6, 0.9
#: For regression (matrix completion): the transition starts / ends when the test MSE has
#: fallen to these fractions of its kernel-regime plateau (read at clock PLATEAU_CLOCK).
START_DROP, END_DROP, PLATEAU_CLOCK = 0.9, 0.1, 0.1


def continuous_time(history: History) -> np.ndarray:
    """t at every recorded step: the ``t`` metric, else steps x lr."""
    if "t" in history.metrics:
        return np.asarray(history["t"], dtype=float)
    return history.steps * float(history.cfg.lr)


def clock_unit(config) -> float:
    """ln(alpha) / lambda of a run's config (``h.cfg``), the theory's transition time (nan when alpha <= 1 or
    lambda = 0)."""
    alpha, lam = float(config.alpha), float(config.weight_decay)
    return math.log(alpha) / lam if alpha > 1 and lam > 0 else math.nan


def clock(history: History) -> np.ndarray:
    """lambda t / ln(alpha) at every recorded step (the x axis of the collapse plots)."""
    return continuous_time(history) / clock_unit(history.cfg)


@dataclass(frozen=True)
class Crossing:
    step: int  # first recorded step that crossed
    t: float  # its continuous time
    fraction: float  # t / (ln(alpha) / lambda)


def crossing_step(crossing: Crossing | None) -> float:
    """The step of a crossing; NaN where there is none (the metric never crosses)."""
    return float(crossing.step) if crossing else math.nan


def first_crossing(history: History, metric: str, threshold: float, above: bool = True,
                   after_step: int = 0) -> Crossing | None:
    """The first recorded step >= ``after_step`` with metric >= threshold (``above``) or <= threshold; None if never."""
    values = np.asarray(history[metric], dtype=float)
    hit = (values >= threshold) if above else (values <= threshold)
    hit &= history.steps >= after_step
    if not hit.any():
        return None
    i = int(np.argmax(hit))
    t = float(continuous_time(history)[i])
    return Crossing(step=int(history.steps[i]), t=t, fraction=t / clock_unit(history.cfg))


@dataclass(frozen=True)
class Transition:
    start: Crossing | None
    end: Crossing | None

    @property
    def fractions(self) -> tuple[float, float]:
        """(start, end) on the clock lambda t / ln(alpha); nan where it never crossed."""
        return (self.start.fraction if self.start else math.nan, self.end.fraction if self.end else math.nan)


def accuracy_transition(history: History, start: float = START_ACC, end: float = END_ACC,
                        metric: str = "test_acc") -> Transition:
    """First steps with test accuracy >= ``start`` and >= ``end`` (classification runs)."""
    return Transition(first_crossing(history, metric, start), first_crossing(history, metric, end))


def plateau(history: History, metric: str = "test_mse", at_clock: float = PLATEAU_CLOCK) -> float:
    """The metric at the recorded step whose clock is nearest ``at_clock`` (the kernel-regime value)."""
    i = int(np.argmin(np.abs(clock(history) - at_clock)))
    return float(history[metric][i])


def drop_transition(history: History, metric: str = "test_mse", start: float = START_DROP,
                    end: float = END_DROP, at_clock: float = PLATEAU_CLOCK) -> Transition:
    """First steps after the plateau where ``metric`` <= start x plateau and <= end x plateau (regression runs)."""
    ref = plateau(history, metric, at_clock)
    after = int(history.steps[int(np.argmin(np.abs(clock(history) - at_clock)))])
    return Transition(first_crossing(history, metric, start * ref, above=False, after_step=after),
                      first_crossing(history, metric, end * ref, above=False, after_step=after))


@dataclass(frozen=True)
class Window:
    c: float  # smallest c with every [start, end] inside [1 - c, 1 + c] (nan if a run never finished)
    c_per_run: tuple[float, ...]
    center: float  # mean of the runs' (start + end) / 2
    center_se: float  # its standard error (nan for one run)
    half_width: float  # mean of the runs' (end - start) / 2
    half_width_se: float


def window_fit(starts: Sequence[float], ends: Sequence[float]) -> Window:
    """The window (1 +- c) ln(alpha) / lambda that holds the runs' transitions, and a free-centre summary.

    ``starts`` and ``ends`` are fractions of ln(alpha) / lambda (one per run).
    """
    starts, ends = np.asarray(starts, dtype=float), np.asarray(ends, dtype=float)
    if starts.shape != ends.shape or starts.size == 0:
        raise ValueError(f"window_fit needs equally many starts and ends (>= 1), got {starts.size} and {ends.size}")
    per_run = np.maximum(1 - starts, ends - 1)
    mids, halves = (starts + ends) / 2, (ends - starts) / 2
    (center, center_se, _), (half, half_se, _) = mean_se(mids), mean_se(halves)
    c = float(per_run.max()) if np.all(np.isfinite(per_run)) else math.nan
    return Window(c=c, c_per_run=tuple(float(x) for x in per_run), center=center, center_se=center_se,
                  half_width=half, half_width_se=half_se)


@dataclass(frozen=True)
class LineFit:
    slope: float
    intercept: float
    slope_se: float  # standard errors from the least-squares covariance (nan with 2 points)
    intercept_se: float
    r2: float
    n: int

    def __call__(self, x):
        return self.slope * np.asarray(x, dtype=float) + self.intercept


def try_fit(fit, *args):
    """``fit(*args)``, or None where the runs give fewer than two points to fit (a short rerun)."""
    try:
        return fit(*args)
    except ValueError:
        return None


def line_fit(x, y) -> LineFit:
    """Least squares y = slope x + intercept over the finite points, with standard errors (scipy linregress)."""
    from scipy.stats import linregress

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size < 2 or np.ptp(x) == 0:
        raise ValueError(f"a line fit needs at least two distinct finite x values, got {x.size} point(s)")
    res = linregress(x, y)
    se = (float(res.stderr), float(res.intercept_stderr)) if x.size > 2 else (math.nan, math.nan)
    return LineFit(float(res.slope), float(res.intercept), se[0], se[1], float(res.rvalue**2), int(x.size))


def transition_times(histories: Sequence[History], which: str = "end", kind: str = "accuracy") -> np.ndarray:
    """Continuous transition time per history (nan if it never crossed); ``kind`` accuracy | drop."""
    need = {"start", "end"}
    if which not in need:
        raise ValueError(f"which must be start or end, got {which!r}")
    out = []
    for h in histories:
        tr = accuracy_transition(h) if kind == "accuracy" else drop_transition(h)
        crossing = getattr(tr, which)
        out.append(crossing.t if crossing else math.nan)
    return np.asarray(out)


def fit_vs_log_alpha(histories: Sequence[History], which: str = "end") -> LineFit:
    """Transition time t vs ln(alpha) at one lambda: the theory's slope is 1 / lambda (so slope x lambda ~ 1)."""
    lams = {float(h.cfg.weight_decay) for h in histories}
    if len(lams) != 1:
        raise ValueError(f"fit_vs_log_alpha needs runs with one weight decay, got {sorted(lams)}")
    return line_fit([math.log(h.cfg.alpha) for h in histories], transition_times(histories, which))


def fit_vs_inverse_lambda(histories: Sequence[History], which: str = "end") -> LineFit:
    """Transition time t vs 1 / lambda at one alpha: the theory's slope is ln(alpha) (so slope / ln(alpha) ~ 1)."""
    alphas = {float(h.cfg.alpha) for h in histories}
    if len(alphas) != 1:
        raise ValueError(f"fit_vs_inverse_lambda needs runs with one alpha, got {sorted(alphas)}")
    return line_fit([1.0 / h.cfg.weight_decay for h in histories], transition_times(histories, which))


def norm_deviation(history: History, up_to_clock: float = 0.5) -> float:
    """Largest abs(||theta|| - alpha e^{-lambda t}) / (alpha e^{-lambda t}) over recorded steps with clock <= up_to_clock."""
    t = continuous_time(history)
    pred = float(history.cfg.alpha) * np.exp(-float(history.cfg.weight_decay) * t)
    keep = clock(history) <= up_to_clock
    return float(np.max(np.abs(history["norm"][keep] - pred[keep]) / pred[keep]))


def value_in_clock(history: History, metric: str, lo: float, hi: float, reduce=np.median) -> float:
    """``reduce`` (default median) of ``metric`` over the recorded steps with lo <= clock <= hi (nan if none)."""
    x = clock(history)
    keep = (x >= lo) & (x <= hi)
    return float(reduce(history[metric][keep])) if keep.any() else math.nan


def fraction_limits(histories: Sequence[History]) -> tuple[LineFit, LineFit]:
    """Lines of the start and end fractions against 1 / ln(alpha) over an alpha sweep (one lambda, alpha > 1).

    If lambda t = ln(alpha) - C at the transition (a constant offset, which the slope of t against
    ln(alpha) near 1 / lambda says), the fraction is 1 - C / ln(alpha): linear in 1 / ln(alpha), and
    the intercept is its limit for alpha -> infinity, where the theorems put it at 1.
    """
    x = [1.0 / math.log(float(h.cfg.alpha)) for h in histories]
    fr = [accuracy_transition(h).fractions for h in histories]
    return line_fit(x, [f[0] for f in fr]), line_fit(x, [f[1] for f in fr])


@dataclass(frozen=True)
class Delay:
    alpha: float
    weight_decay: float
    step: float  # first recorded step with test accuracy >= the level (nan if never)
    reference: float  # the same for the alpha = 1 run (the smallest alpha) at this lambda
    predicted: float  # ln(alpha) / (lambda lr) in steps

    @property
    def delay(self) -> float:
        return self.step - self.reference


def delays(histories: Sequence[History], level: float = END_ACC, metric: str = "test_acc") -> list[Delay]:
    """Per run of an alpha x lambda sweep: its grokking step, that of the smallest alpha at its lambda, and
    the shrinking clock's prediction ln(alpha) / (lambda lr) (steps) of the difference."""
    def step_of(h):
        c = first_crossing(h, metric, level)
        return float(c.step) if c else math.nan

    out = []
    for lam in sorted({float(h.cfg.weight_decay) for h in histories}):
        runs = sorted((h for h in histories if float(h.cfg.weight_decay) == lam), key=lambda h: h.cfg.alpha)
        ref = step_of(runs[0])
        for h in runs:
            alpha, lr = float(h.cfg.alpha), float(h.cfg.lr)
            pred = math.log(alpha) / (lam * lr) if lam > 0 else math.nan
            out.append(Delay(alpha, lam, step_of(h), ref, pred))
    return out


def slope_through_origin(x, y) -> float:
    """sum(x y) / sum(x^2) over the finite points (nan if none)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    return float((x[ok] @ y[ok]) / (x[ok] @ x[ok])) if ok.any() and (x[ok] @ x[ok]) > 0 else math.nan


# --- how precisely a crossing is known (the window's c) -----------------------------------------------------------
def crossing_interval(history: History, crossing: Crossing | None) -> tuple[float, float]:
    """(continuous time of the recorded step before ``crossing``, its own): the crossing happened in between,
    which is all the recording grid says (nan, nan for no crossing; (t, t) at the first recorded step)."""
    if crossing is None:
        return math.nan, math.nan
    t = continuous_time(history)
    i = int(np.searchsorted(history.steps, crossing.step))
    return float(t[max(i - 1, 0)]), float(t[i])


def fraction_interval(history: History, crossing: Crossing | None) -> tuple[float, float]:
    """:func:`crossing_interval` on the clock lambda t / ln(alpha)."""
    lo, hi = crossing_interval(history, crossing)
    unit = clock_unit(history.cfg)
    return lo / unit, hi / unit


def mean_se(values) -> tuple[float, float, int]:
    """Mean of the finite values, its standard error (sample sd / sqrt(n); nan for fewer than two), and n."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return math.nan, math.nan, 0
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else math.nan, int(v.size)


def window_c(history: History) -> tuple[float, float, float]:
    """The run's c of the window (1 +- c) ln(alpha) / lambda that holds its transition, max(1 - start, end - 1), and
    the range of c the recording grid allows (each crossing known only between two recorded steps); nan when the
    transition does not end within the run."""
    tr = accuracy_transition(history)
    (s_lo, s_hi), (e_lo, e_hi) = fraction_interval(history, tr.start), fraction_interval(history, tr.end)
    s, e = tr.fractions
    if not all(math.isfinite(v) for v in (s, e, s_lo, e_lo)):  # Python's max would drop a nan
        return math.nan, math.nan, math.nan
    return max(1 - s, e - 1), max(1 - s_hi, e_lo - 1), max(1 - s_lo, e_hi - 1)
