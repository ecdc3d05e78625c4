"""How a notebook shows its results in the book: figures with their captions, tables and claim
verdicts, as Markdown that wraps (not printed ``<pre>`` text).

Three display objects, each the last expression of a notebook cell (or passed to ``display``):

* :class:`FigureView` (:meth:`grok_lib.notebook.Run.figure`): the figure saved legibly as a
  high-resolution PNG, an SVG and the plotted data (:mod:`grok_lib.figure_files`), shown as a MyST ``figure`` with the title as
  alt text and a caption linking those files and stating the figure's provenance.
* :class:`Table` (:func:`grok_lib.tables.show`): key numbers as a Markdown table.
* :class:`Verdicts` (:meth:`grok_lib.notebook.Run.verdicts`): claim results, each marked by colour
  and by word (the CSS classes ``verdict-reproduced``, ``verdict-not-reproduced``, ``verdict-inconclusive``,
  ``verdict-not-tested-faithfully`` of ``book/_static/book.css``), with what each claim declared before the run.

Each has a plain-text form (``text/plain``) as well. nbval compares both forms of the cells it
checks, so the Markdown is built from the values alone (no dates, no paths outside the repository).
"""

from __future__ import annotations

import base64
import html
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from . import paths
from .figure_files import PNG_DPI
from .claims import claim_anchor, declaration, format_results
from .claims import badge as verdict_badge
from .tables import typeset

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
        blocks = [f'<a id="{claim_anchor(r.claim.id)}"></a>{verdict_badge(r.verdict, r.claim.kind)} **`{r.claim.id}`** — '
                  f"{typeset(r.claim.statement)}<br>\n"
                  f"<small>{declaration(r.claim)}</small><br>\n"
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
