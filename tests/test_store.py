import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import fields

import numpy as np
import pytest

from grok_lib import store as store_mod
from grok_lib.paper_a.config import NOT_IN_KEY, ModAddConfig
from grok_lib.config import ConfigError
from grok_lib.plans import DivergedError, plan, run_key
from grok_lib.runs import run_all
from grok_lib.store import RunStore
from grok_lib.paper_a.train import train


#: trained in one torch thread, as the run store trains (conftest.one_thread)
pytestmark = pytest.mark.usefixtures("one_thread")



def assert_same_history(a, b):
    assert np.array_equal(a.steps, b.steps)
    assert a.metrics.keys() == b.metrics.keys()
    for k in a.metrics:
        assert np.array_equal(a[k], b[k], equal_nan=True), k
    assert np.array_equal(a.snapshot_steps, b.snapshot_steps)
    assert a.snapshots.keys() == b.snapshots.keys() == {"E", "W", "b", "U"}
    for k in a.snapshots:
        assert np.array_equal(a.snapshots[k], b.snapshots[k]), k


def test_miss_then_hit(store, ci_config, monkeypatch):
    first = store.get_or_run(ci_config, progress=False)
    monkeypatch.setattr(store_mod.RunStore, "train_group", lambda *a, **k: pytest.fail("a hit must not train"))
    second = store.get_or_run(ci_config, progress=False)
    assert_same_history(first, second)
    assert second.meta["key"] == run_key(ci_config, "cpu")
    assert first.cfg == second.cfg == ci_config  # typed on a miss and on a hit (h.cfg.weight_decay)
    assert sorted(p.suffix for p in store.root.iterdir()) == [".json", ".npz"]  # no temp or checkpoint left


def test_key_is_stable_and_changes_with_every_field(ci_config):
    key = run_key(ci_config, "cpu")
    assert key == run_key(dataclasses.replace(ci_config), "cpu")
    assert key != run_key(ci_config, "cuda")
    changed = {
        "p": 29, "train_frac": 0.4, "split": "ordered", "init": "scaled_embed", "d_embed": 8, "width": 16, "lr": 2e-3, "beta1": 0.8, "beta2": 0.99,
        "weight_decay": 0.5, "epochs": 300, "data_seed": 1, "init_seed": 1, "eval_every": 20,
        "checkpoint_every": 7, "dtype": "float64", "device": "auto",
    }
    assert set(changed) == {f.name for f in fields(ModAddConfig)}, "a new field needs a line here"
    for name, value in changed.items():
        other = run_key(dataclasses.replace(ci_config, **{name: value}), "cpu")
        if name in NOT_IN_KEY or name == "device":  # device enters as the resolved device
            assert other == key, name
        else:
            assert other != key, name


def test_history_files_hold_no_pickles(store, ci_config):
    store.get_or_run(ci_config, progress=False)
    key = run_key(ci_config, "cpu")
    with np.load(store.root / f"{key}.npz", allow_pickle=False) as z:
        assert "steps" in z.files
    record = json.loads((store.root / f"{key}.json").read_text())
    assert record["config"]["p"] == ci_config.p


def test_corrupt_entry_is_reported_and_recomputed(store, ci_config):
    good = store.get_or_run(ci_config, progress=False)
    path = store.root / f"{run_key(ci_config, 'cpu')}.npz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="is corrupt.*recomputing"):
        again = store.get_or_run(ci_config, progress=False)
    assert_same_history(good, again)
    assert store.load(run_key(ci_config, "cpu")) is not None  # repaired on disk


class Killed(Exception):
    pass


def test_resume_after_interrupt_gives_identical_numbers(store, ci_config):
    uninterrupted = train(ci_config, progress=False)

    def kill_after_first_checkpoint(step, row):
        if step > ci_config.checkpoint_every + 5:
            raise Killed

    with pytest.raises(Killed):
        store.get_or_run(ci_config, [kill_after_first_checkpoint], progress=False)
    key = run_key(ci_config, "cpu")
    assert (store.root / f"{key}.ckpt.npz").exists()
    resumed = store.get_or_run(ci_config, progress=False)
    assert resumed.meta["resumed_from"] == ci_config.checkpoint_every
    assert_same_history(uninterrupted, resumed)
    assert not (store.root / f"{key}.ckpt.npz").exists()


KILL_SCRIPT = """
import sys
from grok_lib.paper_a.config import profile_config
from grok_lib.store import RunStore
RunStore(sys.argv[1]).get_or_run(profile_config("ci", device="cpu", epochs=3000, checkpoint_every=100), progress=False)
"""


@pytest.mark.train
def test_resume_after_sigkill_gives_identical_numbers(store):
    from grok_lib.paper_a.config import profile_config

    cfg = profile_config("ci", device="cpu", epochs=3000, checkpoint_every=100)
    key = run_key(cfg, "cpu")
    ckpt, final = store.root / f"{key}.ckpt.npz", store.root / f"{key}.npz"
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(store.root)])
    deadline = time.time() + 120
    while not ckpt.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert ckpt.exists() and not final.exists(), "the run was not caught between checkpoint and end"
    resumed = store.get_or_run(cfg, progress=False)
    assert resumed.meta["resumed_from"] >= cfg.checkpoint_every
    assert_same_history(train(cfg, progress=False), resumed)


# --- one entry, one file; deterministic bytes (issue: reruns and a shareable store, case 8) ----------------------
def _one_config_of_each_kind() -> dict:
    """The ci profile's first config of every run kind (what the same-bytes guarantee must hold for)."""
    from grok_lib import chapters, kinds

    found = {}
    for c in chapters.book_configs("ci"):
        found.setdefault(kinds.kind_of(c).name, c)
    assert set(found) == {k.name for k in kinds.KINDS.values()}, "a run kind has no ci config"
    return found


@pytest.mark.train
@pytest.mark.parametrize("kind", sorted(_one_config_of_each_kind()))
def test_same_run_gives_the_same_entry_bytes(tmp_path, kind):
    config = _one_config_of_each_kind()[kind]
    a, b = RunStore(tmp_path / "a"), RunStore(tmp_path / "b")
    a.get_or_run(config, progress=False)
    time.sleep(1.1)  # a zip timestamp or a wall time in the bytes would show now
    b.get_or_run(config, progress=False)
    key = plan(config).key  # on the device the config resolves to
    assert (a.root / f"{key}.npz").read_bytes() == (b.root / f"{key}.npz").read_bytes()
    record = json.loads((a.root / f"{key}.json").read_text())
    assert record["meta"]["seconds"] > 0  # the wall time is kept, in the sidecar


def test_an_entry_is_whole_without_its_sidecar(store, ci_config, monkeypatch):
    first = store.get_or_run(ci_config, progress=False)
    key = run_key(ci_config, "cpu")
    (store.root / f"{key}.json").unlink()
    monkeypatch.setattr(store_mod.RunStore, "train_group", lambda *a, **k: pytest.fail("the entry must be used"))
    again = store.get_or_run(ci_config, progress=False)
    assert_same_history(first, again)
    assert "seconds" not in again.meta  # the run facts went with the sidecar; the numbers did not


def test_a_sidecar_of_another_run_is_not_merged(store, ci_config):
    other = dataclasses.replace(ci_config, weight_decay=0.5)
    store.get_or_run(ci_config, progress=False)
    store.get_or_run(other, progress=False)
    key, other_key = run_key(ci_config, "cpu"), run_key(other, "cpu")
    record = json.loads((store.root / f"{other_key}.json").read_text())
    record["meta"]["seconds"] = 12345.0
    (store.root / f"{key}.json").write_text(json.dumps(record))  # B's sidecar beside A's entry
    history = store.load(key)
    assert history is not None and history.meta.get("seconds") != 12345.0


def test_an_entry_holding_another_key_is_corrupt(store, ci_config):
    other = dataclasses.replace(ci_config, weight_decay=0.5)
    store.get_or_run(other, progress=False)
    key, other_key = run_key(ci_config, "cpu"), run_key(other, "cpu")
    (store.root / f"{key}.npz").write_bytes((store.root / f"{other_key}.npz").read_bytes())
    with pytest.warns(UserWarning, match=f"entry {key} is corrupt .*holds run {other_key}"):
        assert store.load(key) is None


# --- checkpoints are validated (case 7) -----------------------------------------------------------------------
def interrupted(store, config):
    """Train ``config`` into ``store`` until just after its first checkpoint; return the checkpoint's path."""
    def stop(step, row):
        if step > config.checkpoint_every + 5:
            raise Killed

    with pytest.raises(Killed):
        store.get_or_run(config, [stop], progress=False)
    path = store.root / f"{run_key(config, 'cpu')}.ckpt.npz"
    assert path.exists()
    return path


def checkpoint_arrays(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files if not k.startswith("store/")}


def rewrite_checkpoint(store, config, change):
    """Replace the checkpoint by ``change(arrays)``, saved with a valid checksum (well-formed, but wrong)."""
    key = run_key(config, "cpu")
    arrays = checkpoint_arrays(store.root / f"{key}.ckpt.npz")
    store.save_checkpoint(key, change(arrays))


@pytest.mark.parametrize("change,reason", [
    (lambda a: a | {"step": np.array(int(a["step"]) + 20, dtype=np.int64)}, "recorded steps|snapshot|rows"),
    (lambda a: a | {"step": np.array(10_000, dtype=np.int64)}, "step 10000 is not inside the run"),
    (lambda a: {k: v for k, v in a.items() if k != "opt/exp_avg_sq/W"}, "opt/exp_avg_sq/W is missing"),
    (lambda a: {k: v for k, v in a.items() if k != "0/rows/test_loss"}, "0/rows/test_loss is missing"),
    (lambda a: a | {"model/E": a["model/E"][:, :5]}, "model/E is float32"),
])
def test_a_wrong_checkpoint_is_discarded_with_a_warning(store, ci_config, change, reason):
    interrupted(store, ci_config)
    rewrite_checkpoint(store, ci_config, change)
    with pytest.warns(UserWarning, match=f"checkpoint .* is unusable \\(.*({reason}).*\\); discarding it"):
        history = store.get_or_run(ci_config, progress=False)
    assert history.meta["resumed_from"] == 0
    assert_same_history(train(ci_config, progress=False), history)


@pytest.mark.parametrize("damage,reason", [
    (lambda data: b"garbage, not a checkpoint" * 10, r"not an \.npz file \(starts with b'garbage,'\)"),
    (lambda data: data[: len(data) // 2], r"File is not a zip file"),  # the end of the zip is gone
    # bytes flipped in the central directory (the zip's table of members, at its end)
    (lambda data: data[:-400] + bytes(b ^ 0xFF for b in data[-400:-300]) + data[-300:],
     r"Bad magic number for central directory|checksum mismatch|Bad CRC"),
])
def test_a_damaged_checkpoint_is_discarded_with_a_clear_warning(store, ci_config, damage, reason):
    path = interrupted(store, ci_config)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.warns(UserWarning, match="checkpoint .* is unusable") as caught:
        history = store.get_or_run(ci_config, progress=False)
    message = str(caught[0].message)
    assert "pickled" not in message and re.search(reason, message), message
    assert_same_history(train(ci_config, progress=False), history)


def test_a_flipped_byte_in_a_checkpoint_array_fails_its_checksum(store, ci_config):
    path = interrupted(store, ci_config)
    arrays = checkpoint_arrays(path)
    with np.load(path, allow_pickle=False) as z:
        stored = {k: z[k] for k in z.files}
    stored["model/W"] = stored["model/W"].copy()
    stored["model/W"].flat[3] += 1.0  # well-formed, plausible, but not what was saved
    path.write_bytes(store_mod.npz_bytes(stored))
    with pytest.warns(UserWarning, match="checkpoint .* unusable \\(checksum mismatch\\)"):
        history = store.get_or_run(ci_config, progress=False)
    assert_same_history(train(ci_config, progress=False), history)
    assert arrays  # (read before the damage)


def test_a_checkpoint_of_another_run_is_not_used(store, ci_config):
    other = dataclasses.replace(ci_config, weight_decay=0.5)
    path = interrupted(store, other)
    target = store.root / f"{run_key(ci_config, 'cpu')}.ckpt.npz"
    target.write_bytes(path.read_bytes())
    with pytest.warns(UserWarning, match=f"belongs to run {run_key(other, 'cpu')}"):
        history = store.get_or_run(ci_config, progress=False)
    assert_same_history(train(ci_config, progress=False), history)


# --- a diverged run is not a result (case 9) ---------------------------------------------------------------------
def test_a_finite_blow_up_is_stored_as_diverged_and_raises(store, monkeypatch):
    from grok_lib.paper_a.config import profile_config

    config = profile_config("ci", lr=2.0, weight_decay=1.0, device="cpu")  # ends near 1e7, chance is ln 23 = 3.1
    with pytest.raises(FloatingPointError) as err:
        store.get_or_run(config, progress=False)
    text = str(err.value)
    assert isinstance(err.value, DivergedError) and "\n" not in text
    assert "lr=2.0" in text and "chance (ln 23 = 3.14)" in text and "diverged" in text
    stored = store.load(run_key(config, "cpu"))
    assert stored is not None and "diverged" in stored.meta["diverged"]
    monkeypatch.setattr(store_mod.RunStore, "train_group", lambda *a, **k: pytest.fail("no retraining"))
    with pytest.raises(DivergedError):
        run_all([config], store, progress=False)


def test_a_run_stuck_at_chance_is_not_diverged(store):
    from grok_lib.paper_a.config import profile_config

    history = store.get_or_run(profile_config("ci", lr=1.0, weight_decay=1.0, device="cpu"), progress=False)
    assert history.final("train_loss") < 4 and "diverged" not in history.meta


# --- an unusable store is found first, with one line (case 5) and stale temp files go (case 10) ---------------
def test_grok_store_pointing_at_a_file_fails_before_training(tmp_path, monkeypatch, ci_config):
    target = tmp_path / "a-file"
    target.write_text("not a folder")
    monkeypatch.setenv("GROK_STORE", str(target))
    monkeypatch.setattr(store_mod.RunStore, "train_group", lambda *a, **k: pytest.fail("nothing may train"))
    with pytest.raises(store_mod.StoreError, match=f"^GROK_STORE={target} is a file, not a folder") as err:
        run_all([ci_config], progress=False)
    assert "\n" not in str(err.value) and target.read_text() == "not a folder"


def test_an_empty_grok_store_is_an_error_not_the_current_folder(monkeypatch, tmp_path, ci_config):
    monkeypatch.setenv("GROK_STORE", "")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="^GROK_STORE must be a folder for the run store, got ''"):
        run_all([ci_config], progress=False)
    assert list(tmp_path.iterdir()) == []


def test_stale_temp_files_are_removed(store, ci_config):
    key = run_key(ci_config, "cpu")
    store.root.mkdir(parents=True)
    mine = store.root / f".{key}.npz.99999.deadbeef.tmp"  # left by a killed writer of this key
    old = store.root / ".0123456789abcdef0123.json.99999.deadbeef.tmp"  # another key's, two days old
    fresh = store.root / ".0123456789abcdef0123.json.99999.cafecafe.tmp"  # another key's, being written now
    for f in (mine, old, fresh):
        f.write_bytes(b"half a file")
    os.utime(old, (time.time() - 2 * 86400,) * 2)
    store.get_or_run(ci_config, progress=False)
    assert not mine.exists() and not old.exists() and fresh.exists()


def test_a_planted_lock_symlink_is_refused_and_nothing_is_created_outside(store, ci_config, tmp_path):
    key = run_key(ci_config, "cpu")
    store.root.mkdir(parents=True)
    target = tmp_path / "outside" / "planted"
    target.parent.mkdir()
    (store.root / f"{key}.lock").symlink_to(target)
    with pytest.raises(store_mod.StoreError, match=f"{key}.lock is a symbolic link, not a lock file; remove it"):
        store.get_or_run(ci_config, progress=False)
    assert not target.exists()


@pytest.mark.parametrize("suffix", [".npz", ".json"])
def test_a_folder_where_an_entry_belongs_is_a_clear_error_before_training(store, ci_config, suffix, monkeypatch):
    key = run_key(ci_config, "cpu")
    (store.root / f"{key}{suffix}").mkdir(parents=True)
    monkeypatch.setattr(store_mod.RunStore, "train_group", lambda *a, **k: pytest.fail("nothing may be trained"))
    with pytest.raises(store_mod.StoreError, match=f"{key}{re.escape(suffix)} is a folder, not a run entry; remove it"):
        store.get_or_run(ci_config, progress=False)


def test_a_folder_where_a_checkpoint_belongs_is_a_clear_error(store, ci_config):
    key = run_key(ci_config, "cpu")
    (store.root / f"{key}.ckpt.npz").mkdir(parents=True)
    with pytest.raises(store_mod.StoreError, match=f"{key}.ckpt.npz is a folder, not a checkpoint; remove it"):
        store.get_or_run(ci_config, progress=False)
