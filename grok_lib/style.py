"""The book's house plot style and the shared axis conventions.

Every paper's plot functions take histories (or plain arrays) and an ``Axes``; they never
train or load anything. (Figures are saved by :meth:`grok_lib.notebook.Run.figure`, through
:func:`grok_lib.figure_files.save_figure_files`, with fixed metadata.)
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt  # noqa: F401 (notebooks call style.plt.show())
import numpy as np

from .history import History

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "svg.hashsalt": "grok-book",  # stable SVG ids
}


def use_house_style() -> None:
    """Apply the book's matplotlib style (call once per notebook)."""
    mpl.rcParams.update(STYLE)


def epochs(history: History) -> np.ndarray:
    """The recorded steps as a float axis; step 0 cannot sit on a log axis, so it is drawn at
    0.5 ("before the first update")."""
    return np.where(history.steps == 0, 0.5, history.steps).astype(float)


def log_scale_where_positive(ax, x: bool = True, y: bool = True) -> None:
    """Log scales on ``ax`` if its data lines (not reference lines such as ``axhline``) hold a point
    positive on every axis to be logged; otherwise the axes stay linear (a very short run: no clock
    reading, no gap or gradient above zero) rather than failing to draw."""
    for line in ax.get_lines():
        if line.get_transform() != ax.transData:
            continue
        xd, yd = (np.asarray(v, dtype=float) for v in (line.get_xdata(), line.get_ydata()))
        if xd.shape != yd.shape:
            continue
        ok = np.isfinite(xd) & np.isfinite(yd) & ((xd > 0) | (not x)) & ((yd > 0) | (not y))
        if ok.any():
            if x:
                ax.set_xscale("log")
            if y:
                ax.set_yscale("log")
            return
