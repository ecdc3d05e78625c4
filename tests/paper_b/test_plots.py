"""Every Paper B plot function draws synthetic data and returns a Figure."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from grok_lib.paper_b import measure, panels  # noqa: E402

from .synthetic import classification, regression  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def sweep():
    return [classification(alpha=a, start=s, end=s + 0.3) for a, s in ((16.0, 0.2), (128.0, 0.5), (2048.0, 0.7))]


def test_sweep_figures():
    runs = sweep()
    for fig in (panels.sweep_panels(runs), panels.curves(runs, "test_acc", x="clock"), panels.norm_vs_prediction(runs),
                panels.sweep_panels(runs, "test_loss", "test loss", logy=True)):
        assert isinstance(fig, Figure)
    with pytest.raises(ValueError):
        panels.curves(runs, "test_acc", x="time")


def test_single_run_figures():
    h = classification()
    for fig in (panels.accuracy_and_loss(h), panels.accuracy_and_loss(h, x="clock"), panels.cosines(h),
                panels.cosines(h, x="steps"), panels.accuracy_vs_margin_classifiers(h), panels.matrix_completion(regression()),
                panels.matrix_completion(regression(), x="steps")):
        assert isinstance(fig, Figure)


def test_fraction_and_fit_figures():
    runs = sweep()
    fr = [measure.accuracy_transition(h).fractions for h in runs]
    w = measure.window_fit([f[0] for f in fr], [f[1] for f in fr])
    fig = panels.transition_fractions([h.config["alpha"] for h in runs], [f[0] for f in fr], [f[1] for f in fr], c=w.c)
    assert isinstance(fig, Figure)
    fit = measure.line_fit([1, 2, 3], [2.1, 3.9, 6.0])
    assert isinstance(panels.slope_fit([1, 2, 3], [2.1, 3.9, 6.0], fit, r"$\ln\alpha$", theory_slope=2.0), Figure)
    _, ax = plt.subplots()
    assert panels.cosines(classification(), ax=ax) is ax.figure
