"""Figure regression, part 1: every figure of the book, as its chapter declares it (its chapter module's ``CHAPTER``:
the ``draw`` its notebook's ``run.figure(chapter.FIGURE)`` calls), drawn from inputs of the same shape that need no training
run (``tests/<part>/figure_inputs.py``), against a committed baseline image. So a new figure needs no entry here.

Run with ``--mpl`` (``make test`` does). Baselines live in a folder named after the matplotlib and FreeType
versions, since text rendering differs between them (``image_compare.py``: tolerance and folder). On a failure
pytest-mpl writes the expected, actual and difference images plus an HTML/JSON summary under
``test-artifacts/mpl``. Accept a deliberate change with ``make baselines``."""

from importlib import import_module

import matplotlib.pyplot as plt
import pytest

from grok_lib import chapters, style

from image_compare import COMPARE, baseline_name, changed_style_is_caught

FIGURES = chapters.figures()


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def inputs(name: str) -> tuple:
    """What figure ``name`` is drawn from here: its chapter's runs, or its recorded sets, from its part's
    ``figure_inputs`` (as :func:`grok_lib.chapters.inputs` gives the notebook the real ones)."""
    chapter, figure = FIGURES[name]
    given = import_module(f"{name.split('/')[0]}.figure_inputs")
    if figure.sets:
        return tuple(given.SETS[s]() for s in figure.sets)
    return (given.RUNS[chapter.stem](),)


def _compared(name: str):
    """Figure ``name`` as a test case compared with its baseline (the id has no "/": pytest-mpl makes a folder of it)."""
    return pytest.param(name, id=name.replace("/", "_"),
                        marks=pytest.mark.mpl_image_compare(filename=baseline_name(name), **COMPARE))


@pytest.mark.parametrize("name", [_compared(n) for n in FIGURES])
def test_figure(name):
    style.use_house_style()  # as Run.figure does (inside the test: pytest-mpl resets the style around it)
    return FIGURES[name][1].draw(*inputs(name))


@pytest.mark.parametrize("name", ["paper_a/fig1_loss_curves", "paper_b/sparse_sweeps", "paper_c/modadd_data_ratio"])
def test_the_image_guard_catches_a_changed_plot(tmp_path, name):
    """A one-line change to the house style (thicker lines) must fail the comparison."""
    draw = FIGURES[name][1].draw
    assert changed_style_is_caught(baseline_name(name), lambda: draw(*inputs(name)), tmp_path, linewidth=2.5)
