"""Figure 2 of Paper A (``notebooks/paper_a/fig2_embedding_geometry.ipynb``): the embeddings' Fourier spectra and
their polygon after generator reordering; the claims A.fig2.* (the embedding E and the output weights U) with their
bars and checks, the tables, the numbers the prose quotes and the figure (drawn with :mod:`grok_lib.paper_a.panels`)."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from ...chapters import Chapter, Figure
from ...claims import registry
from ...grading import Bar, Choice, Claim, draw, grade, moved, Result
from ...history import History
from ...notebook import Run
from ...tables import typeset
from .. import config, geometry, recordings
from ..curve_numbers import MEMORISING_EPOCH, tag
from ..draws import members, regime, sorted_sweeps, Sweeps
from ..geometry import dominant_frequency, energy_fraction
from ..panels import figure2
from ..robustness import largest_weight_decay, seed_of, seed_table, seed_verdicts
from ..run_sets import judged_seeds, mlp as run, paper_splits, seed_sweeps
from ..run_sets import describe  # noqa: F401 (the line its notebook prints after the setup call)
from ..run_sets import paper_settings_reading  # noqa: F401 (the recorded runs' settings its page states)
from ..words import seeds_phrase, words


FOURIER_TOPS, FOURIER_SHARE = (3, 5, 7), Bar(lo=0.5)  #: "a few" frequencies holding most (> half) of the energy


CIRCLE_CV = Bar(hi=0.1)  #: radius coefficient of variation of a circle


SPACING_STEPS = Bar(hi=2.0)  #: RMS angle error of evenly spaced tokens, in polygon steps


CLAIMS = registry([
    Claim(
        "A.fig2.fourier", "A", "claim", "figure", "Fig. 2",
        "the book's reading of Fig. 2, 'qualitative evidence for the cyclic organization': after grokking the "
        "embeddings are built from a few Fourier frequencies",
        "After grokking most of the embeddings' energy is in a few Fourier frequencies.",
        "share of E's non-constant Fourier energy in its k strongest frequencies at the end of training, per weight decay",
        FOURIER_SHARE, choices=(Choice("number of frequencies k", 5, FOURIER_TOPS, "'a few' of the 56"),), fmt=".2f",
        why="the paper states no number: 'most' of the energy (more than half), in a few of the 56 frequencies"),
    Claim(
        "A.fig2.circle", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: 'Token embeddings after generator-based label reordering' (the book's reading: "
        "a regular polygon)",
        "After reordering by the dominant frequency, the embeddings lie on a circle.",
        "radius coefficient of variation of E projected on its dominant frequency's plane, per weight decay",
        CIRCLE_CV, bars=moved(CIRCLE_CV), fmt=".3f",
        why="the paper states no number; a random projection gives about 0.5"),
    Claim(
        "A.fig2.evenly_spaced", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: 'Token embeddings after generator-based label reordering' (the book's reading: "
        "a regular polygon)",
        "After reordering, consecutive tokens sit at evenly spaced angles around the circle.",
        "RMS angle error of the reordered tokens in polygon steps (2π/p), per weight decay",
        SPACING_STEPS, bars=moved(SPACING_STEPS), fmt=".2f",
        why="the paper states no number; tokens in random order are about p/√12 ≈ 33 steps off"),
    Claim(
        "A.fig2.output_fourier", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering', shown as the same "
        "cyclic organization as (A) (the book's reading: as for E, a few Fourier frequencies)",
        "After grokking most of the output weights' energy is in a few Fourier frequencies.",
        "share of U's non-constant Fourier energy (over the output label) in its k strongest frequencies at the end "
        "of training, per weight decay",
        FOURIER_SHARE, choices=(Choice("number of frequencies k", 5, FOURIER_TOPS, "'a few' of the 56"),), fmt=".2f",
        why="the bar and grid of A.fig2.fourier, declared for E before U was graded"),
    Claim(
        "A.fig2.output_circle", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering' (the book's reading: the "
        "polygon of (A))",
        "After the same reordering (E's dominant frequency), the output weights lie on a circle.",
        "radius coefficient of variation of U's rows projected on E's dominant frequency's plane, per weight decay",
        CIRCLE_CV, bars=moved(CIRCLE_CV), fmt=".3f",
        why="the bars of A.fig2.circle; 'the same label reordering' is E's, so U is read on E's frequency"),
    Claim(
        "A.fig2.output_evenly_spaced", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering' (the book's reading: the "
        "polygon of (A))",
        "After the same reordering, consecutive output labels sit at evenly spaced angles around the circle.",
        "RMS angle error of U's reordered rows on E's dominant frequency, in polygon steps (2π/p), per weight decay",
        SPACING_STEPS, bars=moved(SPACING_STEPS), fmt=".2f",
        why="the bars of A.fig2.evenly_spaced"),
])


def _geometry_results(sweeps: list[list[History]], block: str, ids: tuple[str, str, str], note: str = "") -> list[Result]:
    """Fourier sparsity of ``block`` (E or U) at the end of every run, and its circle and even spacing after the
    reordering by E's dominant frequency (Fig. 2's "same label reordering"), graded as claims ``ids``."""
    fourier = CLAIMS[ids[0]]
    end = {i: [(h.snapshot("E", int(h.steps[-1])), h.snapshot(block, int(h.steps[-1]))) for h in hs]
           for i, hs in enumerate(sweeps)}
    fourier_draws = [draw([geometry.energy_fraction(x, k) for _, x in end[i]], seed_of(hs), (k,), members(hs))
                     for i, hs in enumerate(sweeps) for k in fourier.choices[0].grid]
    init = [geometry.energy_fraction(hs[0].snapshot(block, 0), 5) for hs in sweeps]
    polygons = {i: [polygon_on(x, geometry.dominant_frequency(e)) for e, x in end[i]] for i in end}
    circle = [draw([p["radius_cv"] for p in polygons[i]], seed_of(hs), (), members(hs)) for i, hs in enumerate(sweeps)]
    spacing = [draw([p["angle_rms"] for p in polygons[i]], seed_of(hs), (), members(hs)) for i, hs in enumerate(sweeps)]
    where = regime(sweeps)
    return [grade(fourier, fourier_draws, note + f"at init the 5 strongest hold {min(init):.2f}–{max(init):.2f}",
                  regime=where),
            grade(CLAIMS[ids[1]], circle, note.rstrip("; "), regime=where),
            grade(CLAIMS[ids[2]], spacing, note.rstrip("; "), regime=where)]


def polygon_on(x: np.ndarray, k: int) -> dict[str, float]:
    """How far the rows of ``x``, relabelled j = k i mod p and projected on frequency k's plane, are from a
    regular polygon (:func:`grok_lib.paper_a.geometry.polygon_deviation`)."""
    return geometry.polygon_deviation(geometry.circle_projection(x, k), k)


#: Figure 2's panel B claims: graded only on sweeps that keep U's weights (a notebook's own runs; not the recorded sets).
OUTPUT_CLAIMS = ("A.fig2.output_fourier", "A.fig2.output_circle", "A.fig2.output_evenly_spaced")


def evaluate_fig2(sweeps: Sweeps) -> list[Result]:
    """The Figure 2 claims: Fourier sparsity of E and of U, and their circle and even spacing after reordering by
    E's dominant frequency (panels A and B). U's are graded on the sweeps that keep U's weights (the runs of a
    notebook do; recorded sets keep E alone), and left out where none does."""
    sweeps = sorted_sweeps(sweeps)
    results = _geometry_results(sweeps, "E", ("A.fig2.fourier", "A.fig2.circle", "A.fig2.evenly_spaced"))
    keeps = [all("U" in h.snapshots for h in hs) for hs in sweeps]
    kept = [hs for hs, k in zip(sweeps, keeps) if k]
    if kept:
        left = [hs for hs, k in zip(sweeps, keeps) if not k]
        note = (f"graded at seed {', '.join(str(seed_of(hs)) for hs in kept)} alone: the recorded seed"
                f"{'s' if len(left) > 1 else ''} {', '.join(str(seed_of(hs)) for hs in left)} "
                f"keep{'' if len(left) > 1 else 's'} E's weights, not U's; "
                if left else "")
        results += _geometry_results(kept, "U", OUTPUT_CLAIMS, note)
    return results


def evaluate(run: Run) -> list[Result]:
    """The chapter's claims on the sweeps its verdicts are judged on (:func:`judged_seeds`)."""
    return evaluate_fig2(judged_seeds(run))


def polygon_reading(x: np.ndarray) -> dict:
    """A matrix's dominant frequency k, its top-5 energy share, and how far its rows, relabelled
    j = k i mod p and projected on frequency k's plane, are from a regular polygon."""
    k = geometry.dominant_frequency(x)
    dev = geometry.polygon_deviation(geometry.circle_projection(x, k), k)
    return {"k": k, "share_top5": geometry.energy_fraction(x, 5), **dev}


def fig2_table(histories: Sequence[History], focus: History, memorising: int | None = MEMORISING_EPOCH) -> list[dict]:
    """E's reading at init and while memorising (``focus`` run; None: no such row, for recorded runs
    that keep only their first and last weights), and at the end of every run."""
    stages = [(focus, "epoch 0", 0)] + ([] if memorising is None else [(focus, f"epoch {memorising}", memorising)])
    stages += [(h, "end", int(h.steps[-1])) for h in histories]
    rows = []
    for h, label, step in stages:
        r = polygon_reading(h.snapshot("E", step))
        rows.append({"weight_decay": h.cfg.weight_decay, "stage": label, "k(E)": r["k"],
                     "top-5 share": round(r["share_top5"], 3), "radius CV": round(r["radius_cv"], 3),
                     "angle error (steps)": round(r["angle_rms"], 2)})
    return rows


def fig2_numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 2: E's and U's top-5 energy share and polygon deviation, per weight decay."""
    values: dict[str, float | None] = {}
    for h in histories:
        for step in (0, MEMORISING_EPOCH, int(h.steps[-1])):
            for block in ("E", "U"):
                r = polygon_reading(h.snapshot(block, step))
                for name in ("share_top5", "radius_cv", "angle_rms"):
                    values[f"{tag(h)}/{block}@{step}/{name}"] = r[name]
    return values


def fourier_sensitivity(histories: Sequence[History]) -> list[dict]:
    """The share of E's non-constant Fourier energy in its k strongest frequencies at the end of training, at every k
    of the Fourier claim's grid, per λ."""
    return [{"weight_decay": h.cfg.weight_decay}
            | {f"top-{k} share": round(geometry.energy_fraction(h.snapshot("E", int(h.steps[-1])), k), 3) for k in FOURIER_TOPS}
            for h in histories]


def by_seed(results: Sequence[Result], seeds: Sequence) -> str:
    """The verdicts of one claim graded on each seed alone (``results`` in the order of ``seeds``' sweeps)."""
    if len({r.verdict for r in results}) == 1:
        return f"is **{results[0].word}** for each of the {len(seeds)} seeds graded alone"
    return "differs between the seeds graded alone (" + ", ".join(
        f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, results)) + ")"


def output_weights(histories: Sequence, results: Mapping[str, Result]) -> str:
    """Figure 2's panel B in words: the output weights U at the end of ``histories``, read on E's dominant
    frequency (the same reordering), and the verdicts of the output-weight claims (``results``: id -> Result)."""
    ends = [(h.snapshot("E", int(h.steps[-1])), h.snapshot("U", int(h.steps[-1]))) for h in histories]
    polygons = [polygon_on(u, dominant_frequency(e)) for e, u in ends]
    shares = [energy_fraction(u, 5) for _, u in ends]
    lo_hi = lambda v, f: f"{min(v):{f}}–{max(v):{f}}"  # noqa: E731
    ids = ("A.fig2.output_circle", "A.fig2.output_evenly_spaced", "A.fig2.output_fourier")
    circle, spacing, fourier = (results[i].word if i in results else "not graded" for i in ids)
    return (f"The output weights U (panel B), read on E's dominant frequency (the paper's 'same label reordering'), "
            f"end at radius CV {lo_hi([p['radius_cv'] for p in polygons], '.3f')} and angle error "
            f"{lo_hi([p['angle_rms'] for p in polygons], '.2f')} steps, with {lo_hi(shares, '.3f')} of their energy "
            f"in their 5 strongest frequencies: graded, their circle is **{circle}**, their even spacing "
            f"**{spacing}** and their Fourier claim **{fourier}**")


def focus_run(run: Run) -> History:
    """The run Figure 2 shows the rows of: the largest weight decay (:func:`largest_weight_decay`)."""
    return largest_weight_decay(run.histories)


def intro_reading(run: Run) -> dict[str, str]:
    """The grid of the Fourier claim, and the accuracies of :func:`focus_run` at the memorising epoch ("n/a" where
    the run is shorter)."""
    focus = focus_run(run)
    acc = {k: focus.at(k, MEMORISING_EPOCH) for k in ("train_acc", "test_acc")}  # nan: a shorter run
    return dict(
        fourier_tops=", ".join(f"{k}" for k in FOURIER_TOPS),
        memorising_train_acc=f"{acc['train_acc']:.1%}" if math.isfinite(acc["train_acc"]) else "n/a",
        memorising_test_acc=f"{acc['test_acc']:.1%}" if math.isfinite(acc["test_acc"]) else "n/a",
    )


def memorising_line(run: Run) -> str:
    """The line printed above Figure 2: the accuracies of :func:`focus_run` at the memorising epoch."""
    focus, memorising = focus_run(run), MEMORISING_EPOCH
    return (f"λ = {focus.cfg.weight_decay:g} at epoch {memorising}: "
            f"train acc {focus.at('train_acc', memorising):.3f}, "
            f"test acc {focus.at('test_acc', memorising):.3f}")


def stage_rows(run: Run) -> list[dict]:
    """:func:`fig2_table` of this page's runs: E at init and at the memorising epoch (:func:`focus_run`), and at the
    end of every run."""
    return fig2_table(run.histories, focus_run(run), MEMORISING_EPOCH)


def end_rows(histories: Sequence[History]) -> list[dict]:
    """:func:`fig2_table` of a recorded sweep (first and last weights only): E at init (largest weight decay) and at
    the end of every run."""
    return fig2_table(histories, largest_weight_decay(histories), None)


def _end_columns(rows: Sequence[dict]) -> tuple[list[float], list[float], list[float]]:
    """The finite radius CVs, angle errors and top-5 shares at the end of the runs (``rows``: :func:`stage_rows`)."""
    end_cv, end_angle, end_share = ([r[k] for r in rows[2:] if math.isfinite(r[k])]
                                    for k in ("radius CV", "angle error (steps)", "top-5 share"))
    return end_cv, end_angle, end_share


def _verdict_words(judged: Sequence, results: Mapping[str, Result]) -> dict[str, str]:
    """The bars, the seeds judged and the verdicts over them (``results``: id -> Result), in words."""
    bars = (("radius CV", "A.fig2.circle"), ("angle error", "A.fig2.evenly_spaced"))
    seed_count = "the three seeds" if len(judged) == 3 else f"{len(judged)} seed(s)"
    return dict(
        fig2_bars=typeset("; ".join(f"{name} {CLAIMS[cid].threshold}" for name, cid in bars))
        + "; the Fourier share at " + typeset(CLAIMS["A.fig2.fourier"].grid),
        judged_seeds=seeds_phrase(judged),
        fig2_regime=typeset(results["A.fig2.fourier"].regime.text()),
        default_geometry=(f"Graded over {seed_count} and the bars moved either way, "
                          f"the circle is **{results['A.fig2.circle'].word}**, the even spacing "
                          f"**{results['A.fig2.evenly_spaced'].word}** and the Fourier claim "
                          f"**{results['A.fig2.fourier'].word}** (verdicts above; the seeds one by one are at the end "
                          f"of the page)"),
    )


def _polygon_words(run: Run, rows: Sequence[dict]) -> dict[str, str]:
    """Whether E ends on a regular polygon: this page's runs (seed 0) graded, and the spread of their ends."""
    end_cv, end_angle, _ = _end_columns(rows)
    seed0 = {r.claim.id: r.verdict for r in evaluate_fig2([run.histories])}  # this page's runs (seed 0)
    on_polygon = (seed0["A.fig2.circle"], seed0["A.fig2.evenly_spaced"])
    return dict(
        polygon_reading=("sit on a nearly regular polygon in label order" if on_polygon == ("reproduced", "reproduced")
                         else "sit on a circle, but not evenly spaced at every bar" if on_polygon[0] == "reproduced"
                         else "sit on a nearly regular polygon at some of the bars only"
                         if "not reproduced" not in on_polygon
                         else "do not sit on a regular polygon"),
        end_cv=f"{min(end_cv):.3f}–{max(end_cv):.3f}" if end_cv else "n/a",
        end_angle=f"{min(end_angle):.2f}–{max(end_angle):.2f}" if end_angle else "n/a",
        circle_appears=("the circle of the paper's Figure 2 appears" if seed0["A.fig2.circle"] != "not reproduced"
                        else "the circle of the paper's Figure 2 does not appear"),
    )


def _memorising_words(rows: Sequence[dict]) -> dict[str, str]:
    """E at init and at the memorising epoch, and how much of its way to the end it has gone by then."""
    at_init, at_memorising, at_end = rows[0], rows[1], rows[2:]
    # 0: E did not move
    cv_span, angle_span = (at_init[k] - at_end[-1][k] for k in ("radius CV", "angle error (steps)"))
    return dict(
        memorising_epoch=f"{MEMORISING_EPOCH}", memorising_cv=f"{at_memorising['radius CV']:.3f}",
        memorising_angle=f"{at_memorising['angle error (steps)']:.2f}",
        init_cv=f"{at_init['radius CV']:.3f}", init_angle=f"{at_init['angle error (steps)']:.1f}",
        memorising_way=((f"{(at_init['radius CV'] - at_memorising['radius CV']) / cv_span:.0%}"
                         if cv_span and math.isfinite(cv_span) else "n/a") + " and "
                        + (f"{(at_init['angle error (steps)'] - at_memorising['angle error (steps)']) / angle_span:.0%}"
                           if angle_span and math.isfinite(angle_span) else "n/a")),
    )


def _share_words(rows: Sequence[dict]) -> dict[str, str]:
    """E's top-5 Fourier share at init and at the end, against the Fourier claim's bar."""
    *_, end_share = _end_columns(rows)
    init_share = rows[0]["top-5 share"]
    return dict(
        init_share=f"{init_share:.3f}",
        end_share=f"{min(end_share):.3f}–{max(end_share):.3f}" if end_share else "n/a",
        share_growth=(f"{min(end_share) / init_share:.1f}–{max(end_share) / init_share:.1f}"
                      if end_share and init_share and math.isfinite(init_share) else "n/a"),
        few_frequencies=(("still far from" if max(end_share) < FOURIER_SHARE.lo else "close to") if end_share
                         else "n/a"),
        fourier_share=f"more than {FOURIER_SHARE.lo:.0%}",
    )


def geometry_reading(run: Run) -> dict[str, str]:
    """The verdicts and the geometry of E and U behind them, in words (:func:`_verdict_words`,
    :func:`_polygon_words`, :func:`_memorising_words`, :func:`_share_words`, :func:`output_weights`)."""
    judged = judged_seeds(run)
    results = {r.claim.id: r for r in evaluate_fig2(judged)}
    rows = stage_rows(run)
    return (_verdict_words(judged, results) | _polygon_words(run, rows) | _memorising_words(rows) | _share_words(rows)
            | dict(output_reading=output_weights(run.histories, results)
                   + (" (over this page's seed alone: the recorded seeds keep E's weights, not U's)"
                      if len(judged) > 1 else "")))


def paper_reading(run: Run) -> dict[str, str]:
    """The recorded runs at the paper's settings (:func:`paper_splits`) against this page's: Fourier share, polygon
    and verdicts, in words."""
    paper = paper_splits()
    paper_end = [r for hs in paper.values() for r in end_rows(hs) if r["stage"] == "end"]
    paper_share, paper_cv, paper_angle = ([r[k] for r in paper_end]
                                          for k in ("top-5 share", "radius CV", "angle error (steps)"))
    paper_results = [{r.claim.id: r for r in evaluate_fig2([hs])} for hs in paper.values()]
    paper_tops = [r for hs in paper.values() for r in fourier_sensitivity(hs)]
    top_k = {k: [r[f"top-{k} share"] for r in paper_tops] for k in FOURIER_TOPS}
    passing_k = [k for k, v in top_k.items() if min(v) > FOURIER_SHARE.lo]
    rows = stage_rows(run)
    end_cv, end_angle, end_share = _end_columns(rows)
    return dict(
        paper_share=f"{min(paper_share):.2f}–{max(paper_share):.2f}",
        default_share=f"{min(end_share):.2f}–{max(end_share):.2f}" if end_share else "n/a",
        default_epochs=f"{run.configs[0].epochs:,}", init_share_2=f"{rows[0]['top-5 share']:.2f}",
        paper_closer="closer to" if min(paper_share) > max(end_share, default=math.nan) else "not clearly closer to",
        paper_half=("still hold less than half of the energy" if max(paper_share) < FOURIER_SHARE.lo
                    else "hold more than half of the energy in some runs"),
        paper_k=(f"the {', '.join(str(k) for k in passing_k)} strongest hold more than half in every run, "
                 + ", ".join(f"the {k} strongest {min(v):.2f}–{max(v):.2f}"
                             for k, v in top_k.items() if k not in passing_k)
                 if passing_k else "no k of the grid holds more than half in every run"),
        paper_fourier_verdict=words(paper_results, "A.fig2.fourier"),
        paper_tighter=("tighter" if max(paper_cv) < min(end_cv, default=math.nan)
                       and max(paper_angle) < min(end_angle, default=math.nan)
                       else "tighter in angle" if max(paper_angle) < min(end_angle, default=math.nan)
                       else "not tighter"),
        paper_cv=f"{min(paper_cv):.3f}–{max(paper_cv):.3f}",
        paper_angle=f"{min(paper_angle):.2f}–{max(paper_angle):.2f}",
        paper_circle_verdict=words(paper_results, "A.fig2.circle"),
        paper_spacing_verdict=words(paper_results, "A.fig2.evenly_spaced"),
    )


def seed_verdict_rows(seeds: Sequence[Sequence[History]]) -> list[dict]:
    """Each claim graded on each seed's sweep alone and on all of them (:func:`seed_table`)."""
    return seed_table(evaluate_fig2, seeds)


def seeds_reading(run: Run) -> dict[str, str]:
    """The claims graded on each seed alone (:func:`seed_sweeps`), and the runs that end further from a regular
    polygon than the central bars allow, in words."""
    seeds = seed_sweeps()
    seed_fig2 = seed_verdicts(evaluate_fig2, seeds)
    circle_bar, spacing_bar = CIRCLE_CV.hi, SPACING_STEPS.hi
    seed_misses = [(s, h.cfg.weight_decay, r) for s, hs in enumerate(seeds) for h in hs
                   for r in [polygon_reading(h.snapshot("E", int(h.steps[-1])))]
                   if r["radius_cv"] > circle_bar or r["angle_rms"] > spacing_bar]
    return dict(
        seed_fourier=f"The Fourier claim {by_seed(seed_fig2['A.fig2.fourier'], seeds)}",
        seed_polygon=(f"The circle {by_seed(seed_fig2['A.fig2.circle'], seeds)}, the even spacing "
                      f"{by_seed(seed_fig2['A.fig2.evenly_spaced'], seeds)}"
                      + ("." if not seed_misses else ": " + "; ".join(
                          f"with seed {recordings.SEEDS[s]} at λ = {wd:g} E ends further from a regular polygon than "
                          f"the book's central bars allow (radius CV {r['radius_cv']:.3f} and angle error "
                          f"{r['angle_rms']:.1f} steps, against {circle_bar:g} and {spacing_bar:g})"
                          for s, wd, r in seed_misses)
                         + f" within the default profile's {run.configs[0].epochs:,} epochs; a seed that fails where "
                           "the others pass makes the claim inconclusive over the seeds.")),
    )


def draw_fig2(hs):
    return figure2(hs, largest_weight_decay(hs), MEMORISING_EPOCH)


FIGURE = Figure("paper_a/fig2_embedding_geometry", "Paper A, Figure 2: Fourier spectra and the embeddings after "
                "generator reordering", fig2_numbers, draw_fig2)
CHAPTER = Chapter("notebooks/paper_a/fig2_embedding_geometry.ipynb", run, config.sweep, (FIGURE,), claims=tuple(CLAIMS))
