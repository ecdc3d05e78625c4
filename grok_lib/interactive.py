"""Interactive versions of the book's figures, drawn by Plotly from the data the static figure plotted.

Every figure the book saves writes its plotted data as JSON (:func:`grok_lib.figure_files.axes_data`: per
panel its labels, scales and box, per series its points, colour and style). :func:`plotly_figure` turns
that JSON into a Plotly figure spec, one subplot per panel where the static figure has it; :func:`html_block`
wraps the spec in a small HTML snippet for the book's page. The page draws it with plotly.js served by the
book itself (``_static/plotly.min.js``, copied from the ``plotly`` package by
``book/_ext/interactive_ext.py``): nothing is fetched from the network.

Why Plotly: a long-maintained MIT library whose Python wheel ships the complete ``plotly.min.js``, so the
book can serve it offline with no npm step, and whose hover labels, box zoom, double-click reset and
legend-click toggling need no code of ours.
"""

from __future__ import annotations

import html
import json
import math
import re

#: Matplotlib line styles and markers, as Plotly draws them (and as a hover label names them).
DASH = {"-": "solid", "--": "dash", ":": "dot", "-.": "dashdot"}
STYLE_WORD = {"-": "solid", "--": "dashed", ":": "dotted", "-.": "dash-dot"}
SYMBOL = {"o": "circle", ".": "circle", "s": "square", "D": "diamond", "d": "diamond-tall", "^": "triangle-up",
          "v": "triangle-down", "<": "triangle-left", ">": "triangle-right", "x": "x", "X": "x", "+": "cross",
          "P": "cross", "*": "star", "p": "pentagon", "h": "hexagon", "H": "hexagon2"}
MARKER_WORD = {"o": "●", ".": "●", "s": "■", "D": "◆", "d": "◆", "^": "▲", "v": "▼", "x": "×", "+": "+",
               "*": "★"}
#: Plotly's default colours, for data files written before colours were recorded.
FALLBACK_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]

# ---------------------------------------------------------------------------------------------
# matplotlib mathtext ($\lambda t/\ln\alpha$) as the text Plotly shows (λt/ln α, <sub>, <sup>)

_GREEK = dict(zip(("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
                   "upsilon phi chi psi omega").split(), "αβγδεζηθικλμνξπρστυφχψω"))
_SYMBOLS = _GREEK | {n.capitalize(): c.upper() for n, c in _GREEK.items()}
_SYMBOLS |= {"varepsilon": "ε", "epsilon": "ε", "vartheta": "ϑ", "varphi": "φ", "cdot": "·", "times": "×",
             "approx": "≈", "sim": "∼", "propto": "∝", "to": "→", "rightarrow": "→", "infty": "∞",
             "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "pm": "±", "|": "‖", "Vert": "‖", "ell": "ℓ",
             "partial": "∂", "nabla": "∇", "in": "∈", "mathbb": "", "left": "", "right": "", "langle": "⟨",
             "rangle": "⟩"}
_FUNCTIONS = {"ln", "log", "exp", "sin", "cos", "tan", "max", "min", "arg", "det", "tr", "srank", "rank"}
_FONTS = r"\\(?:mathrm|mathit|mathbf|mathsf|mathcal|text|textrm|operatorname|boldsymbol|rm|it|bf|sf)(?![A-Za-z])\s*"


def _math(tex: str) -> str:
    tex = re.sub(_FONTS, "", tex)

    def command(m):
        name = m.group(1)
        if name in ("sqrt", "frac"):
            return "\\" + name  # structural, handled below with its braces
        if name in _FUNCTIONS:
            return name + "\u2009"
        return _SYMBOLS.get(name, name)

    tex = re.sub(r"\\([A-Za-z]+|\|)\s*", command, tex)
    tex = tex.replace(" ", "")  # TeX ignores spaces in maths; \, and friends are thin spaces
    tex = re.sub(r"\\[,:;>]|\\ |~", "\u2009", tex).replace("\\!", "").replace("-", "−")
    tex = re.sub(r"(=|&lt;|&gt;|[≈≤≥→∼∝∈])", r" \1 ", tex)  # relations get spaces, as TeX sets them
    while True:  # innermost groups first
        new = re.sub(r"\\sqrt\{([^{}])\}", r"√\1", tex)
        new = re.sub(r"\\sqrt\{([^{}]*)\}", r"√(\1)", new)
        new = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: "/".join(
            t if len(t) == 1 else f"({t})" for t in m.groups()), new)
        new = re.sub(r"\^\{([^{}]*)\}", r"<sup>\1</sup>", new)
        new = re.sub(r"_\{([^{}]*)\}", r"<sub>\1</sub>", new)
        new = re.sub(r"\{([^{}]*)\}", r"\1", new)
        if new == tex:
            break
        tex = new
    tex = re.sub(r"\^(\\?.)", r"<sup>\1</sup>", tex)
    return re.sub(r"_(\\?.)", r"<sub>\1</sub>", tex).replace("\\", "")


def plain(text: str) -> str:
    """A matplotlib label as Plotly text: HTML-escaped, its ``$...$`` maths as Unicode with ``<sub>`` and
    ``<sup>`` (Plotly's own tags). No ``$`` is left, so plotly.js never asks MathJax to typeset it."""
    parts = html.escape(text or "", quote=False).split("$")
    return "".join(_math(p) if i % 2 else p for i, p in enumerate(parts)).strip()


# ---------------------------------------------------------------------------------------------
# the figure


def _same(a, b, tol=2e-3) -> bool:
    return all(abs(u - v) <= tol for u, v in zip(a, b))


def _boxes(panels) -> list[list[float]]:
    """Each panel's domain (x0, y0, x1, y1 in 0..1): the recorded boxes of the static figure, stretched so
    that the panels fill the plot (a figure's text-only areas, like Figure 1's schematic, are left out);
    for older data files, a grid of the panel count."""
    if not panels:
        return []
    if all("box" in p for p in panels):
        x0, y0 = min(p["box"][0] for p in panels), min(p["box"][1] for p in panels)
        x1, y1 = max(p["box"][2] for p in panels), max(p["box"][3] for p in panels)
        return [[(b[0] - x0) / (x1 - x0), (b[1] - y0) / (y1 - y0), (b[2] - x0) / (x1 - x0), (b[3] - y0) / (y1 - y0)]
                for b in (p["box"] for p in panels)]
    n = len(panels)
    cols = n if n <= 3 else math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    gx, gy = 0.08, 0.14
    w, h = (1 - gx * (cols - 1)) / cols, (1 - gy * (rows - 1)) / rows
    return [[c * (w + gx), 1 - r * (h + gy) - h, c * (w + gx) + w, 1 - r * (h + gy)]
            for r, c in (divmod(i, cols) for i in range(n))]


def aspect(facts: dict) -> float:
    """Width over height of the area the panels fill in the static figure."""
    panels = facts.get("panels", [])
    w, h = facts.get("width_in", 8.0), facts.get("height_in", 5.0)
    if panels and all("box" in p for p in panels):
        w *= max(p["box"][2] for p in panels) - min(p["box"][0] for p in panels)
        h *= max(p["box"][3] for p in panels) - min(p["box"][1] for p in panels)
    return w / h


def _ref(letter: str, n: int) -> str:
    return letter if n == 1 else f"{letter}{n}"


def _axis(scale: str, title: str, domain, lim=None, **extra) -> dict:
    axis = {"domain": [round(domain[0], 4), round(domain[1], 4)], "title": {"text": title, "standoff": 4},
            "automargin": True, "tickfont": {"size": 12}, "ticklen": 4,
            "showline": True, "linecolor": "#444", "ticks": "outside", "showgrid": True, "gridcolor": "#e6e6e6",
            "zeroline": False, "type": "log" if scale == "log" else "linear"}
    if lim and None not in lim and (scale == "linear" or (scale == "log" and min(lim) > 0)):
        # the static figure's view (double-click returns to it); a log axis' range is in decades
        axis["range"] = [math.log10(v) for v in lim] if scale == "log" else lim
    if axis["type"] == "log":
        axis["exponentformat"] = "power"  # 10⁻³, as matplotlib writes it
        if "range" in axis and abs(axis["range"][1] - axis["range"][0]) >= 2:
            axis["dtick"] = 1  # label the decades only, as matplotlib does
    return axis | extra


def plotly_figure(facts: dict) -> dict:
    """The Plotly figure spec (``{"data": [...], "layout": {...}}``) of a figure's data file.

    One subplot per panel, placed where the static figure has it (a twin axis shares its panel's x axis
    and has its y axis on the right; a panel without an x label above one with the same x range shares
    that axis). Labelled series are in the legend, one entry per label and colour, which hides them in
    every panel; an unlabelled line in a labelled series' colour (a train curve, a marked point) joins that
    entry and its hover says which (``λ = 0.6 (dashed)``). Reference lines (``axhline``) are thin shapes
    without a legend entry or hover. Hover shows the series and both coordinates, named by the axes.
    Images are not redrawn (a note says so).
    """
    panels = [_symlog_as_log(p | {"series": _coloured(p["series"], i)})
              for i, p in enumerate(facts.get("panels", []))]
    boxes = _boxes(panels)
    layout = {"paper_bgcolor": "#fff", "plot_bgcolor": "#fff", "hovermode": "closest", "showlegend": True,
              "font": {"family": "DejaVu Sans, Verdana, sans-serif", "size": 13, "color": "#222"},
              "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
              # under everything, in rows (the plot shrinks to make room): no panel or title is covered
              "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 0, "yanchor": "bottom", "yref": "container"},
              "shapes": [], "annotations": []}
    groups = {}  # colour -> the first label drawn in it: the entry an unlabelled series of that colour joins
    for p in panels:
        for s in p["series"]:
            if s.get("label") and isinstance(s["color"], str):
                groups.setdefault(s["color"], s["label"])
    data, axes, nx, ny = [], [], 0, 0  # axes: per panel (x ref, y ref, x name, y name)
    for i, (p, box) in enumerate(zip(panels, boxes)):
        twin = next((j for j in range(i) if _same(boxes[j], box)), None)
        mate = next((j for j in range(len(panels)) if twin is None and not p["xlabel"] and panels[j]["xlabel"]
                     and _same(boxes[j][::2], box[::2]) and boxes[j][1] < box[1]), None)
        ny += 1
        yname = plain(p["ylabel"]) or "y"
        if twin is not None:
            xref, xname = axes[twin][0], axes[twin][2]
            layout[f"yaxis{ny}"] = _axis(p["yscale"], yname, box[1::2], p.get("ylim"), overlaying=axes[twin][1],
                                         side="right", anchor=xref, showgrid=False)
        else:
            nx += 1
            xref = _ref("x", nx)
            xname = plain(p["xlabel"] or (panels[mate]["xlabel"] if mate is not None else "")) or "x"
            hide = {"showticklabels": False} if mate is not None else {}  # as the static figure has it
            layout[f"xaxis{'' if nx == 1 else nx}"] = _axis(p["xscale"], "" if hide else xname, box[::2],
                                                            p.get("xlim"), anchor=_ref("y", ny), **hide)
            layout[f"yaxis{'' if ny == 1 else ny}"] = _axis(p["yscale"], yname, box[1::2], p.get("ylim"), anchor=xref)
        yref = _ref("y", ny)
        axes.append((xref, yref, xname, yname))
        if p.get("title"):
            layout["annotations"].append({"text": plain(p["title"]), "xref": "paper", "yref": "paper",
                                          "x": (box[0] + box[2]) / 2, "y": box[3], "xanchor": "center",
                                          "yanchor": "bottom", "showarrow": False})
        for s in p["series"]:
            if s["mark"] == "image":
                layout["annotations"].append({"text": "(an image: see the static figure)", "xref": f"{xref} domain",
                                              "yref": f"{yref} domain", "x": 0.5, "y": 0.5, "showarrow": False})
            elif s["mark"] == "line" and ("axes_fraction" in s or "note" in s):
                layout["shapes"] += [shape for shape in [_reference(s, xref, yref)] if shape]
            else:
                data.append(_trace(s, xref, yref, xname, yname, groups))
    shown = set()
    for t in data:  # one legend entry per label and colour, on its first labelled trace
        t["showlegend"] = t.pop("_labelled") and t["legendgroup"] not in shown
        shown.add(t["legendgroup"] if t["showlegend"] else None)
    return {"data": data, "layout": layout}


def _symlog_as_log(p: dict) -> dict:
    """Plotly has no symlog axis: a log axis from the smallest positive value (a point at 0 is left out)."""
    for a in "xy":
        if p[f"{a}scale"] == "symlog":
            pos = [v for s in p["series"] for v in s.get(a) or [] if v is not None and v > 0]
            lim = p.get(f"{a}lim")
            p = p | {f"{a}scale": "log", f"{a}lim": [min(pos), lim[1]] if pos and lim and lim[1] else None}
    return p


def _coloured(series, panel):
    """``series`` with a colour each: an older data file has none (the default colours, one per label)."""
    if all("color" in s for s in series):
        return series
    labels = list(dict.fromkeys(s.get("label") or f"{panel}.{k}" for k, s in enumerate(series)))
    return [s if "color" in s else s | {"color": FALLBACK_COLOURS[labels.index(s.get("label") or f"{panel}.{k}")
                                                                  % len(FALLBACK_COLOURS)]}
            for k, s in enumerate(series)]


def _reference(s, xref, yref):
    """An axhline/axvline as a thin line shape across its panel; None if its orientation is unclear."""
    x, y = s["x"], s["y"]
    frac = s.get("axes_fraction") or ("y" if x[0] == x[-1] else "x" if y[0] == y[-1] else None)
    if frac is None or None in (x[0], x[-1], y[0], y[-1]):
        return None
    shape = {"type": "line", "line": {"color": s["color"] if isinstance(s["color"], str) else "#444", "width": 1,
                                      "dash": DASH.get(s.get("linestyle") or "-", "dash")}}
    if frac == "y":  # vertical at x: y runs over the panel's height
        return shape | {"xref": xref, "x0": x[0], "x1": x[0], "yref": f"{yref} domain", "y0": y[0], "y1": y[-1]}
    return shape | {"yref": yref, "y0": y[0], "y1": y[0], "xref": f"{xref} domain", "x0": x[0], "x1": x[-1]}


def _trace(s, xref, yref, xname, yname, groups) -> dict:
    colour, label = s["color"], s.get("label")
    group = label or (groups.get(colour) if isinstance(colour, str) else None)
    style, marker = s.get("linestyle"), s.get("marker")
    if label:
        name = plain(label)
    elif group:  # an unlabelled companion of a labelled series: named by that series and its look
        look = MARKER_WORD.get(marker, "marker") if style is None and marker else STYLE_WORD.get(style, "line")
        name = f"{plain(group)} ({look})"
    else:
        name = yname
    hover = f"<b>%{{fullData.name}}</b><br>{xname} = %{{x:.6~g}}<br>{yname} = %{{y:.4~g}}<extra></extra>"
    trace = {"x": s["x"], "y": s["y"], "name": name, "xaxis": xref, "yaxis": yref, "hovertemplate": hover,
             "legendgroup": f"{plain(group)} {colour}" if group else None, "_labelled": bool(label)}
    if s["mark"] == "bars":
        return trace | {"type": "bar", "marker": {"color": colour}}
    if s["mark"] == "points":
        return trace | {"type": "scatter", "mode": "markers", "marker": {"color": colour, "size": 7}}
    mode = "+".join(m for m, on in (("lines", style is not None), ("markers", marker is not None)) if on) or "lines"
    width = round(s.get("linewidth", 1.5) * 4 / 3, 2)  # points -> CSS pixels
    trace |= {"type": "scatter", "mode": mode, "line": {"color": colour, "width": width,
                                                        "dash": DASH.get(style or "-", "solid")}}
    if marker:
        size, edge = s.get("markersize", 6), s.get("markeredgecolor", colour)
        trace["marker"] = {"color": colour, "symbol": SYMBOL.get(marker, "circle"), "size": round(size * 4 / 3, 1),
                           "line": {"color": edge, "width": 1 if edge != colour else 0}}
    return trace


def legend_rows(spec: dict, width_px: float = 900) -> int:
    """About how many rows the legend takes at ``width_px`` (Plotly lays entries out left to right)."""
    names = [re.sub(r"<[^>]+>|&\w+;", "x", t["name"]) for t in spec["data"] if t.get("showlegend")]
    return math.ceil(sum(46 + 7.5 * len(n) for n in names) / width_px) if names else 0


# ---------------------------------------------------------------------------------------------
# the page


def html_block(facts: dict, div_id: str, js_src: str) -> str:
    """The HTML that draws ``facts``' figure on a page: a ``<div>``, the spec as inline JSON, and a script
    that loads plotly.js from ``js_src`` (a path the book serves; once per page, however many figures)
    and draws the figure. Inside a closed ``<details>`` (the book's dropdown) it waits until the reader
    opens it: Plotly sizes a plot by its container, and a page that is only read loads no plotly.js."""
    div_id = re.sub(r"[^A-Za-z0-9_-]", "-", div_id)
    # "<" escaped: the JSON can never close its <script> element
    spec = plotly_figure(facts)
    spec_json = json.dumps(spec, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    config = json.dumps({"responsive": True, "displaylogo": False})  # no "edit in Chart Studio", no logo link
    # the plot's own shape as in the static figure, plus the legend's rows under it (at the book's 920 px)
    ratio = round(920 / (920 / aspect(facts) + 26 * legend_rows(spec) + 10), 3)
    # on a phone the panels keep a legible width (320 px a column) and the figure scrolls sideways
    columns = max(1, len({round(b[0], 2) for b in _boxes(facts.get("panels", []))}))
    return (f'<div class="grok-plotly-scroll" style="overflow-x: auto">'
            f'<div id="{div_id}" class="grok-plotly" style="width: 100%; min-width: {320 * columns}px; '
            f'aspect-ratio: {ratio}; min-height: 380px"></div></div>\n'
            f'<script type="application/json" id="{div_id}-spec">{spec_json}</script>\n'
            "<script>(function () {\n"
            f'  var div = document.getElementById("{div_id}"), box = div.closest("details");\n'
            "  function draw() {\n"
            "    var spec = JSON.parse(document.getElementById(div.id + \"-spec\").textContent);\n"
            f"    window.Plotly.newPlot(div, spec.data, spec.layout, {config});\n"
            "  }\n"
            "  function show() {\n"
            "    window.grokPlotly = window.grokPlotly || new Promise(function (done, fail) {\n"
            "      if (window.Plotly) return done();\n"
            '      var s = document.createElement("script");\n'
            f"      s.src = {json.dumps(js_src)}; s.onload = done; s.onerror = fail; document.head.appendChild(s);\n"
            "    });\n"
            "    window.grokPlotly.then(draw);\n"
            "  }\n"
            "  if (!box || box.open) show();\n"
            '  else box.addEventListener("toggle", function open() {\n'
            '    if (box.open) { box.removeEventListener("toggle", open); show(); }\n'
            "  });\n"
            "})();</script>")
