"""Paper C's plot functions draw from data alone (smoke tests on tiny runs)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from grok_lib.paper_c import measure as me  # noqa: E402
from grok_lib.paper_c import panels  # noqa: E402
from grok_lib.paper_c import simulate as sim  # noqa: E402
from grok_lib.paper_c import theory as th  # noqa: E402
from grok_lib.paper_c.config import profile_config  # noqa: E402


@pytest.fixture(scope="module")
def histories():
    return {
        "linear": sim.train(profile_config("ci", grok_eps=(1e-5,)), progress=False),
        "plateau": sim.train(profile_config("ci", lam=1.5), progress=False),
        "wd": sim.train(profile_config("ci", gamma=0.01), progress=False),
        "noise": sim.train(profile_config("ci", label_noise=0.01), progress=False),
        "tanh": sim.train(profile_config("ci", model="tanh", d_out=2, eta=0.5, steps=500), progress=False),
    }


def test_every_plot_function_draws(histories):
    fig, axes = plt.subplots(3, 4, figsize=(12, 8))
    ax = iter(axes.ravel())
    h = histories["linear"]
    panels.plot_losses(next(ax), h)
    panels.plot_losses(next(ax), histories["tanh"])  # no gen_loss, no MP: still draws
    panels.plot_accuracies(next(ax), h, mp=True)
    panels.plot_accuracies(next(ax), h, eps=1e-5)
    errors = {"sim vs theory": me.relative_error(h["train_loss"], h["theory_train_loss"])}
    panels.plot_relative_errors(next(ax), h.steps, errors)
    lams = [0.1, 0.5]
    panels.plot_grok_times(next(ax), lams, {1e-3: [10.0, 100.0], 1e-5: [20.0, 200.0]}, np.linspace(0.05, 0.9, 20),
                          [th.grok_time_formula(x, 0.01) for x in np.linspace(0.05, 0.9, 20)])
    panels.plot_formula_ratios(next(ax), lams, {1e-3: [0.5, 0.6]})
    rot_limits = th.wd_limits_paper(0.5, 0.01)
    panels.plot_weight_decay(next(ax), histories["wd"], {"paper": rot_limits})
    panels.plot_plateaus(next(ax), [1e-5, 1e-4], [0.5e-5, 0.4e-4], labels=["a", "b"])
    panels.plot_d_out(next(ax), [1, 2, 5], [10.0, 20.0, 50.0], [1.0, 2.0, 3.0], theory=[9.0, 19.0, 45.0])
    panels.plot_label_noise(next(ax), histories["noise"])
    p = histories["plateau"]
    panels.plot_mp_density(next(ax), p.meta["lam_eff"], p.snapshots["eigenvalues"][0])
    for a in axes.ravel():
        assert a.lines or a.patches or a.collections
    fig.canvas.draw()  # mathtext labels must parse
    plt.close(fig)
