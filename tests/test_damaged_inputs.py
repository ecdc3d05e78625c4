"""Every damaged input is a one-line error of a clear class naming the file: recorded sets (grok_lib/recorded.py),
claim records (grok_lib/claims.py) and the run store's lock paths (grok_lib/locks.py)."""

import hashlib
import io
import json
import shutil

import numpy as np
import pytest

from grok_lib import claims, locks, recorded

SETS = recorded.definitions()
NAME = sorted(SETS)[0]


def one_line_naming(err: pytest.ExceptionInfo, path, what: str) -> None:
    """The error's message is one line, names ``path`` and matches ``what``."""
    message = str(err.value)
    assert "\n" not in message and "\r" not in message, message
    assert str(path) in message, message
    assert err.match(what)


# --- recorded sets -------------------------------------------------------------------------------------------

def _manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


def _edit_run0(folder, change):
    """Apply ``change`` to run 0 of the manifest; the manifest is the file the error must name."""
    m = _manifest(folder)
    change(m["runs"][0])
    (folder / "manifest.json").write_text(json.dumps(m))
    return folder / "manifest.json"


def _named(file):
    return lambda folder: _edit_run0(folder, lambda run: run.update(file=file))


def _npz_under_its_checksum(data: bytes):
    """Replace 0.npz with ``data`` and give the manifest its checksum: whole bytes, wrong contents."""
    def damage(folder):
        (folder / "0.npz").write_bytes(data)
        _edit_run0(folder, lambda run: run.update(sha256=hashlib.sha256(data).hexdigest()))
        return folder / "0.npz"
    return damage


def _npz_bytes(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _no_config(folder):
    return _edit_run0(folder, lambda run: run.pop("config"))


def _config_not_a_dict(folder):
    return _edit_run0(folder, lambda run: run.update(config=[1, 2]))


def _manifest_is_a_directory(folder):
    (folder / "manifest.json").unlink()
    (folder / "manifest.json").mkdir()
    return folder / "manifest.json"


def _leaving_symlink(file):
    """Move ``file`` out of the set (same bytes) and leave a symlink to it in its place."""
    def damage(folder):
        outside = folder.parent / "elsewhere"
        outside.mkdir()
        shutil.move(folder / file, outside / file)
        (folder / file).symlink_to(outside / file)
        return folder / file
    return damage


def _symlink_loop(folder):
    (folder / "0.npz").unlink()
    (folder / "0.npz").symlink_to("loop.npz")
    (folder / "loop.npz").symlink_to("0.npz")
    return folder / "0.npz"


def _manifest_text(text):
    def damage(folder):
        (folder / "manifest.json").write_text(text)
        return folder / "manifest.json"
    return damage


def _arithmetic_not_a_dict(folder):
    m = _manifest(folder)
    (folder / "manifest.json").write_text(json.dumps(m | {"arithmetic": "fast"}))
    return folder / "manifest.json"


RECORDED_DAMAGE = {
    "file name with a NUL": (_named("0\x00.npz"), r"names the file '0\\x00.npz', not a \.npz file of the set's folder"),
    "file name with a newline": (_named("0\n.npz"), r"names the file '0\\n.npz', not a \.npz file of the set's folder"),
    "file name with a slash": (_named("sub/0.npz"), r"not a \.npz file of the set's folder"),
    "file name with a backslash": (_named("..\\0.npz"), r"not a \.npz file of the set's folder"),
    "file name '..'": (_named(".."), r"not a \.npz file of the set's folder"),
    "non-npz bytes under a matching checksum": (_npz_under_its_checksum(b"not a zip at all"), r"is not a readable \.npz \(not an \.npz file"),
    "an npz without a history's arrays": (_npz_under_its_checksum(_npz_bytes(x=np.zeros(3))), r"holds no history \(no array 'steps'\)"),
    "a pickled (object) array": (_npz_under_its_checksum(_npz_bytes(steps=np.array([{"a": 1}], dtype=object))),
                                 r"pickled \(object\) array.*allow_pickle=False"),
    "no config": (_no_config, r"run 0 of manifest.json has no config, in "),
    "config not a dict": (_config_not_a_dict, r"run 0 of manifest.json has a config that is not a dict, in "),
    "manifest.json a directory": (_manifest_is_a_directory, r"is not a file"),
    "an npz symlink leaving the set": (_leaving_symlink("0.npz"), r"symbolic link leaving the set's folder"),
    "a manifest symlink leaving the set": (_leaving_symlink("manifest.json"), r"symbolic link leaving the set's folder"),
    "an npz symlink loop": (_symlink_loop, r"cannot be read \(Too many levels of symbolic links\)"),
    "manifest not JSON": (_manifest_text("{garbage"), r"is not JSON"),
    "manifest not a dict": (_manifest_text("[1, 2]"), r"is not a JSON object"),
    "arithmetic not a dict": (_arithmetic_not_a_dict, r"has an arithmetic entry that is not a dict"),
}


@pytest.fixture
def copied_set(tmp_path):
    shutil.copytree(recorded.set_dir(NAME), recorded.set_dir(NAME, tmp_path))
    return recorded.set_dir(NAME, tmp_path), tmp_path


@pytest.mark.parametrize("case", list(RECORDED_DAMAGE))
def test_a_damaged_recorded_set_is_a_one_line_recording_error(copied_set, case):
    folder, root = copied_set
    damage, what = RECORDED_DAMAGE[case]
    path = damage(folder)
    with pytest.raises(recorded.RecordingError) as err:
        recorded.load(NAME, SETS[NAME][1](), root)
    one_line_naming(err, path, what)
    assert err.match(r"restore it from git or record it again with: .*record_runs.py " + NAME)


def test_a_symlink_inside_the_set_is_followed(copied_set):
    """Only a link leaving the set is refused."""
    folder, root = copied_set
    (folder / "0.npz").rename(folder / "zero.data")
    (folder / "0.npz").symlink_to("zero.data")
    assert len(recorded.load(NAME, SETS[NAME][1](), root).histories) == len(SETS[NAME][1]())


# --- claim records -------------------------------------------------------------------------------------------

REAL = json.loads(next(iter(sorted(claims.RECORDS.glob("*/*.json")))).read_text())[0]


def _records(rows):
    return json.dumps(rows)


CLAIM_DAMAGE = {
    "empty file": ("", r"is not JSON"),
    "garbage": ("{oops", r"is not JSON"),
    "not UTF-8": (b"\xff\xfe\x00garbage", r"is not JSON"),
    "not a list": (_records({"cells": []}), r"is not a list of claim records"),
    "a record not a dict": (_records([REAL, 7]), r"record 1 is not a dict"),
    "a required key missing": (_records([{k: v for k, v in REAL.items() if k != "source"}]),
                               rf"record 0 \(claim '{REAL['id']}'\) has no source"),
    "an id not a string": (_records([REAL | {"id": ["x"]}]), r"record 0 has an id that is not a string"),
    "an unknown verdict": (_records([REAL, REAL | {"verdict": "bogus"}]),
                           rf"record 1 \(claim '{REAL['id']}'\) has the verdict 'bogus', not one of reproduced, not reproduced"),
    "a verdict not a string": (_records([REAL | {"verdict": ["reproduced"]}]), r"has the verdict \['reproduced'\]"),
    "an unknown kind": (_records([REAL | {"kind": "rumour"}]), r"has the kind 'rumour', not one of claim, premise"),
    "an unknown verdict here": (_records([REAL | {"verdict_here": "maybe"}]), r"has the verdict_here 'maybe'"),
}


@pytest.mark.parametrize("case", list(CLAIM_DAMAGE))
def test_a_damaged_claim_record_file_is_a_one_line_error(tmp_path, case):
    text, what = CLAIM_DAMAGE[case]
    path = tmp_path / "paper_a" / "nb.json"
    path.parent.mkdir()
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(claims.ClaimRecordError) as err:
        claims.load_records(tmp_path, setting=None)
    one_line_naming(err, path, what)


def test_a_directory_named_like_a_claim_record_is_a_one_line_error(tmp_path):
    path = tmp_path / "paper_a" / "nb.json"
    path.mkdir(parents=True)
    with pytest.raises(claims.ClaimRecordError) as err:
        claims.load_records(tmp_path)
    one_line_naming(err, path, r"cannot be read")


def test_every_committed_claim_record_passes_the_check():
    records = claims.load_records(setting=None)
    assert records and {r["verdict"] for r in records} <= set(claims.VERDICTS)


# --- lock paths ----------------------------------------------------------------------------------------------

def test_a_directory_at_a_lock_path_is_a_one_line_store_error(tmp_path):
    path = tmp_path / "k.lock"
    path.mkdir()
    with pytest.raises(locks.StoreError) as err:
        with locks.locked(tmp_path, ["k"], "run store", progress=False):
            pass
    one_line_naming(err, path, r"is a folder, not a lock file; remove it to train run k")
    assert path.is_dir()  # reported, never removed by the store
