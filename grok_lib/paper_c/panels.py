"""Part C's panels: each draws one kind of plot on an ``Axes`` from histories or arrays; nothing here trains
or fits. Each chapter's figures (:mod:`grok_lib.paper_c.chapters`) compose them; what two chapters draw alike
is here.

Colours: training in blue, test/generalisation in orange; the simulation is drawn solid, the
exact theory dashed black-ish, the Marchenko-Pastur theory dotted. Symbols are mathtext.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..history import History
from ..tables import NOISE_FLOOR
from .data_ratio import DataRatio
from .shape_fits import FORMS
from .measure import GROK_ACC, acc_curve
from .theory import mp_density, mp_edges

TRAIN, TEST = "#1f77b4", "#ff7f0e"
THEORY_STYLE = dict(ls="--", lw=1.1)
MP_STYLE = dict(ls=":", lw=1.6)
L_TR, L_GEN, L_TEST = r"$\mathcal{L}_{\mathrm{tr}}$", r"$\mathcal{L}_{\mathrm{gen}}$", r"$\mathcal{L}_{\mathrm{test}}$"
DT = r"$\Delta t_{\mathrm{grok}}$"
#: The label of the grey line at the accuracy where grokking is measured.
GROK_LEVEL = r"erf$(\sqrt{2})$: grokking level"
#: The lowest loss the figures show: ε = 1e-3 is crossed near 1e-4, and the tails below 1e-12 only
#: repeat the exponential decay down to float underflow.
LOSS_BOTTOM = 1e-12


def _steps(history: History) -> np.ndarray:
    # step 0 cannot sit on a log axis: it is drawn at 1/2
    return np.where(history.steps == 0, 0.5, history.steps).astype(np.float64)


def _positive(y) -> np.ndarray:
    y = np.asarray(y, dtype=np.float64)
    return np.where(y > 0, y, np.nan)


def clip_loss_axis(ax, bottom: float = LOSS_BOTTOM) -> None:
    """Show the drawn losses, from the lowest one (but not below ``bottom``) up to the highest.
    matplotlib's own log-scale margins are a share of the whole data range, and the exponential tails
    reach float underflow (about 1e-316), which would push the top of the axis to 1e13 for data below 1;
    a run whose losses stay above ``bottom`` gets no empty decades under them."""
    drawn = [y[np.isfinite(y) & (y > 0)] for line in ax.get_lines()
             if (y := np.asarray(line.get_ydata(), dtype=np.float64)).size and np.any(np.isfinite(y) & (y > 0))]
    if not drawn:
        return
    top = max(max(float(y.max()) for y in drawn), bottom * 10)
    low = min(float(y.min()) for y in drawn)
    margin = lambda lo: (top / lo) ** 0.05  # noqa: E731 (the same 5% margin matplotlib leaves, in decades)
    lo = bottom if low <= bottom else min(low / margin(low), top / 10)
    ax.set_ylim(lo, top * margin(lo))


def lam_title(ax, h: History, extra: str = "") -> None:
    """A run's panel title: its λ and N_tr, then ``extra``."""
    c = h.cfg
    ax.set_title(rf"$\lambda$={c.lam:g} ($N_{{\mathrm{{tr}}}}$={h.meta['n_train']})" + extra, loc="left")


def plot_losses(ax, history: History, theory: bool = True, mp: bool = True, test: bool = True) -> None:
    """Training loss, exact generalisation loss (and the empirical test loss) vs step, log-log,
    with the run's exact gradient-flow theory (dashed) and the MP theory (dotted) where recorded."""
    t, m = _steps(history), history.metrics
    ax.plot(t, _positive(m["train_loss"]), color=TRAIN, lw=2, label=L_TR + " sim")
    if "gen_loss" in m:
        ax.plot(t, _positive(m["gen_loss"]), color=TEST, lw=2, label=L_GEN + r" sim ($\|D\|^2/d_{\mathrm{out}}$)")
    if test:
        ax.plot(t, _positive(m["test_loss"]), color=TEST, lw=0.8, alpha=0.6, label=L_TEST + " (test set)")
    if theory and "theory_train_loss" in m:
        ax.plot(t, _positive(m["theory_train_loss"]), color="k", **THEORY_STYLE, label="exact theory")
        ax.plot(t, _positive(m["theory_gen_loss"]), color="k", **THEORY_STYLE)
    if mp and "mp_train_loss" in m:
        ax.plot(t, _positive(m["mp_train_loss"]), color="0.45", **MP_STYLE, label="MP theory")
        ax.plot(t, _positive(m["mp_gen_loss"]), color="0.45", **MP_STYLE)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("step $t$")
    ax.set_ylabel("loss")


def eps_label(eps: float) -> str:
    """"$\\varepsilon = 10^{-5}$" for a power of ten, "$\\varepsilon = 0.003$" otherwise (mathtext)."""
    exponent = math.log10(eps)
    value = f"10^{{{round(exponent)}}}" if abs(exponent - round(exponent)) < 1e-9 else f"{eps:g}"
    return rf"$\varepsilon = {value}$"


def plot_accuracies(ax, history: History, eps: float | None = None, theory: bool = True, mp: bool = False) -> None:
    """Training and test threshold accuracy vs step (log step axis), with the accuracy law at the
    theory's losses (erf or incomplete gamma; only for the run's own eps) and the GROK_ACC level."""
    t, m = _steps(history), history.metrics
    eps_shown = history.cfg.eps if eps is None else eps
    ax.plot(t, acc_curve(history, "train", eps), color=TRAIN, lw=2, label="train, " + eps_label(eps_shown))
    ax.plot(t, acc_curve(history, "test", eps), color=TEST, lw=2, label="test")
    own = eps is None or eps == history.cfg.eps
    if theory and own and "theory_train_acc" in m:
        ax.plot(t, m["theory_train_acc"], color="k", **THEORY_STYLE, label="accuracy law, exact losses")
        ax.plot(t, m["theory_test_acc"], color="k", **THEORY_STYLE)
    if mp and own and "mp_train_acc" in m:
        ax.plot(t, m["mp_train_acc"], color="0.45", **MP_STYLE, label="accuracy law, MP losses")
        ax.plot(t, m["mp_test_acc"], color="0.45", **MP_STYLE)
    ax.axhline(GROK_ACC, color="0.6", lw=0.7, label=GROK_LEVEL)
    ax.set_xscale("log")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("step $t$")
    ax.set_ylabel("accuracy")


def plot_relative_errors(ax, steps, errors: Mapping[str, np.ndarray]) -> None:
    """Relative errors over time (one line per label), log-log. Errors below the book's noise floor
    (:data:`grok_lib.tables.NOISE_FLOOR`) are float64 rounding, not agreement: they are not drawn (their
    last bits differ between CPUs)."""
    t = np.where(np.asarray(steps) == 0, 0.5, steps)
    for label, err in errors.items():
        err = _positive(err)
        ax.plot(t, np.where(err >= NOISE_FLOOR, err, np.nan), lw=1.4, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("step $t$")
    ax.set_ylabel("relative error")


def plot_grok_times(ax, lams: Sequence[float], times: Mapping[float, Sequence[float]], formula_lams=None,
                    formula=None) -> None:
    """Simulated Delta t_grok vs lambda, one marker series per eps, and the paper's formula (line)."""
    colors = _eps_colors(times)
    for eps, dt in times.items():
        ax.plot(lams, dt, "o-", ms=4, lw=0.8, color=colors[eps], label="sim, " + eps_label(eps))
    if formula is not None:
        ax.plot(formula_lams, formula, "k-", lw=1.5,
                label=r"$\ln(1/(1-\sqrt{\lambda}))\,/\,2\eta(1-\sqrt{\lambda})^2$")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\lambda = d_{\mathrm{in}}/N_{\mathrm{tr}}$")
    ax.set_ylabel(DT + " (steps)")


def plot_formula_ratios(ax, lams: Sequence[float], ratios: Mapping[float, Sequence[float]]) -> None:
    """Simulated Delta t_grok over the formula vs lambda, per eps (1 = the formula holds)."""
    colors = _eps_colors(ratios)
    for eps, r in ratios.items():
        ax.plot(lams, r, "o-", ms=4, lw=0.8, color=colors[eps], label=eps_label(eps))
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xlabel(r"$\lambda$")
    ax.set_ylabel(DT + " sim / formula")


def _eps_colors(by_eps: Mapping) -> dict:
    keys = sorted(by_eps, reverse=True)
    cmap = plt.get_cmap("viridis")
    return {k: cmap(i / max(len(keys) - 1, 1)) for i, k in enumerate(keys)}


def plot_weight_decay(ax, history: History, limits: Mapping[str, tuple[float, float]]) -> None:
    """A weight-decay run's losses with horizontal lines at predicted plateaus: ``limits`` maps a label
    (e.g. "paper", "exact fixed point") to (L_tr, L_gen)."""
    plot_losses(ax, history, theory=True, mp=False, test=False)
    for (label, (tr, gen)), ls in zip(limits.items(), ["-.", (0, (1, 1)), "--"]):
        ax.axhline(tr, color=TRAIN, ls=ls, lw=1.0, label=f"{label}: " + L_TR + r"$(\infty)$")
        ax.axhline(gen, color=TEST, ls=ls, lw=1.0, label=f"{label}: " + L_GEN + r"$(\infty)$")


def plot_plateaus(ax, predicted: Sequence[float], measured: Sequence[float], labels: Sequence[str] | None = None,
                  marker: str = "o") -> None:
    """Measured plateaus against predicted ones on log-log axes, with the diagonal."""
    ax.loglog(predicted, measured, marker, ls="none", ms=5)
    if labels is not None:
        for x, y, s in zip(predicted, measured, labels):
            ax.annotate(s, (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    lo = min(np.min(predicted), np.min(measured)) / 2
    hi = max(np.max(predicted), np.max(measured)) * 2
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.7)
    ax.set_xlabel("predicted plateau")
    ax.set_ylabel("simulated plateau")


def plot_d_out(ax, d_outs: Sequence[int], mean: Sequence[float], sem: Sequence[float], theory=None,
               label: str = "sim (seed mean)") -> None:
    """Delta t_grok vs d_out (log axes), seed mean with standard errors, and a theory line if given."""
    ax.errorbar(d_outs, mean, yerr=sem, fmt="o-", ms=4, lw=1, capsize=2, label=label)
    if theory is not None:
        ax.plot(d_outs, theory, "k--", lw=1.1, label="exact theory (isotropic accuracy law)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"$d_{\mathrm{out}}$")
    ax.set_ylabel(DT)


def plot_label_noise(ax, history: History) -> None:
    """A label-noise run's losses with the rebuttal's prediction (noiseless exact losses, + sigma_n^2
    for training) dashed, and the exact theory with the noise dotted."""
    t, m = _steps(history), history.metrics
    sigma = history.cfg.label_noise
    ax.plot(t, _positive(m["train_loss"]), color=TRAIN, lw=2, label=L_TR + " sim")
    ax.plot(t, _positive(m["gen_loss"]), color=TEST, lw=2, label=L_GEN + " sim")
    if "noise_pred_train_loss" in m:
        ax.plot(t, m["noise_pred_train_loss"], color="k", **THEORY_STYLE,
                label="rebuttal's prediction")
        ax.plot(t, m["noise_pred_gen_loss"], color="k", **THEORY_STYLE)
    ax.plot(t, _positive(m["theory_train_loss"]), color="0.45", **MP_STYLE, label="exact theory, noisy")
    ax.plot(t, _positive(m["theory_gen_loss"]), color="0.45", **MP_STYLE)
    ax.axhline(sigma**2, color="0.7", lw=0.7, label=r"$\sigma_n^2$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("step $t$")
    ax.set_ylabel("loss")


def plot_mp_density(ax, lam: float, eigenvalues=None, bins: int = 60) -> None:
    """The MP bulk density (and the atom's mass as text for lambda > 1) over a histogram of a run's
    sample-covariance eigenvalues (the nonzero ones), normalised to the same mass."""
    lo, hi = mp_edges(lam)
    nu = np.linspace(lo, hi, 400)
    if eigenvalues is not None:
        ev = np.asarray(eigenvalues)
        nz = ev[ev > 0]
        weights = np.full(len(nz), 1.0 / len(ev))  # mass 1/d_in each, as the density's
        width = (hi - lo) / bins
        ax.hist(nz, bins=np.linspace(lo, hi, bins + 1), weights=weights / width, color="0.8",
                label="sample eigenvalues")
    ax.plot(nu, mp_density(nu, lam), "k-", lw=1.3, label=r"MP, $\lambda$=" + f"{lam:g}")
    if lam > 1:
        ax.text(0.98, 0.95, f"atom at 0: {1 - 1 / lam:.3g}", transform=ax.transAxes, ha="right", va="top")
    ax.set_xlabel(r"eigenvalue $\nu$ of $\Sigma_{\mathrm{tr}}$")
    ax.set_ylabel("density")


FIT_STYLES = {"formula": dict(color="k", ls="-", lw=1.6), "power": dict(color="#2ca02c", ls="--", lw=1.2),
              "exponential": dict(color="#9467bd", ls=":", lw=1.4)}


def plot_data_ratio(ax, measured: DataRatio, fits: Sequence[str] = FORMS) -> None:
    """Delta t vs training fraction (log Delta t): every seed (small dots), the per-fraction geometric mean
    with its standard error (ln scale), censored seeds as upward triangles at their lower bound, the fitted
    curves of ``fits``, and the formula's critical fraction c (dotted vertical line)."""
    for p in measured.fractions:
        done = [r for r in p.runs if not r.censored]
        cens = [r for r in p.runs if r.censored]
        ax.plot([r.train_frac for r in done], [r.dt for r in done], "o", ms=3, color="#ff7f0e", alpha=0.6)
        if cens:
            ax.plot([r.train_frac for r in cens], [r.lower_bound for r in cens], "^", ms=5, mfc="none",
                    color="#d62728")
    fp = measured.fitted
    if fp:
        x = np.array([p.train_frac for p in fp])
        mean = np.array([p.log_mean for p in fp])
        sem = np.nan_to_num(np.array([p.log_sem for p in fp]))
        ax.errorbar(x, np.exp(mean), yerr=[np.exp(mean) - np.exp(mean - sem), np.exp(mean + sem) - np.exp(mean)],
                    fmt="s", ms=5, color="#ff7f0e", mec="k", capsize=2, label="MLP, geometric mean over seeds")
    if measured.censored:
        ax.plot([], [], "^", ms=5, mfc="none", color="#d62728", label="test acc. never reached (Δt is above)")
    lo = min(p.train_frac for p in measured.fractions)
    hi = max(p.train_frac for p in measured.fractions)
    for k in fits:
        if k not in measured.fits:
            continue
        fit = measured.fits[k]
        start = max(lo - 0.02, fit.params[1] * 1.0005) if k == "formula" else lo - 0.02
        grid = np.linspace(start, hi + 0.02, 300)
        ax.plot(grid, fit(grid), **FIT_STYLES[k], label=f"{k}: R²={fit.r2:.3f}")
    if "formula" in measured.fits:
        ax.axvline(measured.fits["formula"].params[1], color="0.5", ls=":", lw=1,
                   label=r"formula's divergence $f=c$")
    ax.set_yscale("log")
    ax.set_xlabel(r"training fraction $f$  ($\lambda_{\mathrm{eff}} = c/f$)")
    ax.set_ylabel(r"$\Delta t_{\mathrm{grok}}$ (steps)")
    ax.legend(loc="upper right")
