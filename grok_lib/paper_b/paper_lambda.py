"""The sparse page's reading of its alpha sweep at the paper's lambda and step cap (the recorded set
``paper_b/sparse_paper_lambda``: d = 4,000, n = 128, the focus alpha at three data seeds) beside the chapter's own runs
at the book's lambda: per run the transition's start and end on the clock lambda t / ln(alpha) at both lambdas
(:func:`lambda_table`) and the glued words of the section "At the paper's lambda and step" (:func:`paper_lambda_words`).
The claims graded on that set are the chapter's (:mod:`grok_lib.paper_b.chapters.sparse_classification`); the same
sweep at the paper's d is :mod:`grok_lib.paper_b.paper_d`."""

from __future__ import annotations

from typing import Sequence

from ..grading import Bar
from ..history import History
from .curve_numbers import transition_row


def lambda_table(at_paper_lambda: Sequence[History], book_runs: Sequence[History]) -> list[dict]:
    """Per run of the recorded set at the paper's lambda (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`):
    alpha, data seed, steps to ln(alpha) / lambda, the transition's start / end as fractions of ln(alpha) / lambda, and
    the same fractions of the book's run at the same alpha and data seed (``book_runs``: the chapter's alpha sweep and
    focus run at every seed; None where it has no such run)."""
    book = {(h.cfg.alpha, h.cfg.data_seed): transition_row(h) for h in book_runs}
    rows = []
    for h in at_paper_lambda:
        r = transition_row(h)
        b = book.get((h.cfg.alpha, h.cfg.data_seed), {})
        rows.append({"alpha": h.cfg.alpha, "data seed": int(h.cfg.data_seed), "lambda": h.cfg.weight_decay,
                     "lr": h.cfg.lr, "ln(a)/l (steps at cap)": r["ln(a)/l (steps at cap)"],
                     "start frac": r["start frac"], "end frac": r["end frac"],
                     "start frac, book's lambda": b.get("start frac"), "end frac, book's lambda": b.get("end frac")})
    return rows


def shift_span(shifts: Sequence[float]) -> str:
    """The shifts' range as the prose gives it ("-0.08 to -0.06"), or the one value where the range rounds to one
    ("-0.08 (every seed)")."""
    lo, hi = f"{min(shifts):+.2f}", f"{max(shifts):+.2f}"
    return f"{lo} (every seed)" if lo == hi else f"{lo} to {hi}"


def paper_lambda_words(runs: Sequence[History], rows: Sequence[dict], focus: History, manifest: dict,
                       start_bar: Bar, end_bar: Bar) -> dict:
    """The glued words of the sparse page's section "At the paper's lambda and step": ``runs`` the recorded set
    (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`), ``rows`` its :func:`lambda_table`, ``focus``
    the figures' focus run, ``manifest`` the set's manifest. The start and end are read against ``start_bar`` and
    ``end_bar``: the book's reading of Fig. 1a (the bars of B.fig1a.start_fraction and B.fig1a.end_fraction)."""

    sweep_seed = runs[0].cfg.data_seed
    focus_alpha = next((h.cfg.alpha for h in runs if h.cfg.data_seed != sweep_seed), focus.cfg.alpha)
    at_focus = [r for r in rows if r["alpha"] == focus_alpha]
    both = [r for r in at_focus if r["start frac, book's lambda"] is not None]  # a rerun may lack the figures' run
    starts = [r["start frac"] - r["start frac, book's lambda"] for r in both]
    ends = [r["end frac"] - r["end frac, book's lambda"] for r in both]
    start_in = sum(start_bar.holds(r["start frac"]) for r in at_focus)
    end_in = sum(end_bar.holds(r["end frac"]) for r in at_focus)
    none = "(not measured: these figures have no run at the same α and data seed)"
    moves = shift_span(starts) if both else none
    book_fracs = [(r["start frac, book's lambda"], r["end frac, book's lambda"]) for r in both]
    return {
        "lam_lambda": f"{runs[0].cfg.weight_decay:g}", "lam_lr": f"{runs[0].cfg.lr:g}",
        "lam_book_lambda": f"{focus.cfg.weight_decay:g}", "lam_book_lr": f"{focus.cfg.lr:g}",
        "lam_d": f"{runs[0].cfg.d:,}", "lam_n": f"{runs[0].cfg.n_train}",
        "lam_alphas": ", ".join(f"{h.cfg.alpha:g}" for h in runs if h.cfg.data_seed == sweep_seed),
        "lam_seed": f"{sweep_seed}", "lam_focus_alpha": f"{focus_alpha:g}",
        "lam_other_seeds": ", ".join(str(h.cfg.data_seed) for h in runs if h.cfg.data_seed != sweep_seed),
        "lam_steps": f"{min(h.cfg.steps for h in runs):,}–{max(h.cfg.steps for h in runs):,}",
        "lam_hours": f"{sum(r['seconds'] for r in manifest['runs']) / 3600:.1f} h",
        "lam_machine": manifest["machine"],
        "lam_focus_fracs": "; ".join(f"{r['start frac']:.2f}–{r['end frac']:.2f} (seed {r['data seed']})"
                                     for r in at_focus),
        "lam_book_fracs": "; ".join(f"{start:.2f}–{end:.2f}" for start, end in book_fracs) or none,
        "lam_start_shift": moves, "lam_end_shift": shift_span(ends) if both else none,
        "lam_start_in": f"{start_in} of {len(at_focus)}", "lam_end_in": f"{end_in} of {len(at_focus)}",
        "lam_answer": (f"at the paper's λ the focus run's start moves by {moves} of the clock and lies in the book's "
                       f"reading of Fig. 1a at {start_in} of {len(at_focus)} data seeds" if both else
                       f"at the paper's λ the focus run's start lies in the book's reading of Fig. 1a at {start_in} of "
                       f"{len(at_focus)} data seeds {none}"),
    }
