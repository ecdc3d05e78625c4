"""A rerun's figure drawn over the book's: the book's plotted data in grey beneath the rerun's curves.

The book's data are its figure's data file (``book/figure_files/<name>.json``, written by the committed
run: every line and point it plots, per panel). A rerun asks for the overlay with one switch:
``scripts/rerun.py --over-book`` (or ``GROK_OVER_BOOK=1`` in the environment of papermill or Jupyter).
Lines and points are overlaid; bars, images and reference lines (drawn in axes coordinates) are not,
since grey bars or a second heat map would hide the rerun's own. The overlaid artists carry the
gid :data:`BOOK_GID`, so the rerun's own data file holds only its own numbers.
"""

from __future__ import annotations

import json
import os

from . import paths

ENV = "GROK_OVER_BOOK"
BOOK_GID = "the-books-run"
GREY = "0.62"


def requested() -> bool:
    """Whether this process was asked to draw figures over the book's (``GROK_OVER_BOOK``)."""
    value = os.environ.get(ENV, "").strip().lower()
    if value not in ("", "0", "1", "true", "false", "yes", "no"):
        from .config import ConfigError

        raise ConfigError(f"{ENV} must be 1 (draw over the book's figures) or 0, got {value!r}")
    return value in ("1", "true", "yes")


def _values(xs) -> list[float]:
    return [float("nan") if v is None else float(v) for v in xs]


def draw_book_beneath(fig, name: str) -> int:
    """Draw the book's lines and points of figure ``name`` in grey beneath ``fig``'s, panel by panel (a panel of
    the book's data file is ``fig.axes[panel]``); return how many series were drawn (0 if the book has no data
    file for it, e.g. a figure the book does not show)."""
    path = paths.figure_path(name, ".json", paths.SHIPPED_FIGURES)
    if not path.exists():
        return 0
    drawn = 0
    for panel in json.loads(path.read_text())["panels"]:
        if panel["panel"] >= len(fig.axes):
            continue
        ax = fig.axes[panel["panel"]]
        limits = ax.get_xlim(), ax.get_ylim()
        for s in panel["series"]:
            if s["mark"] == "line" and "axes_fraction" not in s:
                ax.plot(_values(s["x"]), _values(s["y"]), color=GREY, linewidth=1.0,
                        linestyle=s.get("linestyle", "-"), zorder=0.5, gid=BOOK_GID, label="_book")
            elif s["mark"] == "points":
                ax.scatter(_values(s["x"]), _values(s["y"]), color=GREY, s=10, zorder=0.5, gid=BOOK_GID,
                           label="_book")
            else:
                continue
            drawn += 1
        # the rerun's range, widened to the book's: both are seen whole
        ax.relim()
        ax.autoscale_view()
        ax.set_xlim(_widened(limits[0], ax.get_xlim()))
        ax.set_ylim(_widened(limits[1], ax.get_ylim()))
    return drawn


def _widened(before: tuple, after: tuple) -> tuple:
    """The union of two axis ranges, in the direction of ``before`` (an inverted axis stays inverted)."""
    lo, hi = min(*before, *after), max(*before, *after)
    return (lo, hi) if before[0] <= before[1] else (hi, lo)
