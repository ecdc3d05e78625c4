"""Serves the JavaScript of the book's interactive figures, from the book itself (no CDN).

* ``_static/plotly.min.js``: plotly.js as the installed ``plotly`` package ships it, copied into the
  HTML build when it finishes (not committed: the pinned package is its one source). The figures'
  dropdowns (grok_lib/interactive.py) load it when a reader opens one.
* ``figure_zoom.js`` (book/_static): on a small screen a tap opens a figure full size, and a label under each
  figure says so.
* ``plotly_narrow.js`` (book/_static): on a small screen an interactive figure's panels are stacked, each the
  column's width.
"""

import shutil
from pathlib import Path


def plotly_js() -> Path:
    import plotly

    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def copy_plotly(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "plotly.min.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(plotly_js(), target)  # every build: the installed (pinned) version is the one served


def setup(app):
    app.add_js_file("figure_zoom.js", loading_method="defer")
    app.add_js_file("plotly_narrow.js", loading_method="defer")
    app.connect("build-finished", copy_plotly)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
