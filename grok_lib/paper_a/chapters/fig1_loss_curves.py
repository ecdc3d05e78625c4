"""Figure 1 of Paper A (``notebooks/paper_a/fig1_loss_curves.ipynb``): train/test loss and accuracy over the weight
decays 0.6-1.0, at the default profile and, recorded, at the paper's settings with both splits; the claims A.fig1.*
with their bars, their checks, the key numbers and sensitivity tables, the numbers the prose quotes and the two
figures (drawn with :mod:`grok_lib.paper_a.panels`)."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ... import recorded as recorded_runs
from ...chapters import Chapter, Figure
from ...claims import registry
from ...clocks import first_crossing, grokking_epoch, t_cls
from ...figure_numbers import at_epochs, none_if_nan
from ...grading import Bar, Choice, Claim, draw, grade, Regime, Result
from ...history import History
from ...notebook import Run
from ...tables import typeset
from .. import config
from ..claim_terms import FIT_EPS, ORDER_INVERSIONS, PAPER_AXIS_EPOCHS, PAPER_WIDTH
from ..curve_numbers import FIG1_EPOCHS, fig1_key_numbers, PAPER_EPOCHS, prefixed, shown, tag
from ..draws import inversions, members, paper_regime, sorted_sweeps, Sweeps
from ..panels import figure1, figure1_paper_settings, PAPER_WINDOW
from ..robustness import by_weight_decay, differing, seed_of, seed_table, spread_table
from ..run_sets import judged_seeds, mlp as run, paper_configs, paper_splits, PAPER_SPLITS, recorded, seed_sweeps
from ..run_sets import describe  # noqa: F401 (the line its notebook prints after the setup call)
from ..task import make_split
from ..words import reading


FIT_EPOCH = 1500  #: Fig. 1b: train loss ~1e-6 by ~1.5k epochs


FIT_LOSS = Bar(1e-7, 1e-5, log=True)  #: "about 1e-6": a decade either side


GROK_WINDOW = Bar(3200, 10625)  #: the paper's ~4k-8.5k window, +-25%


DROP_LEVELS = (1e-2, 1e-3, 1e-4)  #: test-loss levels of "the drop"


#: The choices the MLP claims share.
DROP_LEVEL = Choice("test-loss level ℓ", 1e-3, DROP_LEVELS, "the paper's metric is the test loss and names no level "
                    "of its drop: the decades the drop passes through after the train loss has saturated", ".0e")


CLAIMS = registry([
    Claim(
        "A.fig1.train_fit", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b (second-hand): the train loss is about 1e-6 by about 1.5k epochs",
        "The train loss is about $10^{-6}$ at epoch 1,500, for every weight decay 0.6–1.0.",
        f"train cross-entropy (float64) at epoch {FIT_EPOCH}, per weight decay",
        FIT_LOSS, fmt=".1e",
        why="'about 1e-6' read off a log axis: a decade either side"),
    Claim(
        "A.fig1.grok_window", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b (second-hand): the test loss drops in a window of about 4k–8.5k epochs",
        "The test loss drops between about 4k and 8.5k epochs, for every weight decay.",
        "first epoch with test loss ≤ ℓ, per weight decay",
        GROK_WINDOW, choices=(DROP_LEVEL,), fmt=".0f",
        why="the window as read, ±25% for the reading of a figure's axis; the paper's metric, the test loss"),
    Claim(
        "A.fig1.wd_order", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b: the test-loss drop comes earlier for larger weight decay",
        "The test loss drops earlier for every larger weight decay.",
        "inversions in the order of the drop epochs (test loss ≤ ℓ) over weight decays 0.6 … 1.0 "
        "(a weight decay that never drops counts as one more)",
        ORDER_INVERSIONS, choices=(DROP_LEVEL,), fmt=".0f"),
])


def drop_regime(sweeps: Sweeps, levels: Sequence[float]) -> Regime:
    """The regime of a claim about the test loss's drop: every run's test loss gets through the smallest level of
    the claim's grid within the run (else the drop is cut off by the run's end, not measured)."""
    hs = [h for s in sweeps for h in s]
    low = min(levels)
    reached = [not math.isnan(drop_epoch(h, low)) for h in hs]
    return Regime(all(reached), f"the test loss's drop to {low:.0e}", "within every run",
                  f"{sum(reached)} of {len(hs)} runs get there in {max(int(h.steps[-1]) for h in hs):,} epochs")


def drop_epoch(h: History, level: float) -> float:
    """First recorded epoch with test loss <= ``level`` after the train loss has saturated (T_cls(1e-3)): the
    test loss's drop, not its value before memorisation (NaN if never)."""
    start = t_cls(h, FIT_EPS)
    if math.isnan(start):
        return math.nan
    after = h.steps >= start
    return first_crossing(h.steps[after], h["test_loss"][after], level)


def evaluate_fig1(sweeps: Sweeps) -> list[Result]:
    """The Figure 1 claims on weight-decay sweeps (one per seed)."""
    sweeps = sorted_sweeps(sweeps)
    window, order, fit = CLAIMS["A.fig1.grok_window"], CLAIMS["A.fig1.wd_order"], CLAIMS["A.fig1.train_fit"]
    levels = window.choices[0].grid
    fit_draws = [draw([h.at("train_loss", FIT_EPOCH) for h in hs], seed_of(hs), (), members(hs)) for hs in sweeps]
    drops = {(i, lvl): [drop_epoch(h, lvl) for h in hs] for i, hs in enumerate(sweeps) for lvl in levels}
    window_draws = [draw(drops[i, lvl], seed_of(hs), (lvl,), members(hs)) for i, hs in enumerate(sweeps) for lvl in levels]
    order_draws = [draw(inversions(drops[i, lvl]), seed_of(hs), (lvl,)) for i, hs in enumerate(sweeps) for lvl in levels]
    acc = "; ".join(f"seed {seed_of(hs)}: " + ", ".join(f"{grokking_epoch(h, 0.95):.0f}" for h in hs) for hs in sweeps)
    absolute, drop = paper_regime(sweeps), drop_regime(sweeps, levels)
    window_regime = absolute if not absolute.ok else drop
    return [grade(fit, fit_draws, regime=absolute),
            grade(window, window_draws, f"reported, not graded: test accuracy ≥ 95% at epochs {acc}",
                  regime=window_regime),
            grade(order, order_draws, "drop epochs: " + "; ".join(
                f"seed {seed_of(hs)}, ℓ {lvl:.0e}: " + ", ".join("never" if math.isnan(e) else f"{e:.0f}"
                                                             for e in drops[i, lvl])
                for i, hs in enumerate(sweeps) for lvl in levels), regime=drop)]


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on the sweeps the verdicts are judged on (:func:`evaluate_fig1`)."""
    return evaluate_fig1(judged_seeds(run))


def fig1_table(histories: Sequence[History]) -> list[dict]:
    return [fig1_key_numbers(h) for h in histories]


def fig1_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 1: train/test loss and test accuracy at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h in by_weight_decay(histories):
        values |= at_epochs(h, ("train_loss", "test_loss", "test_acc"), tag(h), FIG1_EPOCHS)
        for name, value in fig1_key_numbers(h).items():
            if name.startswith("T_"):
                values[f"{tag(h)}/{name}"] = none_if_nan(value)
    return values


def split_table(p: int = 113, seed: int = 0) -> list[dict]:
    """What each split gives at p: the book's 0.5 of the unordered pairs and the usual 0.3 of the
    ordered pairs (plus 0.3 of the unordered ones, a harder task): coverage and mirror leakage."""
    rows = []
    for split, frac in (("unordered", 0.5), ("ordered", 0.3), ("unordered", 0.3)):
        train, test = make_split(p, frac, seed, split)
        seen = set(zip(train.a.tolist(), train.b.tolist()))
        leaked = sum(c for a, b, c in zip(test.a.tolist(), test.b.tolist(), test.count.tolist()) if (a, b) in seen)
        n_unordered = p * (p + 1) // 2
        rows.append({"split": split, "train_frac": frac, "ordered pairs in train": train.n_ordered,
                     "of p²": round(train.n_ordered / p**2, 3),
                     "unordered pairs in train": train.n_unordered, "of all unordered": round(train.n_unordered / n_unordered, 3),
                     "test pairs whose mirror trained": round(leaked / test.n_ordered, 3)})
    return rows


def fig1_paper_numbers(unordered: Sequence[History], ordered: Sequence[History]) -> dict[str, float | None]:
    """Figure 1 at the paper's settings, both splits: losses and accuracy at fixed epochs, and the clocks."""
    values: dict[str, float | None] = {}
    for split, histories in (("unordered", unordered), ("ordered", ordered)):
        for h in histories:
            values |= prefixed(split, at_epochs(h, ("train_loss", "test_loss", "test_acc"), tag(h), PAPER_EPOCHS))
            values |= prefixed(split, {f"{tag(h)}/{k}": none_if_nan(v) for k, v in fig1_key_numbers(h).items()
                                       if k.startswith("T_")})
    return values


def grok_sensitivity(histories: Sequence[History]) -> list[dict]:
    """T_grok at every test-accuracy level of the grid, per λ."""
    return [{"weight_decay": h.cfg.weight_decay}
            | {f"T_grok({acc:.0%})": shown(v) for acc, v in grok_grid(h).items()} for h in histories]


def drop_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The test loss's drop (first epoch with test loss <= ℓ after the train loss has saturated) at every level ℓ
    of the Figure 1 claims' grid, per λ."""
    return [{"weight_decay": h.cfg.weight_decay} | {f"drop to {lvl:.0e}": shown(drop_epoch(h, lvl)) for lvl in DROP_LEVELS}
            for h in histories]


def span(values: Sequence[float]) -> str:
    """"lo–hi" of the finite epochs, "never" if none, noting the ones that never came."""
    finite = [v for v in values if math.isfinite(v)]
    return (f"{min(finite):,.0f}–{max(finite):,.0f}" if finite else "never") + ("" if len(finite) == len(values) else " (some never)")


#: T_grok: the test accuracy that counts as grokked (the book's: 0.95; reported, not graded).
GROK_ACC_GRID = (0.9, 0.95, 0.99)


def grok_grid(history: History) -> dict[float, float]:
    """The grokking epoch at every accuracy of :data:`GROK_ACC_GRID`."""
    return {acc: grokking_epoch(history, acc) for acc in GROK_ACC_GRID}


def rerun_example(ordered) -> str:
    """The commands that rerun this page at the paper's settings, with the book's split and with the usual recipe
    (``ordered``: its config), as a Markdown code block."""
    return "\n".join(["```bash", ".venv/bin/python scripts/rerun.py \\",
                      "    notebooks/paper_a/fig1_loss_curves.ipynb /tmp/fig1.ipynb \\", "    -p profile paper",
                      ".venv/bin/python scripts/rerun.py \\",
                      "    notebooks/paper_a/fig1_loss_curves.ipynb /tmp/fig1.ipynb \\",
                      f"    -p split {ordered.split} \\",
                      f"    -p train_frac {ordered.train_frac:g}", "```"])


def split_reading(run: Run) -> dict[str, str]:
    """The splits at this page's p (:func:`split_table`), the usual recipe's test accuracy when the train loss has
    saturated, and the recorded runs at the paper's settings: their width, length, recording time, how to rerun."""
    c0 = run.configs[0]
    book_split, usual_split, harder_split = split_table(c0.p)
    configs = paper_configs()
    usual_at_fit = [h.at("test_acc", t_cls(h, FIT_EPS)) for h in recorded("paper_ordered")]
    minutes = [r["seconds"] / 60 for name in ("paper_unordered", "paper_ordered")
               for r in recorded_runs.read_manifest(f"paper_a/{name}")["runs"]]
    return dict(
        usual_unordered_pairs=f"{usual_split['unordered pairs in train']:,}",
        all_unordered_pairs=f"{c0.p * (c0.p + 1) // 2:,}",
        harder_inputs=f"{harder_split['unordered pairs in train']:,}",
        book_inputs=f"{book_split['unordered pairs in train']:,}",
        harder_frac=f"{harder_split['train_frac']:g}",
        mirror_share=f"{usual_split['test pairs whose mirror trained']:.0%}",
        usual_acc_at_fit=(f"{min(usual_at_fit):.2f}" if f"{min(usual_at_fit):.2f}" == f"{max(usual_at_fit):.2f}"
                          else f"{min(usual_at_fit):.2f}–{max(usual_at_fit):.2f}"),
        paper_width=f"{configs['unordered'].width}",
        paper_epochs=f"{configs['unordered'].epochs:,}",
        record_minutes=f"{min(minutes):.0f}–{max(minutes):.0f}",
        rerun_example=rerun_example(configs["ordered"]),
    )


def split_fractions_reading(run: Run) -> dict[str, str]:
    """The training fractions of the book's split and of the usual recipe (:func:`split_table`)."""
    book_split, usual_split, _ = split_table(run.configs[0].p)
    return dict(book_frac=f"{book_split['train_frac']:g}", usual_frac=f"{usual_split['train_frac']:g}")


def default_grok_epochs(run: Run) -> list[float]:
    """T_grok(95%) of this page's runs (:func:`fig1_table`; NaN: a run that never groks)."""
    return [r["T_grok(95%)"] for r in fig1_table(run.histories)]


def paper_grok_epochs() -> dict[str, list[float]]:
    """T_grok(95%) of the recorded runs at the paper's settings: split -> one per weight decay."""
    return {split: [r["T_grok(95%)"] for r in fig1_table(recorded(f"paper_{split}"))]
            for split in ("unordered", "ordered")}


def verdicts_reading(run: Run) -> dict[str, str]:
    """The verdicts (:func:`evaluate`) in words: the seeds judged, the regime, the grokking epochs against the
    paper's window, and the weight decays whose train loss never gets to 1e-6."""
    c0 = run.configs[0]
    default_results = evaluate(run)
    default_rows = fig1_table(run.histories)
    default_grok = [r["T_grok(95%)"] for r in default_rows]
    paper_grok = paper_grok_epochs()
    never_fine = [r["weight_decay"] for r in default_rows if math.isnan(r["T_cls(1e-6)"])]
    judged = judged_seeds(run)
    drop = drop_regime(judged, DROP_LEVELS)
    finite_grok = [g for g in default_grok if math.isfinite(g)]  # nan: a run that never groks
    return dict(
        judged_seeds=(f"every seed of the default profile ({', '.join(str(seed_of(s)) for s in judged[:-1])} and "
                      f"{seed_of(judged[-1])})" if len(judged) > 1 else "this run's sweep (one seed)"),
        default_regime=typeset(f"width {c0.width} and {c0.epochs:,} epochs against the paper's width {PAPER_WIDTH} "
                               f"and its figure's axis to {PAPER_AXIS_EPOCHS:,} epochs; "
                               f"{drop.quantity}: {drop.measured}"),
        default_match="; ".join(reading(r) for r in default_results) + ".",
        default_vs_window=("earlier than" if finite_grok and max(finite_grok) < PAPER_WINDOW[0]
                           else "reaching into" if finite_grok else "never inside"),
        paper_moves=("move closer to it" if all(p >= d for p, d in zip(paper_grok["unordered"], default_grok))
                     else "do not move closer to it"),
        never_fine=("for none of the weight decays" if not never_fine
                    else f"for λ = {never_fine[0]:g}" if len(never_fine) == 1
                    else "for λ = " + ", ".join(f"{wd:g}" for wd in never_fine[:-1]) + f" and {never_fine[-1]:g}"),
    )


def drop_levels_reading() -> dict[str, str]:
    """The recorded splits' training fractions and the levels of the drop (:data:`DROP_LEVELS`)."""
    configs = paper_configs()
    return dict(paper_unordered_frac=f"{configs['unordered'].train_frac:g}",
                paper_ordered_frac=f"{configs['ordered'].train_frac:g}",
                drop_levels=", ".join(typeset(f"{lvl:.0e}") for lvl in DROP_LEVELS))


def key_tables(histories: Sequence[History]) -> list[list[dict]]:
    """The tables shown for one sweep: :func:`fig1_table`, :func:`drop_sensitivity`, :func:`grok_sensitivity`."""
    return [fig1_table(histories), drop_sensitivity(histories), grok_sensitivity(histories)]


def paper_timing_reading(run: Run, paper: dict[str, list[History]], paper_results: dict[str, dict[str, Result]],
                         paper_grok: dict[str, list[float]]) -> dict[str, str]:
    """At the paper's settings (``paper``: :func:`paper_splits`, ``paper_results``: split -> claim id -> result,
    ``paper_grok``: :func:`paper_grok_epochs`): the fit, the order of the drops, grokking against this page's."""
    paper_fit = [h.at("train_loss", FIT_EPOCH) for hs in paper.values() for h in hs]
    default_grok = default_grok_epochs(run)
    later = [p - d for p, d in zip(paper_grok["unordered"], default_grok)]
    finite_default_grok = [g for g in default_grok if math.isfinite(g)]  # nan: a run that never groks
    return dict(
        paper_fit_reading=("is fitted as the paper says"
                           if all(v["A.fig1.train_fit"].verdict == "reproduced" for v in paper_results.values())
                           else "is fitted, but not everywhere as the paper says"),
        paper_fit_range=f"$({min(paper_fit) / 1e-6:.1f}\\text{{–}}{max(paper_fit) / 1e-6:.1f}) \\times 10^{{-6}}$",
        fit_epoch=f"{FIT_EPOCH:,}",
        paper_order=("the test loss drops earlier for larger λ at every level ℓ of the grid, with both splits"
                     if all(v["A.fig1.wd_order"].verdict == "reproduced" for v in paper_results.values())
                     else "the test loss does not drop earlier for larger λ at every level ℓ of the grid with both "
                          "splits"),
        paper_vs_default=("a little later than" if all(x > 0 for x in later)
                          else "no earlier than" if all(x >= 0 for x in later)
                          else "no later than" if all(x <= 0 for x in later) else "about as early as"),
        paper_grok_unordered=f"{min(paper_grok['unordered']):,.0f}–{max(paper_grok['unordered']):,.0f}",
        default_grok=(f"{min(finite_default_grok):,.0f}–{max(finite_default_grok):,.0f}" if finite_default_grok
                      else "never"),
        paper_vs_window="still before" if max(paper_grok["unordered"]) < PAPER_WINDOW[0] else "reaching into",
    )


#: The words of the window claim's verdict with the book's split.
WINDOW_STRADDLE = {"inconclusive": "The levels straddle the window",
                   "reproduced": "At every level every drop is inside the window",
                   "not reproduced": "At no level are all the drops inside the window",
                   "not tested faithfully": "The drop does not complete within every run"}


def paper_window_reading(paper: dict[str, list[History]], paper_results: dict[str, dict[str, Result]],
                         paper_grok: dict[str, list[float]]) -> dict[str, str]:
    """At the paper's settings (arguments as for :func:`paper_timing_reading`): the drop at each level, the
    window's verdict, the two splits' grokking epochs and how many runs fall in the paper's window."""
    window = paper_results["unordered"]["A.fig1.grok_window"].claim
    drops = {split: {lvl: [drop_epoch(h, lvl) for h in hs] for lvl in DROP_LEVELS}
             for split, hs in zip(("unordered", "ordered"), paper.values())}
    central = window.choices[0].central
    every_drop = [e for by_level in drops.values() for e in by_level[central]]
    in_window = sum(window.bar.holds(e) for e in every_drop)
    every_grok = paper_grok["unordered"] + paper_grok["ordered"]
    grok_in_window = sum(PAPER_WINDOW[0] <= g <= PAPER_WINDOW[1] for g in every_grok)
    drop_vs_grok = [d - g for d, g in zip(drops["unordered"][central], paper_grok["unordered"])
                    if math.isfinite(d) and math.isfinite(g)]
    ordered, unordered = paper_grok["ordered"], paper_grok["unordered"]
    return dict(
        central_level=typeset(f"{central:.0e}"), lowest_level=typeset(f"{min(DROP_LEVELS):.0e}"),
        highest_level=typeset(f"{max(DROP_LEVELS):.0e}"),
        paper_drop_central=span(drops["unordered"][central]),
        paper_drop_high=span(drops["unordered"][max(DROP_LEVELS)]),
        paper_drop_low=span(drops["unordered"][min(DROP_LEVELS)]),
        window_bar=f"{window.bar.lo:,.0f}–{window.bar.hi:,.0f}",
        paper_window_verdict=" and ".join(sorted({f"**{v['A.fig1.grok_window'].word}**"
                                                  for v in paper_results.values()})),
        ordered_vs=("*earlier*" if all(o < u for o, u in zip(ordered, unordered))
                    else "*later*" if all(o > u for o, u in zip(ordered, unordered)) else "about as early"),
        paper_grok_ordered=f"{min(paper_grok['ordered']):,.0f}–{max(paper_grok['ordered']):,.0f}",
        drop_after_grok=("comes later than the accuracy's rise" if drop_vs_grok and min(drop_vs_grok) > 0
                         else "does not always come after the accuracy's rise"),
        window_straddle=(WINDOW_STRADDLE[paper_results["unordered"]["A.fig1.grok_window"].verdict]
                         + " (with the book's split)"),
        neither_in_window=("Neither split puts the grokking epoch in the paper's window" if grok_in_window == 0
                           else f"{grok_in_window} of the {len(every_grok)} runs put the grokking epoch in the "
                                "paper's window"),
        drop_in_window=(f"{in_window} of the {len(every_drop)} runs put the test loss's drop to "
                        f"{typeset(f'{central:.0e}')} in it"),
    )


def paper_settings_reading(run: Run) -> dict[str, str]:
    """The recorded runs at the paper's settings in words: :func:`paper_timing_reading`, then
    :func:`paper_window_reading`, on the claims graded on each split alone (:func:`evaluate_fig1`)."""
    paper = paper_splits()
    paper_results = {split: {r.claim.id: r for r in evaluate_fig1([hs])}
                     for split, hs in zip(("unordered", "ordered"), paper.values())}
    paper_grok = paper_grok_epochs()
    return (paper_timing_reading(run, paper, paper_results, paper_grok)
            | paper_window_reading(paper, paper_results, paper_grok))


def seed_spread_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """Every key number of :func:`fig1_table` as median [min–max] over the seeds' sweeps (``seeds``)."""
    return spread_table([fig1_table(s) for s in seeds])


def seed_verdict_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """Each claim graded on each seed's sweep alone and on all of them (:func:`evaluate_fig1`)."""
    return seed_table(evaluate_fig1, seeds)


def widest_seed_spread(seed_tables: Sequence[Sequence[dict]]) -> tuple:
    """The key epoch that moves most between seeds: (spread over its median, column, weight decay, min, max)."""
    seed_spreads = [((max(v) - min(v)) / sorted(v)[len(v) // 2], column, rows[0]["weight_decay"], min(v), max(v))
                    for rows in zip(*seed_tables) for column in rows[0] if column.startswith("T_")
                    for v in [[r[column] for r in rows if not math.isnan(r[column])]] if len(v) > 1]
    return max(seed_spreads)


def seeds_reading() -> dict[str, str]:
    """The recorded seeds (:func:`seed_sweeps`) in words: the widest spread of a key epoch
    (:func:`widest_seed_spread`) and the claims whose verdict differs between seeds."""
    seeds = seed_sweeps()
    widest = widest_seed_spread([fig1_table(s) for s in seeds])
    fig1_differing = differing(evaluate_fig1, seeds)
    return dict(
        seed_spread=f"{widest[0]:.0%}", seed_spread_clock=typeset(widest[1]), seed_spread_wd=f"{widest[2]:g}",
        seed_spread_range=f"{widest[3]:,.0f}–{widest[4]:,.0f}",
        seed_same=(f"graded on each seed alone, every claim has the same verdict for all {len(seeds)} seeds"
                   if not fig1_differing
                   else "graded on each seed alone, the verdicts differ between seeds for "
                   + ", ".join(f"`{k}` (" + ", ".join(f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, v))
                               + ")" for k, v in fig1_differing.items())
                   + ": over the seeds such a claim is inconclusive, unless the regime rules it out"),
    )


def draw_fig1(hs):
    return figure1(hs)


def draw_fig1_paper(*splits):
    return figure1_paper_settings(dict(zip(PAPER_SPLITS, splits, strict=True)))


FIG1_LOSS_CURVES = Figure("paper_a/fig1_loss_curves", "Paper A, Figure 1: train/test loss and accuracy over weight "
                          "decays 0.6-1.0", fig1_numbers, draw_fig1, interactive=True)
FIG1_PAPER_SETTINGS = Figure("paper_a/fig1_paper_settings", "Paper A, Figure 1 at the paper's settings (recorded "
                             "runs; the caption gives their settings), both splits", fig1_paper_numbers,
                             draw_fig1_paper, tuple(PAPER_SPLITS.values()))
CHAPTER = Chapter("notebooks/paper_a/fig1_loss_curves.ipynb", run, config.sweep,
                  (FIG1_LOSS_CURVES, FIG1_PAPER_SETTINGS), claims=tuple(CLAIMS))
