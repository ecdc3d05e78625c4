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


def test_a_field_left_out_at_its_default_still_labels_every_run():
    """Part C's tanh gain is left out of a config's dict at its default (grok_lib.config.ADDED_LATER): a set that
    mixes gains still labels each run with it (a recording once stopped on the missing key)."""
    from grok_lib.paper_c import config as cc

    configs = [c for group in cc.activation_configs("ci", gains=(2.0,), seeds=(0,)).values() for c in group]
    plans = [plan(c) for c in configs]
    fields = distinguishing(plans)
    labels = [task_label([p], fields, {}) for p in plans]
    assert "gain=1" in labels[0] and "gain=2" in labels[-1] and len(set(labels)) == len(labels)


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


def _notebook(path, *cells, parameters=None):
    """A small notebook: an optional ``parameters`` cell, then code cells."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    if parameters is not None:
        nb.cells.append(nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]}))
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def _run(*argv, cwd=None):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=cwd or root)


@pytest.mark.notebook
def test_a_build_prints_one_line_per_notebook_and_nothing_of_the_kernels_own_log(tmp_path):
    """No "Kernel is running over TCP without encryption", no "KeyboardInterrupt caught in kernel" (jupyter_client
    interrupts a kernel before it shuts it down): the kernel's log goes to a file, shown only on failure."""
    import json

    nbs = [_notebook(tmp_path / f"n{i}.ipynb", f"print('cell output {i}')") for i in (1, 2)]
    done = _run("scripts/run_notebooks.py", *map(str, nbs), "--force", "--jobs", "2")
    console = done.stdout + done.stderr
    assert done.returncode == 0, console
    assert "TCP" not in console and "KeyboardInterrupt" not in console and "WARNING" not in console, console
    assert re.search(r"n1\.ipynb done in \d+ s", console) and re.search(r"n2\.ipynb done in \d+ s", console), console
    assert "cell output" not in console  # the build is quiet; the outputs are in the notebooks
    outputs = json.loads(nbs[0].read_text())["cells"][0]["outputs"]
    assert outputs[0]["text"] == ["cell output 1\n"]


@pytest.mark.notebook
def test_a_failing_notebook_shows_the_error_and_the_kernels_log(tmp_path):
    nb = _notebook(tmp_path / "bad.ipynb", "raise ValueError('broken on purpose')")
    before = nb.read_text()
    done = _run("scripts/run_notebooks.py", str(nb), "--force")
    assert done.returncode != 0
    assert "broken on purpose" in done.stdout + done.stderr
    assert "the kernel's log" in done.stderr
    assert nb.read_text() == before  # the committed notebook is untouched


@pytest.mark.notebook
def test_a_rerun_echoes_what_the_notebook_prints_and_no_papermill_warning_about_the_output_path(tmp_path):
    """The output path is injected on purpose (PAPERMILL_OUTPUT_PATH, read by grok_lib.notebook): papermill's
    "Passed unknown parameter" line for it would contradict the docs (an unknown name is an error)."""
    nb = _notebook(tmp_path / "p.ipynb", "import sys; print('training', n); print('a bar', file=sys.stderr)",
                   parameters="n = 1\n")
    code = ("import sys; from pathlib import Path; from grok_lib.execution import execute; "
            f"execute(Path({str(nb)!r}), Path({str(tmp_path / 'out.ipynb')!r}), "
            f"parameters={{'n': 3, 'PAPERMILL_OUTPUT_PATH': 'x.ipynb'}}, echo=True)")
    done = _run("-c", code)
    assert done.returncode == 0, done.stderr
    assert "training 3" in done.stdout and "a bar" in done.stderr
    assert "unknown parameter" not in done.stdout + done.stderr
    assert "TCP" not in done.stdout + done.stderr


@pytest.mark.train
def test_while_no_run_finishes_the_training_step_says_what_is_running(tmp_path, capsys, monkeypatch):
    """The largest runs come first and take minutes: a build is never silent for longer than the heartbeat."""
    from grok_lib import runs

    monkeypatch.setattr(runs, "HEARTBEAT_SECONDS", 0.05)
    configs = chapters.book_configs("ci", "paper_a")
    dln = [plan(c) for c in configs if type(c).__name__ == "DeepLinearConfig"][:1]
    _train_in_processes([[p] for p in dln], RunStore(tmp_path / "runs"), 1, True,
                        chapters.book_chapters("ci", "paper_a"))
    lines = capsys.readouterr().out.splitlines()
    beats = [line for line in lines if line.startswith("  ... ")]
    assert beats and re.match(r"  \.\.\. \d+ s in, 0/1 done; training: (paper_a/deep_linear_clocks: |starting)", beats[0])
    assert lines[-1].startswith("  [1/1] ")


@pytest.mark.notebook
def test_a_notebook_executed_again_with_nothing_changed_is_rewritten_byte_for_byte(tmp_path):
    """No time stamps (papermill's, the kernel's) and no date or commit in the outputs: an empty ``git diff`` after
    ``make book`` is the sign that the book reproduced. The kernel's imported grok_lib modules are recorded."""
    import json

    nb = _notebook(tmp_path / "n.ipynb", "from grok_lib import style\nprint(style.__name__)")
    first = _run("scripts/run_notebooks.py", str(nb), "--force")
    assert first.returncode == 0, first.stdout + first.stderr
    once = nb.read_bytes()
    again = _run("scripts/run_notebooks.py", str(nb), "--force")
    assert again.returncode == 0 and nb.read_bytes() == once
    executed = json.loads(once)
    assert "grok_lib.style" in executed["metadata"]["grok_imports"]
    assert not re.search(rb"20\d\d-\d\d-\d\dT\d\d:", once)  # no ISO time stamp anywhere
