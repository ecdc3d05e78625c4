"""Run.figure draws a figure as its chapter declares it, from the right inputs: the run's named groups where it has
them, else its list of histories, and a figure of recorded sets from those sets (a rerun shows the book's figure of
recorded sets instead: its parameters do not change it); every run computes the figure's key numbers for its data file. The declaration and the saving are stand-ins here:
what is tested is the choice of inputs (tests/test_figure_images.py draws the real declarations)."""

from types import SimpleNamespace

import pytest

from grok_lib import chapters
from grok_lib.chapters import Figure
from grok_lib.notebook import Run


@pytest.fixture
def declare(monkeypatch):
    """Declare one figure ``paper_x/f`` (optionally of recorded sets); return the calls of its draw and numbers and
    what Run.saved_figure was handed."""
    calls, saved = [], []

    def make(sets=()):
        figure = Figure("paper_x/f", "A test figure", numbers=lambda *a: calls.append(("numbers", a)) or {"v": 1.0},
                        draw=lambda *a: calls.append(("draw", a)) or "the drawn figure", sets=sets)
        monkeypatch.setattr(chapters, "figures", lambda part=None: {"paper_x/f": (None, figure)})
        monkeypatch.setattr(chapters, "_module", lambda part: SimpleNamespace(load_set=lambda s: [f"history of {s}"]))
        monkeypatch.setattr(Run, "saved_figure", lambda self, fig, name, interactive=False, numbers=None:
                            saved.append((fig, name, numbers)))
        return calls, saved

    return make


def test_a_run_with_named_groups_draws_from_its_groups(declare):
    calls, saved = declare()
    Run("default", {}, [], histories=["a", "b"], groups={"alpha": ["a"], "weight_decay": ["a", "b"]}).figure("paper_x/f")
    groups = {"alpha": ["a"], "weight_decay": ["a", "b"]}
    assert calls == [("draw", (groups,)), ("numbers", (groups,))]
    assert saved == [("the drawn figure", "paper_x/f", {"v": 1.0})]


def test_a_run_without_groups_draws_from_its_list(declare):
    calls, _ = declare()
    Run("default", {}, [], histories=["a", "b"]).figure("paper_x/f")
    assert calls == [("draw", (["a", "b"],)), ("numbers", (["a", "b"],))]


def test_a_figure_of_recorded_sets_draws_from_the_sets(declare):
    calls, _ = declare(sets=("one", "two"))
    Run("default", {}, [], histories=["a"], committed_settings=True).figure("paper_x/f")
    sets = (["history of one"], ["history of two"])
    assert calls == [("draw", sets), ("numbers", sets)]


def test_a_rerun_shows_the_books_figure_of_recorded_sets_without_drawing_or_saving_it(declare, monkeypatch):
    calls, saved = declare(sets=("one", "two"))
    monkeypatch.setattr(Run, "books_figure", lambda self, name: f"the book's {name}")
    assert Run("default", {}, [], histories=["a"]).figure("paper_x/f") == "the book's paper_x/f"
    assert calls == [] and saved == []


def test_the_books_run_computes_the_key_numbers_from_the_same_inputs(declare):
    calls, saved = declare()
    Run("default", {}, [], histories=["a"], committed_settings=True).figure("paper_x/f")
    assert calls == [("draw", (["a"],)), ("numbers", (["a"],))]
    assert saved == [("the drawn figure", "paper_x/f", {"v": 1.0})]
