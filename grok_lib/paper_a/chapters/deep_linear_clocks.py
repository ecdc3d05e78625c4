"""Paper A's deep linear networks (``notebooks/paper_a/deep_linear_clocks.ipynb``): the fast loss clock (margins,
Lemma 3.1, Theorem 3.5, T_cls(ε)), the slow Schatten clock (energy gap, T_rep(η), Prop. 4.3's drift) and their
separation per depth. The claims A.dln.* with their bars and checks, the key numbers, the numbers the prose quotes and
the three figures (drawn with :mod:`grok_lib.paper_a.dln.panels`); which runs each clock reads and the tables per run
are :mod:`grok_lib.paper_a.dln.tables`'s, the model and its theory are in :mod:`grok_lib.paper_a.dln`."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ... import tables
from ...chapters import Chapter, Figure
from ...claims import registry
from ...figure_numbers import at_epochs, none_if_nan
from ...grading import Bar, Choice, Claim, draw, grade, moved, Regime, Result, sides
from ...history import History
from ...notebook import Run, start
from ...tables import at_resolution
from ..dln import clocks as dc, config as dln_config
from ..dln.panels import figure_fast_clock, figure_separation, figure_slow_clock
from ..dln.tables import (contraction_table, EXCESS_RESOLUTION, fast_clock_table, focus_depth, gd_decayed_runs,
                          plain_runs, separation_runs, separation_table, slow_clock_table)
from ..dln.tables import identity_table  # noqa: F401 (its notebook reads it here)
from ..dln.clocks import (drift_median_error, EPS_LEVELS, ETA_LEVELS, lemma31_ratio, run_label, schatten_excess,
                          sharpness)
from ..dln.optim import ADAM_BETAS


def run(profile: str = "default", depths=None, steps=None, lr=None, seed=None, n_classes=None, d_in=None,
        width=None, n_train=None, *, output_path=None) -> Run:
    """The deep-linear sweep (depths x the (optimiser, λ) runs), served by the run store."""
    overrides = {"steps": steps, "lr": lr, "seed": seed, "n_classes": n_classes, "d_in": d_in, "width": width,
                 "n_train": n_train}
    configs = dln_config.sweep(profile, dln_config.DEPTHS if depths is None else depths, **overrides)
    parameters = {"profile": profile, "depths": depths, **overrides}
    return start(profile, parameters, configs, dln_config.sweep("default"), output_path)


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


SEPARATION = Bar(lo=1.0)  #: T_rep(eta) / T_cls(floor): the representation clock stops after the loss clock


ETA_GRID = (1e-5, 1e-6, 1e-7)  #: the gap level of T_rep in the separation claim (central 1e-6)


#: The smallest train-loss level of the fast clock's fit (levels 1e-1 down to it).
FAST_FLOOR_GRID = (1e-6, 1e-7, 1e-8)


#: The smallest gap level of the slow clock's fit (levels 1e-3 down to it).
SLOW_FLOOR_GRID = (1e-7, 1e-8, 1e-9)


ABSTRACT = "the paper's abstract"


CLAIMS = registry([
    Claim(
        "A.dln.schatten", "A", "claim", "text", f"eq. 2.7 and {ABSTRACT}",
        "when layerwise weight decay is present, the induced regularization on the end-to-end map can be expressed "
        "as a Schatten-type penalty",
        r"Trained with layerwise weight decay, the factors' penalty $\frac{1}{L}\sum_l \Vert W_l\Vert_F^2$ equals the "
        r"Schatten power $\Vert A\Vert_{S_{2/L}}^{2/L}$ of $A = W_L \cdots W_1$.",
        "relative excess of the factors' penalty over the Schatten power at the end, per GD run with λ > 0",
        SCHATTEN_EXCESS, bars=moved(SCHATTEN_EXCESS), fmt=".1e",
        why="eq. 2.7 is an identity at the balanced minimum (unit-tested exactly); trained factors approach it"),
    Claim(
        "A.dln.lemma31", "A", "claim", "text", "Lemma 3.1",
        r"if every logit margin is at least γ then $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$",
        r"Wherever every logit margin is at least $\gamma > 0$, $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$.",
        "largest L_CE / ((K−1) e^{−Γ(t)}) over the recorded steps with a positive margin, per run",
        LEMMA_BOUND, fmt=".3f"),
    Claim(
        "A.dln.margin_linear", "A", "premise", "text", f"Assumption 3.4 and {ABSTRACT}",
        r"post-margin gap growth: $\Gamma(t) \ge \gamma_0 + \nu (t - t_0)$",
        "After it turns positive the margin grows at least linearly in time.",
        "R² of a line in t through the margin over the fast clock's window, per run without weight decay",
        LINE_R2, bars=LINE_R2_GRID, fmt=".2f",
        why="a margin that grows like ln t (sub-linear) is fitted better by a line in ln t: reported beside"),
    Claim(
        "A.dln.fast_log", "A", "claim", "text", f"Theorem 3.5 and {ABSTRACT}",
        "a post-margin gap-growth or one-step tail-contraction condition reduces the cross-entropy loss to level "
        "epsilon on a logarithmic time scale",
        r"Where the margin grows linearly (Assumption 3.4), $T_{\mathrm{cls}}(\varepsilon)$ grows like "
        r"$\log 1/\varepsilon$: a line in $\ln(1/\varepsilon)$ fits it at least as well as a power law.",
        "R² of a line of T_cls(ε) in ln(1/ε) minus R² of a power law in 1/ε, per run whose margin grows linearly "
        "(Assumption 3.4 holding: its line in t has R² ≥ 0.95)",
        BETTER_FIT, choices=(Choice("smallest level ε of the fit (from 1e-1)", 1e-8, FAST_FLOOR_GRID,
                                    "how deep the fast clock is read", ".0e"),), fmt="+.3f",
        why="the theorem is conditional: it is graded only on the runs where its premise holds"),
    Claim(
        "A.dln.contraction", "A", "premise", "text", f"Proposition 3.6 and {ABSTRACT}",
        r"one-step tail contraction: $L_{t+1} \le (1-\mu) L_t$",
        r"After the margin turns positive the loss contracts by one factor every step: $L_{t+1} \le (1-\mu) L_t$ "
        r"with one $\mu > 0$ up to the fast clock's end.",
        "the slowest per-step contraction rate μ_k = 1 − (L(t_(k+1)) / L(t_k))^(1/(t_(k+1) − t_k)) between recorded "
        "steps of the fast clock's window over their median (1 where one μ holds for every step; a loss falling "
        "like 1/t gives t0 / t_end), per run without weight decay",
        CONTRACTION, bars=moved(CONTRACTION, 1.5), fmt=".2f",
        why="Proposition 3.6's second route to the logarithmic clock (Theorem 3.5's is Assumption 3.4): a finite "
            "run always has some μ > 0, so the premise is read as one rate for the whole window, within a factor "
            "the book chose, moved either way; the recorded steps are the intervals (a rise between them is seen "
            "only as a slower rate)"),
    Claim(
        "A.dln.slow_poly", "A", "premise", "text", f"Assumption 4.5, Theorems 4.8–4.9 and {ABSTRACT}",
        "under a sharp late-time Kurdyka-Lojasiewicz tail, this structural energy closes on a polynomial time scale",
        r"The gap of the structural energy has a sharp Kurdyka–Łojasiewicz tail ($\theta \in (1/2, 1)$), so "
        r"$T_{\mathrm{rep}}(\eta)$ grows like a power of $1/\eta$, not like $\ln(1/\eta)$.",
        "R² of a power law of T_rep(η) in 1/η minus R² of a line in ln(1/η), per GD run with λ > 0",
        BETTER_FIT, choices=(Choice("smallest gap level η of the fit (from 1e-3)", 1e-9, SLOW_FLOOR_GRID,
                                    "how deep the slow clock is read", ".0e"),), fmt="+.3f",
        why="θ is never measured in the paper; the theorems assume the tail. An exponential tail (θ = 1/2) gives "
            "the line in ln(1/η)"),
    Claim(
        "A.dln.prop43", "A", "claim", "text", "Prop. 4.3",
        r"singular values drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$",
        r"The singular values of $A$ drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$, at every depth.",
        "median relative error of the predicted drift against the measured (s_i(t+1) − s_i(t)) / lr over the steps, "
        "the K−1 singular values the loss sees, per GD run with λ > 0",
        DRIFT_ERROR, bars=moved(DRIFT_ERROR), fmt=".2g",
        why="the drift of the flow on A; a depth-L net's factored flow multiplies it by L s^(2−2/L) (reported)"),
    Claim(
        "A.dln.separation", "A", "claim", "text", ABSTRACT,
        "the two clocks, therefore, separate fitting from representation simplification",
        "With weight decay the representation clock stops after the loss clock.",
        "T_rep(η) / T_cls(floor) per GD run with λ > 0 (T_cls(floor): the loss within 10% of its final value; where "
        "the gap has not stayed below η by the end of the run, the run's length stands for T_rep: a lower bound)",
        SEPARATION, choices=(Choice("gap level η of T_rep", 1e-6, ETA_GRID, "the paper names none", ".0e"),),
        fmt=".1f",
        why="the abstract's clocks separate fitting (fast) from simplification (slow): the ratio at least 1 at "
            "every η; the paper states no ratio, so how many times later is reported, not graded"),
])


_OPTIMIZER_NAMES = {"gd": "GD", "adamw": "AdamW"}


def by_depth(histories: Sequence[History], cells: Sequence[str]) -> str:
    """One cell per run, as one line per optimiser and weight decay ordered by depth:
    "at L = 1, 2, 3 — GD λ = 0.001: a, b, c; ..." (short enough for a table cell; a group that
    lacks a depth labels each of its cells instead)."""
    depths = sorted({h.cfg.depth for h in histories})
    groups: dict[tuple, list[tuple[int, str]]] = {}
    for h, cell in zip(histories, cells):
        groups.setdefault((h.cfg.optimizer, h.cfg.weight_decay), []).append((h.cfg.depth, cell))
    parts = []
    for (opt, wd), rows in groups.items():
        rows.sort()
        name = _OPTIMIZER_NAMES.get(opt, opt) + (f" λ = {wd:g}" if wd else "")
        full = [d for d, _ in rows] == depths
        parts.append(f"{name}: " + ", ".join(c if full else f"L={d}: {c}" for d, c in rows))
    return f"at L = {', '.join(map(str, depths))} — " + "; ".join(parts)


def value_range(values: Sequence[float], fmt: str) -> str:
    """"lo–hi" of the finite values (one value when they agree at this precision)."""
    vals = [v for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return "–"
    lo, hi = format(min(vals), fmt), format(max(vals), fmt)
    return lo if lo == hi else f"{lo}–{hi}"


def _per_optimizer(histories: Sequence[History], values: Sequence) -> dict[str, list]:
    """GD's and AdamW's values (one per history, None where a run has none), in the histories' order."""
    return {opt: [v for h, v in zip(histories, values) if v is not None and h.cfg.optimizer == opt]
            for opt in ("gd", "adamw")}


def _ranges(by_optimizer: dict[str, list], fmt: str) -> str:
    """"GD lo–hi, AdamW lo–hi" of :func:`_per_optimizer`'s values."""
    return ", ".join(f"{_OPTIMIZER_NAMES[o]} {value_range(v, fmt)}" for o, v in by_optimizer.items())


def _members(hs: Sequence[History]) -> tuple:
    return tuple(run_label(h) for h in hs)


def _slow_clock(h: History, eta: float) -> float:
    """T_rep(eta), or the run's last step where the gap has not stayed below eta by then: a lower bound."""
    t = dc.t_rep_gap(h, eta)
    return float(h.steps[-1]) if math.isnan(t) else t


def _ratio(a: float, b: float) -> float:
    """a / b; NaN where the fast clock stopped at step 0 (a run too short to measure it: no ratio)."""
    return a / b if b else math.nan


def gd_sharpness(h: History) -> tuple[float, float]:
    """lr × the sharpness of the trained objective at a run's initialisation and at its end (its kept final
    factors): :func:`grok_lib.paper_a.dln.clocks.sharpness`."""
    c = h.cfg
    end = [h.snapshot(f"W{i + 1}", int(h.steps[-1])) for i in range(c.depth)]
    return c.lr * sharpness(c), c.lr * sharpness(c, end)


def regime(histories: Sequence[History]) -> Regime:
    """The chapter's regime: the theory is for gradient flow, and gradient descent follows it only where
    lr × the sharpness of the objective is below 2 (:data:`GD_STABLE`), measured at initialisation on every GD
    run (at the end: reported). AdamW's steps are not bounded by it (its step is normalised)."""
    gd = [h for h in histories if h.cfg.optimizer == "gd"]
    if not gd:
        return Regime(True, "lr × the sharpness of the objective at initialisation", "< 2 on every GD run", "no GD run")
    init, end = zip(*(gd_sharpness(h) for h in gd))
    ok = all(GD_STABLE.holds(v) for v in init)
    return Regime(ok, "lr × the sharpness of the objective at initialisation (the largest Hessian eigenvalue of "
                      "the trained objective in the factors)", f"{GD_STABLE.text()} on every GD run (GD follows the "
                      "gradient flow the theory is about)",
                  f"{value_range(init, '.2g')} over the {len(gd)} GD runs (at the end of the runs: {value_range(end, '.2g')})")


def _both(a: Regime, b: Regime) -> Regime:
    """Two regimes a claim needs at once."""
    return Regime(a.ok and b.ok, f"{a.quantity} {a.requirement.strip()}: {a.measured}; and {b.quantity}",
                  b.requirement, b.measured)


def evaluate_deep_linear(histories: Sequence[History]) -> list[Result]:
    """Every deep-linear claim on a sweep of :func:`grok_lib.paper_a.dln.config.sweep` (one draw per point of a
    claim's grid: the runs are deterministic), each in the chapter's regime (:func:`regime`)."""
    gd_wd, plain = gd_decayed_runs(histories), plain_runs(histories)
    stable = regime(histories)
    results = []

    # an excess within float64 rounding of zero is zero (its digits and sign move with the arithmetic)
    excess = [0.0 if abs(e) < EXCESS_RESOLUTION else e for e in (schatten_excess(h) for h in gd_wd)]
    results.append(grade(CLAIMS["A.dln.schatten"], [draw(excess, None, (), _members(gd_wd))],
                         f"largest {at_resolution(max(excess), EXCESS_RESOLUTION)}, smallest "
                         f"{at_resolution(min(excess), EXCESS_RESOLUTION)} (digits below {EXCESS_RESOLUTION:.0e} are "
                         f"float64 rounding)", regime=stable))

    ratios = [lemma31_ratio(h) for h in histories]
    results.append(grade(CLAIMS["A.dln.lemma31"], [draw(ratios, None, (), _members(histories))], regime=stable))

    growth = [dc.margin_growth(h) for h in plain]
    r2_line = [g["linear"].r2 if g["linear"] is not None else math.nan for g in growth]
    slopes = _per_optimizer(plain, [g["linear"].slope if g["linear"] is not None else None for g in growth])
    results.append(grade(
        CLAIMS["A.dln.margin_linear"], [draw(r2_line, None, (), _members(plain))],
        "R² of a line in t / in ln t " + by_depth(plain, [
            f"{g['linear'].r2:.2f}/{g['log'].r2:.2f}" if g["linear"] is not None else "never grows" for g in growth])
        + "; slope ν per step: " + _ranges(slopes, ".1e"), regime=stable))

    fast = CLAIMS["A.dln.fast_log"]
    premise = [h for h, r2 in zip(plain, r2_line) if LINE_R2.holds(r2)]
    where = Regime(bool(premise), "runs whose margin grows linearly (Assumption 3.4: a line in t with R² ≥ 0.95)",
                   "at least one", ", ".join(run_label(h) for h in premise) or "none")
    draws = []
    for floor in fast.choices[0].grid:
        eps = EPS_LEVELS[EPS_LEVELS >= floor * 0.999]
        fits = [dc.fast_clock_fits(h, eps) for h in premise]
        draws.append(draw([f["log"].r2 - f["power"].r2 if f["log"] is not None else math.nan for f in fits],
                          None, (floor,), _members(premise)) if premise else None)
    all_fits = [dc.fast_clock_fits(h) for h in plain]
    exponents = _per_optimizer(plain, [f["power"].slope if f["log"] is not None else None for f in all_fits])
    context = ("every run without weight decay, R² of a line in ln(1/ε) / of a power law " + by_depth(plain, [
        f"{f['log'].r2:.2f}/{f['power'].r2:.2f}" if f["log"] is not None else "too few levels" for f in all_fits])
        + "; power-law exponent (T ∝ ε^-k), k: " + _ranges(exponents, ".2f"))
    results.append(grade(fast, [d for d in draws if d is not None], context, regime=_both(stable, where)))

    rates = [dc.contraction_rates(h) for h in plain]
    results.append(grade(
        CLAIMS["A.dln.contraction"], [draw([r["slowest"] for r in rates], None, (), _members(plain))],
        "per-step rate μ at the window's start / end " + by_depth(plain, [
            f"{r['start']:.1e}/{r['end']:.1e}" if r["mu"].size else "no window" for r in rates]), regime=stable))

    slow = CLAIMS["A.dln.slow_poly"]
    draws = []
    for floor in slow.choices[0].grid:
        eta = ETA_LEVELS[ETA_LEVELS >= floor * 0.999]
        fits = [dc.slow_clock_fits(h, eta) for h in gd_wd]
        draws.append(draw([f["power"].r2 - f["log"].r2 if f["power"] is not None else math.nan for f in fits],
                          None, (floor,), _members(gd_wd)))
    central = [dc.slow_clock_fits(h) for h in gd_wd]
    rates = [(dc.tail_rate(h), dc.predicted_tail_rate(h.cfg)) for h in gd_wd]
    results.append(grade(
        slow, draws,
        "R² of the power law / of a line in ln(1/η) " + by_depth(gd_wd, [
            f"{s['power'].r2:.3f}/{s['log'].r2:.3f}" if s["power"] is not None else "too few levels of η" for s in central])
        + f"; θ from the power law = {value_range([s['theta'] for s in central if s['power'] is not None], '.2f')}"
        + f"; the gap's tail decays exponentially at 2pλ·lr × {value_range([-r.slope / pr for r, pr in rates if r is not None], '.3f')}",
        regime=stable))

    errors = [drift_median_error(h, "prop43") for h in gd_wd]
    factored = [drift_median_error(h, "factored") for h in gd_wd]
    results.append(grade(CLAIMS["A.dln.prop43"], [draw(errors, None, (), _members(gd_wd))],
                         "with the factored flow's factor L s^(2−2/L): " + by_depth(gd_wd, [f"{e:.2g}" for e in factored]),
                         regime=stable))

    sep = CLAIMS["A.dln.separation"]
    draws = [draw([_ratio(_slow_clock(h, eta), dc.t_cls_floor(h)) for h in gd_wd], None, (eta,), _members(gd_wd))
             for eta in sep.choices[0].grid]
    results.append(grade(sep, draws, regime=stable))
    return results


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on its runs (:func:`evaluate_deep_linear`)."""
    return evaluate_deep_linear(run.histories)


#: The steps at which the deep-linear curves are guarded.
DLN_STEPS = (100, 1000, 10_000, 30_000)


def _dln_tag(h: History) -> str:
    c = h.cfg
    return f"L={c.depth}/{c.optimizer}/wd={c.weight_decay:g}"


def _fit_values(prefix: str, fit) -> dict[str, float | None]:
    if fit is None:
        return {}
    return {f"{prefix}_slope": fit.slope, f"{prefix}_r2": fit.r2}


def fast_clock_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Fast-clock figure (lambda = 0 runs): margin and loss at fixed steps, T_cls levels, both fits."""
    values: dict[str, float | None] = {}
    for h in plain_runs(histories):
        tag = _dln_tag(h)
        values |= at_epochs(h, ("margin", "train_loss"), tag, DLN_STEPS)
        fits = dc.fast_clock_fits(h)
        for eps, t in zip(fits["eps"], fits["T"]):
            values[f"{tag}/T_cls({eps:.0e})"] = none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_log", fits["log"]) | _fit_values(f"{tag}/fit_power", fits["power"])
        g = dc.margin_growth(h)
        values |= _fit_values(f"{tag}/margin_line", g["linear"]) | _fit_values(f"{tag}/margin_log", g["log"])
    return values


def slow_clock_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Slow-clock figure (GD, lambda > 0): the gap at fixed steps (where above 1e-9), T_rep levels,
    both fits, the tail rate and Prop. 4.3's median errors."""
    values: dict[str, float | None] = {}
    for h in gd_decayed_runs(histories):
        tag = _dln_tag(h)
        gap = dc.gap(h)
        for step in DLN_STEPS:
            v = float(gap[max(int(np.searchsorted(h.steps, step, side="right")) - 1, 0)])
            values[f"{tag}/gap@{step}"] = v if v > dc.GAP_FLOOR else None  # below: floating-point floor
        fits = dc.slow_clock_fits(h)
        for eta, t in zip(fits["eta"], fits["T"]):
            values[f"{tag}/T_rep({eta:.0e})"] = none_if_nan(t)
        values |= _fit_values(f"{tag}/fit_power", fits["power"]) | _fit_values(f"{tag}/fit_log", fits["log"])
        tail = dc.tail_rate(h)
        values[f"{tag}/tail_rate"] = None if tail is None else -tail.slope
        for name in ("prop43", "factored"):
            values[f"{tag}/drift_error_{name}"] = drift_median_error(h, name)
    return values


def separation_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Separation figure and table: every run's clock readings and final loss."""
    values: dict[str, float | None] = {}
    for h in histories:
        for name, v in dc.separation_row(h).items():
            if name == "final gap" and v <= dc.GAP_FLOOR:
                v = math.nan  # floating-point noise, not a value to guard
            if name.startswith("T_") or name in ("final loss", "final gap"):
                values[f"{_dln_tag(h)}/{name.replace(' ', '_')}"] = none_if_nan(float(v))
    return values


def describe(run: Run) -> str:
    """The line the notebook prints: the sweep's size (depths x the (optimiser, λ) runs) and shared settings."""
    c0 = run.configs[0]
    return (f"profile {run.profile!r}: {len(run.histories)} runs = depths {sorted({c.depth for c in run.configs})} x "
            f"{list(dln_config.SWEEP_RUNS)} (optimiser, λ); K={c0.n_classes}, d={c0.d_in}, width={c0.width}, "
            f"n={c0.n_train}, steps={c0.steps}, GD lr={c0.lr}")


def graded(r: Result) -> str:
    """"`id` (a premise): **verdict**", with how many (draw, bar) pairs pass where they split."""
    passing, failing = sides(r.claim, r.draws)
    split = f", {len(passing)} of {len(passing) + len(failing)} (level, bar) pairs passing" if passing and failing else ""
    return f"`{r.claim.id}`{' (a premise)' if r.claim.kind == 'premise' else ''}: **{r.word}**{split}"


def settings_reading() -> dict[str, str]:
    """The settings table's numbers: the paper profile's sizes and AdamW's betas."""
    paper_profile = dln_config.PROFILES["paper"]
    return dict(paper_k=f"{paper_profile.n_classes}", paper_d=f"{paper_profile.d_in}",
                paper_n=f"{paper_profile.n_train}", adam_betas=f"{ADAM_BETAS[0]:g}/{ADAM_BETAS[1]:g}")


def verdicts_reading(run: Run, results: dict[str, Result]) -> dict[str, str]:
    """The regime and the verdicts in words (``results``: :func:`evaluate` by claim id), with the contraction's
    slowest rate over its median (:func:`contraction_table`)."""
    verdicts = {cid: r.verdict for cid, r in results.items()}
    stable = regime(run.histories)
    contraction = contraction_table(run.histories)
    fast_log = results["A.dln.fast_log"]
    return dict(
        gd_stable=GD_STABLE.text(),
        dln_regime=tables.typeset(f"{stable.measured} — " + ("in the regime" if stable.ok else "outside the regime")),
        identities_title=("The identities hold."
                          if verdicts["A.dln.schatten"] == verdicts["A.dln.lemma31"] == "reproduced"
                          else "The identities, against the runs."),
        identities_graded=f"{graded(results['A.dln.schatten'])}; {graded(results['A.dln.lemma31'])}",
        fast_graded=(f"{graded(results['A.dln.margin_linear'])}; {graded(fast_log)}, graded on the runs where the "
                     f"premise holds: " + (fast_log.regime.measured.rsplit(": ", 1)[-1] if fast_log.regime
                                           else "none")),
        contraction_graded=graded(results["A.dln.contraction"]),
        gd_slowest=value_range([float(r["slowest / median"]) for r in contraction
                                if " gd " in r["run"] and r["slowest / median"] != "-"], ".2f"),
        adamw_deep_slowest=value_range([float(r["slowest / median"])
                                        for h, r in zip(plain_runs(run.histories), contraction)
                                        if h.cfg.optimizer == "adamw" and h.cfg.depth > 1
                                        and r["slowest / median"] != "-"], ".2f"),
        slow_graded=graded(results["A.dln.slow_poly"]),
        prop43_graded=graded(results["A.dln.prop43"]),
        separation_graded=graded(results["A.dln.separation"]),
    )


def identities_reading(run: Run) -> dict[str, str]:
    """eq. 2.7's excess on the decayed runs (GD; AdamW at depth >= 2) and Lemma 3.1's ratio on every run."""
    decayed = [h for h in run.histories if h.cfg.weight_decay > 0]
    gd_excess = [v for v in (dc.schatten_excess(h) for h in decayed if h.cfg.optimizer == "gd") if math.isfinite(v)]
    adamw_excess = [v for v in (dc.schatten_excess(h) for h in decayed
                                if h.cfg.optimizer == "adamw" and h.cfg.depth > 1)
                    if math.isfinite(v)]  # empty without a run at depth >= 2
    lemma31 = [r for r in (dc.lemma31_ratio(h) for h in run.histories) if not math.isnan(r)]
    return dict(
        gd_excess_max=tables.sci(f"{max(gd_excess):.1e}") if gd_excess else "n/a",
        adamw_excess=f"{100 * min(adamw_excess):.0f}–{100 * max(adamw_excess):.0f}%" if adamw_excess else "n/a",
        lemma31_holds=(("holds everywhere" if max(lemma31) <= 1 else "fails on some runs") if lemma31
                       else "is not tested (no positive margin)"),
        lemma31_factor=f"{math.floor(1 / max(lemma31))}" if lemma31 and max(lemma31) > 0 else "n/a",
        lemma31_max=f"{max(lemma31):.3f}" if lemma31 else "n/a",
    )


_FAST_COLUMNS = ("R² line in t", "R² line in ln t", "power law T ∝ ε^-a: a", "R² power", "R² ln(1/ε)",
                 "T_cls per decade of ε")


def fast_reading(run: Run) -> dict[str, str]:
    """The fast clock in words: the margin's line in t against ln t, T_cls(ε)'s power law against ln(1/ε), per
    optimiser (the columns of :func:`fast_clock_table`)."""
    fast = fast_clock_table(run.histories)
    fast_gd, fast_adamw = ([r for r in fast if f" {opt} " in r["run"]] for opt in ("gd", "adamw"))
    col = {(name, c): [float(r[c]) for r in rows if r[c] != "-"]
           for name, rows in (("gd", fast_gd), ("adamw", fast_adamw)) for c in _FAST_COLUMNS}
    return dict(
        gd_margin=("does *not* grow linearly" if min(col[("gd", "R² line in ln t")], default=math.nan)
                   > max(col[("gd", "R² line in t")], default=math.nan)
                   else "does not clearly grow linearly"),
        gd_margin_log=f"{min(col[('gd', 'R² line in ln t')]):.3f}" if col[("gd", "R² line in ln t")] else "n/a",
        gd_margin_line=value_range(col[("gd", "R² line in t")], ".3f"),
        gd_power_a=value_range(col[("gd", "power law T ∝ ε^-a: a")], ".2f"),
        gd_power_r2=f"{min(col[('gd', 'R² power')]):.3f}" if col[("gd", "R² power")] else "n/a",
        gd_not_log=("not a logarithm"
                    if all(p > l for p, l in zip(col[("gd", "R² power")], col[("gd", "R² ln(1/ε)")]))
                    else "better than a logarithm on some runs only"),
        adamw_margin_line=value_range(col[("adamw", "R² line in t")], ".3f"),
        adamw_decade=value_range(col[("adamw", "T_cls per decade of ε")], ".0f"),
    )


def slow_reading(run: Run) -> dict[str, str]:
    """The slow clock in words: T_rep(η)'s line in ln(1/η) against its power law, θ, and the gap's tail rate against
    2pλ·lr (the columns of :func:`slow_clock_table`)."""
    slow_rows = slow_clock_table(run.histories)
    slow_col = {c: [float(r[c]) for r in slow_rows if r[c] != "-"] for c in ("R² power", "R² ln(1/η)", "θ")}
    log_wins = sum(float(r["R² ln(1/η)"]) > float(r["R² power"]) for r in slow_rows if r["R² power"] != "-")
    tail_off = [abs(float(r["tail rate of Δ"]) / float(r["2pλ·lr"]) - 1) for r in slow_rows
                if r["tail rate of Δ"] != "-" and float(r["2pλ·lr"]) != 0]
    tail_off = [v for v in tail_off if math.isfinite(v)]
    return dict(
        slow_title=("The slow clock is logarithmic, not polynomial, in this regime." if log_wins == len(slow_rows)
                    else "The slow clock is closer to logarithmic than to polynomial on most runs."),
        slow_every=("On every GD run with weight decay" if log_wins == len(slow_rows)
                    else f"On {log_wins} of the {len(slow_rows)} GD runs with weight decay"),
        slow_log_r2=value_range(slow_col["R² ln(1/η)"], ".3f"),
        slow_power_r2=value_range(slow_col["R² power"], ".3f"),
        theta=value_range(slow_col["θ"], ".2f"),
        theta_inside="inside (1/2, 1)" if all(0.5 < t < 1 for t in slow_col["θ"]) else "not always inside (1/2, 1)",
        tail_within=f"{math.ceil(100 * max(tail_off))}%" if tail_off else "n/a",
        tail_runs=f"{len(tail_off)}",
    )


def prop43_reading(run: Run) -> dict[str, str]:
    """Prop. 4.3's drift error and the factored flow's, at depth 1 and at depth >= 2 (:func:`slow_clock_table`),
    against :data:`DRIFT_ERROR`."""
    rows = list(zip(gd_decayed_runs(run.histories), slow_clock_table(run.histories)))
    drift = {(deep, c): [float(r[c]) for h, r in rows if (h.cfg.depth > 1) == deep and math.isfinite(float(r[c]))]
             for deep in (False, True) for c in ("Prop 4.3 error", "factored error")}
    shallow, deep, factored = (drift[(False, "Prop 4.3 error")], drift[(True, "Prop 4.3 error")],
                               drift[(True, "factored error")])
    return dict(
        prop43_title=("Prop. 4.3 holds for L = 1 and, for L ≥ 2, only after a correction."
                      if max(shallow, default=math.nan) < DRIFT_ERROR.hi < min(deep, default=math.nan)
                      and max(factored, default=math.nan) < DRIFT_ERROR.hi
                      else "Prop. 4.3 and its corrected form, against the runs."),
        prop43_shallow=f"{100 * max(shallow):.2g}%" if shallow else "n/a",
        prop43_deep=f"{100 * min(deep):.0f}–{100 * max(deep):.0f}%" if deep else "n/a",
        factored_deep=f"{100 * min(factored):.1g}–{100 * max(factored):.1g}%" if factored else "n/a",
    )


def separation_reading(run: Run, results: dict[str, Result]) -> dict[str, str]:
    """T_rep / T_cls of the decayed GD runs by depth (:func:`separation_table`) and the separation's verdict, grid
    and bars (``results``: :func:`evaluate` by claim id)."""
    separation = {}
    for r in separation_table(run.histories):
        if r["optimizer"] == "gd" and r["lambda"] > 0:
            separation.setdefault(r["depth"], []).append(r["T_rep/T_cls"])
    sep_ranges = [("n/a" if r == "–" else r) + f" for L = {depth}"  # "–": no finite ratio at this depth
                  for depth, v in sorted(separation.items()) for r in [value_range(v, ".1f")]]
    sep_grows = all(min((v for v in separation[a] if math.isfinite(v)), default=math.nan)
                    > max((v for v in separation[b] if math.isfinite(v)), default=math.nan)
                    for a, b in zip(sorted(separation)[1:], sorted(separation)))
    result = results["A.dln.separation"]
    reproduced = result.verdict == "reproduced"
    return dict(
        separation_title=("The separation is real and grows with depth." if sep_grows and reproduced
                          else "The separation is real." if reproduced
                          else "The separation grows with depth, but at some η the representation clock does not stop after the loss clock." if sep_grows
                          else "The separation, measured."),
        eta_grid=", ".join(tables.typeset(f"{e:.0e}") for e in result.claim.choices[0].grid),
        separation_bars=tables.typeset(result.claim.threshold),
        separation_by_depth=(", ".join(sep_ranges[:-1]) + " and " + sep_ranges[-1] if len(sep_ranges) > 1
                             else sep_ranges[0] if sep_ranges else "n/a"),
    )


def clocks_reading(run: Run) -> dict[str, str]:
    """The reading's numbers: :func:`verdicts_reading`, :func:`identities_reading`, :func:`fast_reading`,
    :func:`slow_reading`, :func:`prop43_reading` and :func:`separation_reading`, in that order ("n/a" where a range
    has no finite value)."""
    results = {r.claim.id: r for r in evaluate(run)}
    values = {**verdicts_reading(run, results), **identities_reading(run), **fast_reading(run), **slow_reading(run),
              **prop43_reading(run), **separation_reading(run, results)}
    return {name: "n/a" if value == "–" else value for name, value in values.items()}  # "–": value_range of nothing


def draw_fast_clock(hs):
    plain = plain_runs(hs)
    focus = [h for h in plain if h.cfg.depth == focus_depth(plain)]
    growth = [dc.margin_growth(h) for h in focus]
    bounds = [((h.cfg.n_classes - 1) * np.exp(-h["margin"]),
               dc.theorem35_bound(h.steps, g["t0"], g["gamma0"], g["nu_hold"], h.cfg.n_classes, g["t_end"]))
              for h, g in zip(focus, growth)]
    fast = [dc.fast_clock_fits(h) for h in plain]
    return figure_fast_clock(plain, focus, bounds, dc.EPS_LEVELS, [f["T"] for f in fast],
                             [f["log"] for f in fast], [f["power"] for f in fast])


def draw_slow_clock(hs):
    gd_decayed = gd_decayed_runs(hs)
    slow = [dc.slow_clock_fits(h) for h in gd_decayed]
    drift_run = next(h for h in gd_decayed if h.cfg.depth == focus_depth(plain_runs(hs)))
    drift = {i: dc.drift_errors(drift_run, i, start=10) for i in (0, 1) if f"sv_{i}" in drift_run.metrics}
    return figure_slow_clock(gd_decayed, [dc.gap(h) for h in gd_decayed], dc.ETA_LEVELS,
                             [s["T"] for s in slow], [s["power"] for s in slow], [s["log"] for s in slow],
                             {i: d["steps"] for i, d in drift.items()}, drift, run_label(drift_run))


def draw_separation(hs):
    sep_runs = separation_runs(hs)
    marks = [(dc.t_cls_floor(h), dc.t_rep_gap(h, dc.ETA_TABLE)) for h in sep_runs]
    return figure_separation(sep_runs, [dc.gap(h) for h in sep_runs], marks)


DLN_FAST_CLOCK = Figure("paper_a/dln_fast_clock", "Paper A, deep linear networks: the fast clock (margins, Lemma 3.1 "
                        "/ Theorem 3.5, T_cls(ε))", fast_clock_numbers, draw_fast_clock)
DLN_SLOW_CLOCK = Figure("paper_a/dln_slow_clock", "Paper A, deep linear networks: the slow clock (energy gap, "
                        "T_rep(η), Prop. 4.3 drift)", slow_clock_numbers, draw_slow_clock)
DLN_SEPARATION = Figure("paper_a/dln_separation", "Paper A, deep linear networks: loss and energy gap with both "
                        "clocks, per depth", separation_numbers, draw_separation)
CHAPTER = Chapter("notebooks/paper_a/deep_linear_clocks.ipynb", run, dln_config.sweep,
                  (DLN_FAST_CLOCK, DLN_SLOW_CLOCK, DLN_SEPARATION), claims=tuple(CLAIMS))
