"""A saved figure's files: the figure made legible where the book shows it (fonts of at least
:data:`TARGET_PX` pixels at its width in the text column or full width), written as a high-resolution
PNG, an SVG and the plotted data (JSON, read off the figure's axes: what the interactive versions
and readers replot from), and copied to where the book ships them (:func:`ship`).
:class:`grok_lib.display.FigureView` shows them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Optional

from . import paths, tables
from .atomic import atomic_write
from .overlay import BOOK_GID

#: The smallest font size, in CSS pixels, of any text of a figure where the book shows it at 1280 px.
TARGET_PX = 11.5
#: The width a figure is shown at in the book's text column (sphinx-book-theme at a 1280 px
#: window: the column, tables.COLUMN_PX, less the figure's padding), and in its full-width layout (136 % of
#: the column, over the page's table of contents), in CSS pixels; measured with Chromium.
FIGURE_PADDING_PX = 16
COLUMN_PX = tables.COLUMN_PX - FIGURE_PADDING_PX
WIDE_PX = 920
#: Figures up to this wide (inches) stand in the text column; wider ones use the full width, and
#: are narrowed to at most WIDE_MAX_IN.
COLUMN_MAX_IN = 9.0
WIDE_MAX_IN = 12.6
#: Resolution of the PNG shown in the book and linked from the caption.
PNG_DPI = 200
#: Where the committed run's figure files are copied for the book to ship (the build copies the
#: PNG into ``_images`` and the linked files into ``_downloads``). Not named ``figures``: that name
#: is the build product the notebooks write (``figures/``), which a fresh clone does not have.
SHIPPED = paths.SHIPPED_FIGURES


def legible(fig) -> str:
    """Make ``fig`` legible where the book shows it; return its layout, ``"column"`` or ``"wide"``.

    A figure up to :data:`COLUMN_MAX_IN` wide is shown across the text column, a wider one across
    the full width (narrowed to :data:`WIDE_MAX_IN`, its height scaled by the square root of that
    factor). Every text of the figure (tick labels, legends, labels, titles, annotations) is then
    enlarged to at least the size that measures :data:`TARGET_PX` pixels on the page.
    """
    import matplotlib.text

    w, h = fig.get_size_inches()
    if w <= COLUMN_MAX_IN:
        layout = "column"
    else:
        layout = "wide"
        if w > WIDE_MAX_IN:
            fig.set_size_inches(WIDE_MAX_IN, h * math.sqrt(WIDE_MAX_IN / w))
    need = min_font_pt(fig.get_size_inches()[0], layout)
    for ax in fig.axes:
        ax.tick_params(which="both", labelsize=need)
        for axis in (ax.xaxis, ax.yaxis):
            axis.get_offset_text().set_fontsize(max(axis.get_offset_text().get_fontsize(), need))
    for text in fig.findobj(matplotlib.text.Text):
        if text.get_fontsize() < need:
            text.set_fontsize(need)
    return layout


def min_font_pt(width_in: float, layout: str) -> float:
    """The font size (points) that measures :data:`TARGET_PX` on the page for a figure ``width_in``
    inches wide shown across ``layout`` (rounded up to a tenth)."""
    px = COLUMN_PX if layout == "column" else WIDE_PX
    return math.ceil(TARGET_PX * 72 * width_in / px * 10) / 10


def _num(v):
    v = float(v)
    return float(f"{v:.6g}") if math.isfinite(v) else None


def _nums(values) -> list:
    import numpy as np

    arr = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).ravel()
    return [_num(v) for v in arr]


def _label(artist) -> Optional[str]:
    label = artist.get_label()
    return None if (not label or label.startswith("_")) else label


def axes_data(fig) -> list[dict]:
    """Exactly the series plotted in ``fig``, per panel: each line's label and x/y data (reference
    lines drawn in axes coordinates, like ``axhline``, say so), each scatter's points, each bar
    container's bars and each image's array. Values keep 6 significant digits; NaN/inf are null.
    Each panel also records its box (figure fraction) and axis limits, each line its colour, line style,
    marker and width, each scatter and bar container its colour(s): what :mod:`grok_lib.interactive`
    needs to draw the same figure in the reader's browser."""
    from matplotlib.collections import PathCollection
    from matplotlib.container import BarContainer
    from matplotlib.image import AxesImage

    panels = []
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        series = []
        for line in ax.get_lines():
            xy = line.get_xydata()
            if len(xy) == 0 or line.get_gid() == BOOK_GID:  # the book's curves beneath a rerun's: not its data
                continue
            entry = {"mark": "line", "label": _label(line), "x": _nums(xy[:, 0]), "y": _nums(xy[:, 1])}
            if line.get_transform() != ax.transData:
                entry["note"] = "a reference line: one coordinate is a fraction of the axes (0 to 1)"
                x_data, _ = line.get_transform().contains_branch_seperately(ax.transData)
                entry["axes_fraction"] = "y" if x_data else "x"  # axvline: y is the fraction; axhline: x
            series.append(entry | _line_style(line))
        for coll in ax.collections:
            if isinstance(coll, PathCollection) and len(coll.get_offsets()) and coll.get_gid() != BOOK_GID:
                off = coll.get_offsets()
                series.append({"mark": "points", "label": _label(coll), "x": _nums(off[:, 0]), "y": _nums(off[:, 1]),
                               "color": _colours(coll.get_facecolor())})
        for cont in ax.containers:
            if isinstance(cont, BarContainer):
                series.append({"mark": "bars", "label": _label(cont),
                               "x": _nums([p.get_x() + p.get_width() / 2 for p in cont.patches]),
                               "y": _nums([p.get_height() for p in cont.patches]),
                               "color": _colours([p.get_facecolor() for p in cont.patches])})
        for im in ax.get_images():
            if isinstance(im, AxesImage):
                arr = im.get_array()
                series.append({"mark": "image", "label": _label(im), "shape": list(arr.shape),
                               "extent": _nums(im.get_extent()), "values": _nums(arr)})
        if not series and not ax.get_title() and not ax.get_xlabel():
            continue  # a colour bar or an empty panel
        panels.append({"panel": i, "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                       "xscale": ax.get_xscale(), "yscale": ax.get_yscale(), "series": series,
                       "box": _box(ax, fig), "xlim": _nums(ax.get_xlim()), "ylim": _nums(ax.get_ylim())})
    return panels


def _box(ax, fig) -> list:
    """Where panel ``ax`` stands in ``fig``: x0, y0, x1, y1 as fractions of the whole figure (its display box,
    so that panels of subfigures, whose positions are fractions of their subfigure, are placed right too)."""
    w, h = fig.bbox.width, fig.bbox.height
    return [round(float(v), 4) for v in (ax.bbox.x0 / w, ax.bbox.y0 / h, ax.bbox.x1 / w, ax.bbox.y1 / h)]


def _line_style(line) -> dict:
    """A line's look: colour (hex), line style ('-', '--', ':', '-.' or None), marker (its matplotlib
    code, or None; with its size in points and edge colour) and width in points."""
    from matplotlib.colors import to_hex

    style, marker = line.get_linestyle(), line.get_marker()
    marker = marker if isinstance(marker, str) and marker not in ("None", "none", "", " ") else None
    out = {"color": to_hex(line.get_color()), "linestyle": None if style in ("None", "none", "", " ") else style,
           "marker": marker, "linewidth": round(float(line.get_linewidth()), 2)}
    if marker:
        out |= {"markersize": round(float(line.get_markersize()), 2),
                "markeredgecolor": to_hex(line.get_markeredgecolor())}
    return out


def _colours(colours):
    """One hex colour if all are the same, else one per item (a scatter coloured by value)."""
    from matplotlib.colors import to_hex

    hexes = [to_hex(c) for c in colours]
    return hexes[0] if len(set(hexes)) == 1 else (hexes or None)


def save_figure_files(fig, name: str, title: str, folder: Path = paths.FIGURES, numbers=None) -> dict:
    """Save ``fig`` legibly as ``<folder>/<name>.png`` (:data:`PNG_DPI`), ``.svg`` and ``.json`` (the
    plotted data, and ``numbers``, the figure's key numbers, if given: the book's committed run gives them,
    and the figure-number tests compare with them); return ``{"png", "svg", "json": path, "layout": ...}``.
    The files do not vary with the time they were made (fixed metadata)."""
    import io

    layout = legible(fig)
    out = {"layout": layout}
    for suffix, meta, kw in ((".png", {"Software": None}, {"dpi": PNG_DPI}),
                             (".svg", {"Date": None, "Creator": None}, {})):
        buf = io.BytesIO()
        fig.savefig(buf, format=suffix[1:], metadata=meta, **kw)
        path = paths.figure_path(name, suffix, folder)
        atomic_write(path, buf.getvalue())
        out[suffix[1:]] = path
    w, h = fig.get_size_inches()
    facts = {"figure": name, "title": title, "layout": layout, "width_in": round(float(w), 3),
             "height_in": round(float(h), 3), "min_font_pt": min_font_pt(float(w), layout),
             "panels": axes_data(fig)}
    if numbers is not None:
        facts["numbers"] = numbers
    path = paths.figure_path(name, ".json", folder)
    atomic_write(path, (json.dumps(facts, ensure_ascii=False, separators=(",", ":"), default=_json_default)
                        + "\n").encode())
    out["json"] = path
    return out


def _json_default(value):
    import numpy as np

    if isinstance(value, np.ndarray):
        return _nums(value)
    if isinstance(value, np.generic):
        return _num(value) if isinstance(value, np.floating) else value.item()
    raise TypeError(f"figure data: {type(value).__name__} is not JSON")


def ship(files: dict, name: str, folder: Path = SHIPPED) -> dict:
    """Copy a committed run's figure files into the book (``book/figure_files/<name>.*``)."""
    out = {"layout": files["layout"]}
    for kind in ("png", "svg", "json"):
        target = paths.figure_path(name, f".{kind}", folder)
        data = Path(files[kind]).read_bytes()
        if not target.exists() or target.read_bytes() != data:
            atomic_write(target, data)
        out[kind] = target
    return out
