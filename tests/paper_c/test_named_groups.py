"""Part C's chapters as named groups (grok_lib.paper_c.chapters): the groups hold the runs the chapters held as
lists (same configs, same order, so the same store keys), the notebook and the figures read them by name, and the
recorded set comes back in the nets chapter's groups."""

import numpy as np
import pytest

from grok_lib import chapters
from grok_lib.history import History
from grok_lib.paper_c import config as C, recordings
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import nets as ch_nets


def test_the_nets_chapter_is_two_named_groups_of_one_net_each():
    groups = ch_nets.net_runs("default")
    assert list(groups) == ["two_layer", "tanh"]
    assert [c.model for c in groups["two_layer"]] == ["two_layer_linear"]
    assert [c.model for c in groups["tanh"]] == ["tanh"]
    assert chapters.flat(groups) == C.net_configs("default")
    assert chapters.chapter("paper_c", "nets").runs("default") == groups
    overridden = ch_nets.net_runs("ci", steps=50, eta=0.1)
    assert all(c.steps == 50 and c.eta == 0.1 for c in chapters.flat(overridden))


def test_the_label_noise_chapter_is_its_fractions_and_the_full_theory_run():
    groups = ch_label_noise.noise_runs("default")
    assert list(groups) == ["fractions", "full"]
    assert groups["fractions"] == C.noise_configs("default") and groups["full"] == [C.noise_full_config("default")]
    assert {c.lam for c in groups["fractions"]} == {C.NOISE_LAM} and groups["full"][0].lam == C.NOISE_FULL_LAM
    assert [c.label_noise for c in ch_label_noise.noise_runs("ci", (0.0,))["fractions"]] == [0.0]


def test_the_recorded_nets_are_served_in_the_nets_chapters_groups_at_the_paper_scale():
    assert ch_nets.RECORDED_GROUPS["nets_paper"]() == ch_nets.net_runs("paper")
    assert recordings.nets_paper() == C.net_configs("paper")  # the recorded set's order is unchanged
    # recorded() pairs the recorded histories with the groups by position: the groups hold the set's configs in order
    assert chapters.flat(ch_nets.RECORDED_GROUPS["nets_paper"]()) == recordings.nets_paper()


def _net(model: str, t_train: int, t_test: int) -> History:
    crossings = [{"eps": 1e-3, "t_train": t_train, "t_test": t_test, "theory_t_train": 2.0 * t_train,
                  "theory_t_test": 3.0 * t_test}]
    metrics = {"test_loss": np.array([1.0, 0.5]), "test_acc": np.array([0.0, 1.0])}
    return History(steps=np.array([0, 1]), metrics=metrics,
                   config={"model": model, "d_in": 20, "hidden": 4, "d_out": 2, "eps": 1e-3},
                   meta={"crossings": crossings})


def test_the_nets_rows_are_read_by_group_name_whatever_the_groups_order():
    two_layer, tanh = _net("two_layer_linear", 10, 40), _net("tanh", 20, 90)
    rows = ch_nets.net_rows({"tanh": [tanh], "two_layer": [two_layer]})
    assert rows["two_layer"]["t_test"] == 40 and rows["tanh"]["theory t_test"] == 270
    assert [r["model"] for r in ch_nets.nets_table({"two_layer": [two_layer], "tanh": [tanh]})] == [
        "two layer linear", "tanh"]


def test_the_nets_figure_numbers_read_both_groups():
    two_layer, tanh = (History(steps=np.array([0, 10]), metrics={"train_acc": np.array([0.0, 1.0])},
                               config={"model": m, "lam": 0.5, "d_out": 1, "gamma": 0.0, "label_noise": 0.0,
                                       "data_seed": 0}, meta={"crossings": []}) for m in ("two_layer_linear", "tanh"))
    numbers = ch_nets.numbers({"two_layer": [two_layer], "tanh": [tanh]})
    assert {k.split("/")[1] for k in numbers} == {"two_layer_linear", "tanh"}


def test_the_nets_reading_takes_the_two_layer_net_by_name():
    with pytest.raises(KeyError, match="two_layer"):  # never the first net whatever it is
        ch_nets.nets_reading({"tanh": [_net("tanh", 20, 90)]})
