"""Recorded runs: histories too long to retrain in every ``make book`` or CI run, computed once
and committed (``recorded/<set>/``), read by the notebooks like store entries.

A set is a list of configs a part names in its ``RECORDINGS`` (``{set: (description, configs)}``).
``scripts/record_runs.py <set>`` trains them (through the run store, so a killed recording
resumes from its checkpoints) and writes, per set:

- ``<i>.npz``        run i's metric traces, plus the first and last kept weights of the blocks the
                     set names (Paper A keeps E: what Figure 2's claims read), plain arrays;
- ``manifest.json``  the configs, the SHA-256 of every file, and how they were made: the command,
                     the library hash, the git commit, the machine, torch, threads, wall times, and
                     the arithmetic they were computed in (:mod:`grok_lib.arithmetic`), which says
                     whether today's code must reproduce them exactly or within the envelope.

A part may record a set another way (``RECORD_COMMANDS`` in its ``recordings`` module, with ``PREFIX_TRAINERS`` to
retrain its first steps): Paper B's sweep at the paper's d is trained over several sessions and recorded from its
folder as far as it has gone (:mod:`grok_lib.paper_b.sweep_folder`).

Two guards keep a recording honest. :func:`load` refuses a set whose configs differ from the
part's current definition, or whose files fail their checksums. And :func:`retrain_prefix`
retrains the first steps of a recorded run with today's code, which CI compares with the
recording (``tests/test_recorded.py``): a change to the numeric code that alters the runs
fails CI until the set is recorded again with the command above.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import math
import os
import platform
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import __version__, arithmetic, paths
from .code_version import git_commit, library_hash
from .atomic import atomic_write
from .config import ConfigError, to_dict
from .history import History, load_npz, stamped
from .kinds import code_version, kind_of

#: Where the recorded sets live (committed).
RECORDED = paths.RECORDED

#: The command that (re)records a set; printed in every error that asks for it.
COMMAND = ".venv/bin/python scripts/record_runs.py"

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def definitions() -> dict:
    """Every part's recorded sets (its ``recordings`` module's ``RECORDINGS``, where it has one):
    name -> (description, the function returning its configs, the weight blocks kept)."""
    import importlib.util
    from importlib import import_module

    out = {}
    for part in paths.parts():
        if importlib.util.find_spec(f"grok_lib.{part}.recordings") is not None:
            out |= import_module(f"grok_lib.{part}.recordings").RECORDINGS
    return out


def _part_table(name: str, table: str) -> dict:
    """The ``table`` (a dict keyed by set names) of the recordings module of ``name``'s part, or {} where it has none."""
    from importlib import import_module

    return getattr(import_module(f"grok_lib.{name.split('/', 1)[0]}.recordings"), table, {})


def record_command(name: str) -> str:
    """The command that (re)records the set ``name``: ``scripts/record_runs.py`` unless its part names another
    (``RECORD_COMMANDS``: a set trained as one sweep over several sessions is recorded from its folder)."""
    return _part_table(name, "RECORD_COMMANDS").get(name, f"{COMMAND} {name}")


def recorded_elsewhere(name: str) -> bool:
    """Whether the set ``name`` is recorded by its own command (:func:`record_command`), not by
    ``scripts/record_runs.py``."""
    return name in _part_table(name, "RECORD_COMMANDS")


def part_set(part: str, name: str) -> list[History]:
    """The histories of ``part``'s recorded set ``name`` (a short name: ``mc_paper`` for ``paper_b/mc_paper``),
    checked against its definition; an unknown name is a RecordingError naming the part's sets."""
    from importlib import import_module

    sets = import_module(f"grok_lib.{part}.recordings").RECORDINGS
    full = f"{part}/{name}"
    if full not in sets:
        names = ", ".join(n.split("/", 1)[1] for n in sets)
        raise RecordingError(f"name must be one of {names}, got {name!r}")
    return load(full, sets[full][1]()).histories


class RecordingError(ConfigError):
    """A recorded set is missing, damaged, or does not match the code that reads it."""


@dataclass(frozen=True)
class Recording:
    """One recorded set as read from disk: its manifest and its histories, in config order."""

    name: str
    manifest: dict
    histories: list[History]


def set_dir(name: str, root: Path = RECORDED) -> Path:
    return Path(root) / name


def compressed_npz(arrays: dict[str, np.ndarray]) -> bytes:
    """``arrays`` as deflated ``.npz`` bytes (sorted members, fixed timestamps: equal arrays, equal bytes)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with z.open(info, "w") as f:
                np.lib.format.write_array(f, np.asanyarray(arrays[name]), allow_pickle=False)
    return buf.getvalue()


def traces(history: History, blocks: Sequence[str] = ()) -> History:
    """The history with only the first and last kept weights of ``blocks`` (the traces are what the
    figures of recorded runs need; whole weight histories would be megabytes per run)."""
    ends = [0, len(history.snapshot_steps) - 1] if len(history.snapshot_steps) else []
    return History(steps=history.steps, metrics=history.metrics, config=history.config, meta=history.meta,
                   snapshot_steps=history.snapshot_steps[ends],
                   snapshots={k: history.snapshots[k][ends] for k in blocks})


def machine() -> str:
    """The CPU model (or the platform's processor string) and the core count."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def write(name: str, description: str, configs: Sequence, histories: Sequence[History], *, threads,
          blocks: Sequence[str] = (), root: Path = RECORDED, extra: dict | None = None,
          code: str | None = None) -> Path:
    """Write the set ``name`` (every file atomically, the manifest last: a reader never sees a
    manifest whose files are not all in place). ``extra``: more fields of the manifest (a sweep recorded before it
    is done says how far it has gone); ``code``: the source hash of the code that trained the runs, where it is not
    their kind's (:func:`grok_lib.kinds.code_version`; a stacked sweep's trainer is another module)."""
    import torch

    folder = set_dir(name, root)
    folder.mkdir(parents=True, exist_ok=True)
    runs = []
    for i, (config, history) in enumerate(zip(configs, histories)):
        data = compressed_npz(traces(history, blocks).arrays())
        atomic_write(folder / f"{i}.npz", data)
        runs.append({"file": f"{i}.npz", "sha256": hashlib.sha256(data).hexdigest(), "kind": kind_of(config).name,
                     "config": to_dict(config), "code": code or code_version(kind_of(config)),
                     "seconds": history.meta.get("seconds")})
    manifest = {
        "set": name, "description": description, "command": record_command(name),
        "recorded": datetime.date.today().isoformat(), "grok_lib": __version__,
        "library_hash": library_hash(), "commit": git_commit(),
        "machine": machine(), "torch": torch.__version__, "threads": threads, "runs": runs,
        "arithmetic": arithmetic.describe(), **(extra or {}),
    }
    atomic_write(folder / "manifest.json", (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return folder


def same_arithmetic(manifest: dict) -> bool:
    """Whether this process computes in the arithmetic the set was recorded in (then its prefix
    must be reproduced exactly; otherwise within the measured envelope)."""
    return manifest.get("arithmetic", {}).get("id") == arithmetic.arithmetic_id()


def _restore_hint(name: str) -> str:
    return f"restore it from git or record it again with: {record_command(name)}"


#: A run's file name in a manifest: a plain name in the set's own folder (no separators, no "..", no NUL or newline).
_PLAIN_NPZ = re.compile(r"[A-Za-z0-9_-]+\.npz")


def _damaged(name: str, what: str) -> RecordingError:
    """A damaged set's error, one line: the set, the file and what is wrong (``what``), and how to restore it."""
    return RecordingError(f"recorded set {name!r}: {what}; {_restore_hint(name)}")


def _why(err: Exception) -> str:
    """An error's text on one line (it goes inside a one-line message)."""
    return " ".join(str(err).split())


def _in_set(name: str, root: Path, file: str) -> Path:
    """The set's ``file``; a symbolic link leaving the set's folder is refused (a set is read from its folder only)."""
    folder = set_dir(name, root)
    path = folder / file
    if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):  # realpath: a loop is no error here
        raise _damaged(name, f"{path} is a symbolic link leaving the set's folder")
    return path


def read_manifest(name: str, root: Path = RECORDED) -> dict:
    """The set's manifest, checked for its shape: a list of runs, each naming a plain ``.npz`` file of the
    set's own folder (never a path elsewhere), its checksum and its config (a dict)."""
    path = _in_set(name, root, "manifest.json")
    if not path.exists():
        raise RecordingError(f"recorded set {name!r} is missing ({path}); record it with: {record_command(name)}")
    if not path.is_file():
        raise _damaged(name, f"{path} is not a file")
    try:
        manifest = json.loads(path.read_text())
    except OSError as err:
        raise _damaged(name, f"{path} cannot be read ({err.strerror})") from None
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        raise _damaged(name, f"{path} is not JSON ({_why(err)})") from None
    if not isinstance(manifest, dict):
        raise _damaged(name, f"{path} is not a JSON object")
    if not isinstance(manifest.get("arithmetic", {}), dict):
        raise _damaged(name, f"{path} has an arithmetic entry that is not a dict")
    runs = manifest.get("runs")
    if not isinstance(runs, list) or not runs:
        raise _damaged(name, f"{path} lists no runs")
    for i, run in enumerate(runs):
        _check_run(name, path, i, run)
    return manifest


def _check_run(name: str, path: Path, i: int, run) -> None:
    """Run ``i`` of the manifest at ``path`` names a plain ``.npz`` file, its checksum and its config (a dict)."""
    missing = [k for k in ("file", "sha256", "config") if not isinstance(run, dict) or k not in run]
    if missing:
        what = f"has no {', '.join(missing)}"
    elif not isinstance(run["file"], str) or not _PLAIN_NPZ.fullmatch(run["file"]):
        what = f"names the file {run['file']!r}, not a .npz file of the set's folder (a plain name of letters, digits, _ and -)"
    elif not isinstance(run["config"], dict):
        what = "has a config that is not a dict"
    else:
        return
    raise _damaged(name, f"run {i} of manifest.json {what}, in {path}")


def _history(name: str, path: Path, data: bytes) -> History:
    """The run that a recorded file's ``data`` holds; anything else (a pickle included: refused, never loaded) is a
    RecordingError naming ``path``."""
    try:
        return History.from_arrays(load_npz(data))
    except KeyError as err:
        raise _damaged(name, f"{path} holds no history (no array {err})") from None
    except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error) as err:
        if "allow_pickle" in str(err):
            raise _damaged(name, f"{path} holds a pickled (object) array, refused (arrays are read with "
                                 f"allow_pickle=False)") from None
        raise _damaged(name, f"{path} is not a readable .npz ({_why(err)})") from None


def load(name: str, configs: Sequence, root: Path = RECORDED) -> Recording:
    """The recorded set ``name``, checked: its configs must be ``configs`` (the part's current
    definition of the set) and every file must match its checksum."""
    manifest = read_manifest(name, root)
    recorded = [r["config"] for r in manifest["runs"]]
    wanted = [json.loads(json.dumps(to_dict(c))) for c in configs]  # as the manifest holds them (tuples: lists)
    if recorded != wanted:
        changed = sorted({k for r, w in zip(recorded, wanted) for k in r.keys() | w.keys() if r.get(k) != w.get(k)})
        what = f"fields {', '.join(changed)} differ" if changed else f"{len(recorded)} runs recorded, {len(wanted)} defined"
        raise RecordingError(f"recorded set {name!r} does not match its definition ({what}); "
                             f"record it again with: {record_command(name)}")
    histories = []
    for run in manifest["runs"]:
        path = _in_set(name, root, run["file"])
        try:
            data = path.read_bytes()
        except OSError as err:
            raise _damaged(name, f"{path} cannot be read ({err.strerror})") from None
        if hashlib.sha256(data).hexdigest() != run["sha256"]:
            raise _damaged(name, f"{path} fails its checksum")
        history = _history(name, path, data)
        if history.config != run["config"]:  # a checksum says the bytes are whole, not whose run they hold
            raise _damaged(name, f"{path} holds the run of another config than the manifest names for it")
        histories.append(history)
    return Recording(name=name, manifest=manifest, histories=stamped(histories, configs))


class _Enough(Exception):
    """Raised from a training callback to stop a prefix run."""


def prefix_rows(train: Callable[[tuple], None], steps: int, member: int | None = None) -> dict[int, dict[str, float]]:
    """The rows ``train(callbacks)`` records at its steps <= ``steps``, stopped right after them: of every row, or of
    the sweep member ``member`` only (a row's "member" field). ``train`` is called with the one callback that keeps
    them; it returns or raises nothing of its own when stopped."""
    rows: dict[int, dict[str, float]] = {}

    def keep(step: int, row: dict) -> None:
        if step > steps:
            raise _Enough
        if member is None or row.get("member") == member:
            rows[step] = {k: float(v) for k, v in row.items() if k != "member"}

    try:
        train((keep,))
    except _Enough:
        pass
    return rows


def retrain_prefix(config, steps: int) -> dict[int, dict[str, float]]:
    """The rows today's code records for ``config`` at its recorded steps <= ``steps`` (trained on the
    CPU and stopped after them): what :func:`compare_prefix` holds against a recording."""
    def train(callbacks: tuple) -> None:
        with arithmetic.one_thread():  # as the store trains every run
            kind_of(config).train([config], device="cpu", resume=None, on_checkpoint=None, progress=False,
                                  callbacks=callbacks)

    return prefix_rows(train, steps)


def retrain_set_prefix(name: str, configs: Sequence, steps: int) -> dict[int, dict[str, float]]:
    """The rows today's code records for the last run of the set ``name`` (of ``configs``) at its recorded steps <=
    ``steps``: :func:`retrain_prefix`, or the part's own trainer for the set (``PREFIX_TRAINERS``: a set trained as
    one stacked sweep is retrained as that sweep, whose numbers are not the one-run trainer's bits)."""
    trainer = _part_table(name, "PREFIX_TRAINERS").get(name)
    return trainer(list(configs), steps) if trainer else retrain_prefix(configs[-1], steps)


def prefix_errors(history: History, rows: dict[int, dict[str, float]], floor: float) -> dict[str, tuple[float, int]]:
    """Per metric of the retrained ``rows``: the largest relative difference from the recorded ``history``
    (against the recorded value, with an absolute floor of ``floor`` for values near 0, of 1 for
    accuracies; NaN on one side only counts as infinite) and the step where it is largest. A KeyError
    names steps the recording does not have."""
    index = {int(s): i for i, s in enumerate(history.steps)}
    missing = [s for s in rows if s not in index]
    if missing:
        raise KeyError(f"steps {missing[:5]} were not recorded")
    out = {}
    for name in sorted(next(iter(rows.values()))):
        if name not in history.metrics:
            out[name] = (math.inf, -1)
            continue
        got = np.array([rows[s][name] for s in sorted(rows)])
        want = np.array([history.metrics[name][index[s]] for s in sorted(rows)])
        err = np.abs(got - want) / np.maximum(np.abs(want), 1.0 if name.endswith("acc") else floor)
        err = np.where(np.isnan(got) & np.isnan(want), 0.0, np.where(np.isnan(err), math.inf, err))
        out[name] = (float(err.max()), sorted(rows)[int(err.argmax())])
    return out


def compare_prefix(history: History, rows: dict[int, dict[str, float]], rtol: float | dict[str, float]) -> list[str]:
    """Where the retrained ``rows`` differ from the recorded ``history`` by more than ``rtol`` (relative,
    with an absolute floor of 1e-6 for values near 0; one number for every metric, or one per metric
    as the measured envelope gives them): one line per metric, empty if none."""
    try:
        errors = prefix_errors(history, rows, 1e-6)
    except KeyError as err:
        return [err.args[0]]
    tol = (lambda name: rtol.get(name, 0.0)) if isinstance(rtol, dict) else (lambda name: rtol)  # noqa: E731
    return [f"{name}: not in the recording" if step < 0 else
            f"{name}: relative difference {worst:.3g} at step {step} (tolerance {tol(name):g})"
            for name, (worst, step) in errors.items() if worst > tol(name)]
