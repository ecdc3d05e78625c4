"""Paper C's checks: one evaluator per claim (``evaluate_*``) that turns histories into a
:class:`grok_lib.claims.Result`, judged by :mod:`grok_lib.paper_c.thresholds`. Where the paper's
formula is only asymptotic the evaluator reports the ratios as measured and says so; nothing is
tuned to make a verdict come out.

This module holds the grading helpers every check module shares and the linear student's own claims: its
dynamics against the exact theory and Marchenko-Pastur, the accuracy law, the plateau (C.dyn.*, C.acc.law,
C.plateau) and the grokking time (C.grok.*). Weight decay and several outputs (C.wd.*, C.dout.*) are in
:mod:`grok_lib.paper_c.checks_wd_dout`; the nets, label noise and Part A's task (C.nets.*, C.noise.*,
C.modadd.*) in :mod:`grok_lib.paper_c.checks_beyond`. What the evaluators read off the runs (the windows, the
errors in them, the accuracy law's deviations, the ratios to the formula) is in :mod:`grok_lib.paper_c.measure`."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..claims import Result
from ..history import History
from ..tables import at_resolution
from . import measure, theory
from .claims import REGISTRY
from .thresholds import (ACC_LEVEL, ACC_PARTLY, DYN_OK, DYN_PARTLY, EDGE, FORMULA_EPS, GD_OK, GD_RESOLUTION,
                         LOSS_FLOOR, MP_OK, MP_PARTLY, PAPER_EPS, PLATEAU_OK, PLATEAU_PARTLY, RATIO_BAND)


# --- the grading helpers every check module shares ------------------------------------------------
def label(h: History) -> str:
    """A run's label in a measured text: its lambda, and its d_out, gamma and sigma_n where not the default."""
    c = h.cfg
    return f"λ={c.lam:g}" + (f" d_out={c.d_out}" if c.d_out != 1 else "") + (
        f" γ={c.gamma:g}" if c.gamma else "") + (f" σ_n={c.label_noise:.3g}" if c.label_noise else "")


def when(step) -> str:
    """A crossing step for a measured text: the step, or "never" where the accuracy never crossed."""
    return "never" if step is None else str(step)


def grade(worst: float, ok: float, partly: float, edge: float = 0.0) -> str:
    """reproduced if ``worst`` <= ok (clear of it by the fraction ``edge`` of ok), partly if <= partly (or within that
    margin of ok), else not reproduced."""
    if math.isfinite(worst) and worst <= ok * (1 - edge):
        return "reproduced"
    return "partly" if math.isfinite(worst) and worst <= max(partly, ok * (1 + edge)) else "not reproduced"


def in_band(x: float, band, edge: float = 0.0) -> bool:
    """Whether ``x`` lies in ``band`` = (lo, hi), clear of both ends by the fraction ``edge`` of them."""
    return math.isfinite(x) and band[0] * (1 + edge) <= x <= band[1] * (1 - edge)


def worst_of(values: Sequence[float]) -> float:
    """The largest of ``values``, nan if any is nan (an empty window counts against a claim, not for it)."""
    return math.nan if any(not math.isfinite(v) for v in values) else max(values, default=math.nan)


# --- evaluators -------------------------------------------------------------------------------
def _crossing_offsets(h: History) -> str:
    """The simulated crossing steps against the gradient-flow theory's, as relative differences."""
    row = measure.crossing(h)
    out = []
    for w in ("train", "test"):
        t, th = row[f"t_{w}"], row.get(f"theory_t_{w}")
        if t is not None and th is not None and math.isfinite(th) and th > 0:
            out.append(f"t_{w} {t} vs {th:.0f} ({abs(t / th - 1):.1%})")
    return ", ".join(out) or "no crossing"


def evaluate_dynamics(histories: Sequence[History]) -> Result:
    """C.dyn.exact on the loss-curve runs: graded in the range the paper plots (until the losses reach eps/4)."""
    parts, errors, worst_gd = [], [], 0.0
    for h in histories:
        m, ok = h.metrics, measure.decided(h)
        e = [measure.worst_in(m[s], m[f"theory_{k}_loss"], ok)
             for s, k in (("train_loss", "train"), ("gen_loss", "gen"))]
        deep = max(measure.max_relative_error(m[s], m[f"theory_{k}_loss"], LOSS_FLOOR)
                   for s, k in (("train_loss", "train"), ("gen_loss", "gen")))
        g = [measure.max_relative_error(m[s], m[f"gd_{k}_loss"], LOSS_FLOOR)
             for s, k in (("train_loss", "train"), ("gen_loss", "gen"))]
        errors += e
        worst_gd = max(worst_gd, *g)
        parts.append(f"{label(h)}: L_tr {e[0]:.2%}, L_gen {e[1]:.2%} up to step {measure.last_step(h, ok)} "
                     f"({_crossing_offsets(h)}; down to losses of {LOSS_FLOOR:g}: {deep:.2%}; discrete GD: "
                     f"{at_resolution(max(g), GD_RESOLUTION)})")
    verdict = "not reproduced" if not worst_gd <= GD_OK else grade(worst_of(errors), DYN_OK, DYN_PARTLY, EDGE)
    text = ("; ".join(parts) + ". The gradient-flow theory's error is GD's discreteness, (1 - 2 eta s)^t against "
            "e^{-2 eta s t}, which grows with t: it is judged until the losses reach eps/4.")
    return Result(REGISTRY["C.dyn.exact"], text, verdict)


def evaluate_mp(histories: Sequence[History]) -> Result:
    """C.dyn.mp on the loss-curve runs: MP against the exact theory averaged over the direction of D_0 (graded),
    and against the single realisation (reported)."""
    parts, errors = [], []
    for h in histories:
        iso = measure.isotropic_losses(h)
        ok = measure.decided_window(*iso, PAPER_EPS / 4)
        e = [measure.worst_in(h[f"mp_{k}_loss"], ref, ok) for k, ref in zip(("train", "gen"), iso)]
        one_ok = measure.decided(h)
        one = max(measure.worst_in(h[f"mp_{k}_loss"], h[f"theory_{k}_loss"], one_ok) for k in ("train", "gen"))
        errors += e
        parts.append(f"{label(h)}: L_tr {e[0]:.1%}, L_gen {e[1]:.1%} up to step {measure.last_step(h, ok)} "
                     f"(this run's own D_0: {one:.1%} up to step {measure.last_step(h, one_ok)})")
    text = ("MP against the isotropic average (D_0 averaged over its direction, on the run's sample spectrum): "
            + "; ".join(parts) + ".")
    return Result(REGISTRY["C.dyn.mp"], text, grade(worst_of(errors), MP_OK, MP_PARTLY, EDGE))


def accuracy_law_bound(n_comparisons: int) -> float:
    """The reproduced bound on the binomial z of the accuracy law: the two-sided normal quantile at the
    family-wise level ACC_LEVEL shared by ``n_comparisons`` comparisons (Bonferroni)."""
    from scipy import stats

    return float(stats.norm.isf(ACC_LEVEL / (2 * n_comparisons)))


def grade_accuracy_law(max_z: float, max_abs: float, n_comparisons: int) -> str:
    """reproduced: every deviation within the Bonferroni bound (clear of it by EDGE); partly: within ACC_PARTLY."""
    if math.isfinite(max_z) and max_z <= accuracy_law_bound(n_comparisons) * (1 - EDGE):
        return "reproduced"
    return "partly" if math.isfinite(max_abs) and max_abs <= ACC_PARTLY else "not reproduced"


def evaluate_accuracy_law(histories: Sequence[History]) -> Result:
    """C.acc.law on the loss-curve runs (d_out = 1)."""
    parts, zs, ds, count = [], [], [], 0
    for h in histories:
        dev = measure.accuracy_law_deviations(h)
        for which, (d, z) in dev.items():
            zs.append(float(z.max()))
            ds.append(float(d.max()))
            count += len(z)
        parts.append(f"{label(h)} (N_tr = {h.meta['n_train']}): train {dev['train'][0].max():.3f} "
                     f"(max z {dev['train'][1].max():.2f}), test {dev['test'][0].max():.3f} "
                     f"(max z {dev['test'][1].max():.2f})")
    bound = accuracy_law_bound(count)
    text = ("largest |simulated - law at the simulated loss| (and largest binomial z): " + "; ".join(parts)
            + f". Bonferroni bound for {count} comparisons at family-wise level {ACC_LEVEL:g}: z <= {bound:.2f}.")
    return Result(REGISTRY["C.acc.law"], text, grade_accuracy_law(max(zs), max(ds), count))


def evaluate_formula(histories: Sequence[History]) -> Result:
    """C.grok.formula on the Delta t_grok sweep (lambda < 1, d_out = 1)."""
    hs = sorted(histories, key=lambda h: h.cfg.lam)
    ratios = measure.formula_ratios(hs, measure.measured_eps(hs[0], FORMULA_EPS))
    flat = [r for rs in ratios.values() for r in rs]
    lines = [f"eps={e:g}: " + ", ".join(f"{h.cfg.lam:g}→{r:.2f}" for h, r in zip(hs, rs))
             for e, rs in ratios.items()]
    first, last = ratios[min(ratios, key=lambda e: -e)], ratios[min(ratios)]
    asymptotic = all(abs(b - 1) < abs(a - 1) for a, b in zip(first, last))
    if all(RATIO_BAND[0] <= r <= RATIO_BAND[1] for r in flat):
        verdict = "reproduced"
    else:
        verdict = "partly" if asymptotic else "not reproduced"
    text = ("simulated Delta t / formula (lambda→ratio): " + "; ".join(lines) + ". "
            + ("The ratios approach 1 as eps decreases at every lambda: the formula is asymptotic (eps -> 0), "
               "not a finite-eps prediction." if asymptotic else
               "The ratios do not approach 1 as eps decreases at every lambda."))
    return Result(REGISTRY["C.grok.formula"], text, verdict)


def evaluate_divergence(histories: Sequence[History]) -> Result:
    """C.grok.divergence on the Delta t_grok sweep."""
    hs = sorted(histories, key=lambda h: h.cfg.lam)
    eps_all = [row["eps"] for row in hs[0].meta["crossings"]]
    drops, parts = [], []
    for e in eps_all:
        dt = np.array([measure.grokking_time(h, e) for h in hs])
        drops.append(int((np.diff(dt) <= 0).sum()))
        parts.append(f"eps={e:g}: {dt[0]:.0f} → {dt[-1]:.0f} steps ({drops[-1]} decreases)")
    verdict = "reproduced" if max(drops) == 0 else ("partly" if max(drops) <= 1 else "not reproduced")
    lams = f"lambda {hs[0].cfg.lam:g} → {hs[-1].cfg.lam:g}"
    return Result(REGISTRY["C.grok.divergence"], f"{lams}: " + "; ".join(parts) + ".", verdict)


def evaluate_plateau(histories: Sequence[History]) -> Result:
    """C.plateau on the run with the largest lambda (the default set's lambda > 1 run)."""
    h = max(histories, key=lambda x: x.meta["lam_eff"])
    lam = h.meta["lam_eff"]
    if lam <= 1:  # a rerun whose last lambda is below 1: nothing plateaus
        return Result(REGISTRY["C.plateau"], f"the last run has lambda = {lam:.3g} <= 1, so there is no plateau to "
                      "measure (the claim needs a run with lambda > 1)", "not reproduced")
    predicted = h.meta["l0"] * theory.mp_atom(lam)
    ratio = h.final("gen_loss") / predicted
    crossed = measure.crossing(h)["t_test"] is not None
    off = abs(ratio - 1)
    verdict = grade(off, PLATEAU_OK, PLATEAU_PARTLY)
    if crossed and verdict == "reproduced":
        verdict = "partly"
    text = (f"lambda={lam:.4g}: final L_gen = {h.final('gen_loss'):.4g}, L_gen(0) (1 - 1/lambda) = {predicted:.4g} "
            f"(ratio {ratio:.3f}); the test accuracy {'crosses' if crossed else 'never crosses'} erf(sqrt 2) "
            f"(max {float(h['test_acc'].max()):.3f}).")
    return Result(REGISTRY["C.plateau"], text, verdict)
