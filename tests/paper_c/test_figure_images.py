"""Figure regression for Part C: every figure of the book drawn by its plot function (with the arguments its
notebook passes) against a committed baseline image (tolerance, folder and failure artefacts as in
``tests/paper_a/test_figure_images.py``). The linear chapters draw tiny closed-form runs at the ci profile,
trained here in a second (gradient descent on a linear model does not amplify last-bit rounding into anything
an image shows); the data-ratio chapter, whose runs are MLPs that do, draws synthetic histories. Accept a
deliberate change with ``make baselines``."""

import functools

import matplotlib.pyplot as plt
import numpy as np
import pytest

from grok_lib import provenance, style
from grok_lib.chapters import flat
from grok_lib.history import History
from grok_lib.paper_c import config as C, data_ratio, key_numbers, plots
from grok_lib.paper_c import simulate as sim
from grok_lib.paper_c.chapter_runs import net_runs, noise_runs

from image_compare import COMPARE, changed_style_is_caught


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def train(configs):
    return [trained(c) for c in configs]


@functools.lru_cache(maxsize=None)
def trained(config):
    """One ci run, trained once per session (two figures draw the same runs)."""
    return sim.train(config, progress=False)


def data_ratio_runs(fractions=(0.3, 0.4, 0.5, 0.6, 0.7), seeds=(0, 1, 2), epochs=3000):
    """MLP-like histories: train accuracy reaches 1 at step 100, test accuracy crosses the level at a Δt
    falling with the training fraction f as 40 / (f - 0.2) (seed-to-seed spread of 5%)."""
    base = data_ratio.data_ratio_configs("ci")[0].to_dict()
    runs = []
    for f in fractions:
        for seed in seeds:
            s = np.arange(0, epochs + 1, 10)
            t_test = 100 + 40 / (f - 0.2) * (1 + 0.05 * (seed - 1))
            metrics = {"train_acc": np.minimum(1.0, 0.05 + s / 100), "test_acc": 1 / (1 + np.exp(-(s - t_test) / 15)),
                       "train_loss": np.exp(-s / 100), "test_loss": 1 - 0.9 / (1 + np.exp(-(s - t_test) / 15))}
            config = base | {"train_frac": f, "data_seed": seed, "init_seed": seed, "epochs": epochs}
            runs.append(History(steps=s, metrics=metrics, config=config, meta={}))
    return runs


def agreement(hs):
    return plots.figure_agreement(hs, [key_numbers.agreement_errors(h) for h in hs])


#: figure name -> a function drawing it as its notebook does
FIGURES = {
    "loss_curves": lambda: plots.figure_loss_curves(train(C.curve_configs("ci"))),
    "agreement": lambda: agreement(train(C.curve_configs("ci"))),
    "grok_time": lambda: plots.figure_grok_time(**key_numbers.grok_time_data(train(C.grok_time_configs("ci")))),
    "weight_decay": lambda: (lambda hs: plots.figure_weight_decay(hs, **key_numbers.weight_decay_data(hs)))(
        train(C.weight_decay_configs("ci"))),
    "d_out": lambda: plots.figure_d_out(**key_numbers.d_out_data(train(C.d_out_configs("ci")))),
    "nets": lambda: plots.figure_nets(train(flat(net_runs("ci")))),
    "label_noise": lambda: plots.figure_label_noise(train(flat(noise_runs("ci")))),
    "modadd_data_ratio": lambda: (lambda hs: plots.figure_data_ratio(hs, data_ratio.measure_data_ratio(hs)))(
        data_ratio_runs()),
}


def draw(name):
    """Figure ``name`` in the house style (set inside the test: pytest-mpl resets the style around it)."""
    style.use_house_style()
    return FIGURES[name]()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.mpl_image_compare(filename=f"paper_c_{n}.png", **COMPARE))
                                  for n in sorted(FIGURES)])
def test_figure(name):
    return draw(name)


def test_every_part_c_figure_of_the_book_has_an_image_test():
    assert {n.split("/", 1)[1] for n in provenance.load_manifest() if n.startswith("paper_c/")} == set(FIGURES)


def test_the_image_guard_catches_a_changed_plot(tmp_path):
    """Thicker lines (a one-line change to the house style) must fail the comparison."""
    assert changed_style_is_caught("paper_c_modadd_data_ratio.png", FIGURES["modadd_data_ratio"], tmp_path, linewidth=2.5)
