"""Recorded runs (grok_lib/recorded.py): every committed set matches its definition and its
checksums, and today's code still produces its first steps (so a change to the numeric code
that alters a recording fails here until it is recorded again with scripts/record_runs.py)."""

import json
import shutil

import numpy as np
import pytest

from grok_lib import paths, recorded
from grok_lib.history import History

SETS = recorded.definitions()

#: Steps of a recorded run retrained with today's code, and the tolerance of the comparison in the
#: arithmetic the set was recorded in (there the numbers are bitwise equal). In other arithmetic
#: the tolerance is the envelope: the largest relative spread of the same prefix across the
#: arithmetic variants of one machine (book/envelope.json, measured by
#: scripts/measure_envelope.py), which a 1% change of the learning rate exceeds many times over.
PREFIX_STEPS, PREFIX_RTOL = 200, 1e-6
ENVELOPE = paths.ENVELOPE


def prefix_rtol(name: str, manifest: dict) -> float:
    if recorded.same_arithmetic(manifest):
        return PREFIX_RTOL
    return json.loads(ENVELOPE.read_text())["prefix"][name]["rtol"]


@pytest.mark.parametrize("name", sorted(SETS))
def test_set_matches_its_definition_and_checksums(name):
    rec = recorded.load(name, SETS[name][1]())
    assert len(rec.histories) == len(SETS[name][1]())
    for h in rec.histories:
        loss = "train_loss" if "train_loss" in h.metrics else "train_mse"  # matrix completion's training loss
        assert np.isfinite(h[loss]).all() and len(h.steps) > 10
        assert set(h.snapshots) == set(SETS[name][2])


@pytest.mark.train
@pytest.mark.parametrize("name", sorted(SETS))
def test_todays_code_reproduces_the_first_steps(name, one_thread):
    rec = recorded.load(name, SETS[name][1]())
    history = rec.histories[-1]
    rows = recorded.retrain_set_prefix(name, SETS[name][1](), PREFIX_STEPS)
    assert max(rows) >= PREFIX_STEPS * 0.9, sorted(rows)[-3:]
    assert recorded.compare_prefix(history, rows, prefix_rtol(name, rec.manifest)) == []


def test_compare_prefix_sees_a_change():
    steps = np.array([0, 1, 2])
    h = History(steps=steps, metrics={"train_loss": np.array([4.7, 4.6, 4.5]), "test_acc": np.array([0.0, 0.1, 0.2])},
                config={})
    same = {0: {"train_loss": 4.7, "test_acc": 0.0}, 1: {"train_loss": 4.6, "test_acc": 0.1}}
    assert recorded.compare_prefix(h, same, 1e-6) == []
    moved = {0: {"train_loss": 4.7, "test_acc": 0.0}, 1: {"train_loss": 4.6 * (1 + 1e-5), "test_acc": 0.1}}
    assert recorded.compare_prefix(h, moved, 1e-6) == ["train_loss: relative difference 1e-05 at step 1 (tolerance 1e-06)"]
    assert recorded.compare_prefix(h, {5: {"train_loss": 1.0}}, 1e-6) == ["steps [5] were not recorded"]


@pytest.fixture
def copied_set(tmp_path):
    name = sorted(SETS)[0]
    shutil.copytree(recorded.set_dir(name), recorded.set_dir(name, tmp_path))
    return name, tmp_path


def test_a_damaged_file_is_refused(copied_set):
    name, root = copied_set
    f = recorded.set_dir(name, root) / "0.npz"
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    with pytest.raises(recorded.RecordingError, match=r"0.npz fails its checksum; .*record_runs.py " + name):
        recorded.load(name, SETS[name][1](), root)


def test_a_changed_definition_is_refused(copied_set):
    name, root = copied_set
    manifest = recorded.set_dir(name, root) / "manifest.json"
    m = json.loads(manifest.read_text())
    m["runs"][0]["config"]["width"] += 1
    manifest.write_text(json.dumps(m))
    with pytest.raises(recorded.RecordingError, match=r"does not match its definition \(fields width differ\)"):
        recorded.load(name, SETS[name][1](), root)


def test_a_missing_set_names_the_command(tmp_path):
    with pytest.raises(recorded.RecordingError, match=r"missing .* record it with: .*record_runs.py paper_a/seeds"):
        recorded.load("paper_a/seeds", [], tmp_path)


def _edit_manifest(name, root, change):
    path = recorded.set_dir(name, root) / "manifest.json"
    m = json.loads(path.read_text())
    path.write_text(change(m) if callable(change) else change)


def test_two_runs_swapped_with_their_checksums_are_refused(copied_set):
    """A checksum says a file is whole, not whose run it holds: each file's own config must be the manifest's."""
    name, root = copied_set

    def swap(m):
        a, b = m["runs"][0], m["runs"][1]
        a["file"], b["file"], a["sha256"], b["sha256"] = b["file"], a["file"], b["sha256"], a["sha256"]
        return json.dumps(m)

    _edit_manifest(name, root, swap)
    with pytest.raises(recorded.RecordingError, match=r"1.npz holds the run of another config than the manifest names"):
        recorded.load(name, SETS[name][1](), root)


@pytest.mark.parametrize("change,message", [
    ("{garbage", r"manifest.json is not JSON"),
    (lambda m: json.dumps({k: v for k, v in m.items() if k != "runs"}), r"manifest.json lists no runs"),
    (lambda m: json.dumps(m | {"runs": [{**m["runs"][0], "file": "../../../../etc/hostname"}] + m["runs"][1:]}),
     r"names the file '../../../../etc/hostname', not a .npz file of the set's folder"),
    (lambda m: json.dumps(m | {"runs": [{k: v for k, v in m["runs"][0].items() if k != "sha256"}] + m["runs"][1:]}),
     r"run 0 of manifest.json has no sha256"),
])
def test_a_damaged_manifest_is_a_recording_error(copied_set, change, message):
    name, root = copied_set
    _edit_manifest(name, root, change)
    with pytest.raises(recorded.RecordingError, match=message):
        recorded.load(name, SETS[name][1](), root)


def test_a_missing_file_is_a_recording_error(copied_set):
    name, root = copied_set
    (recorded.set_dir(name, root) / "0.npz").unlink()
    with pytest.raises(recorded.RecordingError, match=r"0.npz cannot be read \(No such file or directory\); restore it"):
        recorded.load(name, SETS[name][1](), root)
