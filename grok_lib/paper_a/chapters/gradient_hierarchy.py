"""Prop. 4.2 of Paper A (``notebooks/paper_a/gradient_hierarchy.ipynb``): per-block gradient norms, their bounds and
AdamW's updates; the claim A.prop42.head_dominated with its bar and check, the phase tables, the numbers the prose
quotes and the figure."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...chapters import Chapter, deferred, Figure
from ...claims import registry
from ...clocks import grokking_epoch, t_cls
from ...figure_numbers import at_epochs
from ...grading import Bar, Claim, draw, grade, Result
from ...history import History
from ...notebook import Run
from ...tables import typeset
from .. import config
from ..claim_terms import ABSTRACT, FIT_EPS, FIT_EPS_GRID, FIT_LEVEL
from ..curve_numbers import FIG1_EPOCHS, shown, tag
from ..draws import members, regime, sorted_sweeps, Sweeps
from ..panels import weight_decay_colors
from ..robustness import largest_weight_decay, seed_of, seed_table, seed_verdicts, spread_table
from ..run_sets import judged_seeds, mlp as run, paper_splits, seed_sweeps
from ..run_sets import describe  # noqa: F401 (the line its notebook prints after the setup call)
from ..run_sets import paper_settings_reading  # noqa: F401 (the recorded runs' settings its page states)
from ..words import seeds_phrase

plt = deferred("matplotlib.pyplot")
house_style = deferred("grok_lib.style")


HEAD_SHARE = Bar(lo=0.9)  #: share of the fitting phase's epochs with ||grad_U|| > ||grad_E||


CLAIMS = registry([
    Claim(
        "A.prop42.head_dominated", "A", "claim", "text", f"Prop. 4.2 and {ABSTRACT}",
        "the classifier head can receive larger effective gradients than the embedding block under controlled "
        "downstream norms",
        "While the training set is being fitted, the head's gradient is larger than the embeddings'.",
        "share of the fitting phase's epochs (before T_cls(ε)) with ‖∇_U L‖ > ‖∇_E L‖, per weight decay",
        HEAD_SHARE, choices=(FIT_LEVEL,), bars=(Bar(lo=0.5), Bar(lo=0.99)), fmt=".2f",
        why="'larger' over a phase: on most of its epochs; the later phases are reported, not graded"),
])


def evaluate_gradients(sweeps: Sweeps) -> list[Result]:
    """Prop. 4.2: the head's gradient dominates the embeddings' while the training set is fitted (graded on the
    fitting phase, in epochs; the later phases and the AdamW update ratio are reported)."""
    sweeps = sorted_sweeps(sweeps)
    claim = CLAIMS["A.prop42.head_dominated"]
    draws = [draw([head_share_by_phase(h, eps)["fitting"] for h in hs], seed_of(hs), (eps,), members(hs))
             for hs in sweeps for eps in claim.choices[0].grid]
    later = "; ".join(f"seed {seed_of(hs)}: " + ", ".join(
        f"{head_share_by_phase(h, FIT_EPS)['plateau']:.2f}/{head_share_by_phase(h, FIT_EPS)['late']:.2f}" for h in hs)
        for hs in sweeps)
    upd = "; ".join(f"seed {seed_of(hs)}: " + ", ".join(
        f"{float(np.nanmedian(gradient_ratios(h)['update_U/update_E'])):.2f}" for h in hs) for hs in sweeps)
    return [grade(claim, draws, f"reported, not graded: the same share on the plateau / late phase, per weight decay: "
                                f"{later}; median AdamW update ratio U/E over the run: {upd}", regime=regime(sweeps))]


def evaluate(run: Run) -> list[Result]:
    """The chapter's claim on the sweeps the verdicts are judged on (:func:`evaluate_gradients`)."""
    return evaluate_gradients(judged_seeds(run))


def gradient_ratios(history: History) -> dict[str, np.ndarray]:
    """Head-to-embedding ratios per recorded epoch: raw gradient norms and AdamW's relative updates."""
    return {
        "grad_U/grad_E": history["grad_U"] / history["grad_E"],
        "grad_W/grad_E": history["grad_W"] / history["grad_E"],
        "update_U/update_E": history["update_U"] / history["update_E"],
    }


def gradient_table(histories: Sequence[History]) -> list[dict]:
    """Median gradient and update ratios while fitting (before T_cls(1e-3)) and after, and the norms."""
    rows = []
    for h in histories:
        r = gradient_ratios(h)
        t_fit = t_cls(h, FIT_EPS)
        early, late = h.steps < t_fit, h.steps >= t_fit
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": t_fit,
                     "grad U/E fit": round(float(np.median(r["grad_U/grad_E"][early])), 2),
                     "grad U/E after": round(float(np.median(r["grad_U/grad_E"][late])), 2),
                     "update U/E fit": round(float(np.nanmedian(r["update_U/update_E"][early])), 2),
                     "update U/E after": round(float(np.nanmedian(r["update_U/update_E"][late])), 2),
                     "|U|2 at fit": round(h.at("spec_U", t_fit), 2), "|W|2 at fit": round(h.at("spec_W", t_fit), 2),
                     "|U|2 end": round(h.final("spec_U"), 2)})
    return rows


def gradient_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Gradient-hierarchy figure: gradient norms, bound factors and update sizes at fixed epochs."""
    names = ("grad_E", "grad_W", "grad_U", "spec_U", "spec_W", "mean_delta_h", "mean_delta_z", "mean_delta_B",
             "update_E", "update_U")
    values: dict[str, float | None] = {}
    for h in histories:
        values |= at_epochs(h, names, tag(h), FIG1_EPOCHS[:-1])
    return values


def gradient_phase_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the phases (at ε = 1e-3) and the share of each phase's epochs with ||grad_U|| > ||grad_E||,
    and the fitting phase's share at every ε of the grid."""
    rows = []
    for h in histories:
        bounds = phases(h, FIT_EPS)
        shares = head_share_by_phase(h, FIT_EPS)
        row = {"weight_decay": h.cfg.weight_decay}
        for name, (lo, hi) in bounds.items():
            row[f"{name} epochs"] = f"{lo:.0f}–{hi:.0f}"
            row[f"{name} share"] = shown(shares[name], 2)
        row |= {f"fitting share, ε={e:.0e}": shown(head_share_by_phase(h, e)["fitting"], 2)
                for e in FIT_EPS_GRID if e != FIT_EPS}
        rows.append(row)
    return rows


def phase_share_table(histories: Sequence[History]) -> list[dict]:
    """Per λ: the phase boundaries (T_cls(1e-3), T_grok(95%)) and the share of each phase's epochs
    with ||grad_U|| > ||grad_E||, as plain numbers (what the seed spread reads)."""
    rows = []
    for h in histories:
        bounds = phases(h, FIT_EPS)
        shares = head_share_by_phase(h, FIT_EPS)
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": bounds["plateau"][0],
                     "T_grok(95%)": bounds["late"][0]} | {f"{name} share": round(v, 2) for name, v in shares.items()})
    return rows


def epoch_share(steps: np.ndarray, flags: np.ndarray, start: float, stop: float) -> float:
    """The share of the epochs in [start, stop) at which ``flags`` holds, each recorded value
    standing for the epochs up to the next record (records are log-spaced early, so a share of
    *records* would overweight the first few hundred epochs). NaN for an empty phase."""
    steps = np.asarray(steps, dtype=float)
    lo, hi = steps, np.append(steps[1:], steps[-1])
    span = np.clip(np.minimum(hi, stop) - np.maximum(lo, start), 0, None)
    total = span.sum()
    return float((span * np.asarray(flags, dtype=bool)).sum() / total) if total > 0 else math.nan


def phases(history: History, fit_eps: float) -> dict[str, tuple[float, float]]:
    """The three phases of a run: fitting (before T_cls(fit_eps)), plateau (to T_grok(95%)), late
    (to the end). A phase the run never reaches is empty."""
    end = float(history.steps[-1])
    fit = t_cls(history, fit_eps)
    grok = grokking_epoch(history)
    fit = end if math.isnan(fit) else fit
    grok = end if math.isnan(grok) else max(grok, fit)
    return {"fitting": (0.0, fit), "plateau": (fit, grok), "late": (grok, end)}


def head_share_by_phase(history: History, fit_eps: float) -> dict[str, float]:
    """Per phase: the share of its epochs with ||grad_U|| > ||grad_E||."""
    above = history["grad_U"] / history["grad_E"] > 1
    return {name: epoch_share(history.steps, above, lo, hi) for name, (lo, hi) in phases(history, fit_eps).items()}


def late_lost(histories: Sequence[History]) -> list[tuple[float, float]]:
    """(share of the late phase's epochs on which the head's gradient is not the larger one, weight decay) per run
    that reaches the late phase (:func:`gradient_phase_table`)."""
    return [(1 - r["late share"], r["weight_decay"]) for r in gradient_phase_table(histories)
            if isinstance(r["late share"], (int, float))]  # not "never"


#: The verdict of A.prop42.head_dominated in the prose's words.
HIERARCHY_READINGS = {
    "reproduced": "So the hierarchy holds where the paper uses it — the fitting phase — and fades in the slow "
                  "phase.",
    "inconclusive": "So the hierarchy holds where the paper uses it — the fitting phase — for some seeds, levels "
                    "ε or bars only, and fades in the slow phase.",
    "not reproduced": "So the hierarchy does not hold where the paper uses it, the fitting phase.",
    "not tested faithfully": "These runs do not test the hierarchy faithfully (the transition does not "
                             "complete within them)."}


def hierarchy_reading(run: Run) -> dict[str, str]:
    """The claim as declared and graded (:func:`evaluate`), and the ratios, norms and shares of
    :func:`gradient_table` and :func:`late_lost` that the reading quotes."""
    rows = gradient_table(run.histories)
    grad_fit, grad_after, update_fit, update_after, spec_u_fit, spec_w_fit = (
        [r[k] for r in rows if math.isfinite(r[k])]  # nan: a phase the run never reaches
        for k in ("grad U/E fit", "grad U/E after", "update U/E fit", "update U/E after", "|U|2 at fit", "|W|2 at fit"))
    lost = late_lost(run.histories)
    judged = judged_seeds(run)
    result = evaluate_gradients(judged)[0]
    claim = CLAIMS["A.prop42.head_dominated"]
    return dict(
        judged_seeds=seeds_phrase(judged),
        grad_declared=typeset(f"a share {claim.threshold}, at {claim.grid}"),
        grad_regime=typeset(f"{result.regime.quantity}: {result.regime.measured}" if result.regime is not None
                            else "no regime check"),
        fit_levels=", ".join(typeset(f"{e:.0e}") for e in claim.choices[0].grid),
        grad_fit=f"{min(grad_fit):.1f}–{max(grad_fit):.1f}" if grad_fit else "n/a",
        spec_init=f"{float(run.histories[0]['spec_U'][0]):.2f} and {float(run.histories[0]['spec_W'][0]):.2f}",
        spec_fit=((f"{min(spec_u_fit):.1f}–{max(spec_u_fit):.1f}" if spec_u_fit else "n/a") + " and "
                  + (f"{min(spec_w_fit):.1f}–{max(spec_w_fit):.1f}" if spec_w_fit else "n/a")),
        grad_after=f"{min(grad_after):.2f}–{max(grad_after):.2f}" if grad_after else "n/a",
        late_lost_most=f"{max(lost)[0]:.0%}" if lost else "n/a",
        late_lost_most_wd=f"{max(lost)[1]:g}" if lost else "n/a",
        update_more=(("even more" if min(update_fit) > max(grad_fit, default=math.nan) else "more"
                      if min(update_fit) > 1 else "less") if update_fit else "n/a"),
        update_fit=f"{min(update_fit):.1f}–{max(update_fit):.1f}" if update_fit else "n/a",
        update_after=f"{min(update_after):.2f}–{max(update_after):.2f}" if update_after else "n/a",
        hierarchy_reading=HIERARCHY_READINGS[result.verdict],
    )


def phases_reading(run: Run) -> dict[str, str]:
    """The head's lead phase by phase on this page's runs (:func:`gradient_phase_table`, :func:`late_lost`)."""
    phase_rows = gradient_phase_table(run.histories)
    lost = late_lost(run.histories)
    fit_shares = [r[k] for r in phase_rows for k in r
                  if k.startswith("fitting share") and isinstance(r[k], (int, float))]  # not "never"
    plateau_shares = [r["plateau share"] for r in phase_rows if isinstance(r["plateau share"], (int, float))]
    return dict(
        default_fit_plateau=(
            "n/a (a phase these runs never reach)" if not fit_shares or not plateau_shares else
            "the head's gradient is the larger one on every epoch of the fitting phase (at every ε) and of the "
            "plateau up to $T_{\\mathrm{grok}}$"
            if min(fit_shares) == 1 and min(plateau_shares) == 1 else
            f"the head's gradient is the larger one on at least {min(fit_shares):.0%} of the fitting phase's epochs "
            f"(at every ε) and {min(plateau_shares):.0%} of the plateau's, up to $T_{{\\mathrm{{grok}}}}$"),
        default_late_part=("part of the late epochs, a share that grows with λ"
                           if all(a <= b for (a, _), (b, _) in zip(lost, lost[1:])) else "part of the late epochs"),
        default_late_lost=", ".join(f"{share:.0%} at λ = {wd:g}" for share, wd in lost) or "n/a",
    )


def paper_reading(run: Run) -> dict[str, str]:
    """The recorded runs at the paper's settings (:func:`paper_splits`) phase by phase, the shares over the whole
    run, and whether the claim holds at both lengths and splits (with this page's verdict, :func:`evaluate`)."""
    paper = paper_splits()
    paper_phase = [r for hs in paper.values() for r in gradient_phase_table(hs)]
    paper_runs = [h for hs in paper.values() for h in hs]
    paper_fit_shares = [r[k] for r in paper_phase for k in r if k.startswith("fitting share")]
    paper_late = [r["late share"] for r in paper_phase]
    late_part = [1 - phases(h, FIT_EPS)["late"][0] / float(h.steps[-1]) for h in paper_runs]
    whole_run = [epoch_share(h.steps, h["grad_U"] / h["grad_E"] > 1, 0, float(h.steps[-1])) for h in paper_runs]
    whole_records = [float(np.mean(h["grad_U"] / h["grad_E"] > 1)) for h in paper_runs]
    all_verdicts = [evaluate(run)[0].verdict] + [evaluate_gradients([hs])[0].verdict for hs in paper.values()]
    return dict(
        paper_fit_plateau=("on every epoch of the fitting phase and the plateau"
                           if min(paper_fit_shares) == 1 and min(r["plateau share"] for r in paper_phase) == 1
                           else f"on at least {min(paper_fit_shares):.0%} of the fitting phase's epochs and "
                                f"{min(r['plateau share'] for r in paper_phase):.0%} of the plateau's"),
        paper_late=f"{100 * min(paper_late):.0f}–{100 * max(paper_late):.0f}%",
        late_part=f"{100 * min(late_part):.0f}–{100 * max(late_part):.0f}%",
        whole_run=f"{min(whole_run):.2f}–{max(whole_run):.2f}",
        whole_records=f"{min(whole_records):.2f}–{max(whole_records):.2f}",
        paper_fit_min=f"{min(paper_fit_shares):.2f}",
        holds_everywhere=("where the claim is reproduced at both lengths and both splits"
                          if all(v == "reproduced" for v in all_verdicts)
                          else "where the claim is not reproduced at every length and split (verdicts above)"),
    )


def seed_spread_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """Every column of :func:`phase_share_table` as median [min–max] over the seeds' sweeps (``seeds``)."""
    return spread_table([phase_share_table(s) for s in seeds])


def seed_verdict_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """The claim graded on each seed's sweep alone and on all of them (:func:`evaluate_gradients`)."""
    return seed_table(evaluate_gradients, seeds)


def seeds_reading() -> dict[str, str]:
    """The recorded seeds (:func:`seed_sweeps`) in words: the claim graded on each seed alone, the early phases'
    shares and the late phase's widest spread (:func:`phase_share_table`)."""
    seeds = seed_sweeps()
    seed_tables = [phase_share_table(s) for s in seeds]
    seed_verdict = seed_verdicts(evaluate_gradients, seeds)["A.prop42.head_dominated"]  # each seed alone
    seed_late = max((max(v) - min(v), rows[0]["weight_decay"], min(v), max(v))
                    for rows in zip(*seed_tables) for v in [[r["late share"] for r in rows]])
    seed_early = [r[k] for t in seed_tables for r in t for k in ("fitting share", "plateau share")]
    return dict(
        seed_same=(f"Graded on each seed alone, the claim is **{seed_verdict[0].word}** for all {len(seeds)} seeds"
                   if len({r.verdict for r in seed_verdict}) == 1
                   else "Graded on each seed alone, the verdict differs between seeds (" + ", ".join(
                       f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, seed_verdict))
                   + "), so over the seeds the claim is inconclusive"),
        seed_early=("the head's gradient is the larger one on every epoch of the fitting phase and the plateau for "
                    "every seed" if min(seed_early) == 1 else
                    f"the head's gradient is the larger one on at least {min(seed_early):.0%} of the epochs of the "
                    "fitting phase and the plateau"),
        seed_late_wd=f"{seed_late[1]:g}", seed_late=f"{seed_late[2]:.2f}–{seed_late[3]:.2f}",
    )


#: The legend labels of Prop. 4.2's full-batch bounds: each is a weighted mean over the training pairs of
#: per-sample factors (train.record_member), which bounds the full-batch gradient (a weighted sum of the
#: per-sample gradients) by the triangle inequality; for U the per-sample factor is the per-sample norm itself.
BOUND_LABELS = {
    "U": "bound for U: mean of the per-sample $\\|\\nabla_U \\ell_i\\|$\n(loose: per-sample gradients cancel in the sum)",
    "W": r"bound for W: $\|U\|_2\,\cdot$ mean of $\|\delta_i\|\,\|z_i\|$",
    "E": r"bound for E: $\|U\|_2\|W\|_2\,\cdot$ mean of $\|B_i\|\,\|\delta_i\|$",
}


def plot_gradient_norms(ax, history: History, legend: bool = True) -> None:
    """||grad|| of U, W, E (solid) and Prop. 4.2's bounds on the same run (dashed), log scale; the
    legend (gradients in one column, their bounds in the other) below the axes."""
    x = house_style.epochs(history)
    bounds = {
        "U": history["mean_delta_h"],
        "W": history["spec_U"] * history["mean_delta_z"],
        "E": history["spec_W"] * history["spec_U"] * history["mean_delta_B"],
    }
    for block, color in (("U", "#7b3294"), ("W", "#008837"), ("E", "#e66101")):
        ax.plot(x, history[f"grad_{block}"], color=color, label=f"$\\|\\nabla_{block}\\|$")
        ax.plot(x, bounds[block], color=color, ls="--", lw=1.0, label=BOUND_LABELS[block])
    house_style.log_scale_where_positive(ax)  # a one-step run may have no positive gradient to draw
    ax.set_xlabel("epoch")
    ax.set_ylabel("gradient norm of the train loss")
    if legend:  # below the axes: inside, the bounds' labels covered the late gradients
        handles, labels = ax.get_legend_handles_labels()
        order = [0, 2, 4, 1, 3, 5]  # the gradients in the first column, their bounds in the second
        ax.legend([handles[i] for i in order], [labels[i] for i in order], ncol=2, fontsize=7,
                  loc="upper center", bbox_to_anchor=(0.5, -0.15))


def plot_ratio_curves(ax, histories: Sequence[History], ratios: dict, name: str) -> None:
    """One ratio curve per weight decay (``ratios`` maps a weight decay to an array), log x."""
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        wd = h.cfg.weight_decay
        ax.plot(house_style.epochs(h), ratios[wd], color=colors[wd], label=f"λ = {wd:g}", lw=1.1)
    ax.axhline(1.0, color="black", lw=0.8)
    house_style.log_scale_where_positive(ax)
    ax.set_xlabel("epoch")
    ax.set_ylabel(name)


def figure_gradients(histories: Sequence[History], focus: History, grad_ratios: dict, update_ratios: dict):
    """Gradient norms vs Prop. 4.2 bounds for one run; head/embedding ratios for all runs."""
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(13, 4.6), layout="constrained")
    plot_gradient_norms(a, focus)
    a.set_title(f"(a) gradients and Prop. 4.2 bounds, λ = {focus.cfg.weight_decay:g}", loc="left")
    plot_ratio_curves(b, histories, grad_ratios, r"$\|\nabla_U\| / \|\nabla_E\|$")
    b.set_title("(b) head / embedding gradient", loc="left")
    b.legend(fontsize=7)
    plot_ratio_curves(c, histories, update_ratios, "relative update U / E")
    c.set_title("(c) AdamW update, head / embedding", loc="left")  # the long form was clipped
    return fig


def draw_gradients(hs):
    ratios = {h.cfg.weight_decay: gradient_ratios(h) for h in hs}
    return figure_gradients(hs, largest_weight_decay(hs),
                            {wd: r["grad_U/grad_E"] for wd, r in ratios.items()},
                            {wd: r["update_U/update_E"] for wd, r in ratios.items()})


FIGURE = Figure("paper_a/gradient_hierarchy", "Paper A, Prop. 4.2: per-block gradient norms, their bounds, and "
                "AdamW's updates", gradient_numbers, draw_gradients)
CHAPTER = Chapter("notebooks/paper_a/gradient_hierarchy.ipynb", run, config.sweep, (FIGURE,), claims=tuple(CLAIMS))
