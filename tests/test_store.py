import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import fields

import numpy as np
import pytest

from grok_lib import store as store_mod
from grok_lib.paper_a.config import NOT_IN_KEY, ModAddConfig
from grok_lib.store import RunStore, run_key
from grok_lib.paper_a.train import train


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
    assert sorted(p.suffix for p in store.root.iterdir()) == [".json", ".npz"]  # no temp or checkpoint left


def test_key_is_stable_and_changes_with_every_field(ci_config):
    key = run_key(ci_config, "cpu")
    assert key == run_key(dataclasses.replace(ci_config), "cpu")
    assert key != run_key(ci_config, "cuda")
    changed = {
        "p": 29, "train_frac": 0.4, "d_embed": 8, "width": 16, "lr": 2e-3, "beta1": 0.8, "beta2": 0.99,
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


@pytest.mark.slow
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
