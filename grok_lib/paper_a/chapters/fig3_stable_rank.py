"""Figure 3 of Paper A (``notebooks/paper_a/fig3_stable_rank.ipynb``): the test loss and the stable-rank clock with
both clocks marked, at the default profile, recorded at the paper's settings, and with a fan-in-scaled embedding;
the claims A.fig3.* with their bars and checks, the tables and sensitivity grids, the numbers the prose quotes and the
three figures (drawn with :mod:`grok_lib.paper_a.panels`); the initialisation's table and words are
:mod:`grok_lib.paper_a.embedding_init`'s."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from ...chapters import Chapter, Figure
from ...claims import registry
from ...clocks import grokking_epoch, t_cls
from ...figure_numbers import at_epochs, none_if_nan
from ...grading import Bar, Choice, Claim, draw, grade, Regime, Result
from ...history import History
from ...notebook import Run
from ...tables import typeset
from .. import config, recordings
from ..claim_terms import ABSTRACT, FIT_EPS, FIT_EPS_GRID, FIT_LEVEL, ORDER_INVERSIONS
from ..clocks import T_REP_FRACTION, t_rep_srank
from ..curve_numbers import (clock_table_row, FIG1_EPOCHS, OTHER_MATRICES, PAPER_EPOCHS, prefixed, shown, SLOW_MATRIX,
                             tag)
from ..draws import inversions, members, paper_regime, regime, sorted_sweeps, Sweeps
from ..embedding_init import init_numbers, init_reading, init_rows  # noqa: F401 (its notebook reads them here)
from ..panels import figure3, figure3_paper_settings, figure_init
from ..robustness import by_weight_decay, differing, seed_of, seed_table, seed_verdicts, spread_table
from ..run_sets import judged_seeds, mlp as run, paper_configs, paper_splits, PAPER_SPLITS, seed_sweeps
from ..run_sets import describe  # noqa: F401 (the line its notebook prints after the setup call)
from ..words import reading, seeds_phrase, words


SRANK_PEAK, SRANK_FINAL = Bar(30, 42), Bar(8, 14)  #: Fig. 3: ~36 -> ~10-12


AFTER_FIT = Bar(lo=1)  #: the stable rank's peak at least one epoch after T_cls


RATIO_EPS, RATIO_EPS_GRID = 1e-4, (1e-3, 1e-4, 1e-5)  #: T_cls level of the clock ratio


T_REP_FRACTIONS = (0.9, 0.8, 0.7)  #: T_rep: the stable rank at f x its peak


CLOCK_RATIO = Bar(lo=1.0)  #: "slower": the representation clock stops after the loss clock


#: The book's former bar for "several times slower" (not the paper's words; the book reads 3-6 off the paper's Figures
#: 1b and 3, PAPERS.md): how many ratios reach it is reported, not graded.
SEVERAL = 2.0


RATIO_LEVEL = Choice("train-loss level ε of T_cls", 1e-4, RATIO_EPS_GRID, "the paper names no level", ".0e")


REP_FRACTION = Choice("fraction f of the stable rank's peak that T_rep waits for", 0.8, T_REP_FRACTIONS,
                      "the paper's slow clock T_rep(η) has no η for the stable rank: from a tenth to three tenths "
                      "of the fall")


CLAIMS = registry([
    Claim(
        "A.fig3.srank_peak", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls from about 36",
        "The stable rank of the embeddings peaks at about 36.",
        "peak stable rank of E, per weight decay", SRANK_PEAK, fmt=".1f",
        why="'about 36' as read: ±6; the paper does not say which matrix, the Figure 3 page shows E is the one"),
    Claim(
        "A.fig3.srank_final", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls to about 10–12 in the grokking window",
        "The stable rank of the embeddings falls to about 10–12 by the end of the paper's run.",
        "final stable rank of E, per weight decay", SRANK_FINAL, fmt=".1f",
        why="'about 10–12' as read: ±2 around it"),
    Claim(
        "A.fig3.after_fit", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls in the grokking window, starting after "
        "the train loss saturates",
        "The stable rank starts falling only after the train loss has saturated.",
        "epochs from T_cls(ε) to the stable rank's peak, per weight decay",
        AFTER_FIT, choices=(FIT_LEVEL,), fmt=".0f"),
    Claim(
        "A.fig3.srank_wd_order", "A", "prediction", "figure", "Fig. 3",
        "the book's prediction from Fig. 3 (stable rank per weight decay; its fall 'in the grokking window') and "
        "Fig. 1b (the drop earlier for larger weight decay): the paper states no order for the stable rank",
        "The stable rank falls earlier for every larger weight decay, as the test loss does.",
        "inversions in the order of T_rep(f) over weight decays 0.6 … 1.0 (T_rep(f): first epoch after the stable "
        "rank's peak at ≤ f × peak; a weight decay whose stable rank never falls that far counts as one more)",
        ORDER_INVERSIONS, choices=(REP_FRACTION,), fmt=".0f",
        why="the rule of A.fig1.wd_order on the representation clock, with its regime (every run's fall reaches "
            "the grid's smallest f within the run); the book's prediction, not the paper's claim"),
    Claim(
        "A.fig3.clock_ratio", "A", "claim", "text", ABSTRACT,
        "we formalize this phenomenon by separating the fast decay of the classification loss from the slower "
        "simplification of the learned representation",
        "The representation clock stops later than the loss clock.",
        "T_rep(f) / T_cls(ε), per weight decay (T_rep(f): first epoch after the stable rank's peak at ≤ f × peak; "
        "where the stable rank has not fallen that far by the end of the run, the run's length stands for T_rep: "
        "a lower bound)",
        CLOCK_RATIO, choices=(REP_FRACTION, RATIO_LEVEL), fmt=".2f",
        why="'slower' is the abstract's word: the ratio at least 1 at every (f, ε); the paper states no ratio, so "
            "'several times' (our reading of its Figs 1b and 3: 3–6) is reported, not graded"),
])


def fall_regime(sweeps: Sweeps, fractions: Sequence[float], matrix: str = "E") -> Regime:
    """The regime of a claim about when the stable rank falls: every run's stable rank gets down to the smallest
    fraction of its peak in the claim's grid within the run (else the fall is cut off by the run's end, not
    measured), as :func:`grok_lib.paper_a.chapters.fig1_loss_curves.drop_regime` for the test loss."""
    hs = [h for s in sweeps for h in s]
    low = min(fractions)
    reached = [not math.isnan(t_rep_srank(h, matrix, low)) for h in hs]
    return Regime(all(reached), f"the stable rank's fall to {low:g} × its peak", "within every run",
                  f"{sum(reached)} of {len(hs)} runs get there in {max(int(h.steps[-1]) for h in hs):,} epochs")


def peak_epoch(h: History, matrix: str = "E") -> float:
    return float(h.steps[int(np.argmax(h[f"srank_{matrix}"]))])


def slow_clock(h: History, matrix: str, fraction: float) -> float:
    """T_rep(fraction), or, where the stable rank has not fallen that far by the end of the run, the run's last
    epoch: a lower bound on T_rep, so a ratio over it is a lower bound too (what a "≥" bar can use)."""
    t = t_rep_srank(h, matrix, fraction)
    return float(h.steps[-1]) if math.isnan(t) else t


def evaluate_fig3(sweeps: Sweeps, matrix: str = "E") -> list[Result]:
    """The Figure 3 claims: the stable rank's peak and end, its fall after the fit, the clock ratio, and the order
    of its fall in the weight decay (the book's prediction)."""
    sweeps = sorted_sweeps(sweeps)
    key = f"srank_{matrix}"
    peak = [draw([float(h[key].max()) for h in hs], seed_of(hs), (), members(hs)) for hs in sweeps]
    final = [draw([float(h[key][-1]) for h in hs], seed_of(hs), (), members(hs)) for hs in sweeps]
    after = CLAIMS["A.fig3.after_fit"]
    after_draws = [draw([peak_epoch(h, matrix) - t_cls(h, eps) for h in hs], seed_of(hs), (eps,), members(hs))
                   for hs in sweeps for eps in after.choices[0].grid]
    ratio = CLAIMS["A.fig3.clock_ratio"]
    fractions, levels = (c.grid for c in ratio.choices)
    ratio_draws = [draw([slow_clock(h, matrix, f) / t_cls(h, e) for h in hs], seed_of(hs), (f, e), members(hs))
                   for hs in sweeps for f in fractions for e in levels]
    order = CLAIMS["A.fig3.srank_wd_order"]
    reps = {(i, f): [t_rep_srank(h, matrix, f) for h in hs] for i, hs in enumerate(sweeps) for f in order.choices[0].grid}
    order_draws = [draw(inversions(reps[i, f]), seed_of(hs), (f,)) for i, hs in enumerate(sweeps)
                   for f in order.choices[0].grid]
    order_text = "T_rep(f) by weight decay: " + "; ".join(
        f"seed {seed_of(hs)}, f {f:g}: " + ", ".join("never" if math.isnan(t) else f"{t:.0f}" for t in reps[i, f])
        for i, hs in enumerate(sweeps) for f in order.choices[0].grid)
    rep_vs_grok = "; ".join(f"seed {seed_of(hs)}: " + ", ".join(
        f"{t_rep_srank(h, matrix) - grokking_epoch(h, 0.95):.0f}" for h in hs) for hs in sweeps)
    where = regime(sweeps)
    return [grade(CLAIMS["A.fig3.srank_peak"], peak, regime=where),
            grade(CLAIMS["A.fig3.srank_final"], final, regime=paper_regime(sweeps)),
            grade(after, after_draws, regime=where),
            grade(ratio, ratio_draws, f"reported, not graded: T_rep(0.8) − T_grok(95%), per weight decay: {rep_vs_grok}",
                  regime=where),
            grade(order, order_draws, order_text, regime=fall_regime(sweeps, order.choices[0].grid, matrix))]


def evaluate_split(histories: Sequence[History]) -> list[Result]:
    """The Figure 3 claims on one split's recorded sweep at the paper's settings (the stable rank of E)."""
    return evaluate_fig3([histories], SLOW_MATRIX)


def evaluate(run: Run) -> list[Result]:
    """The Figure 3 claims on the sweeps ``run``'s verdicts are judged on (:func:`judged_seeds`)."""
    return evaluate_fig3(judged_seeds(run))


def ratio_at_book_thresholds(h: History, matrix: str = "E") -> float:
    """T_rep(0.8) / T_cls(1e-4): the clock ratio at the book's central choices (the tables' column)."""
    return t_rep_srank(h, matrix) / t_cls(h, RATIO_EPS)


def fig3_srank_table(histories: Sequence[History]) -> list[dict]:
    """Every matrix's stable rank at the start, its peak, and the end, for the smallest and largest λ."""
    ordered = by_weight_decay(histories)
    ends = ordered[:: max(len(ordered) - 1, 1)]  # the smallest and the largest weight decay
    rows = []
    for name in (SLOW_MATRIX, *OTHER_MATRICES):
        for h in ends:
            s = h[f"srank_{name}"]
            rows.append({"matrix": name, "weight_decay": h.cfg.weight_decay, "start": round(float(s[0]), 1),
                         "peak": round(float(s.max()), 1), "peak epoch": int(h.steps[s.argmax()]),
                         "end": round(float(s[-1]), 1)})
    return rows


def fig3_clock_table(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    return [clock_table_row(h, matrix) for h in histories]


def fig3_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 3: the stable ranks and test loss at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h, row in zip(histories, fig3_clock_table(histories)):
        values |= at_epochs(h, ("test_loss", "srank_E", "srank_W", "srank_U", "srank_EW"), tag(h), FIG1_EPOCHS)
        for name, v in row.items():
            if name.startswith("T_") and "/" not in name:
                values[f"{tag(h)}/{name}"] = none_if_nan(v)
    return values


def fig3_paper_numbers(unordered: Sequence[History], ordered: Sequence[History]) -> dict[str, float | None]:
    """Figure 3 at the paper's settings, both splits: losses and the stable rank of E at fixed epochs, and the clocks."""
    values: dict[str, float | None] = {}
    for split, histories in (("unordered", unordered), ("ordered", ordered)):
        for h, row in zip(histories, fig3_clock_table(histories)):
            values |= prefixed(split, at_epochs(h, ("train_loss", "test_loss", "srank_E"), tag(h), PAPER_EPOCHS))
            values |= prefixed(split, {f"{tag(h)}/{k}": none_if_nan(v) for k, v in row.items()
                                       if k.startswith("T_") and "/" not in k})
    return values


def after_fit_sensitivity(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """The stable rank's peak epoch against T_cls(ε) at every ε of the grid, per λ."""
    rows = []
    for h in histories:
        s = h[f"srank_{matrix}"]
        rows.append({"weight_decay": h.cfg.weight_decay, "peak epoch": int(h.steps[int(np.argmax(s))])}
                    | {f"T_cls({e:.0e})": shown(t_cls(h, e)) for e in FIT_EPS_GRID})
    return rows


def clock_ratio_sensitivity(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """T_rep(f) / T_cls(ε) over the claim's grid, as graded: per λ and ε, one column per fraction f; where the
    stable rank has not fallen to f × its peak by the end of the run, the run's length stands for T_rep and the
    cell is a lower bound ("≥ ...")."""
    rows = []
    for h in histories:
        for e in RATIO_EPS_GRID:
            row = {"weight_decay": h.cfg.weight_decay, "ε": f"{e:.0e}"}
            for f in T_REP_FRACTION_GRID:
                ratio = slow_clock(h, matrix, f) / t_cls(h, e)
                censored = np.isnan(t_rep_srank(h, matrix, f)) and not np.isnan(ratio)
                row[f"f={f:g}"] = f"≥ {ratio:.2f}" if censored else shown(ratio, 2)
            rows.append(row)
    return rows


def rep_vs_grok_table(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    """T_rep at every fraction of the grid against the grokking epoch, per λ."""
    return [{"weight_decay": h.cfg.weight_decay, "T_grok(95%)": shown(grokking_epoch(h))}
            | {f"T_rep(f={f:g})": shown(t_rep_srank(h, matrix, f)) for f in T_REP_FRACTION_GRID}
            for h in histories]


def srank_order(paper: Mapping[str, Sequence], results: Mapping[str, Mapping[str, Result]]) -> str:
    """The book's prediction A.fig3.srank_wd_order in words at the paper's settings: per split (``paper``: name ->
    histories, ``results``: name -> id -> Result), T_rep at the book's f by weight decay and its verdict."""
    parts = []
    for name, hs in paper.items():
        ordered = by_weight_decay(hs)
        reps = ", ".join("never" if math.isnan(t) else f"{t:,.0f}" for t in (t_rep_srank(h) for h in ordered))
        parts.append(f"{reps} with {name} (**{results[name]['A.fig3.srank_wd_order'].word}** over the grid of f)")
    lams = ", ".join(f"{h.cfg.weight_decay:g}" for h in by_weight_decay(next(iter(paper.values()))))
    return (f"The book's prediction that the stable rank falls earlier for every larger weight decay, as the test "
            f"loss does (`A.fig3.srank_wd_order`; the paper states no order): $T_{{\\mathrm{{rep}}}}({T_REP_FRACTION:g})$ "
            f"at λ = {lams} is " + ", and ".join(parts))


#: T_rep: the fractions of the stable rank's peak it must fall to, the clock ratio's grid (the book's: 0.8).
T_REP_FRACTION_GRID = T_REP_FRACTIONS


def clock_ratio(history: History, fraction: float, eps: float, matrix: str = "E") -> float:
    """T_rep(fraction) / T_cls(eps): NaN where either clock never stops."""
    return t_rep_srank(history, matrix, fraction) / t_cls(history, eps)


def ratio_grid(history: History, matrix: str = "E") -> dict[tuple[float, float], float]:
    """The clock ratio at every (T_rep fraction, T_cls level) of the grids."""
    return {(f, e): clock_ratio(history, f, e, matrix) for f in T_REP_FRACTION_GRID for e in RATIO_EPS_GRID}


def matrices_reading(run: Run) -> dict[str, str]:
    """Which matrix carries the slow clock: every matrix's stable rank at the start, its peak and the end
    (:func:`fig3_srank_table`), its peak against the epoch the train set is fitted (T_cls at the book's ε)."""
    srank_rows = fig3_srank_table(run.histories)
    fit_epoch = {h.cfg.weight_decay: t_cls(h, FIT_EPS) for h in run.histories}
    by_matrix = {m: [r for r in srank_rows if r["matrix"] == m] for m in (SLOW_MATRIX, *OTHER_MATRICES)}
    e_after = all(r["peak epoch"] > fit_epoch[r["weight_decay"]] for r in by_matrix["E"])
    others_before = all(r["peak epoch"] < fit_epoch[r["weight_decay"]]
                        for m in OTHER_MATRICES for r in by_matrix[m])
    wu_before = all(r["peak epoch"] < fit_epoch[r["weight_decay"]] for m in ("W", "U") for r in by_matrix[m])
    return dict(
        e_peak=f"{min(r['peak'] for r in by_matrix['E']):.1f}–{max(r['peak'] for r in by_matrix['E']):.1f}",
        e_only=("E is the only matrix whose trace rises" if e_after and others_before else "E's trace rises" if e_after
                else "No matrix's trace clearly rises"),
        w_start=f"{by_matrix['W'][0]['start']:.1f}",
        u_start=f"{by_matrix['U'][0]['start']:.1f}",
        wu_peak=f"{max(r['peak epoch'] for m in ('W', 'U') for r in by_matrix[m]):,}",
        wu_before="before the train set is fitted" if wu_before else "not always before the train set is fitted",
        ew_start=f"{by_matrix['EW'][0]['start']:.1f}",
        ew_end=f"{min(r['end'] for r in by_matrix['EW']):.1f}–{max(r['end'] for r in by_matrix['EW']):.1f}",
        lowest_end=f"{min(r['end'] for r in srank_rows):.1f}",
        default_epochs=f"{run.configs[0].epochs:,}",
    )


def seed_results(run: Run) -> dict[str, Result]:
    """Claim id -> its result over every judged seed (:func:`evaluate`), as the verdict table grades it."""
    return {r.claim.id: r for r in evaluate(run)}


def page_verdicts(run: Run) -> dict[str, str]:
    """Claim id -> its verdict on this page's runs alone (seed 0), as the prose's sentences read it."""
    return {r.claim.id: r.verdict for r in evaluate_fig3([run.histories])}


def ratio_grids() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The grids of A.fig3.clock_ratio: the fractions f of T_rep and the train-loss levels ε of T_cls."""
    f_grid, eps_grid = (c.grid for c in CLAIMS["A.fig3.clock_ratio"].choices)
    return f_grid, eps_grid


def graded_ratios(histories: Sequence[History]) -> list[float]:
    """T_rep(f) / T_cls(ε) of E per run at every (f, ε) of :func:`ratio_grids`, as A.fig3.clock_ratio grades it
    (:func:`slow_clock`: where the stable rank never falls that far, the run's length stands for T_rep)."""
    f_grid, eps_grid = ratio_grids()
    return [slow_clock(h, SLOW_MATRIX, f) / t_cls(h, e) for h in histories for f in f_grid for e in eps_grid]


def clocks_reading(run: Run) -> dict[str, str]:
    """The two clocks on this page's runs (seed 0) against the claims over every judged seed: the regimes, the
    clock ratio's grids and its bar, where this page's ratios fall in them, and the stable rank of E at the end."""
    judged = judged_seeds(run)
    fig3_verdicts, fig3_over_seeds = page_verdicts(run), seed_results(run)
    ratio_claim = CLAIMS["A.fig3.clock_ratio"]
    f_grid, eps_grid = ratio_grids()
    graded = graded_ratios(run.histories)
    finite_ratios = [v for v in graded if not math.isnan(v)]
    e_final = [float(h[f"srank_{SLOW_MATRIX}"][-1]) for h in run.histories]
    table = fig3_clock_table(run.histories)
    cls4, book_ratios = ([r[k] for r in table if math.isfinite(r[k])]  # nan: never reached
                         for k in ("T_cls(1e-04)", "T_rep/T_cls(1e-04)"))
    peak, final = fig3_over_seeds["A.fig3.srank_peak"], fig3_over_seeds["A.fig3.srank_final"]
    return dict(
        judged_seeds=seeds_phrase(judged),
        fig3_regime=typeset(f"{peak.regime.quantity}: {peak.regime.measured}"),
        final_regime=typeset(final.regime.measured) + (" — in it" if final.regime.ok else " — outside it"),
        f_grid=", ".join(f"{f:g}" for f in f_grid),
        eps_grid=", ".join(typeset(f"{e:.0e}") for e in eps_grid),
        ratio_bar=f"{ratio_claim.bar.lo:g}",
        several=f"{SEVERAL:g}",
        cls4_by=f"{min(cls4):,.0f}–{max(cls4):,.0f}" if cls4 else "never",
        peak_after={"reproduced": "only peaks after that (at every ε of the grid)",
                    "inconclusive": "peaks after that at some ε of the grid only",
                    "not reproduced": "peaks before that at every ε of the grid",
                    "not tested faithfully": "is not measured in the paper's regime"}[
            fig3_verdicts["A.fig3.after_fit"]],
        book_ratio=f"{min(book_ratios):.1f}–{max(book_ratios):.1f}" if book_ratios else "n/a",
        grid_ratio=f"{min(finite_ratios):.1f}–{max(finite_ratios):.1f}" if finite_ratios else "n/a",
        grid_inside=f"{sum(ratio_claim.bar.holds(v) for v in graded)}",
        grid_total=f"{len(graded)}",
        grid_several=f"{sum(v >= SEVERAL for v in graded)}",
        ratio_verdict=f"**{fig3_over_seeds['A.fig3.clock_ratio'].word}**",
        ratio_threshold=typeset(ratio_claim.threshold),
        e_final=f"{min(e_final):.1f}–{max(e_final):.1f}",
        paper_epochs=f"{paper_configs()['unordered'].epochs:,}",
    )


def rep_minus_grok(run: Run) -> dict[float, list[float]]:
    """f -> T_rep(f) − T_grok(95%) of each of this page's runs that reaches both clocks (:func:`rep_vs_grok_table`),
    for every fraction f of :func:`ratio_grids`."""
    f_grid, _ = ratio_grids()
    rep_grok = rep_vs_grok_table(run.histories)
    return {f: [r[f"T_rep(f={f:g})"] - r["T_grok(95%)"] for r in rep_grok  # the runs that reach both clocks
                if r[f"T_rep(f={f:g})"] != "never" and r["T_grok(95%)"] != "never"] for f in f_grid}


def _other_fractions(diffs: Mapping[float, list[float]]) -> str:
    """Where T_rep comes against T_grok at the fractions other than the book's (``diffs``: :func:`rep_minus_grok`),
    in words."""
    other_fs = {}
    for f, d in diffs.items():
        where = ("never" if not d else
                 "before $T_{\\mathrm{grok}}$ for every λ" if d and max(d) < 0 else
                 "before it or at the same epoch" if d and max(d) == 0 else
                 "after it" if d and min(d) > 0 else "before it for some λ and after it for others")
        if f != T_REP_FRACTION:
            other_fs.setdefault(where, []).append(f)
    other_clauses = [f"{where} at f = {' and '.join(f'{f:g}' for f in fs)}"
                     + (" (the stable rank of E does not fall that far)" if where == "never" else "")
                     for where, fs in other_fs.items()]
    return (", ".join(other_clauses[:-1]) + (" and " if len(other_clauses) > 1 else "") + other_clauses[-1]
            if other_clauses else "n/a")


def rep_vs_grok_reading(run: Run) -> dict[str, str]:
    """T_rep against T_grok(95%) on this page's runs: at the book's f, at the grid's other fractions, which clock
    stops first, and the verdict of A.fig3.after_fit on them in words."""
    diffs = rep_minus_grok(run)
    book_diff = diffs[T_REP_FRACTION]
    both_ways = any(min(d) < 0 for d in diffs.values() if d) and any(max(d) > 0 for d in diffs.values() if d)
    return dict(
        book_f=f"{T_REP_FRACTION:g}",
        book_rep_grok=("cannot be compared with" if not book_diff  # no run reaches both clocks
                       else f"comes {min(book_diff):,.0f}–{max(book_diff):,.0f} epochs *after*" if min(book_diff) > 0
                       else f"comes {-max(book_diff):,.0f}–{-min(book_diff):,.0f} epochs *before*"
                       if max(book_diff) < 0
                       else f"comes between {-min(book_diff):,.0f} epochs before and "
                            f"{max(book_diff):,.0f} epochs after"),
        book_still_falling=("no run reaches both clocks" if not book_diff
                            else "the stable rank of E is still falling when the test accuracy has already passed 95%"
                            if min(book_diff) > 0
                            else "the stable rank of E has not always finished its fall when the test accuracy passes "
                                 "95%"),
        other_fractions=_other_fractions(diffs),
        which_first=("therefore a matter of the threshold" if both_ways else "the same at every threshold of the grid"),
        order_holds={"reproduced": "what holds at every threshold of the grid",
                     "inconclusive": "what holds at some thresholds of the grid only",
                     "not reproduced": "what holds at none of the thresholds of the grid",
                     "not tested faithfully": "what these runs cannot test"}[page_verdicts(run)["A.fig3.after_fit"]],
    )


def paper_width_reading() -> dict[str, str]:
    """The width of the recorded runs at the paper's settings."""
    return dict(paper_width=f"{paper_configs()['unordered'].width}")


def paper_split_tables(histories: Sequence[History]) -> list[list[dict]]:
    """The tables of one split at the paper's settings: :func:`fig3_srank_table`, :func:`fig3_clock_table` and
    :func:`clock_ratio_sensitivity`."""
    return [fig3_srank_table(histories), fig3_clock_table(histories), clock_ratio_sensitivity(histories)]


def paper_settings_reading(run: Run) -> dict[str, str]:
    """Figure 3 at the paper's settings (:func:`paper_splits`): the stable rank of E, the verdicts per split, the
    clock ratio at the book's thresholds and over the grid, T_rep against T_grok, and the order over λ (at the
    paper's settings and, for this page, over the judged seeds)."""
    paper = paper_splits()
    paper_results = {name: {r.claim.id: r for r in evaluate_split(hs)} for name, hs in paper.items()}
    results = list(paper_results.values())
    paper_tables = {name: fig3_clock_table(hs) for name, hs in paper.items()}
    paper_e = [h[f"srank_{SLOW_MATRIX}"] for hs in paper.values() for h in hs]
    paper_book_ratio = {name: [r["T_rep/T_cls(1e-04)"] for r in rows] for name, rows in paper_tables.items()}
    paper_grid = graded_ratios([h for hs in paper.values() for h in hs])
    finite_grid = [v for v in paper_grid if not math.isnan(v)]
    paper_rep_grok = [r["T_rep"] - r["T_grok(95%)"] for rows in paper_tables.values() for r in rows
                      if not math.isnan(r["T_rep"])]
    book_name, usual_name = paper
    ratio_claim = CLAIMS["A.fig3.clock_ratio"]
    return dict(
        paper_peak=f"{min(float(s.max()) for s in paper_e):.1f}–{max(float(s.max()) for s in paper_e):.1f}",
        paper_final=f"{min(float(s[-1]) for s in paper_e):.1f}–{max(float(s[-1]) for s in paper_e):.1f}",
        paper_peak_verdict=words(results, "A.fig3.srank_peak"),
        paper_final_verdict=words(results, "A.fig3.srank_final"),
        paper_after_fit=("it peaks after the train loss has saturated at every ε, as the paper says"
                         if all(r["A.fig3.after_fit"].verdict == "reproduced" for r in results)
                         else "it does not peak after the train loss has saturated at every ε"),
        paper_ratio_book=f"{min(paper_book_ratio[book_name]):.1f}–{max(paper_book_ratio[book_name]):.1f}",
        paper_ratio_usual=f"{min(paper_book_ratio[usual_name]):.1f}–{max(paper_book_ratio[usual_name]):.1f}",
        paper_grid_ratio=f"{min(finite_grid):.1f}–{max(finite_grid):.1f}",
        paper_grid_below=(f"{sum(not ratio_claim.bar.holds(v) for v in paper_grid)} below the bar "
                          f"{ratio_claim.bar.lo:g}, {sum(not v >= SEVERAL for v in paper_grid)} below {SEVERAL:g}"),
        paper_grid_total=f"{len(paper_grid)}",
        paper_ratio_verdict=words(results, "A.fig3.clock_ratio"),
        paper_rep_grok=(f"comes {min(paper_rep_grok):,.0f}–{max(paper_rep_grok):,.0f} epochs *after*"
                        if min(paper_rep_grok) > 0
                        else f"comes between {-min(paper_rep_grok):,.0f} epochs before and "
                             f"{max(paper_rep_grok):,.0f} epochs after"),
        paper_keeps=("at the paper's length the representation keeps simplifying long after the test accuracy has "
                     "passed 95%" if min(paper_rep_grok) > 0 else "the order of the two clocks depends on the run"),
        paper_srank_order=srank_order(paper, paper_results),
        default_srank_order=reading(seed_results(run)["A.fig3.srank_wd_order"]),
    )


def seed_clock_rows() -> list[dict]:
    """:func:`fig3_clock_table` of every seed's sweep (:func:`seed_sweeps`), merged as median [min–max]."""
    return spread_table([fig3_clock_table(s) for s in seed_sweeps()])


def seed_verdict_rows() -> list[dict]:
    """Each Figure 3 claim graded on each seed's sweep alone and on every seed at once."""
    return seed_table(evaluate_fig3, seed_sweeps())


def _seed_spread(seed_tables: Sequence[Sequence[dict]], column: str) -> tuple:
    """The largest spread of ``column`` between seeds at one λ, relative to its median: (spread, λ, min, max)."""
    return max(((max(v) - min(v)) / sorted(v)[len(v) // 2], rows[0]["weight_decay"], min(v), max(v))
               for rows in zip(*seed_tables) for v in [[r[column] for r in rows if not math.isnan(r[column])]]
               if len(v) > 1)


def _peak_misses(seeds: Sequence[Sequence[History]]) -> list[tuple]:
    """(seed index, λ, peak epoch, ε, T_cls(ε)) of each run whose stable rank of E does not peak after T_cls(ε) at
    some ε of the fit grid (ε: the largest such)."""
    return [(s, h.cfg.weight_decay, peak, max(missed), t_cls(h, max(missed)))
            for s, hs in enumerate(seeds) for h in hs
            for peak in [float(h.steps[int(np.argmax(h[f"srank_{SLOW_MATRIX}"]))])]
            for missed in [[e for e in FIT_EPS_GRID if not AFTER_FIT.holds(peak - t_cls(h, e))]] if missed]


def _seed_verdicts_sentence(seeds: Sequence[Sequence[History]]) -> str:
    """Which verdicts differ between seeds graded alone, and for which run the stable rank of E peaks too early."""
    differ = list(differing(evaluate_fig3, seeds))
    if not differ:
        return "Graded on each seed alone, every claim has the same verdict for all seeds."
    seed_fig3 = seed_verdicts(evaluate_fig3, seeds)
    peak_misses = _peak_misses(seeds)
    return ("Graded on each seed alone, "
            + ("one verdict differs" if len(differ) == 1 else f"{len(differ)} verdicts differ")
            + " between seeds (" + ", ".join(f"`{c}`" for c in differ)
            + "; over the seeds such a claim is inconclusive)"
            + ("." if not peak_misses else ": " + "; ".join(
                f"with seed {recordings.SEEDS[s]} the stable rank of E peaks at epoch {peak:,.0f} for λ = {wd:g}, "
                f"not after {typeset(f'T_cls({e:.0e})')} = {t:,.0f}, so the claim that it starts falling only after "
                f"the train loss has saturated is {seed_fig3['A.fig3.after_fit'][s].word} for that seed"
                for s, wd, peak, e, t in peak_misses) + "."))


def _rep_before_sentence(seed_tables: Sequence[Sequence[dict]]) -> str:
    """For which seed and λ T_rep comes before T_grok(95%) at the book's f, and by how many epochs."""
    rep_before = {recordings.SEEDS[s]: [(r["weight_decay"], r["T_grok(95%)"] - r["T_rep"]) for r in rows
                                        if r["T_rep"] < r["T_grok(95%)"]]
                  for s, rows in enumerate(seed_tables)}
    clauses = [(f"for seed {s} at every λ" if len(cases) == len(seed_tables[0]) else
                f"for seed {s} at λ = " + ", ".join(f"{wd:g}" for wd, _ in cases))
               + (f" (by {cases[0][1]:,.0f} epochs)" if len(cases) == 1 else
                  f" (by {min(d for _, d in cases):,.0f}–{max(d for _, d in cases):,.0f} epochs)")
               for s, cases in rep_before.items() if cases]
    return ("$T_{\\mathrm{rep}}$ comes before $T_{\\mathrm{grok}}$ " + " and ".join(clauses)
            + ", so even the order of $T_{\\mathrm{rep}}$ and $T_{\\mathrm{grok}}$ at the book's threshold is not a "
              "property of every run"
            if clauses else "$T_{\\mathrm{rep}}$ comes after $T_{\\mathrm{grok}}$ for every seed and λ at the book's "
                            "threshold")


def seeds_reading() -> dict[str, str]:
    """The clocks across seeds 0, 1 and 2 (:func:`seed_sweeps`): how far T_rep and T_cls move, which verdicts
    differ between seeds graded alone, and where T_rep comes before T_grok."""
    seeds = seed_sweeps()
    seed_tables = [fig3_clock_table(s) for s in seeds]
    rep_spread, cls_spread = _seed_spread(seed_tables, "T_rep"), _seed_spread(seed_tables, "T_cls(1e-04)")
    cls_epochs = max(max(v) - min(v) for rows in zip(*seed_tables)
                     for v in [[r["T_cls(1e-04)"] for r in rows if not math.isnan(r["T_cls(1e-04)"])]] if v)
    return dict(
        seed_rep_spread=f"{rep_spread[0]:.0%}",
        seed_rep_wd=f"{rep_spread[1]:g}",
        seed_rep_range=f"{rep_spread[2]:,.0f}–{rep_spread[3]:,.0f}",
        seed_more="more than" if rep_spread[0] > cls_spread[0] else "no more than",
        seed_cls_epochs=f"{cls_epochs:,.0f}",
        seed_verdicts=_seed_verdicts_sentence(seeds),
        seed_rep_before=_rep_before_sentence(seed_tables),
    )


def clock_marks(hs) -> dict:
    """Weight decay -> (T_cls, T_rep), the two clocks Figure 3 marks on each run."""
    return {r["weight_decay"]: (r["T_cls(1e-04)"], r["T_rep"]) for r in fig3_clock_table(hs)}


def draw_fig3(hs):
    return figure3(hs, SLOW_MATRIX, clock_marks(hs), others=OTHER_MATRICES)


def draw_init(default, scaled):
    return figure_init(default, scaled)


def draw_fig3_paper(*splits):
    return figure3_paper_settings({label: (hs, clock_marks(hs)) for label, hs in zip(PAPER_SPLITS,
                                                                                     splits, strict=True)})


FIG3_STABLE_RANK = Figure("paper_a/fig3_stable_rank", "Paper A, Figure 3: test loss and the stable-rank clock, with "
                          "both clocks marked", fig3_numbers, draw_fig3, interactive=True)
FIG3_PAPER_SETTINGS = Figure("paper_a/fig3_paper_settings", "Paper A, Figure 3 at the paper's settings (recorded "
                             "runs; the caption gives their settings), both splits", fig3_paper_numbers,
                             draw_fig3_paper, tuple(PAPER_SPLITS.values()))
INIT_COMPARISON = Figure("paper_a/init_comparison", "Paper A: PyTorch's N(0, 1) embeddings against N(0, 1/d) (default "
                         "profile; recorded runs)", init_numbers, draw_init, ("default", "init_scaled"))
CHAPTER = Chapter("notebooks/paper_a/fig3_stable_rank.ipynb", run, config.sweep,
                  (FIG3_STABLE_RANK, FIG3_PAPER_SETTINGS, INIT_COMPARISON), claims=tuple(CLAIMS))
