"""scripts/train_stacked_sweep.py: a long stacked sweep done over several calls (sessions) gives the histories of
the sweep run straight through; a folder holds one sweep in one arithmetic."""

import importlib.util
import json

import numpy as np
import pytest

from grok_lib import paths, recorded
from grok_lib.config import ConfigError
from grok_lib.history import History
from grok_lib.paper_b import diagonal_sweep, recordings, sweep_folder

_spec = importlib.util.spec_from_file_location("train_stacked_sweep", paths.ROOT / "scripts" / "train_stacked_sweep.py")
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

SMALL = ["--d", "64", "--n", "16", "--n-test", "50", "--horizon", "0.01", "--every", "2000"]


def test_two_calls_finish_the_sweep_as_one_would(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), *SMALL, "--hours", "0"]) == 0  # stops at its first checkpoint
    assert (out / "state.npz").exists() and not (out / "0.npz").exists()
    assert diagonal_sweep.load_state(out / "state.npz").step == 2000
    assert "run again to go on" in capsys.readouterr().out
    assert script.main(["--out", str(out), *SMALL]) == 0
    assert "resuming at step 2,000" in capsys.readouterr().out and not (out / "state.npz").exists()
    configs = recordings.sparse_paper_lambda_sweep(64, 16, 50, 0, 0.01)
    assert [c.to_dict() for c in configs] == json.loads((out / "sweep.json").read_text())["configs"]
    straight = diagonal_sweep.train_sweep(configs, progress=False)
    for j, ref in enumerate(straight):
        got = History.from_bytes((out / f"{j}.npz").read_bytes())
        assert np.array_equal(got.steps, ref.steps)
        for name in ref.metrics:
            assert np.array_equal(got[name], ref[name]), (j, name)
    assert script.main(["--out", str(out), *SMALL]) == 0 and "the sweep is done" in capsys.readouterr().out


def test_a_folder_holds_one_sweep_in_one_arithmetic(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), *SMALL, "--hours", "0"]) == 0
    assert script.main(["--out", str(out), *SMALL[:-2], "--every", "1000", "--d", "65"]) == 2
    assert "holds another sweep" in capsys.readouterr().err
    described = json.loads((out / "sweep.json").read_text())
    (out / "sweep.json").write_text(json.dumps(described | {"arithmetic": "another"}))
    assert script.main(["--out", str(out), *SMALL]) == 2
    assert "go on with it or record it where it started" in capsys.readouterr().err
    assert script.main(["--out", str(tmp_path / "x"), *SMALL[:-2], "--every", "0"]) == 2
    assert "--every must be an integer" in capsys.readouterr().err


def test_a_sweep_cut_off_while_writing_its_histories_is_not_done(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), *SMALL]) == 0
    (out / "3.npz").unlink()  # as if the call had died between two histories
    assert script.main(["--out", str(out), *SMALL]) == 0
    assert "starting" in capsys.readouterr().out and (out / "3.npz").exists()  # trained again, not "done"


def test_a_checkpoint_reads_as_the_first_rows_of_the_finished_sweep(tmp_path):
    """A sweep recorded before it is done holds, per member, bitwise the rows the finished sweep has before the
    checkpoint's step; a folder of another sweep, or without a checkpoint, is a one-line error."""
    out = tmp_path / "sweep"
    configs = recordings.sparse_paper_lambda_sweep(64, 16, 50, 0, 0.01)
    assert script.main(["--out", str(out), *SMALL, "--hours", "0"]) == 0
    part, step = sweep_folder.so_far(out, configs)
    assert step == 2000 and all(h.meta["through_step"] == 2000 for h in part)
    for got, ref in zip(part, diagonal_sweep.train_sweep(configs, progress=False)):
        kept = ref.steps < step
        assert np.array_equal(got.steps, ref.steps[kept]) and got.config == ref.config
        for name in ref.metrics:
            assert np.array_equal(got[name], ref[name][kept]), name
    with pytest.raises(ConfigError, match="holds another sweep"):
        sweep_folder.so_far(out, recordings.sparse_paper_lambda_sweep(65, 16, 50, 0, 0.01))
    with pytest.raises(ConfigError, match="holds no sweep"):
        sweep_folder.so_far(tmp_path / "empty", configs)


def test_a_sweep_recorded_as_far_as_it_has_gone_loads_as_a_set(tmp_path):
    """sweep_folder.record writes a recorded set (checksums, configs) whose manifest says how far the sweep has gone;
    once the sweep is done, it says so."""
    out, root, name = tmp_path / "sweep", tmp_path / "recorded", "paper_b/sparse_paper_d"
    configs = recordings.sparse_paper_lambda_sweep(64, 16, 50, 0, 0.01)
    assert script.main(["--out", str(out), *SMALL, "--hours", "0"]) == 0
    folder, sweep = sweep_folder.record(out, name, "a small sweep", configs, root=root)
    last = max(c.steps for c in configs)
    assert sweep == {"through_step": 2000, "last_step": last, "done": False, "code": sweep_folder.code_hash(),
                     "code_from_step": 0}
    rec = recorded.load(name, configs, root)
    assert rec.manifest["sweep"] == sweep and rec.manifest["command"] == recordings.SWEEP_COMMAND
    assert all(h.steps.max() < 2000 for h in rec.histories)
    assert script.main(["--out", str(out), *SMALL]) == 0
    _, sweep = sweep_folder.record(out, name, "a small sweep", configs, root=root)
    assert (sweep["through_step"], sweep["done"]) == (last + 1, True)
    assert [h.steps.max() for h in recorded.load(name, configs, root).histories] == [c.steps for c in configs]


def test_record_writes_the_paper_size_only(tmp_path, capsys):
    assert script.main(["--out", str(tmp_path / "sweep"), *SMALL, "--record"]) == 2
    assert "--record writes paper_b/sparse_paper_d, the paper's size" in capsys.readouterr().err
    assert not (tmp_path / "sweep").exists() or not any((tmp_path / "sweep").iterdir())


def test_the_stacked_set_is_retrained_as_its_sweep_without_the_margin_cosines():
    """The first steps of paper_b/sparse_paper_d are retrained as the stacked sweep (recorded.retrain_set_prefix
    hands the set to recordings.stacked_prefix): bitwise the last member's rows of the sweep trained with its margin
    classifiers, every metric but the cosines to them; and the set is recorded by its own script, not record_runs."""
    configs = recordings.sparse_paper_lambda_sweep(64, 16, 50, 0, 0.01)
    assert all(c.margins for c in configs)
    rows = recorded.retrain_set_prefix("paper_b/sparse_paper_d", configs, 200)
    ref = diagonal_sweep.train_sweep(configs, progress=False)[-1]
    assert 0 in rows and max(rows) <= 200 and len(rows) > 5
    assert set(rows[0]) == set(ref.metrics) - {"cos_l1", "cos_l2"}  # every metric of the sweep but those cosines
    assert {"cos_l1", "cos_l2"} <= set(ref.metrics) and not {"cos_l1", "cos_l2"} & set(rows[0])
    index = {int(s): i for i, s in enumerate(ref.steps)}
    for step, row in rows.items():
        assert row == {k: float(ref[k][index[step]]) for k in row}, step
    assert recorded.recorded_elsewhere("paper_b/sparse_paper_d") and not recorded.recorded_elsewhere("paper_b/mc_paper")
    assert recorded.record_command("paper_b/sparse_paper_d") == recordings.SWEEP_COMMAND


def test_a_folder_names_the_code_that_trains_it(tmp_path, capsys):
    """The first training call names the code in sweep.json (from its step on); a call with other code is refused in
    one line, and a recording says which code trained the set."""
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), *SMALL, "--hours", "0"]) == 0
    held = json.loads((out / "sweep.json").read_text())
    assert held["code"] == sweep_folder.code_hash() and held["code_from_step"] == 0
    configs = recordings.sparse_paper_lambda_sweep(64, 16, 50, 0, 0.01)
    _, sweep = sweep_folder.record(out, "paper_b/sparse_paper_d", "a small sweep", configs, root=tmp_path / "rec")
    assert sweep["code"] == held["code"]
    (out / "sweep.json").write_text(json.dumps(held | {"code": "0123456789ab"}))
    capsys.readouterr()
    assert script.main(["--out", str(out), *SMALL]) == 2
    err = capsys.readouterr().err
    assert "was trained with the code 0123456789ab" in err and len(err.strip().splitlines()) == 1
    assert diagonal_sweep.load_state(out / "state.npz").step == 2000  # nothing trained
