"""Figure regression, part 1: every plot function against a committed baseline image.

Run with ``--mpl`` (``make test`` does). Baselines live in a folder named after the
matplotlib and FreeType versions, since text rendering differs between them. On a
failure pytest-mpl writes the expected, actual and difference images plus an HTML/JSON
summary under ``test-artifacts/mpl``. Accept a deliberate change with ``make baselines``.
"""

import matplotlib.pyplot as plt
import pytest

from grok_lib import style
from grok_lib.paper_a import mechanism_plots, plots
from image_compare import COMPARE, changed_style_is_caught
from synthetic import fig1_sweep, paper_a_sweep


def draw_fig1():
    style.use_house_style()
    return plots.figure1(fig1_sweep())


@pytest.mark.mpl_image_compare(filename="fig1_loss_curves.png", **COMPARE)
def test_fig1_loss_curves():
    return draw_fig1()


@pytest.mark.mpl_image_compare(filename="fig1_architecture.png", **COMPARE)
def test_fig1_architecture_sketch():
    style.use_house_style()
    fig, ax = plt.subplots(figsize=(5, 3))
    plots.draw_architecture(ax, p=113, d_embed=128, width=512)
    return fig


@pytest.mark.mpl_image_compare(filename="fig2_embedding_geometry.png", **COMPARE)
def test_fig2_embedding_geometry():
    style.use_house_style()
    hs = paper_a_sweep()
    return mechanism_plots.figure2(hs, hs[-1], memorising_step=500)


@pytest.mark.mpl_image_compare(filename="fig3_stable_rank.png", **COMPARE)
def test_fig3_stable_rank():
    style.use_house_style()
    hs = paper_a_sweep()
    clocks = {h.config["weight_decay"]: (300.0 + 100 * i, 2000.0 + 300 * i) for i, h in enumerate(hs)}
    return plots.figure3(hs, "E", clocks, others=("W", "U", "EW"))


@pytest.mark.mpl_image_compare(filename="fig1_paper_settings.png", **COMPARE)
def test_fig1_paper_settings():
    style.use_house_style()
    hs = paper_a_sweep()
    return plots.figure1_paper_settings({"split one": hs, "split two": hs[::-1]})


@pytest.mark.mpl_image_compare(filename="fig3_paper_settings.png", **COMPARE)
def test_fig3_paper_settings():
    style.use_house_style()
    hs = paper_a_sweep()
    clocks = {h.config["weight_decay"]: (300.0 + 100 * i, 2000.0 + 300 * i) for i, h in enumerate(hs)}
    return plots.figure3_paper_settings({"split one": (hs, clocks), "split two": (hs, {})})


@pytest.mark.mpl_image_compare(filename="init_comparison.png", **COMPARE)
def test_init_comparison():
    style.use_house_style()
    hs = paper_a_sweep()
    return plots.figure_init(hs, hs[1:])


@pytest.mark.mpl_image_compare(filename="gradient_hierarchy.png", **COMPARE)
def test_gradient_hierarchy():
    style.use_house_style()
    hs = paper_a_sweep()
    grads = {h.config["weight_decay"]: h["grad_U"] / h["grad_E"] for h in hs}
    updates = {h.config["weight_decay"]: h["update_U"] / h["update_E"] for h in hs}
    return mechanism_plots.figure_gradients(hs, hs[-1], grads, updates)


@pytest.mark.mpl_image_compare(filename="activation_patterns.png", **COMPARE)
def test_activation_patterns():
    style.use_house_style()
    hs = paper_a_sweep()
    rates = {h.config["weight_decay"]: h["churn"] for h in hs}
    clocks = {h.config["weight_decay"]: (300.0, 2500.0) for h in hs}
    return mechanism_plots.figure_activations(hs, rates, clocks, threshold=1e-3)


def test_the_image_guard_catches_a_changed_plot(tmp_path):
    """A one-line change to the house style (thicker lines) must fail the comparison."""
    assert changed_style_is_caught("fig1_loss_curves.png", lambda: plots.figure1(fig1_sweep()), tmp_path, linewidth=2.0)


def _dln():
    from synthetic import dln_sweep

    style.use_house_style()
    return dln_sweep()


@pytest.mark.mpl_image_compare(filename="dln_fast_clock.png", **COMPARE)
def test_dln_fast_clock():
    import numpy as np

    from grok_lib.paper_a.dln import clocks as dc, plots as plots_linear

    hs = [h for h in _dln() if h.config["weight_decay"] == 0]
    fast = [dc.fast_clock_fits(h) for h in hs]
    focus = [h for h in hs if h.config["depth"] == 2]
    bounds = []
    for h in focus:
        g = dc.margin_growth(h)
        bounds.append((4 * np.exp(-h["margin"]), dc.theorem35_bound(h.steps, g["t0"], g["gamma0"], g["nu_hold"], 5,
                                                                    g["t_end"])))
    return plots_linear.figure_fast_clock(hs, focus, bounds, dc.EPS_LEVELS, [f["T"] for f in fast],
                                          [f["log"] for f in fast], [f["power"] for f in fast])


@pytest.mark.mpl_image_compare(filename="dln_slow_clock.png", **COMPARE)
def test_dln_slow_clock():
    from grok_lib.paper_a.dln import clocks as dc, plots as plots_linear

    hs = [h for h in _dln() if h.config["optimizer"] == "gd" and h.config["weight_decay"] > 0]
    slow = [dc.slow_clock_fits(h) for h in hs]
    drift = {i: dc.drift_errors(hs[2], i, start=10) for i in (0, 1)}
    return plots_linear.figure_slow_clock(hs, [dc.gap(h) for h in hs], dc.ETA_LEVELS, [s["T"] for s in slow],
                                          [s["power"] for s in slow], [s["log"] for s in slow],
                                          {i: d["steps"] for i, d in drift.items()}, drift, "L=2 gd λ=0.001")


@pytest.mark.mpl_image_compare(filename="dln_separation.png", **COMPARE)
def test_dln_separation():
    from grok_lib.paper_a.dln import clocks as dc, plots as plots_linear

    hs = [h for h in _dln() if h.config["optimizer"] == "gd" and h.config["weight_decay"] == 1e-3]
    marks = [(dc.t_cls_floor(h), dc.t_rep_gap(h, 1e-6)) for h in hs]
    return plots_linear.figure_separation(hs, [dc.gap(h) for h in hs], marks)
