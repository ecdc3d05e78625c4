"""Paper B's two-layer ReLU net on modular addition (``notebooks/paper_b/modular_addition.ipynb``): per seed, the α and
λ sweeps at a fixed step (the figures) and the in-regime sweeps with GD's step held stable (claim-only runs: the
claims B.modadd.* are graded on them, and at the fixed step apart), their tables, key numbers, the prose's numbers and
the two figures."""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Sequence

import matplotlib.pyplot as plt

from ...chapters import Chapter, Figure, with_claim_runs
from ...claims import registry
from ...figure_numbers import none_if_nan
from ...grading import Choice, Claim, draw, grade, moved, not_graded, Regime, Result
from ...history import History
from ...kinds import kind_of
from ...notebook import Run, start
from .. import config, measure, regimes, selection
from ..claim_terms import (CLOCK_QUOTE, END_ACC, ONSET_ACC, ORDER_INVERSIONS, REBUTTAL, SAME_LAMBDA_T, SLOPE,
                           SLOPE_GRID, TRANSITION_LEVELS)
from ..curve_numbers import at_steps, fit_attr, rounded, run_tag, seeds_table
from ..draws import crossing_t, inversions, lambda_t_spread
from ..measure import crossing_step
from ..panels import slope_fit, sweeps_figure
from ..run_sets import modadd_configs
from ..selection import Groups, seeds, unique
from ..words import order_phrase, regime_reading, shown, verdict_reading


ORDER_QUOTE = ("we conducted experiments on modular addition and showed that enlarging the initialization scale or "
               "reducing the weight decay indeed delays the sharp transition in test accuracy")


#: Modular addition: the same levels, the onset central: the MLPs' test accuracy ends at 0.89-0.99, so their 0.9 is
#: read where the curve flattens (the seeds' slopes there spread over a factor 5), the onset where it is steep.
MODADD_LEVEL = Choice("test-accuracy level", TRANSITION_LEVELS[0], TRANSITION_LEVELS,
                      "the paper marks no level: the onset (0.6, where the curve is steep) and the end (0.9, near "
                      "where these runs' test accuracy flattens)")


CLAIMS = registry([
    Claim(
        "B.modadd.alpha_order", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", ORDER_QUOTE,
        "Modular addition, two-layer ReLU net: a larger initialisation scale α delays the transition.",
        "inversions of 'strictly later for every larger α' in the transition times t over the α sweep (a run that "
        "never gets there counts one), per seed",
        ORDER_INVERSIONS, choices=(MODADD_LEVEL,), fmt=".0f"),
    Claim(
        "B.modadd.lambda_order", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", ORDER_QUOTE,
        "Modular addition: a larger weight decay brings the transition earlier.",
        "inversions of 'strictly earlier for every larger λ' in the transition times t over the λ sweep (a run that "
        "never gets there counts one), per seed",
        ORDER_INVERSIONS, choices=(MODADD_LEVEL,), fmt=".0f"),
    Claim(
        "B.modadd.log_alpha_clock", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", CLOCK_QUOTE,
        r"Modular addition: at fixed $\lambda$ the transition time grows like $\ln\alpha/\lambda$: slope $1/\lambda$ "
        r"against $\ln\alpha$.",
        "least-squares slope of the transition time t against ln α over the α > 1 runs of the α sweep, times λ, "
        "per seed",
        SLOPE, choices=(MODADD_LEVEL,), bars=SLOPE_GRID, fmt=".3f",
        why="α = 1 has ln α = 0 and no kernel phase; the paper states no tolerance"),
    Claim(
        "B.modadd.inverse_lambda_clock", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", CLOCK_QUOTE,
        r"Modular addition: at fixed $\alpha$ the transition time scales as $1/\lambda$: $\lambda t$ at the transition "
        r"is the same for every $\lambda$.",
        "max / min − 1 of λt at the transition over the λ sweep, per seed",
        SAME_LAMBDA_T, choices=(MODADD_LEVEL,), bars=moved(SAME_LAMBDA_T), fmt=".3f",
        why="as B.thm.inverse_lambda_slope: at fixed α, '∝ 1/λ' says λt is the same for every λ"),
])


def run(profile: str = "default", alphas=None, weight_decays=None, seeds=None, p=None, train_frac=None, width=None,
        lr=None, steps=None, device=None, *, output_path=None) -> Run:
    """Paper B's two-layer net on modular addition: per seed, the alpha sweep and the lambda sweep (fixed steps)."""
    overrides = {"p": p, "train_frac": train_frac, "width": width, "lr": lr, "steps": steps, "device": device}
    configs = modadd_configs(profile, alphas, weight_decays, seeds, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "seeds": seeds, **overrides}
    return with_claim_runs(stable_modadd_configs, start(profile, parameters, configs, modadd_configs("default"),
                                                        output_path))


def stable_modadd_configs(groups: dict[str, list]) -> list:
    """The modular-addition claims' in-regime runs (:class:`~grok_lib.paper_b.config.StableModAddConfig`), planned from
    the figure runs' groups: at every seed, the alpha sweep ``config.STABLE_ALPHAS`` at the group ``alpha``'s lambda and
    the group ``weight_decay``'s lambdas at its alpha (the run both share once), GD's step held stable, each run to
    lambda t = ``config.STABLE_STOP``."""
    out = []
    for seed in dict.fromkeys(c.data_seed for c in groups["alpha"]):
        alpha_sweep = [c for c in groups["alpha"] if c.data_seed == seed]
        lambda_sweep = [c for c in groups["weight_decay"] if c.data_seed == seed]
        base = alpha_sweep[0]
        stable = config.StableModAddConfig(**{**base.to_dict(), "steps": base.steps * config.STABLE_STEPS,
                                              "n_log": config.STABLE_N_LOG, "stable_c": config.STABLE_C,
                                              "stop_lambda_t": config.STABLE_STOP})
        out += [replace(stable, alpha=float(a)) for a in config.STABLE_ALPHAS]
        out += [replace(stable, alpha=c.alpha, weight_decay=c.weight_decay) for c in lambda_sweep]
    return list(dict.fromkeys(out))


def paper_alphas() -> list:
    """The paper's own modular-addition alpha sweep (its settings, not trained: the page measures their regime)."""
    return modadd_configs("paper")["alpha"]


def seed_sweeps(groups: Groups, seed: int | None = None) -> tuple[list[History], list[History]]:
    """(the alpha sweep, the lambda sweep) of ``seed`` (None: the first seed's, which the figures show): the runs of
    the groups ``"alpha"`` and ``"weight_decay"`` at that data seed, in their order."""
    seed = seeds(groups["alpha"])[0] if seed is None else seed
    alpha_sweep, lambda_sweep = ([h for h in groups[name] if h.cfg.data_seed == seed]
                                 for name in ("alpha", "weight_decay"))
    return alpha_sweep, lambda_sweep


def stable_sweeps(groups: Groups, stable_runs: Sequence[History]) -> tuple[list[History], list[History]]:
    """(every seed's in-regime alpha sweep, every seed's in-regime lambda sweep) of the modular-addition chapter's
    claim-only runs (``stable_runs``, planned by :func:`stable_modadd_configs` from the
    groups): the alpha sweep at the group ``"alpha"``'s lambda, the lambda sweep at the group ``"weight_decay"``'s
    alpha (the run both share in both)."""
    lam, alpha = groups["alpha"][0].cfg.weight_decay, groups["weight_decay"][0].cfg.alpha
    return ([h for h in stable_runs if h.cfg.weight_decay == lam],
            [h for h in stable_runs if h.cfg.alpha == alpha])


#: The setting of the modular-addition records on the figure runs (the profile's fixed step, outside the regime).
FIXED_LR = "fixed_lr"


def log_alpha_clock(alpha_sweep: Sequence[History], level: float) -> float:
    """The slope of t at ``level`` against ln α over the α > 1 runs, times λ (1 on the clock)."""
    big = [h for h in alpha_sweep if float(h.cfg.alpha) > 1]
    lam = float(big[0].cfg.weight_decay) if big else math.nan
    return measure.line_fit([math.log(float(h.cfg.alpha)) for h in big], [crossing_t(h, level) for h in big]).slope * lam


def sweeps_by_seed(alpha_runs: Sequence[History], lambda_runs: Sequence[History]) -> list[tuple[int, list, list]]:
    """(seed, its α sweep by α, its λ sweep by λ) for every seed of the runs."""
    out = []
    for s in seeds(alpha_runs):
        a = sorted((h for h in alpha_runs if h.cfg.data_seed == s), key=lambda h: h.cfg.alpha)
        lam = sorted((h for h in lambda_runs if h.cfg.data_seed == s), key=lambda h: h.cfg.weight_decay)
        out.append((int(s), a, lam))
    return out


def _times(runs: Sequence[History], level: float, lam: bool = False) -> str:
    return ", ".join((f"λ={h.cfg.weight_decay:g}" if lam else f"α={h.cfg.alpha:g}") + f": {crossing_t(h, level):.0f}"
                     for h in runs)


def grade_modadd(alpha_runs: Sequence[History], lambda_runs: Sequence[History], where: Regime) -> list[Result]:
    """The modular-addition claims on one set of runs (every seed's α and λ sweeps), in the regime ``where``."""
    per_seed = sweeps_by_seed(alpha_runs, lambda_runs)
    levels = TRANSITION_LEVELS
    times = "; ".join(f"seed {s}, level {q:g}: α sweep {_times(a, q)}; λ sweep {_times(lam, q, True)}"
                      for s, a, lam in per_seed for q in levels)
    def order(runs: Sequence[History], level: float, later: bool) -> float:
        if len(runs) < 2:
            raise ValueError("an order needs at least two runs of the sweep")
        return inversions([crossing_t(h, level) for h in runs], later)

    measures = (("B.modadd.alpha_order", lambda a, lam, q: order(a, q, True), f"transition time t: {times}"),
                ("B.modadd.lambda_order", lambda a, lam, q: order(lam, q, False), ""),
                ("B.modadd.log_alpha_clock", lambda a, lam, q: log_alpha_clock(a, q), ""),
                ("B.modadd.inverse_lambda_clock", lambda a, lam, q: lambda_t_spread(lam, q), ""))
    out = []
    for cid, value, context in measures:
        try:
            draws = [draw(value(a, lam, q), s, (q,)) for s, a, lam in per_seed for q in levels]
        except ValueError as err:
            out.append(not_graded(CLAIMS[cid], f"not measurable on these runs: {err}", where if not where.ok else None))
            continue
        out.append(grade(CLAIMS[cid], draws, context, where))
    return out


def evaluate_modadd(groups, stable_runs: Sequence[History]) -> list[Result]:
    """The modular-addition claims on the in-regime runs (``stable_runs``: the chapter's claim-only runs, every seed's
    α and λ sweeps with GD's step held stable, :func:`stable_modadd_configs`, planned
    from the figure runs' ``groups``)."""
    alpha_runs, lambda_runs = stable_sweeps(groups, stable_runs)
    every = unique([*alpha_runs, *lambda_runs])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    return grade_modadd(alpha_runs, lambda_runs, where)


def evaluate_modadd_fixed(groups) -> list[Result]:
    """The same claims on the figure runs at the profile's fixed step (``groups``: ``run.groups``), recorded at the
    setting :data:`FIXED_LR`: not tested faithfully where lr × the sharpness at initialisation is 2 or more."""
    every = unique([*groups["alpha"], *groups["weight_decay"]])
    where = regimes.both(regimes.stability(every), regimes.transition_ends(every))
    return grade_modadd(groups["alpha"], groups["weight_decay"], where)


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on its in-regime runs (the claim-only runs)."""
    return evaluate_modadd(run.groups, run.claim_histories)


MODADD_STEPS = (0, 500, 1000, 1500, 2000, 3000)


def modadd_table(groups: Groups, seed: int | None = None) -> list[dict]:
    """Per run of both sweeps (of ``seed``; None: the first): the transition steps and times, ln(alpha) / lambda,
    the end on the clock."""
    alpha_sweep, lambda_sweep = seed_sweeps(groups, seed)
    rows = []
    for h in unique([*alpha_sweep, *lambda_sweep]):
        tr = measure.accuracy_transition(h)
        unit = measure.clock_unit(h.cfg)
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
                     "train acc 1 at": crossing_step(measure.first_crossing(h, "train_acc", 1.0)),
                     "start step": crossing_step(tr.start), "end step": crossing_step(tr.end),
                     "end t": rounded(tr.end.t, 1) if tr.end else math.nan,
                     "ln(a)/l (t)": rounded(unit, 0) if math.isfinite(unit) else "n/a",
                     "end frac": rounded(tr.fractions[1]) if math.isfinite(unit) else "n/a",
                     "final test acc": rounded(h.final("test_acc"))})
    return rows


def modadd_shift_table(groups: Groups) -> list[dict]:
    """Between consecutive alphas of the alpha sweep: the shift of the end time t against the clock's
    prediction ln(alpha2 / alpha1) / lambda (the offset-free reading of the ln(alpha) law), at the first seed."""
    alpha_sweep, _ = seed_sweeps(groups)
    times = measure.transition_times(alpha_sweep)
    rows = []
    for (h1, t1), (h2, t2) in zip(zip(alpha_sweep, times), list(zip(alpha_sweep, times))[1:]):
        a1, a2, lam = float(h1.cfg.alpha), float(h2.cfg.alpha), float(h1.cfg.weight_decay)
        pred = math.log(a2 / a1) / lam
        rows.append({"alpha": f"{a1:g} -> {a2:g}", "shift of end t": rounded(t2 - t1, 1),
                     "ln(a2/a1)/lambda": rounded(pred, 0), "ratio": rounded((t2 - t1) / pred)})
    return rows


def modadd_fit_table(groups: Groups) -> list[dict]:
    """The end time t against ln(alpha) and against 1 / lambda (the first seed's sweeps): fitted slope, its theory
    value, R^2."""
    alpha_sweep, lambda_sweep = seed_sweeps(groups)
    lam, alpha = float(alpha_sweep[0].cfg.weight_decay), float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    log_a = math.log(alpha) if alpha > 1 else math.nan
    return [{"fit": f"t vs ln(a) at lambda {lam:g}", "slope": rounded(fit_attr(fa, "slope"), 1),
             "+-": rounded(fit_attr(fa, "slope_se"), 1), "theory slope": rounded(1 / lam, 1),
             "ratio": rounded(fit_attr(fa, "slope", lam)),
             "R^2": rounded(fit_attr(fa, "r2")), "runs": fa.n if fa else 0},
            {"fit": f"t vs 1/lambda at alpha {alpha:g}", "slope": rounded(fit_attr(fl, "slope"), 3),
             "+-": rounded(fit_attr(fl, "slope_se"), 3), "theory slope": rounded(log_a, 3),
             "ratio": rounded(fit_attr(fl, "slope") / log_a),
             "R^2": rounded(fit_attr(fl, "r2")), "runs": fl.n if fl else 0}]


def modadd_sweeps_numbers(groups: Groups) -> dict:
    """Modular addition: accuracies and losses at fixed steps, and the transition steps, per run of the first seed."""
    alpha_sweep, lambda_sweep = seed_sweeps(groups)
    values = {}
    for h in unique([*alpha_sweep, *lambda_sweep]):
        values |= at_steps(h, ("train_acc", "test_acc", "test_loss", "norm"), MODADD_STEPS)
        tr = measure.accuracy_transition(h)
        values[f"{run_tag(h)}/T_start"], values[f"{run_tag(h)}/T_end"] = (none_if_nan(crossing_step(tr.start)),
                                                                          none_if_nan(crossing_step(tr.end)))
    return values


def modadd_fits_numbers(groups: Groups) -> dict:
    """Modular addition: the two fits."""
    values = {}
    for row in modadd_fit_table(groups):
        for k in ("slope", "ratio", "R^2"):
            values[f"{row['fit']}/{k}"] = none_if_nan(row[k])
    return values


def stability_table(groups: Groups, paper_configs: Sequence = ()) -> list[dict]:
    """lr x the Gauss-Newton sharpness at initialisation (:mod:`grok_lib.paper_b.sharpness`) of the figure runs
    (the first seed's, at the profile's fixed step) and of ``paper_configs`` (the paper's settings), per alpha and
    lambda: full-batch GD follows gradient flow only below 2."""
    alpha_sweep, lambda_sweep = seed_sweeps(groups)
    rows = []
    for source, configs in (("figure runs", [h.cfg for h in unique([*alpha_sweep, *lambda_sweep])]),
                            ("paper's settings", list(paper_configs))):
        for c in configs:
            s = regimes.sharpness_at_init(c)
            rows.append({"runs": source, "p": c.p, "width": c.width, "alpha": c.alpha, "lambda": c.weight_decay,
                         "lr": c.lr, "sharpness at init": float(f"{s:.4g}"), "lr x sharpness": float(f"{c.lr * s:.3g}")})
    return rows


def stable_table(groups: Groups, stable_runs: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per in-regime run of ``seed`` (None: the first): its steps, the step at initialisation and lr x the sharpness
    there, the largest lr_t x S_t of the run, and the transition's onset and end on lambda t (and in t)."""
    alpha_runs, lambda_runs = stable_sweeps(groups, stable_runs)
    seed = seeds(alpha_runs)[0] if seed is None else seed
    rows = []
    for h in unique([h for h in [*alpha_runs, *lambda_runs] if h.cfg.data_seed == seed]):
        lam = float(h.cfg.weight_decay)
        onset, end = (measure.first_crossing(h, "test_acc", q) for q in (measure.START_ACC, measure.END_ACC))
        rows.append({"alpha": h.cfg.alpha, "lambda": lam, "steps": int(h.steps[-1]),
                     "first step": float(f"{h['lr'][0]:.3g}"),
                     "lr x S at init": rounded(h["lr"][0] * regimes.sharpness_at_init(h.cfg)),
                     "max lr x S": rounded(h.meta.get("max_lr_sharpness", math.nan)),
                     "onset lambda t": rounded(lam * onset.t, 2) if onset else math.nan,
                     "end lambda t": rounded(lam * end.t, 2) if end else math.nan,
                     "end t": rounded(end.t, 0) if end else math.nan,
                     "stop lambda t": rounded(lam * float(h["t"][-1]), 2),
                     "final test acc": rounded(h.final("test_acc"))})
    return rows


def stable_seeds_table(groups: Groups, stable_runs: Sequence[History]) -> list[dict]:
    """The in-regime runs' onset and end on lambda t at every seed, the same settings."""
    alpha_runs, _ = stable_sweeps(groups, stable_runs)
    tables = {s: stable_table(groups, stable_runs, s) for s in seeds(alpha_runs)}
    return seeds_table(tables, ("alpha", "lambda"), ("onset lambda t", "end lambda t"))


def modadd_seeds_table(groups: Groups) -> list[dict]:
    """Modular addition's transition end steps and end times at every seed."""
    seeds = selection.seeds(groups["alpha"])
    return seeds_table({s: modadd_table(groups, s) for s in seeds}, ("alpha", "lambda"),
                       ("end step", "end t", "final test acc"))


def modadd_reading(groups: Groups) -> dict[str, str]:
    """The numbers and orderings the modular-addition page states about its figure (the first seed's runs), and
    the spread over seeds, as Markdown for :func:`grok_lib.display.glue`."""
    alpha_sweep, lambda_sweep = seed_sweeps(groups)
    rows = {(r["alpha"], r["lambda"]): r for r in modadd_table(groups)}
    a_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in alpha_sweep]
    l_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in lambda_sweep]
    fit_a, fit_l = modadd_fit_table(groups)
    shifts = modadd_shift_table(groups)
    fits = [r["train acc 1 at"] for r in rows.values()]
    fracs = [r["end frac"] for r in rows.values() if r["end frac"] != "n/a"]  # none without an alpha > 1
    seeds = selection.seeds(groups["alpha"])
    return {
        "ma_first": shown(min(r["start step"] for r in rows.values())),
        "ma_last": shown(max(r["end step"] for r in rows.values())),
        "ma_lambda_order": order_phrase([r["end step"] for r in l_rows], "the larger λ, the later",
                                        "the larger λ, the earlier", "in no simple order of λ"),
        "ma_lambda_fracs": ", ".join(shown(r["end frac"], ".2f") for r in l_rows),
        "ma_lambda_frac_order": order_phrase([r["end frac"] for r in l_rows], "later on the clock for larger λ",
                                             "earlier on the clock for larger λ", "in no order of λ on the clock"),
        "ma_alpha_ends": ", ".join(f"{shown(r['end step'])} (α = {r['alpha']:g})" for r in a_rows),
        "ma_alpha_frac_order": order_phrase([r["end frac"] for r in a_rows if r["end frac"] != "n/a"],
                                            "move away from it as α grows", "move toward it as α grows",
                                            "do not move steadily toward it"),
        "ma_alpha_fracs": " → ".join(shown(r["end frac"], ".2f") for r in a_rows if r["end frac"] != "n/a"),
        "ma_fracs_range": f"{shown(min(fracs, default=math.nan), '.2f')}–{shown(max(fracs, default=math.nan), '.2f')}",
        "ma_r2_lambda": shown(fit_l["R^2"], ".3f"), "ma_slope_lambda": shown(fit_l["slope"], ".2f"),
        "ma_ratio_lambda": shown(fit_l["ratio"], ".2f"),
        "ma_ratio_alpha": shown(fit_a["ratio"], ".2f"), "ma_r2_alpha": shown(fit_a["R^2"], ".2f"),
        "ma_se_alpha": shown(fit_a["+-"] / fit_a["theory slope"], ".2f") if isinstance(fit_a["+-"], float) else "n/a",
        "ma_shifts": "; ".join(f"{r['alpha'].replace('->', 'to')}: Δt = {shown(r['shift of end t'])}, "
                               f"{shown(r['ratio'], '.2f')} of ln(α₂/α₁)/λ = {shown(r['ln(a2/a1)/lambda'])}"
                               for r in shifts),
        "ma_fit_range": f"{shown(min(fits))}–{shown(max(fits))}",
        "ma_seeds": f"{len(seeds)}",
    }


def modadd_claim_reading(groups: Groups, stable_runs: Sequence[History], paper_configs: Sequence = ()) -> dict[str, str]:
    """What the modular-addition page states about its in-regime runs (``stable_runs``: the chapter's claim-only runs)
    and the regime of its figure runs and of the paper's settings (``paper_configs``), as Markdown for
    :func:`grok_lib.display.glue`."""
    alpha_runs, lambda_runs = stable_sweeps(groups, stable_runs)
    every = unique([*alpha_runs, *lambda_runs])
    figure_runs = unique([*groups["alpha"], *groups["weight_decay"]])
    fixed = {h.cfg.alpha: h.cfg.lr * regimes.sharpness_at_init(h.cfg) for h in figure_runs if h.cfg.data_seed == figure_runs[0].cfg.data_seed}
    largest = max(every, key=lambda h: h.cfg.alpha)
    seeds = selection.seeds(alpha_runs)
    per_seed = sweeps_by_seed(alpha_runs, lambda_runs)

    def times(runs, level):  # lambda t at the crossing of ``level``, per run
        return " / ".join(f"{float(h.cfg.weight_decay) * crossing_t(h, level):.2f}" for h in runs)

    base = every[0].cfg
    paper = {c.alpha: c.lr * regimes.sharpness_at_init(c) for c in paper_configs}
    stable_fixed = [a for a, v in sorted(fixed.items()) if v < regimes.GD_STABLE]
    biggest = max(figure_runs, key=lambda h: h.cfg.alpha).cfg
    s_big = regimes.sharpness_at_init(biggest)
    return {
        "ma_fixed_stable": ("α = " + ", ".join(f"{a:g}" for a in stable_fixed)) if stable_fixed else "no α",
        "ma_paper_products": ", ".join(f"{shown(v, '.2g')} (α = {a:g})" for a, v in sorted(paper.items())) or "not measured",
        "ma_paper_stable": ("every α it ran" if paper and all(v < regimes.GD_STABLE for v in paper.values())
                            else "not every α it ran"),
        "ma_skipped_alpha": f"{biggest.alpha:g}", "ma_skipped_sharpness": f"{s_big:.3g}",
        "ma_skipped_steps": f"{s_big / (2 * biggest.weight_decay * base.stable_c):,.0f}",
        "ma_fixed_lr": f"{figure_runs[0].cfg.lr:g}",
        "ma_fixed_products": ", ".join(f"{shown(v, '.3g')} (α = {a:g})" for a, v in sorted(fixed.items())),
        "ma_stable_c": f"{base.stable_c:g}", "ma_stable_cap": f"{base.lr:g}",
        "ma_stable_every": f"{base.sharpness_every}", "ma_stable_stop": f"{base.stop_lambda_t:g}",
        "ma_stable_alphas": ", ".join(f"{a:g}" for a in sorted({h.cfg.alpha for h in alpha_runs})),
        "ma_stable_lambdas": ", ".join(f"{x:g}" for x in sorted({h.cfg.weight_decay for h in lambda_runs})),
        "ma_stable_lambda": f"{alpha_runs[0].cfg.weight_decay:g}", "ma_stable_alpha": f"{lambda_runs[0].cfg.alpha:g}",
        "ma_stable_runs": f"{len(every)}", "ma_stable_seeds": ", ".join(str(x) for x in seeds),
        "ma_stable_init": shown(max(h["lr"][0] * regimes.sharpness_at_init(h.cfg) for h in every), ".3g"),
        "ma_stable_worst": shown(max(h.meta.get("max_lr_sharpness", math.nan) for h in every), ".3g"),
        "ma_stable_largest_steps": " / ".join(f"{int(h.steps[-1]):,}" for h in every if h.cfg.alpha == largest.cfg.alpha),
        "ma_stable_largest": f"{largest.cfg.alpha:g}",
        "ma_stable_first_step": shown(min(h["lr"][0] for h in every), ".2g"),
        # their steps at the kind's cost per step, not the runs' wall time: a build on a loaded machine would change it
        "ma_stable_seconds": f"{sum(kind_of(h.cfg).step_seconds(h.cfg.to_dict()) * int(h.steps[-1]) for h in every):.0f}",
        "ma_stable_onsets": "; ".join(f"seed {s}: {times(a, measure.START_ACC)}" for s, a, _ in per_seed),
        "ma_stable_ends": "; ".join(f"seed {s}: {times(a, measure.END_ACC)}" for s, a, _ in per_seed),
        "ma_stable_lambda_onsets": "; ".join(f"seed {s}: {times(lam, measure.START_ACC)}" for s, _, lam in per_seed),
        "ma_stable_lambda_ends": "; ".join(f"seed {s}: {times(lam, measure.END_ACC)}" for s, _, lam in per_seed),
        "ma_stable_slopes": "; ".join(
            f"seed {s}: " + " / ".join(shown(measure.try_fit(log_alpha_clock, a, q), ".2f")
                                      for q in (measure.START_ACC, measure.END_ACC)) for s, a, _ in per_seed),
        "ma_stable_finals": f"{min(h.final('test_acc') for h in every):.3f}–{max(h.final('test_acc') for h in every):.3f}",
    }


def describe(run: Run) -> str:
    """The line the notebook prints: the first seed's sweeps (the figures')."""
    alpha_sweep, lambda_sweep = seed_sweeps(run.groups)
    return (f"profile {run.profile!r}: alpha sweep {[h.cfg.alpha for h in alpha_sweep]} at lambda "
            f"{alpha_sweep[0].cfg.weight_decay:g}; lambda sweep {[h.cfg.weight_decay for h in lambda_sweep]} at "
            f"alpha {lambda_sweep[0].cfg.alpha:g}")


def intro_reading(run: Run) -> dict[str, str]:
    """The transition's levels and the net's width here and in the paper."""
    return dict(ma_onset_acc=f"{ONSET_ACC:g}", ma_end_acc=f"{END_ACC:g}", ma_paper_width=f"{paper_alphas()[0].width:,}",
                ma_width=f"{seed_sweeps(run.groups)[0][0].cfg.width:,}")


def sweeps_reading(run: Run) -> dict[str, str]:
    """The sweeps (:func:`modadd_reading`) and the in-regime runs the claims read (:func:`modadd_claim_reading`)."""
    return {**modadd_reading(run.groups), **modadd_claim_reading(run.groups, run.claim_histories, paper_alphas())}


def verdicts_reading(run: Run) -> dict[str, str]:
    """The verdicts on the in-regime runs and at the fixed step, in words."""
    results = evaluate(run)
    return dict(ma_verdicts=verdict_reading(results), ma_fixed_verdicts=verdict_reading(evaluate_modadd_fixed(run.groups)),
                ma_regime=regime_reading(results[0]), ma_fixed_setting=f"`{FIXED_LR}`")


def modadd_fits(alpha_sweep: Sequence[History], lambda_sweep: Sequence[History]) -> plt.Figure:
    """Modular addition: end time t (test accuracy >= 0.9) against ln(alpha) and against 1 / lambda, with the
    least-squares lines and the theory's slopes (1 / lambda, ln alpha)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.8, 3.3), layout="constrained")
    lam = float(alpha_sweep[0].cfg.weight_decay)
    la = [math.log(float(h.cfg.alpha)) for h in alpha_sweep]
    slope_fit(la, measure.transition_times(alpha_sweep), measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), r"$\ln\alpha$",
              ylabel=r"end time $t$ = lr $\times$ step", theory_slope=1 / lam, ax=axes[0])
    axes[0].set_title(rf"(a) against $\ln\alpha$ ($\lambda$={lam:g})")
    alpha = float(lambda_sweep[0].cfg.alpha)
    inv = [1 / float(h.cfg.weight_decay) for h in lambda_sweep]
    slope_fit(inv, measure.transition_times(lambda_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep),
              r"$1/\lambda$", ylabel=r"end time $t$ = lr $\times$ step",
              theory_slope=math.log(alpha) if alpha > 1 else None, ax=axes[1])
    axes[1].set_title(rf"(b) against $1/\lambda$ ($\alpha$={alpha:g})")
    return fig


def draw_modadd_sweeps(groups):
    return sweeps_figure(*seed_sweeps(groups), logx=False)  # the first seed's sweeps


def draw_modadd_fits(groups):
    return modadd_fits(*seed_sweeps(groups))


MODADD_SWEEPS = Figure("paper_b/modadd_sweeps", "Paper B: the two-layer ReLU net on modular addition, α and λ sweeps "
                       "against steps and the clock", modadd_sweeps_numbers, draw_modadd_sweeps)
MODADD_FITS = Figure("paper_b/modadd_fits", "Paper B: modular addition, transition time against ln α and against 1 / λ",
                     modadd_fits_numbers, draw_modadd_fits)
CHAPTER = Chapter("notebooks/paper_b/modular_addition.ipynb", run, modadd_configs, (MODADD_SWEEPS, MODADD_FITS),
                  claim_runs=stable_modadd_configs, claims=tuple(CLAIMS))
