"""Chaos: concurrent writers of one key, a writer killed while others wait on it, and a store shared
by several users (real second and third uids), each in its own process.

Each child process trains (or reads) one ci-profile run through ``RunStore.get_or_run`` and
prints one ``RESULT {json}`` line: whether it trained (a callback fires on every recorded
step of a run it trains), a digest of the numbers it got, its warnings, or its error.
The tests with other users need root (to switch uid): elsewhere they are skipped.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grok_lib.paper_a.config import profile_config
from grok_lib.paper_a.train import train
from grok_lib.plans import run_key


#: trained in one torch thread, as the run store trains (conftest.one_thread)
# Every test here starts real processes (killed, racing, other users): the train lane.
pytestmark = [pytest.mark.usefixtures("one_thread"), pytest.mark.train]


CHILD = r"""
import hashlib, json, os, sys, tempfile, time, warnings
from grok_lib.paper_a.config import profile_config
from grok_lib.store import RunStore

spec = json.loads(sys.argv[1])
if spec.get("user"):
    # load every module a run imports lazily while still root, then become the other user for good
    with tempfile.TemporaryDirectory() as d:
        for _ in range(2):
            RunStore(d).get_or_run(profile_config("ci", device="cpu", epochs=12, checkpoint_every=5), progress=False)
    uid, gid = spec["user"]
    os.setgroups([gid])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
os.umask(spec.get("umask", 0o022))
trained = []
result = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        config = profile_config("ci", device="cpu", **spec["config"])
        def record(step, row):
            trained.append(step)
            gate = spec.get("hold_until")  # hold the run (and its lock) until the test opens the gate
            while gate and step > config.checkpoint_every and not os.path.exists(gate):
                time.sleep(0.02)

        h = RunStore().get_or_run(config, callbacks=[record], progress=True)
        digest = hashlib.sha256()
        for name in sorted(h.metrics):
            digest.update(name.encode() + h.metrics[name].tobytes())
        result = {"ok": True, "digest": digest.hexdigest(), "resumed_from": h.meta.get("resumed_from")}
    except Exception as err:
        result = {"ok": False, "error": f"{type(err).__name__}: {err}"}
result["trained"] = bool(trained)
result["warnings"] = [str(w.message) for w in caught]
print("RESULT " + json.dumps(result), flush=True)
"""

ROOT = Path(__file__).resolve().parent.parent


def spawn(store: Path, config: dict, user=None, umask=0o022, stderr=None, hold_until=None) -> subprocess.Popen:
    spec = {"config": config, "user": user, "umask": umask, "hold_until": str(hold_until) if hold_until else None}
    env = os.environ | {"GROK_STORE": str(store), "OMP_NUM_THREADS": "1", "MPLCONFIGDIR": tempfile.gettempdir()}
    return subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(spec)], stdout=subprocess.PIPE,
                            stderr=stderr if stderr is not None else subprocess.PIPE, text=True, env=env, cwd="/")


def result_of(proc: subprocess.Popen, timeout: float = 300) -> dict:
    out, err = proc.communicate(timeout=timeout)
    line = next((ln for ln in out.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, f"child failed (rc {proc.returncode}):\n{out}\n{err}"
    return json.loads(line[len("RESULT "):]) | {"stderr": err or ""}


def run_child(store: Path, config: dict, user=None, umask=0o022) -> dict:
    return result_of(spawn(store, config, user, umask))


def digest_of(history) -> str:
    import hashlib

    d = hashlib.sha256()
    for name in sorted(history.metrics):
        d.update(name.encode() + history.metrics[name].tobytes())
    return d.hexdigest()


# --- case 8: two writers of one key ---------------------------------------------------------------------------------
def holder_and_waiter(store: Path, config: dict, log: Path, **holder_options):
    """Start a process that trains ``config`` and, once it holds the lock (its first checkpoint is on disk), a
    second that asks for the same run; return (holder, waiter, whether the waiter said it waits)."""
    key = run_key(profile_config("ci", device="cpu", **config), "cpu")
    holder = spawn(store, config, **holder_options)
    deadline = time.time() + 120
    while not (store / f"{key}.ckpt.npz").exists() and holder.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    with open(log, "w") as err:
        waiter = spawn(store, config, stderr=err)
        while "waiting" not in log.read_text() and waiter.poll() is None and time.time() < deadline:
            time.sleep(0.05)
    return holder, waiter, "is being trained by another process; waiting for it" in log.read_text()


def test_two_processes_asking_for_one_run_train_it_once(tmp_path):
    """The second process asks while the first holds the lock (the first is held after its first checkpoint
    until the second says it waits): it must wait, then read the first's run instead of training its own."""
    store, gate = tmp_path / "runs", tmp_path / "gate"
    config = {"epochs": 1500, "checkpoint_every": 100}
    key = run_key(profile_config("ci", device="cpu", **config), "cpu")
    first, second, waited = holder_and_waiter(store, config, tmp_path / "second.err", hold_until=gate)
    gate.touch()
    results = [result_of(first), result_of(second)]
    assert waited, "the second process did not wait for the first"
    assert all(r["ok"] for r in results), results
    assert [r["trained"] for r in results] == [True, False], "the second process must reuse the first's run"
    assert results[0]["digest"] == results[1]["digest"]
    assert not [w for r in results for w in r["warnings"]]
    assert sorted(p.name for p in store.iterdir()) == [f"{key}.json", f"{key}.npz"]  # no lock, temp or checkpoint


@pytest.mark.train
def test_a_writer_killed_while_another_waits_hands_over_its_checkpoint(tmp_path):
    store = tmp_path / "runs"
    config = {"epochs": 3000, "checkpoint_every": 100}
    holder, waiter, waiting = holder_and_waiter(store, config, tmp_path / "waiter.err")
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    result = result_of(waiter)
    assert waiting, "the second process did not wait for the first"
    assert result["ok"] and result["trained"] and result["resumed_from"] >= 100, result
    assert result["digest"] == digest_of(train(profile_config("ci", device="cpu", **config), progress=False))


# --- case 4: a store shared by a group, with real second users --------------------------------------------------
GROUP = 23450
ALICE, BOB, EVE = (23451, GROUP), (23452, GROUP), (23453, 23459)  # Eve is not in the group

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="switching to other users needs root")


@pytest.fixture
def shared():
    """A folder the group may write (setgid, mode 2775), under a path every user can traverse."""
    base = Path(tempfile.mkdtemp(prefix="grok-chaos-"))
    base.chmod(0o755)
    folder = base / "shared"
    folder.mkdir()
    os.chown(folder, 0, GROUP)
    folder.chmod(0o2775)
    yield folder
    shutil.rmtree(base)


@needs_root
def test_a_group_shares_a_store_as_its_umask_allows(shared):
    store = shared / "runs"
    alice = run_child(store, {"epochs": 60}, ALICE, umask=0o002)
    assert alice["ok"] and alice["trained"], alice
    key = run_key(profile_config("ci", device="cpu", epochs=60), "cpu")
    for f in (f"{key}.npz", f"{key}.json"):
        st = (store / f).stat()
        assert (st.st_uid, st.st_mode & 0o777) == (ALICE[0], 0o664), f"{f}: {st.st_mode & 0o777:o}"
    bob = run_child(store, {"epochs": 60}, BOB, umask=0o002)
    assert bob["ok"] and not bob["trained"] and not bob["warnings"], bob  # read, not retrained
    assert bob["digest"] == alice["digest"]
    bob_own = run_child(store, {"epochs": 60, "weight_decay": 0.5}, BOB, umask=0o002)
    assert bob_own["ok"] and bob_own["trained"], bob_own  # the group may write, too
    again = run_child(store, {"epochs": 60, "weight_decay": 0.5}, ALICE, umask=0o002)
    assert again["ok"] and not again["trained"] and not again["warnings"], again


@needs_root
def test_an_entry_its_owner_keeps_private_is_an_error_and_stays(shared):
    store = shared / "runs"
    alice = run_child(store, {"epochs": 60}, ALICE, umask=0o002)
    key = run_key(profile_config("ci", device="cpu", epochs=60), "cpu")
    private = run_child(store, {"epochs": 60, "weight_decay": 0.5}, ALICE, umask=0o077)
    private_key = run_key(profile_config("ci", device="cpu", epochs=60, weight_decay=0.5), "cpu")
    entry = store / f"{private_key}.npz"
    assert alice["ok"] and private["ok"] and entry.stat().st_mode & 0o777 == 0o600
    before = (entry.stat().st_ino, entry.read_bytes())
    bob = run_child(store, {"epochs": 60, "weight_decay": 0.5}, BOB, umask=0o002)
    assert not bob["ok"] and not bob["trained"], bob
    assert bob["error"].startswith(f"StoreError: GROK_STORE={store}: entry {private_key}.npz is not readable by "
                                   f"this user (Permission denied; owner uid {ALICE[0]}, mode 600)")
    assert (entry.stat().st_ino, entry.read_bytes()) == before  # not reported corrupt, not replaced
    assert (store / f"{key}.npz").exists()


@needs_root
def test_a_read_only_store_serves_its_runs_and_refuses_to_train_before_training(shared):
    store = shared / "alice-only"
    alice = run_child(store, {"epochs": 60}, ALICE, umask=0o022)  # Alice's folder: 0755, files 0644
    assert alice["ok"] and alice["trained"]
    hit = run_child(store, {"epochs": 60}, EVE)
    assert hit["ok"] and not hit["trained"] and not hit["warnings"] and hit["digest"] == alice["digest"], hit
    before = sorted(p.name for p in store.iterdir())
    miss = run_child(store, {"epochs": 60, "weight_decay": 0.5}, EVE)
    assert not miss["ok"] and not miss["trained"], miss
    assert miss["error"] == (f"StoreError: GROK_STORE={store} cannot be written (Permission denied) and runs need "
                             f"training: set GROK_STORE to a folder you can write")
    assert sorted(p.name for p in store.iterdir()) == before


def test_a_read_only_store_fails_before_training_without_root(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere; the test above covers it with another user")
    store = tmp_path / "runs"
    store.mkdir()
    store.chmod(0o555)
    try:
        result = run_child(store, {"epochs": 60})
    finally:
        store.chmod(0o755)
    assert not result["ok"] and not result["trained"] and "cannot be written" in result["error"]


def test_a_relative_store_is_the_folder_it_was_given_in(tmp_path):
    """GROK_STORE=relstore set in one folder names that folder's relstore in every process started from
    there, whatever folder the child runs in (papermill starts notebook kernels in the notebook's folder)."""
    (tmp_path / "notebooks").mkdir()
    child = ("import subprocess, sys, grok_lib; from grok_lib import paths; print(paths.store_dir()); "
             "print(subprocess.run([sys.executable, '-c', 'from grok_lib import paths; print(paths.store_dir())'], "
             "cwd='notebooks', capture_output=True, text=True, check=True).stdout.strip())")
    env = os.environ | {"GROK_STORE": "relstore"}
    out = subprocess.run([sys.executable, "-c", child], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(tmp_path / "relstore")] * 2
