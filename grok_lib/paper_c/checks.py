"""Paper C's checks on the linear student: one evaluator per figure's claims (``evaluate_*``) that measures each claim's
quantity per seed (the runs of one data and initialisation seed) at every point of the claim's grid, and grades it by
the one rule (:func:`grok_lib.grading.grade`); the grading helpers every check module shares.

This module holds the student's dynamics against the exact theory and Marchenko–Pastur, the accuracy law, the plateau
(C.dyn.*, C.acc.law, C.plateau.*) and the grokking time (C.grok.*). Weight decay and several outputs (C.wd.*,
C.dout.*) are in :mod:`grok_lib.paper_c.checks_wd_dout`; the nets, label noise and Part A's task (C.nets.*,
C.noise.*, C.modadd.*) in :mod:`grok_lib.paper_c.checks_beyond`. What the evaluators read off the runs (the windows,
the errors in them, the accuracy law's deviations, the ratios to the formula) is in :mod:`grok_lib.paper_c.measure`.

The linear student's runs use the paper's own settings (d_in = 1000, η = 0.01): their regime check measures that
full-batch GD is stable there (:func:`gd_regime`: lr × the sharpness of L_tr below 2) and, for a claim about
crossings, that the transition completes within the run.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..grading import Regime, Result, draw, grade, not_graded
from ..history import History
from ..tables import at_resolution
from . import measure, theory
from .claims import REGISTRY
from .thresholds import FORMULA_EPS, GD_OK, GD_RESOLUTION, GD_STABLE, LOSS_FLOOR, PAPER_EPS


# --- the grading helpers every check module shares ------------------------------------------------
def label(h: History) -> str:
    """A run's label in a measured text: its lambda, and its d_out, gamma and sigma_n where not the default."""
    c = h.cfg
    return f"λ={c.lam:g}" + (f" d_out={c.d_out}" if c.d_out != 1 else "") + (
        f" γ={c.gamma:g}" if c.gamma else "") + (f" σ_n={c.label_noise:.3g}" if c.label_noise else "")


def when(step) -> str:
    """A crossing step for a measured text: the step, or "never" where the accuracy never crossed."""
    return "never" if step is None else str(step)


def seed_of(h: History) -> int:
    """A run's seed: its data seed (the book moves the data and initialisation seeds together; 0 where a synthetic
    run names none)."""
    return int(getattr(h.cfg, "data_seed", 0))


def by_seed(histories: Sequence[History], key=lambda h: h.cfg.lam) -> dict[int, list[History]]:
    """``histories`` grouped by seed (increasing), each group ordered by ``key`` (lambda)."""
    out: dict[int, list[History]] = {}
    for h in histories:
        out.setdefault(seed_of(h), []).append(h)
    return {s: sorted(out[s], key=key) for s in sorted(out)}


def members(hs: Sequence[History]) -> tuple[str, ...]:
    return tuple(label(h) for h in hs)


def _span(values: Sequence[float], fmt: str = ".3g") -> str:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return "none"
    lo, hi = min(finite), max(finite)
    return f"{lo:{fmt}}" if lo == hi else f"{lo:{fmt}}–{hi:{fmt}}"


def sharpness_lr(h: History) -> float:
    """lr × the sharpness of the training loss: L_tr = (1/d_out) Tr[D^T Sigma D] (+ the decay's (gamma/2)||S||^2)
    has Hessian (2 Sigma / d_out + gamma) in D, whose largest eigenvalue comes from the run's largest sample
    eigenvalue s_max (L_tr is quadratic: its sharpness is the one at initialisation)."""
    c = h.cfg
    s_max = h.meta["s_max"] if "s_max" in h.meta else float(np.max(h.snapshots["eigenvalues"][0]))
    return c.eta * (2 * s_max / c.d_out + c.gamma)


def gd_regime(histories: Sequence[History]) -> Regime | None:
    """The paper's full-batch GD regime: lr × the sharpness of L_tr (:func:`sharpness_lr`) below 2 on every run, so
    that GD is stable (None for runs that carry no spectrum, such as synthetic ones)."""
    hs = [h for h in histories if "s_max" in h.meta or "eigenvalues" in h.snapshots]
    if not hs:
        return None
    values = [sharpness_lr(h) for h in hs]
    worst = max(range(len(hs)), key=lambda i: values[i])
    return Regime(all(v < GD_STABLE for v in values), "lr × the sharpness of L_tr (η (2 s_max / d_out + γ), from the "
                  "run's sample spectrum)", f"< {GD_STABLE:g} on every run (full-batch GD is stable)",
                  f"{_span(values)} over {len(hs)} runs (largest at {label(hs[worst])})")


def both(*regimes: Regime | None) -> Regime | None:
    """Several regime checks as one: in the regime where every one is."""
    rs = [r for r in regimes if r is not None]
    if not rs:
        return None
    if len(rs) == 1:
        return rs[0]
    *first, last = rs
    head = "; ".join(f"{r.quantity} {r.requirement}: {r.measured}" for r in first)
    return Regime(all(r.ok for r in rs), f"{head}; {last.quantity}", last.requirement, last.measured)


def completes(histories: Sequence[History], eps_list: Sequence[float] | None = None) -> Regime:
    """The transition completes before the horizon: both accuracies cross erf(sqrt 2) within every run, at each of
    ``eps_list`` (None: the run's own eps)."""
    missing = []
    for h in histories:
        for e in eps_list or [h.cfg.eps]:
            row = measure.crossing(h, e)
            if row["t_train"] is None or row["t_test"] is None:
                missing.append(f"{label(h)} at ε = {e:g}")
    last = max(int(h.steps[-1]) for h in histories)
    measured = (f"every run crosses, within {last:,} steps" if not missing
                else f"no crossing within the run for {', '.join(missing)}")
    return Regime(not missing, "both accuracies reaching erf(√2)", "within every run (the transition completes)",
                  measured)


# --- the dynamics and MP ------------------------------------------------------------------------
def _crossing_offsets(h: History) -> str:
    """The simulated crossing steps against the gradient-flow theory's, as relative differences."""
    row = measure.crossing(h)
    out = []
    for w in ("train", "test"):
        t, th = row[f"t_{w}"], row.get(f"theory_t_{w}")
        if t is not None and th is not None and math.isfinite(th) and th > 0:
            out.append(f"t_{w} {t} vs {th:.0f} ({abs(t / th - 1):.1%})")
    return ", ".join(out) or "no crossing"


def dynamics_error(h: History, level: float) -> float:
    """C.dyn.exact's quantity: the largest relative error of the simulated L_tr and L_gen against the exact
    gradient-flow theory until the theory's losses have fallen to ``level`` (nan if that range is empty)."""
    m, ok = h.metrics, measure.decided(h, level)
    return measure.worst_of([measure.worst_in(m[s], m[f"theory_{k}_loss"], ok)
                             for s, k in (("train_loss", "train"), ("gen_loss", "gen"))])


def discrete_gd_error(h: History) -> float:
    """The simulation against GD's exact discrete powers (the book's own consistency check)."""
    return max(measure.max_relative_error(h[s], h[f"gd_{k}_loss"], LOSS_FLOOR)
               for s, k in (("train_loss", "train"), ("gen_loss", "gen")))


def evaluate_dynamics(histories: Sequence[History]) -> Result:
    """C.dyn.exact on the loss-curve runs, at every loss level ℓ of the range's grid."""
    claim = REGISTRY["C.dyn.exact"]
    (window,) = claim.choices
    groups = by_seed(histories)
    draws = [draw([dynamics_error(h, lvl) for h in hs], s, (lvl,), members(hs))
             for s, hs in groups.items() for lvl in window.grid]
    gd = [discrete_gd_error(h) for h in histories]
    parts = []
    for h in sorted(histories, key=lambda x: x.cfg.lam):
        deep = max(measure.max_relative_error(h[s], h[f"theory_{k}_loss"], LOSS_FLOOR)
                   for s, k in (("train_loss", "train"), ("gen_loss", "gen")))
        parts.append(f"{label(h)}: range to step {measure.last_step(h, measure.decided(h))} ({_crossing_offsets(h)}; "
                     f"down to losses of {LOSS_FLOOR:g}: {deep:.2%})")
    simulation = Regime(all(g <= GD_OK for g in gd), "the simulation against GD's exact discrete powers",
                        f"≤ {GD_OK:g} (the simulation is GD)",
                        at_resolution(max(gd), GD_RESOLUTION) if all(math.isfinite(g) for g in gd) else "nan")
    context = ("reported, not graded, at ℓ = ε/4: " + "; ".join(parts) + ". The gradient-flow theory's error is GD's "
               "discreteness, (1 − 2ηs)^t against e^{−2ηst}, which grows with t")
    return grade(claim, draws, context, regime=both(gd_regime(histories), simulation))


def mp_error(h: History, level: float) -> float:
    """C.dyn.mp's quantity: the largest relative error of the MP losses against the exact theory averaged over the
    direction of D_0, until those losses have fallen to ``level``."""
    iso = measure.isotropic_losses(h)
    ok = measure.decided_window(*iso, level)
    return measure.worst_of([measure.worst_in(h[f"mp_{k}_loss"], ref, ok) for k, ref in zip(("train", "gen"), iso)])


def evaluate_mp(histories: Sequence[History]) -> Result:
    """C.dyn.mp on the loss-curve runs: MP against the exact theory averaged over the direction of D_0 (graded, at
    every level of the range's grid), and against the single realisation (reported)."""
    claim = REGISTRY["C.dyn.mp"]
    (window,) = claim.choices
    draws = [draw([mp_error(h, lvl) for h in hs], s, (lvl,), members(hs))
             for s, hs in by_seed(histories).items() for lvl in window.grid]
    parts = []
    for h in sorted(histories, key=lambda x: x.cfg.lam):
        ok = measure.decided(h)
        one = measure.worst_of([measure.worst_in(h[f"mp_{k}_loss"], h[f"theory_{k}_loss"], ok)
                                for k in ("train", "gen")])
        parts.append(f"{label(h)}: {one:.1%}")
    context = "reported, not graded: MP against this run's own D_0 (one draw), at ℓ = ε/4: " + ", ".join(parts)
    return grade(claim, draws, context, regime=gd_regime(histories))


# --- the accuracy law ------------------------------------------------------------------------------
def accuracy_law_bound(n_comparisons: int, level: float) -> float:
    """The bound on the binomial z of the accuracy law: the two-sided normal quantile at the family-wise ``level``
    shared by ``n_comparisons`` comparisons (Bonferroni: conservative, since neighbouring steps count the same
    samples)."""
    from scipy import stats

    return float(stats.norm.isf(level / (2 * n_comparisons)))


def accuracy_law_comparisons(histories: Sequence[History]) -> int:
    """How many (curve, record step) comparisons the accuracy law's family holds: train and test, every step."""
    return sum(2 * len(h.steps) for h in histories)


def evaluate_accuracy_law(histories: Sequence[History]) -> Result:
    """C.acc.law on the loss-curve runs (d_out = 1), at every family-wise level of the grid."""
    claim = REGISTRY["C.acc.law"]
    (family,) = claim.choices
    count = accuracy_law_comparisons(histories)
    dev = {id(h): measure.accuracy_law_deviations(h) for h in histories}

    def max_z(h: History) -> float:
        return max(float(dev[id(h)][w][1].max()) for w in ("train", "test"))

    draws = [draw([max_z(h) / accuracy_law_bound(count, level) for h in hs], s, (level,), members(hs))
             for s, hs in by_seed(histories).items() for level in family.grid]
    parts = [f"{label(h)} (N_tr = {h.meta['n_train']}): largest z train {dev[id(h)]['train'][1].max():.2f}, test "
             f"{dev[id(h)]['test'][1].max():.2f}; largest |Δ| train {dev[id(h)]['train'][0].max():.3f}, test "
             f"{dev[id(h)]['test'][0].max():.3f}" for h in sorted(histories, key=lambda x: x.cfg.lam)]
    bounds = ", ".join(f"{accuracy_law_bound(count, level):.2f} at {level:g}" for level in family.grid)
    context = f"{'; '.join(parts)}. Bonferroni bounds for {count} comparisons: {bounds}"
    return grade(claim, draws, context, regime=gd_regime(histories))


# --- the plateau ----------------------------------------------------------------------------------
def evaluate_plateau(histories: Sequence[History]) -> list[Result]:
    """C.plateau.level and C.plateau.no_test_crossing on the runs with lambda > 1 (the default set's lambda = 1.5)."""
    level, never = REGISTRY["C.plateau.level"], REGISTRY["C.plateau.no_test_crossing"]
    above = [h for h in histories if h.meta["lam_eff"] > 1]
    if not above:
        lams = ", ".join(f"{h.meta['lam_eff']:.3g}" for h in histories)
        reason = f"the runs' λ ({lams}) are all ≤ 1: there is no plateau to measure (the claims need a run with λ > 1)"
        return [not_graded(level, reason), not_graded(never, reason)]
    ratio_draws, acc_draws, parts = [], [], []
    for s, hs in by_seed(above).items():
        ratios = [h.final("gen_loss") / (h.meta["l0"] * theory.mp_atom(h.meta["lam_eff"])) for h in hs]
        ratio_draws.append(draw(ratios, s, (), members(hs)))
        acc_draws.append(draw([float(np.max(h["test_acc"])) for h in hs], s, (), members(hs)))
        parts += [f"{label(h)}: final L_gen = {h.final('gen_loss'):.4g}, L_gen(0) (1 − 1/λ) = "
                  f"{h.meta['l0'] * theory.mp_atom(h.meta['lam_eff']):.4g}" for h in hs]
    where = gd_regime(above)
    return [grade(level, ratio_draws, "; ".join(parts), regime=where), grade(never, acc_draws, regime=where)]


# --- the grokking time ------------------------------------------------------------------------------
def evaluate_formula(histories: Sequence[History]) -> Result:
    """C.grok.formula on the Delta t_grok sweep (lambda < 1, d_out = 1), at the paper's eps; the ratios at the
    smaller eps are reported."""
    claim = REGISTRY["C.grok.formula"]
    groups = by_seed(histories)
    draws = [draw([measure.formula_ratio(h, PAPER_EPS) for h in hs], s, (), members(hs)) for s, hs in groups.items()]
    hs = sorted(histories, key=lambda h: h.cfg.lam)
    smaller = [e for e in measure.measured_eps(hs[0], FORMULA_EPS) if e < PAPER_EPS]
    lines = [f"ε = {e:g}: " + ", ".join(f"{h.cfg.lam:g}→{measure.formula_ratio(h, e):.2f}" for h in hs)
             for e in smaller]
    context = ("reported, not graded (the formula is asymptotic, ε → 0): the ratios at smaller ε, λ→ratio: "
               + "; ".join(lines)) if lines else ""
    return grade(claim, draws, context, regime=both(gd_regime(histories), completes(histories, [PAPER_EPS])))


def decreases(histories: Sequence[History], eps: float) -> float:
    """How often the simulated Delta t_grok(eps) does not grow from one lambda to the next (lambda increasing)."""
    dt = np.array([measure.grokking_time(h, eps) for h in sorted(histories, key=lambda h: h.cfg.lam)])
    return float((np.diff(dt) <= 0).sum())


def evaluate_divergence(histories: Sequence[History]) -> Result:
    """C.grok.divergence on the Delta t_grok sweep, at every eps measured (one member each)."""
    claim = REGISTRY["C.grok.divergence"]
    hs = sorted(histories, key=lambda h: h.cfg.lam)
    eps_all = [row["eps"] for row in hs[0].meta["crossings"]]
    draws = [draw([decreases(g, e) for e in eps_all], s, (), tuple(f"ε={e:g}" for e in eps_all))
             for s, g in by_seed(histories).items()]
    parts = [f"ε = {e:g}: {measure.grokking_time(hs[0], e):.0f} → {measure.grokking_time(hs[-1], e):.0f} steps"
             for e in eps_all]
    context = f"Δt_grok from λ = {hs[0].cfg.lam:g} to {hs[-1].cfg.lam:g}: " + "; ".join(parts)
    return grade(claim, draws, context, regime=both(gd_regime(histories), completes(histories, eps_all)))
