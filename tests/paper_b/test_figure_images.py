"""Figure regression for Part B: every figure of the book drawn by its plot function (with the arguments its
notebook passes) from synthetic histories (``synthetic.py``: no training, so the same image on every CPU),
against a committed baseline image (as ``tests/paper_a/test_figure_images.py`` does for Part A: tolerance,
folder and failure artefacts are the same). Accept a deliberate change with ``make baselines``."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from grok_lib import provenance, style
from grok_lib.paper_b import plots

from image_compare import COMPARE, changed_style_is_caught
from .synthetic import bridge, classification, regression


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def draw(name):
    """Figure ``name`` in the house style (set inside the test: pytest-mpl resets the style around it)."""
    style.use_house_style()
    return FIGURES[name]()


def alpha_sweep(lam=0.02):
    return [classification(alpha=a, lam=lam, start=s, end=s + 0.3) for a, s in ((16.0, 0.2), (128.0, 0.45), (2048.0, 0.6))]


def lambda_sweep(alpha=128.0):
    return [classification(alpha=alpha, lam=lam, start=0.45, end=0.75, steps=int(160 / lam))
            for lam in (0.01, 0.02, 0.04)]


def misgrokking():
    h = classification(alpha=1024.0, start=0.3, end=0.6)
    ramp = (h["test_acc"] - 0.55) / 0.45
    h.metrics["test_acc"] = 0.99 - 0.43 * ramp  # falls from the kernel's 0.99 to the max-L1 classifier's 0.56
    h.config["gamma"] = 25.0
    h.meta.update(l2_test_acc=0.99, l1_test_acc=0.56)
    return h


def completion():
    h = regression()
    h.metrics["train_mse"] = 0.1 * np.exp(-h["t"] / 200) + 1e-7  # fits to an optimiser's floor, not to 1e-300
    return h


def bridge_runs():
    return [bridge(alpha=a, lam=lam, fit_at=100 + 80 * i, grok_at=int(900 / lam) + 400 * i)
            for lam in (0.6, 1.0) for i, a in enumerate((1.0, 10.0, 100.0))]


def delay_rows(runs):
    """The rows mlp_numbers.bridge_delay_rows gives: delays past the alpha = 1 run's steps, read off the histories."""
    rows = []
    for h in runs:
        fit = next(int(s) for s, a in zip(h.steps, h["train_acc"]) if a >= 0.99)
        grok = next(int(s) for s, a in zip(h.steps, h["test_acc"]) if a >= 0.95)
        rows.append({"alpha": h.config["alpha"], "weight_decay": h.config["weight_decay"], "lr": h.config["lr"],
                     "beta2": h.config["beta2"], "grok delay": grok - 900 / h.config["weight_decay"],
                     "fit delay": fit - 100})
    return rows


#: figure name -> a function drawing it as its notebook does
FIGURES = {
    "fig1a_sparse": lambda: plots.fig1a_sparse(alpha_sweep()[1], alpha_sweep()),
    "sparse_sweeps": lambda: plots.sweeps_figure(alpha_sweep(), lambda_sweep()),
    "sparse_transition": lambda: plots.sparse_transition(alpha_sweep(), lambda_sweep()),
    "margins_sparse": lambda: plots.margins_sparse(alpha_sweep()[1], alpha_sweep()),
    "misgrokking": lambda: plots.misgrokking_figure(misgrokking()),
    "matrix_completion": lambda: plots.matrix_completion_figure(completion()),
    "modadd_sweeps": lambda: plots.sweeps_figure(alpha_sweep(), lambda_sweep(), logx=False),
    "modadd_fits": lambda: plots.modadd_fits(alpha_sweep(), lambda_sweep()),
    "init_scale_adamw": lambda: plots.init_scale_figure(bridge_runs(), delay_rows(bridge_runs())),
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.mpl_image_compare(filename=f"paper_b_{n}.png", **COMPARE))
                                  for n in sorted(FIGURES)])
def test_figure(name):
    return draw(name)


def test_every_part_b_figure_of_the_book_has_an_image_test():
    manifest = provenance.load_manifest()
    assert {n.split("/", 1)[1] for n in manifest if n.startswith("paper_b/")} == set(FIGURES)


def test_the_image_guard_catches_a_changed_plot(tmp_path):
    """Thicker lines (a one-line change to the house style) must fail the comparison."""
    assert changed_style_is_caught("paper_b_sparse_sweeps.png", FIGURES["sparse_sweeps"], tmp_path, linewidth=2.5)
