"""What Part C's figures are drawn from in the image tests (``tests/test_figure_images.py``), in the shape each
chapter declares. The linear chapters draw their own runs at the ci profile, trained here in a second (gradient
descent on a linear model does not amplify last-bit rounding into anything an image shows); the data-ratio
chapter, whose runs are MLPs that do, draws synthetic histories. A new figure of an existing chapter needs nothing
here; a new MLP chapter needs one entry in ``SYNTHETIC``."""

import functools

import numpy as np

from grok_lib import chapters
from grok_lib.history import History
from grok_lib.paper_c import data_ratio
from grok_lib.paper_c import simulate as sim


@functools.lru_cache(maxsize=None)
def trained(config):
    """One ci run, trained once per session (several figures draw the same runs)."""
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


#: chapters whose runs are synthetic: stem -> its runs
SYNTHETIC = {"modadd_data_ratio": data_ratio_runs}


def _ci_runs(stem):
    own = chapters.chapter("paper_c", stem).runs("ci")
    return chapters.shaped(own, [trained(c) for c in chapters.flat(own)])


#: chapter (its notebook's stem) -> its runs: its ci runs, trained, unless synthetic
RUNS = {c.stem: functools.partial(_ci_runs, c.stem) for c in chapters.chapters("paper_c")} | SYNTHETIC

#: recorded set -> its runs (no Part C figure draws one)
SETS = {}
