"""The interactive figures (grok_lib/interactive.py): the Plotly spec drawn from a figure's data file,
the HTML a page embeds, and the dropdown ``Run.saved_figure(..., interactive=True)`` adds under a figure declared
``interactive=True``."""

import json
import re
import shutil

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from grok_lib import display, figure_files, interactive, paths  # noqa: E402
from grok_lib.notebook import Run  # noqa: E402

pytestmark = pytest.mark.unit


def synthetic_facts() -> dict:
    """A figure like the book's: a log-log panel with two labelled runs, an unlabelled (dashed) companion
    of one, a marked point and an axhline; a twin axis; a second panel."""
    fig, (ax, other) = plt.subplots(1, 2, figsize=(10, 4))
    ax.plot([1, 10, 100], [1.0, 0.1, 0.01], color="#440154", label="$\\lambda = 0.6$")
    ax.plot([1, 10, 100], [2.0, 0.2, 0.02], "--", color="#440154")  # the same run's train curve
    ax.plot([1, 10, 100], [3.0, 0.3, 0.03], color="#fde725", label="$\\lambda = 1$")
    ax.plot([10], [0.1], "D", color="#fde725", mec="k")
    ax.axhline(0.5, color="k", ls=":")
    ax.set(xscale="log", yscale="log", xlabel="epoch", ylabel="$\\Delta t_{\\mathrm{grok}}$")
    ax.twinx().plot([1, 100], [5, 6], ":", color="#440154")
    other.plot([0, 1], [0, 1], color="#21918c", label="ratio")
    other.set(title="a panel", xlabel="$\\lambda$", ylabel="ratio")
    fig.canvas.draw()
    facts = {"figure": "t/fig", "width_in": 10, "height_in": 4, "panels": figure_files.axes_data(fig)}
    plt.close(fig)
    return facts


def test_axes_data_records_colour_style_and_box():
    p = synthetic_facts()["panels"]
    first = p[0]["series"]
    assert first[0]["color"] == "#440154" and first[0]["linestyle"] == "-" and first[0]["marker"] is None
    assert first[1]["linestyle"] == "--" and first[1]["label"] is None
    assert first[3]["marker"] == "D" and first[3]["linestyle"] is None and first[3]["markeredgecolor"] == "#000000"
    assert first[4]["axes_fraction"] == "x" and "note" in first[4]  # axhline: x runs over the axes
    assert p[0]["box"] == p[2]["box"] != p[1]["box"]  # the twin (added last) shares its panel's box
    assert all(0 <= v <= 1 for q in p for v in q["box"])
    assert {"title", "xlabel", "ylabel", "xscale", "yscale", "series"} <= set(p[0])  # the keys it had before


def test_plotly_figure_draws_the_same_figure():
    spec = interactive.plotly_figure(synthetic_facts())
    lay, data = spec["layout"], spec["data"]
    assert lay["xaxis"]["type"] == lay["yaxis"]["type"] == "log" and lay["xaxis2"]["type"] == "linear"
    assert lay["yaxis"]["range"][0] < lay["yaxis"]["range"][1] < 1  # log range in decades
    assert lay["yaxis3"]["overlaying"] == "y" and lay["yaxis3"]["side"] == "right"  # the twin
    assert lay["yaxis"]["title"]["text"] == "Δt<sub>grok</sub>"  # mathtext as text, no $ for MathJax
    legend = [t["name"] for t in data if t["showlegend"]]
    assert legend == ["λ = 0.6", "λ = 1", "ratio"]
    train = data[1]
    assert train["name"] == "λ = 0.6 (dashed)" and train["legendgroup"] == data[0]["legendgroup"]
    assert train["line"]["color"] == "#440154" and train["line"]["dash"] == "dash"
    marked = data[3]
    assert marked["mode"] == "markers" and marked["marker"]["symbol"] == "diamond" and marked["name"] == "λ = 1 (◆)"
    twin = next(t for t in data if t["yaxis"] == "y3")
    assert twin["xaxis"] == "x" and twin["legendgroup"] == data[0]["legendgroup"]
    (ref,) = lay["shapes"]  # the axhline: a thin shape across the panel, in no legend
    assert ref["xref"] == "x domain" and ref["y0"] == ref["y1"] == 0.5 and ref["line"]["width"] == 1
    assert len(data) == 6
    assert all("%{x" in t["hovertemplate"] and "%{fullData.name}" in t["hovertemplate"] for t in data)
    assert "$" not in json.dumps(spec)
    assert [a["text"] for a in lay["annotations"]] == ["a panel"]


def test_plain_reads_mathtext():
    assert interactive.plain(r"$\lambda t\,/\,\ln\alpha$") == "λt\u2009/\u2009ln\u2009α"
    assert interactive.plain(r"sim, $\varepsilon = 10^{-3}$") == "sim, ε = 10<sup>−3</sup>"
    assert interactive.plain(r"$\sqrt{\lambda}$ a < b") == "√λ a &lt; b"


def test_html_block_is_offline_and_loads_plotly_once():
    block = interactive.html_block(synthetic_facts(), "plotly-fig/1", "../../_static/plotly.min.js")
    assert not re.search(r"https?://", block), "the page must fetch nothing from the network"
    assert 'id="plotly-fig-1"' in block and '"../../_static/plotly.min.js"' in block
    assert block.count("<script") == 2 and "window.grokPlotly = window.grokPlotly ||" in block
    assert '{"responsive": true, "displaylogo": false}' in block
    spec = re.search(r'<script type="application/json" id="plotly-fig-1-spec">(.*?)</script>', block).group(1)
    assert "</" not in spec and json.loads(spec)["data"]


@pytest.fixture
def book_figure(tmp_path, monkeypatch):
    """Run.figure of a committed run, with the book's figure folders in tmp_path."""
    from grok_lib import provenance

    shipped, made = tmp_path / "book" / "figure_files", tmp_path / "figures"
    monkeypatch.setattr(figure_files, "SHIPPED", shipped)
    monkeypatch.setattr(figure_files.ship, "__defaults__", (shipped,))
    monkeypatch.setattr(figure_files.save_figure_files, "__defaults__", (made, None))
    manifest = {"t/fig": {"title": "A test figure", "notebook": "notebooks/paper_a/fig1_loss_curves.ipynb"}}
    monkeypatch.setattr(provenance, "manifest_entry", lambda name: manifest[name])
    monkeypatch.setattr(provenance, "stamp", lambda *a, **k: "Made by a test.")
    run = Run("default", {}, [])

    def make(**kw):
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([0, 1, 2], [1, 0.5, 0.2], label="a run")
        return run.saved_figure(fig, "t/fig", **kw)

    yield make
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_run_figure_adds_the_dropdown_only_when_asked(book_figure):
    plain_md = book_figure()._repr_markdown_()
    assert "{dropdown}" not in plain_md and "{raw}" not in plain_md
    view = book_figure(interactive=True)
    md = view._repr_markdown_()
    assert md.startswith("````{figure}") and ":name: fig-t-fig" in md
    assert f"````{{dropdown}} {display.EXPLORE}\n:class-container: interactive-figure\n" in md
    assert "```{raw} html\n<div class=\"grok-plotly-scroll\"" in md and '<div id="plotly-fig-t-fig"' in md
    assert '"../../_static/plotly.min.js"' in md  # relative to notebooks/paper_a/<page>.html
    assert not re.search(r"https?://", md.split("{dropdown}")[1])
    assert "<script" not in view._repr_html_()  # Jupyter: the static figure only
    assert view.interactive and not book_figure().interactive


def test_the_extension_serves_plotly_from_the_installed_package():
    import importlib.util

    spec = importlib.util.spec_from_file_location("interactive_ext", paths.ROOT / "book" / "_ext" / "interactive_ext.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    js = ext.plotly_js()
    assert js.is_file() and js.stat().st_size > 1_000_000
    assert (paths.ROOT / "book" / "_static" / "figure_zoom.js").is_file()
    assert not (paths.ROOT / "book" / "_static" / "plotly.min.js").exists(), "served from the package, not committed"
