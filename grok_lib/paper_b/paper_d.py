"""The sparse page's reading of its alpha sweep at the paper's size, d = 1e5 and n = 256 (the recorded set
``paper_b/sparse_paper_d``: one stacked sweep trained over several sessions and recorded as far as it has gone),
beside the same sweep at the book's d = 4,000 and n = 128 (``paper_b/sparse_paper_lambda``). Both are at the paper's
lambda and step cap and data seed 0, so the size (d and n together) is what differs. Reported, not graded: one data
seed, and while the sweep is not done only the members whose transition it has reached say anything."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..history import History
from . import measure
from .curve_numbers import rounded

#: What the table and the prose print for a transition the recording has not reached yet.
NOT_YET = "not yet"


def fractions(h: History) -> tuple[float, float]:
    """The transition's start and end on the clock lambda t / ln(alpha) (nan: not reached in the recording)."""
    return measure.accuracy_transition(h).fractions


def clock_reached(h: History) -> float:
    """lambda t / ln(alpha) at the run's last recorded step."""
    return float(measure.clock(h)[-1])


def record_spacing(h: History) -> float:
    """The largest gap between two recorded steps on the clock (a crossing is read at the first recorded step past
    it, so a shift smaller than this is not resolved)."""
    c = measure.clock(h)
    return float(np.diff(c).max()) if len(c) > 1 else math.nan


def book_runs(at_paper_d: Sequence[History], at_book_d: Sequence[History]) -> dict[float, History]:
    """The book's run per alpha at the data seed of the sweep at the paper's size."""
    seed = at_paper_d[0].cfg.data_seed
    return {h.cfg.alpha: h for h in at_book_d if h.cfg.data_seed == seed}


def _shown(x: float):
    return rounded(x) if math.isfinite(x) else NOT_YET


def size_table(at_paper_d: Sequence[History], at_book_d: Sequence[History]) -> list[dict]:
    """Per member of the sweep at the paper's size: alpha, its last recorded step and clock, the transition's start and
    end on the clock there, and at the book's size (``at_book_d``: its run at the same alpha and data seed)."""
    book = book_runs(at_paper_d, at_book_d)
    big, small = f"d = {at_paper_d[0].cfg.d:,}", f"d = {next(iter(book.values())).cfg.d:,}" if book else "book's d"
    rows = []
    for h in at_paper_d:
        s, e = fractions(h)
        bs, be = fractions(book[h.cfg.alpha]) if h.cfg.alpha in book else (math.nan, math.nan)
        rows.append({"alpha": h.cfg.alpha, "recorded to step": int(h.steps[-1]), "clock reached": rounded(clock_reached(h)),
                     f"start, {big}": _shown(s), f"end, {big}": _shown(e),
                     f"start, {small}": rounded(bs), f"end, {small}": rounded(be)})
    return rows


def shifts(at_paper_d: Sequence[History], at_book_d: Sequence[History]) -> list[tuple[float, float, float]]:
    """(alpha, start shift, end shift) on the clock, paper's size minus book's, for every member whose transition the
    recording has reached (its start; the end shift is nan while the recording stops short of the end) and the book's
    set has at the same alpha and data seed."""
    book = book_runs(at_paper_d, at_book_d)
    out = []
    for h in at_paper_d:
        s, e = fractions(h)
        if math.isfinite(s) and h.cfg.alpha in book:
            bs, be = fractions(book[h.cfg.alpha])
            out.append((float(h.cfg.alpha), s - bs, e - be))  # nan - be: the end not recorded yet
    return out


def _move(alpha: float, start: float, end: float) -> str:
    return f"α = {alpha:g}: start {start:+.2f}, end " + (f"{end:+.2f}" if math.isfinite(end) else NOT_YET)


def size_words(at_paper_d: Sequence[History], at_book_d: Sequence[History], manifest: dict) -> dict[str, str]:
    """The glued words of the sparse page's section "At the paper's d": the two sizes, how far the sweep has gone
    (``manifest["sweep"]``, written by :func:`grok_lib.paper_b.sweep_folder.record`), its CPU time so far, and per
    member what the larger size moves (or the clock it stands at)."""
    first, book = at_paper_d[0].cfg, next(iter(book_runs(at_paper_d, at_book_d).values())).cfg
    sweep = manifest["sweep"]
    moved = shifts(at_paper_d, at_book_d)
    pending = [h for h in at_paper_d if not math.isfinite(fractions(h)[1])]  # the end not recorded yet
    moves = "; ".join(_move(*m) for m in moved)
    return {
        "size_d": f"{first.d:,}", "size_n": f"{first.n_train}", "size_book_d": f"{book.d:,}",
        "size_book_n": f"{book.n_train}", "size_n_test": f"{first.n_test:,}",
        "size_alphas": ", ".join(f"{h.cfg.alpha:g}" for h in at_paper_d), "size_seed": f"{first.data_seed}",
        "size_through": f"{min(sweep['through_step'], sweep['last_step']):,}", "size_last": f"{sweep['last_step']:,}",
        "size_percent": f"{100 * min(sweep['through_step'], sweep['last_step']) / sweep['last_step']:.0f}%",
        "size_state": "done" if sweep["done"] else "not done",
        "size_hours": f"{max(r['seconds'] for r in manifest['runs']) / 3600:.1f} h",  # each member's: the sweep's
        "size_grid": f"{max(record_spacing(h) for h in at_paper_d):.2g}",
        "size_machine": manifest["machine"],
        "size_moves": moves or f"none yet, no member's transition has started by step {sweep['through_step']:,}",
        "size_pending": ("; ".join(f"α = {h.cfg.alpha:g} (recorded to {clock_reached(h):.2f} of the clock)" for h in pending)
                         or "none: every member's transition is recorded"),
    }
