"""scripts/train_stacked_sweep.py: a long stacked sweep done over several calls (sessions) gives the histories of
the sweep run straight through; a folder holds one sweep in one arithmetic."""

import importlib.util
import json

import numpy as np

from grok_lib import paths
from grok_lib.history import History
from grok_lib.paper_b import diagonal_sweep, recordings

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
    assert "resume it where it started" in capsys.readouterr().err
    assert script.main(["--out", str(tmp_path / "x"), *SMALL[:-2], "--every", "0"]) == 2
    assert "--every must be an integer" in capsys.readouterr().err


def test_a_sweep_cut_off_while_writing_its_histories_is_not_done(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), *SMALL]) == 0
    (out / "3.npz").unlink()  # as if the call had died between two histories
    assert script.main(["--out", str(out), *SMALL]) == 0
    assert "starting" in capsys.readouterr().out and (out / "3.npz").exists()  # trained again, not "done"
