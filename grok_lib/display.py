"""How a notebook shows its results in the book: figures with their captions, tables and claim
verdicts, as Markdown that wraps (not printed ``<pre>`` text).

Three display objects, each the last expression of a notebook cell (or passed to ``display``):

* :class:`FigureView` (:meth:`grok_lib.notebook.Run.figure`): the figure saved legibly (fonts of
  at least :data:`TARGET_PX` pixels where the book shows it), as a high-resolution PNG, an SVG and
  the plotted data (JSON, read off the figure's axes), shown as a MyST ``figure`` with the title as
  alt text and a caption linking those files and stating the figure's provenance.
* :class:`Table` (:func:`grok_lib.tables.show`): key numbers as a Markdown table.
* :class:`Verdicts` (:meth:`grok_lib.notebook.Run.verdicts`): claim results, each marked by colour
  and by word (the CSS classes ``verdict-reproduced``, ``verdict-partly``,
  ``verdict-not-reproduced`` of ``book/_static/book.css``).

Each has a plain-text form (``text/plain``) as well. nbval compares both forms of the cells it
checks, so the Markdown is built from the values alone (no dates, no paths outside the repository).
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from . import paths, tables
from .atomic import atomic_write
from .claims import VERDICT_MARKS, claim_anchor, format_results  # noqa: F401  (VERDICT_MARKS: re-exported)
from .claims import badge as verdict_badge
from .tables import typeset

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

#: The title of the dropdown that holds a figure's interactive version (FigureView.explorer).
EXPLORE = "Explore this figure (interactive: hover, zoom, click a legend entry to hide it)"

def markdown_to_html(text: str) -> str:
    """The little Markdown of captions as HTML: ``**bold**``, ```code```, ``[text](link)``; inline
    HTML (``<a>``) is kept."""
    import re

    parts = re.split(r"(<a [^>]*>[^<]*</a>)", text)
    out = []
    for part in parts:
        if part.startswith("<a "):
            out.append(part)
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', part)
        out.append(part)
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# figures


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
            if len(xy) == 0:
                continue
            entry = {"kind": "line", "label": _label(line), "x": _nums(xy[:, 0]), "y": _nums(xy[:, 1])}
            if line.get_transform() != ax.transData:
                entry["note"] = "a reference line: one coordinate is a fraction of the axes (0 to 1)"
                x_data, _ = line.get_transform().contains_branch_seperately(ax.transData)
                entry["axes_fraction"] = "y" if x_data else "x"  # axvline: y is the fraction; axhline: x
            series.append(entry | _line_style(line))
        for coll in ax.collections:
            if isinstance(coll, PathCollection) and len(coll.get_offsets()):
                off = coll.get_offsets()
                series.append({"kind": "points", "label": _label(coll), "x": _nums(off[:, 0]), "y": _nums(off[:, 1]),
                               "color": _colours(coll.get_facecolor())})
        for cont in ax.containers:
            if isinstance(cont, BarContainer):
                series.append({"kind": "bars", "label": _label(cont),
                               "x": _nums([p.get_x() + p.get_width() / 2 for p in cont.patches]),
                               "y": _nums([p.get_height() for p in cont.patches]),
                               "color": _colours([p.get_facecolor() for p in cont.patches])})
        for im in ax.get_images():
            if isinstance(im, AxesImage):
                arr = im.get_array()
                series.append({"kind": "image", "label": _label(im), "shape": list(arr.shape),
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


def save_figure_files(fig, name: str, title: str, folder: Path = paths.FIGURES, data=None) -> dict:
    """Save ``fig`` legibly as ``<folder>/<name>.png`` (:data:`PNG_DPI`), ``.svg`` and ``.json`` (the
    plotted data, and ``data`` if given); return ``{"png", "svg", "json": path, "layout": ...}``.
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
    if data is not None:
        facts["data"] = data
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


def figure_label(name: str) -> str:
    """The Sphinx label of figure ``name`` ("paper_c/loss_curves" -> "fig-paper-c-loss-curves"): the HTML
    anchor the gallery, the findings boxes and the claims report link to (docutils' own id rule)."""
    from docutils.nodes import make_id

    return make_id(f"fig-{name}")


@dataclass
class FigureView:
    """A saved figure as the book shows it (see the module docstring)."""

    name: str
    title: str
    files: dict  # png, svg, json: paths; layout
    notebook: Optional[str] = None  # the notebook's path in the repository (committed runs)
    stamp: str = ""  # the provenance sentence
    note: str = ""  # where a rerun's files went
    interactive: bool = False  # the book also shows a Plotly version (grok_lib.interactive) under the figure

    def _rel(self, path: Path) -> str:
        if self.notebook is None:
            return Path(path).as_posix()
        return Path(os.path.relpath(path, (paths.ROOT / self.notebook).parent)).as_posix()

    def caption(self) -> str:
        f = self.files
        if self.notebook is None:
            links = f"files: `{f['png']}`, `{Path(f['svg']).name}`, `{Path(f['json']).name}`"
        else:
            links = (f"[SVG]({self._rel(f['svg'])}) · [PNG, {PNG_DPI} dpi]({self._rel(f['png'])}) · "
                     f"[plotted data (JSON)]({self._rel(f['json'])})")
        return f"**{typeset(self.title)}.** {links}. {self.stamp}".strip()

    def _repr_markdown_(self) -> str:
        if self.notebook is None:  # a rerun outside the book: the image inline, as a data URI
            png = base64.b64encode(Path(self.files["png"]).read_bytes()).decode()
            return f"![{self.title}](data:image/png;base64,{png})\n\n{self.caption()}\n\n{self.note}".strip()
        figure = (f"````{{figure}} {self._rel(self.files['png'])}\n:name: {figure_label(self.name)}\n:alt: {self.title}\n"
                  f":width: 100%\n:class: book-figure\n:figclass: book-figure\n\n{self.caption()}\n````")
        if self.interactive:
            figure += "\n\n" + self.explorer()
        if self.files["layout"] == "wide":
            return f"`````{{container}} full-width\n{figure}\n`````"
        return figure

    def explorer(self) -> str:
        """The interactive version, as MyST: a closed dropdown holding the Plotly figure drawn from the
        figure's data file, with plotly.js from the book's ``_static`` (book/_ext/interactive_ext.py)."""
        from .interactive import html_block

        facts = json.loads(Path(self.files["json"]).read_text())
        js = self._rel(paths.ROOT / "_static" / "plotly.min.js")  # the page's path to the build's _static
        block = html_block(facts, f"plotly-{figure_label(self.name)}", js)
        return (f"````{{dropdown}} {EXPLORE}\n:class-container: interactive-figure\n\n"
                f"```{{raw}} html\n{block}\n```\n````")

    def _repr_html_(self) -> str:
        """The same figure for Jupyter (JupyterLab and nbviewer render HTML before Markdown; the
        book renders the Markdown, see ``nb_mime_priority_overrides`` in ``_config.yml``). The static figure
        only: JupyterLab runs no script of an untrusted (committed) notebook's outputs and GitHub or nbviewer
        strip them, so an interactive version there would be an empty box."""
        if self.notebook is None:
            src = "data:image/png;base64," + base64.b64encode(Path(self.files["png"]).read_bytes()).decode()
        else:
            src = self._rel(self.files["png"])
        return (f'<figure><img src="{html.escape(src)}" alt="{html.escape(self.title)}" style="max-width: 100%">'
                f"<figcaption>{markdown_to_html(self.caption())} {html.escape(self.note)}</figcaption></figure>")

    def __repr__(self) -> str:
        return f"Figure {self.name}: {self.title}"

    def _repr_pretty_(self, p, cycle):
        p.text(repr(self))


@dataclass
class Verdicts:
    """Claim results as the book shows them: per claim its verdict (colour and word), id, the
    paper's statement and what was measured; ``note`` says where a rerun recorded them."""

    results: Sequence = field(default_factory=list)
    note: str = ""

    def _repr_markdown_(self) -> str:
        blocks = [f'<a id="{claim_anchor(r.claim.id)}"></a>{verdict_badge(r.verdict)} **`{r.claim.id}`** — '
                  f"{typeset(r.claim.statement)}<br>\n"
                  f"*Measured:* {typeset(r.measured)}" for r in self.results]
        if self.note:
            blocks.append(f"*{self.note}*")
        return "\n\n".join(blocks)

    def __repr__(self) -> str:
        return "\n".join(t for t in (format_results(self.results), self.note) if t)

    def _repr_pretty_(self, p, cycle):
        p.text(repr(self))


def glue(**values) -> None:
    """Give the page's prose its measured numbers (myst-nb glue): a markdown cell pastes each one with the
    ``{glue:md}`` role and its name (``:myst`` after the name where the value holds maths), so the number
    comes from this computation, never typed, and the prose cannot contradict the tables beside it when
    the runs change. A string is glued as the Markdown it shows (already formatted, as the tables print
    it), anything else as itself (for the ``{glue:text}`` role with a format). Call it in a cell tagged
    ``remove-cell``; nothing is displayed."""
    from IPython.display import Markdown
    from myst_nb import glue as _glue

    for name, value in values.items():
        _glue(name, Markdown(value) if isinstance(value, str) else value, display=False)
