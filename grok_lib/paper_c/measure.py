"""What Part C reads off its runs: crossing steps, grokking times, relative errors, plateaus, peaks; the windows
the claims are read in and the largest errors there, the accuracy law's deviations, the ratios to the grokking-time
formula, the small-gamma regime of weight decay and the seed means over d_out, and the levels the losses are read
at (the paper's eps, the window levels, the small-gamma bound, the step cap), which several chapters' claims and
checks share. The chapters (:mod:`grok_lib.paper_c.chapters`) read these; this module imports no chapter.

Grokking time, as the paper reads it: t_train(eps) and t_test(eps) are the first steps at which
the training and the test accuracy (fraction of samples with ||error||^2 <= eps) reach
GROK_ACC = erf(sqrt 2) ~ 95.45%, the accuracy of a Gaussian error whose loss is eps/4 (d_out = 1);
Delta t_grok(eps) = t_test(eps) - t_train(eps). The trainer measures both crossings for every
threshold of the run (``history.meta["crossings"]``), on the exact state between record steps for
the linear student; :func:`grid_crossing` reads them off recorded curves instead.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..history import History
from . import theory
from .simulate import acc_name
from .theory import GROK_ACC, grok_time_formula

# --- how the losses are read (the claims' windows and levels) ------------------------------------
LOSS_FLOOR = 1e-10  #: relative errors are read where the reference loss is >= this
PAPER_EPS = 1e-3  #: the paper's accuracy threshold eps
#: The loss level down to which a curve is compared with its theory (the book's choice: the range where the
#: paper's accuracy figures move): eps/2, eps/4 (the paper's grokking level, the central choice) and eps/8, where
#: the erf law puts the accuracy at 84%, 95.4% and 99.5%.
WINDOW_LEVELS = (PAPER_EPS / 2, PAPER_EPS / 4, PAPER_EPS / 8)
WINDOW_LEVEL = PAPER_EPS / 4
FORMULA_EPS = (1e-3, 1e-5, 1e-8)  #: the thresholds the formula's ratios are shown at (graded at the paper's, 1e-3)
WD_SMALL = 0.1  #: ``gamma d_out / (2 lambda_-)`` <= this: the formula's small-gamma regime (the claims' runs)
#: The step cap of the hypothesis shown beside C.dout.peak (the book's own 10^6-step runs; the paper's cap is not
#: stated): a run stopped here records no test crossing after it.
STEP_CAP = 1_000_000

__all__ = ["LOSS_FLOOR", "PAPER_EPS", "WINDOW_LEVELS", "WINDOW_LEVEL", "FORMULA_EPS", "WD_SMALL", "STEP_CAP",
           "GROK_ACC", "crossing", "measured_eps", "grokking_time", "theory_grokking_time", "grid_crossing", "relative_error",
           "max_relative_error", "window", "plateau", "formula_ratio", "seed_mean", "peak", "acc_curve",
           "decided_window", "isotropic_losses", "binomial_z", "capped_grokking_time", "second_layer_gram",
           "rescaled_clock_crossing", "formula_ratios", "decided", "until_saturation", "worst_in", "worst_of", "last_step",
           "accuracy_law_deviations", "wd_small_at", "wd_small", "d_out_seed_means", "capped_d_out_seed_means",
           "peak_over_ends", "tanh_nonlinearity"]


def crossing(history: History, eps: float | None = None) -> dict:
    """The crossing row of ``eps`` (None: the run's eps): t_train, t_test (steps, None if never) and,
    where the trainer computed them, theory_t_*/mp_t_* (continuous time)."""
    eps = history.cfg.eps if eps is None else eps
    for row in history.meta["crossings"]:
        if math.isclose(row["eps"], eps, rel_tol=1e-9):
            return row
    known = ", ".join(f"{r['eps']:g}" for r in history.meta["crossings"])
    raise KeyError(f"eps={eps:g} was not measured in this run (measured: {known})")


def gain(history: History) -> float:
    """The tanh net's gain g of a run (1 where its config predates the field or leaves it at its default)."""
    return float(getattr(history.cfg, "gain", 1.0))


def deviation_factor(net: History, linear: History) -> float:
    """The factor (>= 1) between ``net``'s crossing step and ``linear``'s, the larger of train and test; a net that
    never crosses is counted at its run's last step + 1, so its factor is a lower bound. NaN where ``linear`` does
    not cross, or where the net neither crosses nor runs as long as ``linear`` took (the run says nothing then)."""
    rows = crossing(net), crossing(linear)
    end = int(net.steps[-1]) + 1
    factors = []
    for w in ("train", "test"):
        t_net, t_lin = rows[0][f"t_{w}"], rows[1][f"t_{w}"]
        if t_lin is None or not t_lin > 0 or (t_net is None and end < t_lin):
            return math.nan
        ratio = (end if t_net is None else t_net) / t_lin
        factors.append(max(ratio, 1 / ratio))
    return max(factors)


def measured_eps(history: History, candidates: Sequence[float]) -> list[float]:
    """Those of ``candidates`` at which ``history`` measured its crossings (small profiles measure fewer)."""
    measured = [row["eps"] for row in history.meta["crossings"]]
    return [e for e in candidates if any(math.isclose(e, m, rel_tol=1e-9) for m in measured)]


def _diff(row: dict, prefix: str) -> float:
    a, b = row.get(f"{prefix}t_train"), row.get(f"{prefix}t_test")
    return math.nan if a is None or b is None else float(b) - float(a)


def grokking_time(history: History, eps: float | None = None) -> float:
    """Delta t_grok(eps) = t_test - t_train of the simulation (nan if an accuracy never gets there)."""
    return _diff(crossing(history, eps), "")


def theory_grokking_time(history: History, eps: float | None = None, which: str = "theory") -> float:
    """The same from the run's theory: ``theory`` (exact gradient flow on its spectrum) or ``mp``."""
    return _diff(crossing(history, eps), f"{which}_")


def acc_curve(history: History, which: str, eps: float | None = None) -> np.ndarray:
    """The recorded ``which`` (train | test) accuracy at threshold ``eps`` (None: the run's eps)."""
    main = history.cfg.eps
    return history[acc_name(which, main if eps is None else eps, main)]


def grid_crossing(steps, values, level: float = GROK_ACC) -> float:
    """The first recorded step whose value is >= level (nan if none): a crossing on the record grid."""
    above = np.nonzero(np.asarray(values) >= level)[0]
    return math.nan if len(above) == 0 else float(np.asarray(steps)[above[0]])


def relative_error(measured, reference) -> np.ndarray:
    """abs(measured - reference) / abs(reference), elementwise."""
    measured, reference = np.asarray(measured, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.abs(measured - reference) / np.abs(reference)


def window(reference, floor: float, t=None, t_max: float = math.inf) -> np.ndarray:
    """The record steps where a reference loss is >= floor (relative errors of numbers far below
    any threshold say nothing) and t <= t_max."""
    reference = np.asarray(reference)
    ok = reference >= floor
    if t is not None:
        ok &= np.asarray(t) <= t_max
    return ok


def max_relative_error(measured, reference, floor: float, t=None, t_max: float = math.inf) -> float:
    """The largest relative error over :func:`window` (nan if the window is empty)."""
    ok = window(reference, floor, t, t_max)
    return float(relative_error(np.asarray(measured)[ok], np.asarray(reference)[ok]).max()) if ok.any() else math.nan


def plateau(history: History, name: str, last_fraction: float = 0.1) -> float:
    """The median of ``name`` over the last ``last_fraction`` of the run's log-step range (a plateau's level)."""
    steps = history.steps.astype(np.float64)
    last = steps[-1]
    lo = math.exp(math.log(max(last, 1.0)) * (1 - last_fraction))
    sel = steps >= lo
    return float(np.median(history[name][sel]))


def formula_ratio(history: History, eps: float) -> float:
    """Simulated Delta t_grok(eps) over the paper's formula at the run's realised lambda and d_out."""
    c = history.cfg
    return grokking_time(history, eps) / grok_time_formula(history.meta["lam_eff"], c.eta, c.d_out)


def formula_ratios(histories: Sequence[History], eps_list=FORMULA_EPS) -> dict[float, list[float]]:
    """Simulated Delta t_grok / formula per eps, in the order of ``histories`` (lambda < 1 runs)."""
    return {e: [formula_ratio(h, e) for h in histories] for e in eps_list}


def seed_mean(values) -> tuple[float, float]:
    """(mean, standard error of the mean) of finite values (sem nan for fewer than 2)."""
    v = np.asarray([x for x in values if x is not None and math.isfinite(x)], dtype=np.float64)
    if len(v) == 0:
        return math.nan, math.nan
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.nan


def peak(x: Sequence[float], y: Sequence[float]) -> tuple[float, bool]:
    """(x at the maximum of y, whether that maximum is interior, i.e. not at either end of x)."""
    y = np.asarray(y, dtype=np.float64)
    i = int(np.nanargmax(y))
    return float(np.asarray(x)[i]), 0 < i < len(y) - 1


# --- windows and references the re-graded claims read -----------------------------------------------------------
def decided_window(train_loss, gen_loss, level: float) -> np.ndarray:
    """The record steps before both accuracies are decided: before the later of the first steps at which each loss
    that ever falls below ``level`` does so (a loss that never does, such as L_gen on its plateau for lambda > 1,
    does not extend the window); every step if neither falls below it. At ``level`` = eps/4 this is the range the
    paper's accuracy figures show moving."""
    ends = [int(below[0]) for x in (train_loss, gen_loss) if len(below := np.nonzero(np.asarray(x) < level)[0])]
    ok = np.zeros(len(np.asarray(gen_loss)), bool)
    ok[: max(ends) if ends else len(ok)] = True
    return ok


def decided(h: History, level: float = WINDOW_LEVEL, train_ref: str = "theory_train_loss",
            gen_ref: str = "theory_gen_loss") -> np.ndarray:
    """The record steps of ``h`` before both reference losses have fallen to ``level`` (central: the paper's
    eps / 4, where its accuracies are decided): the range the paper's figures show (:func:`decided_window`)."""
    return decided_window(h[train_ref], h[gen_ref], level)


def until_saturation(gen_loss, level: float = WINDOW_LEVEL) -> np.ndarray:
    """The record steps before ``gen_loss`` first falls below ``level`` (central: the paper's eps / 4, where the
    test accuracy saturates): the range a figure at that eps shows the theory on."""
    gen = np.asarray(gen_loss)
    below = np.nonzero(gen < level)[0]
    ok = np.zeros(len(gen), bool)
    ok[: below[0] if len(below) else len(gen)] = True
    return ok


def worst_in(measured, reference, ok) -> float:
    """The largest relative error of ``measured`` against ``reference`` over the steps ``ok`` where the reference
    is at least LOSS_FLOOR (nan if there are none)."""
    reference = np.asarray(reference)
    sel = ok & (reference >= LOSS_FLOOR)
    return float(relative_error(np.asarray(measured)[sel], reference[sel]).max()) if sel.any() else math.nan


def worst_of(values: Sequence[float]) -> float:
    """The largest of ``values``, nan if any is nan (an empty window counts against a claim, not for it)."""
    return math.nan if any(not math.isfinite(v) for v in values) else max(values, default=math.nan)


def last_step(h: History, ok) -> str:
    """The last record step of the window ``ok`` ("none" for an empty window)."""
    return str(int(h.steps[ok][-1])) if np.any(ok) else "none"


def isotropic_losses(history: History) -> tuple[np.ndarray, np.ndarray]:
    """(L_tr, L_gen) of the exact gradient-flow theory averaged over the direction of D_0 (its norm kept), on the
    run's record steps: for an isotropic D_0 each eigenmode of the sample covariance carries l0 / d_in, so
    L_tr = l0 mean_i[s_i e^{-4 eta' s_i t}], L_gen = l0 mean_i[e^{-4 eta' s_i t}], eta' = eta / d_out. This is the
    MP integral with the run's own sample spectrum in place of the MP law (gamma = 0, no label noise)."""
    s = np.asarray(history.snapshots["eigenvalues"][0], dtype=np.float64)
    c = history.cfg
    decay = np.exp(-4 * (c.eta / c.d_out) * np.outer(s, history.steps.astype(np.float64)))
    l0 = history.meta["l0"]
    return l0 * (s[:, None] * decay).mean(axis=0), l0 * decay.mean(axis=0)


def binomial_z(measured_acc, law_acc, n: int) -> np.ndarray:
    """``|measured - law|`` in binomial standard deviations sqrt(p (1 - p) / n) of an accuracy counted on n samples,
    p = the law's accuracy kept within [1/n, 1 - 1/n] (so that one sample off at p = 0 or 1 is about 1 sd)."""
    p = np.clip(np.asarray(law_acc, dtype=np.float64), 1.0 / n, 1.0 - 1.0 / n)
    return np.abs(np.asarray(measured_acc) - np.asarray(law_acc)) / np.sqrt(p * (1 - p) / n)


def accuracy_law_deviations(h: History) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """train | test -> (``|simulated - law|``, binomial z) per record step, the law at the simulated loss the claim
    names: L_tr on the training samples, L_gen = ||D||^2 / d_out for fresh test samples (d_out = 1)."""
    eps, out = h.cfg.eps, {}
    for which, loss, n in (("train", "train_loss", h.meta["n_train"]), ("test", "gen_loss", h.cfg.n_test)):
        law = theory.accuracy(h[loss], eps, h.cfg.d_out)
        out[which] = (np.abs(h[f"{which}_acc"] - law), binomial_z(h[f"{which}_acc"], law, n))
    return out


def capped_grokking_time(t_train, t_test, cap: int) -> tuple[float, bool]:
    """(Delta t, censored) as a run stopped after ``cap`` steps would record it: t_test - t_train if the test
    accuracy crossed by then, else cap - t_train with censored = True (nan if the training accuracy had not
    crossed either)."""
    if t_train is None or t_train > cap:
        return math.nan, True
    if t_test is None or t_test > cap:
        return float(cap - t_train), True
    return float(t_test - t_train), False


# --- weight decay's small-gamma regime and the seed means over d_out ---------------------------------------------
def wd_small_at(lam_eff: float, gamma: float, d_out: int) -> bool:
    """Whether (lambda_eff, gamma, d_out) is in the formula's small-gamma regime: 0 < gamma d_out / (2 lambda_min)
    <= WD_SMALL (without weight decay the losses have no plateau to compare)."""
    return 0 < gamma * d_out / (2 * theory.mp_edges(lam_eff)[0]) <= WD_SMALL


def wd_small(h: History) -> bool:
    """Whether a run is in the formula's small-gamma regime (:func:`wd_small_at`)."""
    return wd_small_at(h.meta["lam_eff"], h.cfg.gamma, h.cfg.d_out)


def d_out_seed_means(histories: Sequence[History], eps: float | None = None) -> dict[int, tuple]:
    """d_out -> (mean Delta t, sem, mean Delta t / d_out, sem, mean theory Delta t) over the seeds."""
    by: dict[int, list[History]] = {}
    for h in histories:
        by.setdefault(h.cfg.d_out, []).append(h)
    out = {}
    for d in sorted(by):
        dts = [grokking_time(h, eps) for h in by[d]]
        th = [theory_grokking_time(h, eps) for h in by[d]]
        m, se = seed_mean(dts)
        out[d] = (m, se, m / d, se / d, seed_mean(th)[0])
    return out


def capped_d_out_seed_means(histories: Sequence[History], cap: int = STEP_CAP) -> dict[int, tuple]:
    """d_out -> (mean t_train, mean t_test, mean Delta t, mean Delta t as a run stopped at ``cap`` records it,
    how many seeds are censored there) over the seeds (:func:`capped_grokking_time`)."""
    by: dict[int, list[History]] = {}
    for h in histories:
        by.setdefault(h.cfg.d_out, []).append(h)
    out = {}
    for d in sorted(by):
        rows = [crossing(h) for h in by[d]]
        capped = [capped_grokking_time(r["t_train"], r["t_test"], cap) for r in rows]
        out[d] = (seed_mean([r["t_train"] for r in rows])[0], seed_mean([r["t_test"] for r in rows])[0],
                  seed_mean([grokking_time(h) for h in by[d]])[0],
                  seed_mean([dt for dt, _ in capped])[0], sum(c for _, c in capped))
    return out


def peak_over_ends(ds: Sequence[int], values: Sequence[float], lo: float, hi: float) -> float:
    """The largest of ``values`` at an interior d_out of ``ds`` within [lo, hi], over the larger of the values at
    the two ends of ``ds``: at least 1 where the curve has a maximum there (nan where no interior d_out lies in the
    range)."""
    inner = [v for d, v in zip(ds[1:-1], values[1:-1]) if lo <= d <= hi]
    if not inner or len(ds) < 3:
        return math.nan
    return max(inner) / max(values[0], values[-1])


# --- the two-layer linear net's second layer ----------------------------------------------------------------------
def second_layer_gram(config, t_max: int) -> np.ndarray:
    """The mean eigenvalue of W2^T W2 at steps 0 ... t_max of the two-layer linear net of ``config``, retraced with
    the trainer's own data, initialisation and update (:mod:`.simulate`, in the eigenbasis; weight decay included).
    The paper's rescaling eta -> eta / (2 d_out^2) assumes W2^T W2 = I / (2 d_out), its value at initialisation."""
    from . import samples, simulate

    w1, w2 = samples.init_net(config)
    rotated = samples.Rotated(config, samples.make_data(config), w1 @ w2)
    return np.asarray([float(np.trace(w2.T @ w2)) / config.d_out
                       for _, (_, w2, _) in zip(range(t_max + 1), simulate.two_layer_linear_steps(config, rotated))])


def rescaled_clock_crossing(gram_mean, d_out: int, theory_t: float) -> float:
    """The step at which the two-layer net reaches the theory's crossing time ``theory_t`` if its clock runs at the
    measured W2^T W2 instead of its initial I / (2 d_out): the first t with sum_{u < t} 2 d_out gram(u) >= theory_t
    (nan if not within the traced steps)."""
    clock = np.concatenate([[0.0], np.cumsum(2 * d_out * np.asarray(gram_mean))])
    reached = np.nonzero(clock >= theory_t)[0]
    return float(reached[0]) if len(reached) else math.nan


# --- the tanh net's nonlinearity -------------------------------------------------------------------------------------
def tanh_nonlinearity(config, t_max: int, at_steps: Sequence[int]) -> dict[str, np.ndarray]:
    """The tanh net of ``config`` retraced to step ``t_max`` with the trainer's own data, initialisation and update
    (the GD of ``grok_lib.paper_c.simulate._net_gd``, copied here: the trainer's module keys the stored runs), and
    at each of ``at_steps`` (<= t_max) how far it is from linear:

    - ``nonlinear``: the mean square per output of the nonlinear part of its output on the test inputs,
      W2^T (tanh(W1^T x) - W1^T x), the part a linear net of the same weights would not have;
    - ``slope``: the mean of tanh'(W1^T x) over the training inputs and hidden units (1 for a linear net);
    - ``rms``: the RMS of the pre-activations W1^T x over the training inputs;
    - ``train_loss``: the training loss (the trainer's, which the retrace must reproduce).
    """
    from . import samples

    data = samples.make_data(config)
    x, y = data.x_train, data.x_train @ data.teacher + data.noise_train
    x_test = data.x_test
    w1, w2 = samples.init_net(config)
    eta, gamma, scale = config.eta, config.gamma, 2.0 / (x.shape[0] * config.d_out)
    wanted = sorted({int(t) for t in at_steps if 0 <= t <= t_max})
    out: dict[str, list[float]] = {"steps": [], "nonlinear": [], "slope": [], "rms": [], "train_loss": []}
    for step in range(t_max + 1):
        pre = x @ w1
        hid = np.tanh(pre)
        r = hid @ w2 - y
        if step in wanted:
            pre_test = x_test @ w1
            part = (np.tanh(pre_test) - pre_test) @ w2
            out["steps"].append(step)
            out["nonlinear"].append(float((part**2).sum(axis=1).mean() / config.d_out))
            out["slope"].append(float((1 - hid**2).mean()))
            out["rms"].append(float(np.sqrt((pre**2).mean())))
            out["train_loss"].append(float((r**2).sum(axis=1).mean() / config.d_out))
        if step == t_max:
            break
        g_out = scale * r
        g_hid = (g_out @ w2.T) * (1 - hid**2)
        w1, w2 = w1 - eta * (x.T @ g_hid + gamma * w1), w2 - eta * (hid.T @ g_out + gamma * w2)
    return {k: np.asarray(v) for k, v in out.items()}
