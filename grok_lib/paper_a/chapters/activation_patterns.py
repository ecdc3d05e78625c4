"""Sec. 5 of Paper A (``notebooks/paper_a/activation_patterns.ipynb``): churn of the training set's ReLU activation
patterns and the pattern-frozen reduction; the claim A.relu.frozen_patterns with its bar and check, the tables, the
numbers the prose quotes and the figure."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ...chapters import Chapter, deferred, Figure
from ...claims import registry
from ...clocks import t_cls
from ...figure_numbers import at_epochs
from ...grading import Bar, Choice, Claim, draw, grade, Result
from ...history import History
from ...notebook import Run
from ...tables import typeset
from .. import config
from ..claim_terms import ABSTRACT, FIT_EPS
from ..clocks import t_rep_srank
from ..curve_numbers import FIG1_EPOCHS, PATTERN_EPOCH, shown, tag
from ..draws import members, regime, sorted_sweeps, Sweeps
from ..panels import weight_decay_colors
from ..relu_reduction import churn_rate, CHURN_WINDOW, FROZEN_CHURN, frozen_epoch, reduction_error
from ..robustness import seed_of, seed_table, seed_verdicts, spread_table
from ..run_sets import judged_seeds, mlp as run, paper_splits, seed_sweeps
from ..run_sets import describe  # noqa: F401 (the line its notebook prints after the setup call)
from ..run_sets import paper_settings_reading  # noqa: F401 (the recorded runs' settings its page states)
from ..words import seeds_phrase

plt = deferred("matplotlib.pyplot")
house_style = deferred("grok_lib.style")


FROZEN_CHURN_GRID = (3e-4, 1e-3, 3e-3)  #: churn (bits flipped per 50 epochs) below which patterns count as frozen


FROZEN_BEFORE = Bar(hi=1.0)  #: the frozen epoch at or before T_rep


CLAIMS = registry([
    Claim(
        "A.relu.frozen_patterns", "A", "premise", "text", f"Sec. 5 and {ABSTRACT}",
        "in regions where the activation patterns on the training set remain fixed, the network reduces to a linear "
        "model in the active coordinates (the review printed on the paper's page: never checked empirically)",
        "In the slow phase the training set's activation patterns freeze before the representation clock stops.",
        "the epoch from which the patterns' churn (bits flipped per 50 epochs) stays below c, over T_rep "
        "(never frozen: no value), per weight decay",
        FROZEN_BEFORE, choices=(Choice("churn level c", 1e-3, FROZEN_CHURN_GRID, "the paper names none", ".0e"),),
        fmt=".2f"),
])


def evaluate_activations(sweeps: Sweeps) -> list[Result]:
    """Sec. 5's premise: activation patterns freeze before the representation clock stops (at every churn level
    of the grid). The reduced-model check needs a run's kept weights, so it is reported where they are kept."""
    sweeps = sorted_sweeps(sweeps)
    claim = CLAIMS["A.relu.frozen_patterns"]
    draws = [draw([frozen_epoch(h, c) / t_rep_srank(h) for h in hs], seed_of(hs), (c,), members(hs))
             for hs in sweeps for c in claim.choices[0].grid]
    late = "; ".join(f"seed {seed_of(hs)}: " + ", ".join(
        f"{float(np.nanmedian(churn_rate(h)[h.steps >= t_cls(h, FIT_EPS)])):.4f}" for h in hs) for hs in sweeps)
    text = f"median churn per 50 epochs after T_cls(1e-3), per weight decay: {late}"
    focus = sweeps[0][-1]
    if "W" in focus.snapshots:
        err = reduction_to_end(focus)
        text += (f"; λ={focus.cfg.weight_decay:g}, the pattern of epoch 1000 held to the end: "
                 f"{err['bits_changed']:.3f} of bits differ, relative logit error {err['rel_logit_error']:.2f}")
    return [grade(claim, draws, text, regime=regime(sweeps))]


def evaluate(run: Run) -> list[Result]:
    """The chapter's claim on the sweeps its verdicts are judged on (:func:`judged_seeds`)."""
    return evaluate_activations(judged_seeds(run))


def activation_marks(histories: Sequence[History]) -> dict[float, tuple[float, float]]:
    """λ -> (T_cls(1e-3), T_rep): the two clocks marked on the churn plot."""
    return {h.cfg.weight_decay: (t_cls(h, FIT_EPS), t_rep_srank(h)) for h in histories}


def reduction_to_end(history: History) -> dict[str, float]:
    """The reduced model with the pattern of :data:`PATTERN_EPOCH` held to the last step."""
    return reduction_error(history, PATTERN_EPOCH, int(history.steps[-1]))


def activation_table(histories: Sequence[History]) -> list[dict]:
    """Per run: both clocks, the frozen epoch, and the reduced model's error over two spans."""
    marks = activation_marks(histories)
    rows = []
    for h in histories:
        end = int(h.steps[-1])
        err, near = reduction_to_end(h), reduction_error(h, end - 500, end)
        t_fit, t_rep = marks[h.cfg.weight_decay]
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": t_fit, "T_rep": t_rep,
                     "frozen epoch": frozen_epoch(h),
                     "bits 1000->end": round(err["bits_changed"], 3), "logit err 1000->end": round(err["rel_logit_error"], 3),
                     "same pred": round(err["same_prediction"], 3),
                     "bits last 500": round(near["bits_changed"], 3), "logit err last 500": round(near["rel_logit_error"], 3)})
    return rows


def activation_rates(histories: Sequence[History]) -> dict[float, np.ndarray]:
    """λ -> the churn rate per 50 epochs (what the figure plots), at the records at least 50 epochs
    after the previous one: the early records are a few epochs apart, and scaling one epoch's flips
    up to 50 epochs drew spikes that were the scaling's, not the run's."""
    out = {}
    for h in histories:
        gaps = np.diff(h.steps, prepend=h.steps[0])
        out[h.cfg.weight_decay] = np.where(gaps >= CHURN_WINDOW, churn_rate(h), np.nan)
    return out


def activation_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Activation-pattern figure: churn at fixed epochs and the reduced model's error, per weight decay."""
    values: dict[str, float | None] = {}
    for h in histories:
        values |= at_epochs(h, ("churn",), tag(h), FIG1_EPOCHS)
        for name, v in reduction_to_end(h).items():
            values[f"{tag(h)}/reduction_1000_end/{name}"] = v
    return values


def frozen_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The frozen epoch at every churn threshold of the grid, against T_rep, per λ."""
    return [{"weight_decay": h.cfg.weight_decay, "T_rep": shown(t_rep_srank(h))}
            | {f"frozen (c={c:g})": shown(v) for c, v in frozen_grid(h).items()} for h in histories]


def frozen_grid(history: History) -> dict[float, float]:
    """The frozen epoch at every churn threshold of :data:`FROZEN_CHURN_GRID`."""
    return {c: frozen_epoch(history, c) for c in FROZEN_CHURN_GRID}


def slow_phase_reading(run: Run) -> dict[str, str]:
    """The longest slow phase (T_rep - T_cls(1e-3), :func:`activation_marks`) in epochs, and the share of the pattern
    bits that could flip in it while the patterns count as frozen."""
    slow_phases = [t_rep - t_fit for t_fit, t_rep in activation_marks(run.histories).values()]
    slow_phase = max((d for d in slow_phases if math.isfinite(d)), default=math.nan)  # nan: no run reaches both clocks
    return dict(
        slow_phase_bits=f"{FROZEN_CHURN * slow_phase / CHURN_WINDOW:.0%}" if math.isfinite(slow_phase) else "n/a",
        slow_phase_epochs=f"{slow_phase:,.0f}" if math.isfinite(slow_phase) else "n/a",
    )


def _near_span(rows: Sequence[dict]) -> str:
    """The span (epochs before the end) of the "bits last ..." columns of :func:`activation_table`."""
    return next(k for k in rows[0] if k.startswith("bits last ")).removeprefix("bits last ")


def span_reading(run: Run) -> dict[str, str]:
    """The span of the table's "last ..." columns (:func:`activation_table`)."""
    return dict(near_span=_near_span(activation_table(run.histories)))


def churn_after_fit(histories: Sequence[History]) -> list[float]:
    """The median churn per 50 epochs after T_cls(1e-3) of each run that fits (a run that never fits has none)."""
    churn = [float(np.nanmedian(churn_rate(h)[h.steps >= t_cls(h, FIT_EPS)])) for h in histories]
    return [c for c in churn if math.isfinite(c)]


def premise_reading(run: Run) -> dict[str, str]:
    """The premise's verdict, its bar and grid, and the churn and reduced model behind it
    (:func:`churn_after_fit`, :func:`activation_table`), in words."""
    judged = judged_seeds(run)
    result = evaluate_activations(judged)[0]
    claim = CLAIMS["A.relu.frozen_patterns"]
    churn = churn_after_fit(run.histories)
    rows = activation_table(run.histories)
    near_span = _near_span(rows)
    n_frozen = sum(not math.isnan(r["frozen epoch"]) for r in rows)
    finite = {k: [r[k] for r in rows if isinstance(r[k], (int, float)) and math.isfinite(r[k])]
              for k in ("bits 1000->end", "logit err 1000->end", "same pred", "bits last " + near_span,
                        "logit err last " + near_span)}
    return dict(
        judged_seeds=seeds_phrase(judged),
        frozen_declared=typeset(f"{claim.threshold}, at {claim.grid}"),
        frozen_regime=typeset(f"{result.regime.quantity}: {result.regime.measured}" if result.regime is not None
                              else "no regime check"),
        churn_levels=", ".join(f"{c:g}" for c in claim.choices[0].grid),
        premise={"not reproduced": "The premise does not hold in these runs",
                 "inconclusive": "Whether the premise holds in these runs is inconclusive",
                 "reproduced": "The premise holds in these runs",
                 "not tested faithfully": "These runs do not test the premise faithfully"}[result.verdict],
        churn_after_fit=f"{100 * min(churn):.1f}–{100 * max(churn):.1f}%" if churn else "n/a",
        frozen_runs=("no run's patterns freeze" if n_frozen == 0
                     else f"{n_frozen} of the {len(rows)} runs' patterns freeze"),
        bits_end=(f"{min(finite['bits 1000->end']):.2f}–{max(finite['bits 1000->end']):.2f}"
                  if finite['bits 1000->end'] else "n/a"),
        logit_end=(f"{min(finite['logit err 1000->end']):.2f}–{max(finite['logit err 1000->end']):.2f}"
                   if finite['logit err 1000->end'] else "n/a"),
        same_pred=f"{min(finite['same pred']):.1%}" if finite['same pred'] else "n/a",
        bits_near=(f"{min(finite['bits last ' + near_span]):.3f}–{max(finite['bits last ' + near_span]):.3f}"
                   if finite['bits last ' + near_span] else "n/a"),
        logit_near=(f"{min(finite['logit err last ' + near_span]):.3f}–"
                    f"{max(finite['logit err last ' + near_span]):.3f}"
                    if finite['logit err last ' + near_span] else "n/a"),
    )


def threshold_reading(run: Run) -> dict[str, str]:
    """How the frozen epochs move with the churn threshold (:func:`frozen_sensitivity`), and the median churn after
    the fit (:func:`churn_after_fit`) against the book's threshold and the loosest one."""
    grid = frozen_sensitivity(run.histories)
    churn = churn_after_fit(run.histories)
    c_loose = max(FROZEN_CHURN_GRID)
    n_grid_frozen = sum(v != "never" for r in grid for k, v in r.items() if k.startswith("frozen"))
    grid_before_rep = all(v != "never" and v <= (r["T_rep"] if isinstance(r["T_rep"], (int, float))
                                                 else math.inf)  # T_rep never: no bound
                          for r in grid for k, v in r.items() if k.startswith("frozen"))
    return dict(
        grid_frozen=("No λ freezes" if n_grid_frozen == 0
                     else f"{n_grid_frozen} of the {len(grid) * len(FROZEN_CHURN_GRID)} (λ, c) pairs freeze"),
        churn_over_book=f"{math.floor(min(churn) / FROZEN_CHURN)}" if churn else "n/a",
        churn_over_loose=f"{math.floor(min(churn) / c_loose)}" if churn else "n/a", c_loose=f"{c_loose:g}",
        grid_depends="does not depend" if n_grid_frozen == 0 or grid_before_rep else "depends",
    )


def paper_reading() -> dict[str, str]:
    """The recorded runs at the paper's settings (:func:`paper_splits`): whether anything freezes at any threshold,
    and the median churn after the fit."""
    paper = paper_splits()
    paper_churn = churn_after_fit([h for hs in paper.values() for h in hs])
    paper_grid = [r for hs in paper.values() for r in frozen_sensitivity(hs)]
    n_paper_frozen = sum(v != "never" for r in paper_grid for k, v in r.items() if k.startswith("frozen"))
    return dict(
        paper_frozen=("Nothing freezes" if n_paper_frozen == 0
                      else f"{n_paper_frozen} of the {len(paper_grid) * len(FROZEN_CHURN_GRID)} (split, λ, c) cases "
                           f"freeze"),
        paper_churn=f"{100 * min(paper_churn):.1f}–{100 * max(paper_churn):.1f}%" if paper_churn else "n/a",
    )


def seed_spread_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """The frozen epochs (:func:`frozen_sensitivity`) over the seeds' sweeps, as median [min–max]
    (:func:`spread_table`)."""
    return spread_table([frozen_sensitivity(s) for s in seeds])


def seed_verdict_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """The premise graded on each seed's sweep alone and on all of them (:func:`seed_table`)."""
    return seed_table(evaluate_activations, seeds)


def seeds_reading() -> dict[str, str]:
    """The premise graded on each seed alone (:func:`seed_sweeps`), in words."""
    seeds = seed_sweeps()
    verdicts = seed_verdicts(evaluate_activations, seeds)["A.relu.frozen_patterns"]  # each seed alone
    return dict(
        seed_reading=(f"Graded on each seed alone, the premise {verdicts[0].word} for all {len(seeds)} seeds"
                      if len({r.verdict for r in verdicts}) == 1
                      else "Graded on each seed alone, the verdict differs between seeds (" + ", ".join(
                          f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, verdicts))
                      + "), so over the seeds it is inconclusive"),
    )


def figure_activations(histories: Sequence[History], rates: dict, clocks: dict, threshold: float):
    """Churn rate of the training-set ReLU patterns (``rates``: weight decay -> array), clocks marked."""
    fig, ax = plt.subplots(figsize=(8, 3.8), layout="constrained")
    colors = weight_decay_colors([h.cfg.weight_decay for h in histories])
    for h in histories:
        wd = h.cfg.weight_decay
        # churn is measured at the regular records only (NaN at the log-spaced ones between them): drawn
        # through the measured points, the line is continuous, as its legend shows it
        rate = np.asarray(rates[wd], dtype=float)
        ok = np.isfinite(rate)
        x, y = house_style.epochs(h)[ok], rate[ok]
        ax.plot(x, y, color=colors[wd], lw=1.1, label=f"λ = {wd:g}")
        for t, marker in zip(clocks[wd], ("o", "D")):
            if np.isfinite(t) and x.size:
                i = min(int(np.searchsorted(x, t)), x.size - 1)  # the first measured point at or after t
                ax.plot([t], [y[i]], marker, color=colors[wd], ms=5, mec="black", mew=0.5)
    ax.axhline(threshold, color="black", ls="--", lw=0.8, label=f"frozen below {threshold:g}")
    if any(np.any(np.asarray(r) > 0) for r in rates.values()):  # a run shorter than one churn window has none
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("fraction of pattern bits\nflipped per 50 epochs")
    ax.set_title(r"activation-pattern churn on the training set; ● $T_{\mathrm{cls}}(10^{-3})$, ◆ $T_{\mathrm{rep}}$",
                 loc="left")
    ax.legend(ncol=2, fontsize=7)
    return fig


def draw_activations(hs):
    return figure_activations(hs, activation_rates(hs), activation_marks(hs),
                              FROZEN_CHURN)


FIGURE = Figure("paper_a/activation_patterns", "Paper A, Sec. 5: churn of the training set's ReLU activation patterns",
                activation_numbers, draw_activations)
CHAPTER = Chapter("notebooks/paper_a/activation_patterns.ipynb", run, config.sweep, (FIGURE,), claims=tuple(CLAIMS))
