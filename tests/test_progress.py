"""What a build prints while it trains: per run, the chapter that needs it and the settings that tell it apart from
the other runs of its kind, then the time so far and an estimate of the time left."""

import re

import pytest

from grok_lib import chapters
from grok_lib.plans import plan
from grok_lib.runs import _train_in_processes, distinguishing, estimated_seconds, task_label
from grok_lib.store import RunStore


def test_a_task_is_labelled_by_its_chapter_and_its_distinguishing_settings():
    configs = chapters.book_configs("ci", "paper_a")
    needed = chapters.book_chapters("ci", "paper_a")
    plans = [plan(c) for c in configs]
    fields = distinguishing(plans, needed)
    fig1 = fields[("paper_a/fig1_loss_curves", "paper_a.mlp")]
    assert "weight_decay" in fig1 and "lr" not in fig1
    mlp = next(p for p in plans if p.kind.name == "paper_a.mlp")
    label = task_label([mlp], fields, needed)
    assert label.startswith("paper_a/") and "paper_a.mlp" in label
    assert re.search(r"weight_decay=[0-9.]+", label)
    assert all(estimated_seconds([p]) > 0 for p in plans)


@pytest.mark.train
def test_the_training_step_prints_a_readable_line_with_the_time_left(tmp_path, capsys):
    configs = chapters.book_configs("ci", "paper_a")
    dln = [plan(c) for c in configs if type(c).__name__ == "DeepLinearConfig"][:2]
    _train_in_processes([[p] for p in dln], RunStore(tmp_path / "runs"), 1, True,
                        chapters.book_chapters("ci", "paper_a"))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("training 2 missing run(s)")
    assert re.match(r"  \[1/2\] paper_a/deep_linear_clocks: paper_a.deep_linear .*\(\d+ s in, about \d+ s left\)$",
                    lines[1]), lines[1]
    assert re.match(r"  \[2/2\] .*\(\d+ s in\)$", lines[2]), lines[2]
