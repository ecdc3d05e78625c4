"""A long stacked sweep (:mod:`.diagonal_sweep`) kept in a folder and trained over several calls, each going on where
the last one stopped: across sessions on the CPU (``scripts/train_stacked_sweep.py``) or across device leases (the GPU
check, ``benchmarks/paper_b_runs.py``).

The folder holds ``sweep.json`` (the sweep's configs, dtype, arithmetic and, off numpy, the device of its arrays,
torch's version and on a GPU its name: the checkpoint's own signature, which a call must match; and ``code``, the
source hash of the modules whose numbers it records, which a call that trains must match too), ``state.npz`` (the
last checkpoint, written atomically) and, once the sweep is done, each member's history ``<j>.npz`` in config order
(plain arrays, no pickles), the checkpoint removed.
A resumed sweep is bitwise the sweep run straight through, in the same arithmetic on the same device only.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional, Sequence

from ..atomic import atomic_write
from ..config import ConfigError
from ..history import History
from ..kinds import source_hash
from . import diagonal, diagonal_sweep


def _write_description(path: Path, described: dict) -> None:
    atomic_write(path, (json.dumps(described, indent=1, sort_keys=True) + "\n").encode())


def code_hash() -> str:
    """The source hash of the modules a sweep's numbers come from (its step and its records)."""
    return source_hash([diagonal, diagonal_sweep])


def adopt_code(out: Path, step: int) -> None:
    """Name this code in ``out``'s sweep.json before training goes on from ``step``; a ConfigError if it names other
    code (a resumed sweep would join two versions of the numeric code). A folder begun before sweep.json named its code
    adopts the code that first continues it, from ``step`` on (``code_from_step``)."""
    path = Path(out) / "sweep.json"
    held = json.loads(path.read_text())
    if "code" not in held:
        _write_description(path, held | {"code": code_hash(), "code_from_step": step})
    elif held["code"] != code_hash():
        raise ConfigError(f"the folder {out} was trained with the code {held['code']} of grok_lib/paper_b/diagonal.py and "
                          f"diagonal_sweep.py, these are {code_hash()}: go on with that code or start another folder")

def check(out: Path, configs: Sequence, dtype: str, array_device: Optional[str] = None) -> None:
    """``out``'s sweep.json must describe this sweep (written on the first call); a one-line ConfigError if it names
    other configs, another dtype, another arithmetic or another device."""
    described = json.loads(diagonal_sweep.signature(configs, dtype, array_device))
    path = Path(out) / "sweep.json"
    if not path.exists():
        _write_description(path, described)
        return
    held = json.loads(path.read_text())
    for field, what in (("configs", "other configs"), ("dtype", f"dtype {held.get('dtype')}")):
        if held.get(field) != described[field]:
            raise ConfigError(f"the folder {out} holds another sweep (its sweep.json names {what}); use another "
                              f"folder")
    for field in ("arithmetic", "array_device", "torch", "gpu", "cuda"):
        was, now = held.get(field), described.get(field)
        if was != now:
            if field == "array_device":  # None: the numpy path
                was, now = was or "numpy", now or "numpy"
            raise ConfigError(f"the folder {out} was trained with {field} {was}, this call computes with {now}: "
                              f"go on with it or record it where it started")


def finished(out: Path, n: int) -> Optional[list[History]]:
    """The ``n`` members' histories if the sweep in ``out`` is done (every ``<j>.npz`` there), else None."""
    paths = [Path(out) / f"{j}.npz" for j in range(n)]
    if not all(p.exists() for p in paths):
        return None
    return [History.from_bytes(p.read_bytes()) for p in paths]


def so_far(out: Path, configs: Sequence, dtype: str = "float64",
           array_device: Optional[str] = None) -> tuple[list[History], int]:
    """The members' histories as far as the sweep in ``out`` has gone, and the step it stands at (the longest member's
    last step + 1 once done): the finished histories, or those of its checkpoint
    (:func:`diagonal_sweep.histories_so_far`). A one-line ConfigError if the folder holds another sweep or none."""
    out = Path(out)
    if not (out / "sweep.json").exists():
        raise ConfigError(f"the folder {out} holds no sweep (no sweep.json); train one with "
                          f"scripts/train_stacked_sweep.py --out {out}")
    check(out, configs, dtype, array_device)
    done = finished(out, len(configs))
    if done is not None:
        return done, max(c.steps for c in configs) + 1
    state = out / "state.npz"
    if not state.exists():
        raise ConfigError(f"the folder {out} has no checkpoint yet (no state.npz); train the sweep on first")
    histories = diagonal_sweep.histories_so_far(diagonal_sweep.load_state(state), configs, dtype, array_device)
    return histories, int(histories[0].meta["through_step"])


def record(out: Path, name: str, description: str, configs: Sequence, dtype: str = "float64",
           root: Optional[Path] = None) -> tuple[Path, dict]:
    """Write the recorded set ``name`` (:mod:`grok_lib.recorded`) from the sweep in ``out`` as far as it has gone
    (:func:`so_far`); its manifest's ``sweep`` says how far: ``through_step`` (every member's rows before it are in
    the set), ``last_step`` (the longest member's last), ``done``, and the code that trained it (:func:`adopt_code`;
    None for the steps before a folder named it). Returns (the set's folder, that ``sweep``)."""
    from .. import recorded

    histories, step = so_far(out, configs, dtype)
    last = max(c.steps for c in configs)
    held = json.loads((Path(out) / "sweep.json").read_text())
    sweep = {"through_step": step, "last_step": last, "done": step > last, "code": held.get("code"),
             "code_from_step": held.get("code_from_step")}
    folder = recorded.write(name, description, configs, histories, threads=1, root=root or recorded.RECORDED,
                            extra={"sweep": sweep},
                            code=held.get("code") or "not named (the folder was begun before sweep.json named its code)")
    return folder, sweep


def train(out: Path, configs: Sequence, dtype: str = "float64", every: int = 10_000,
          stop_after: Optional[float] = None, array_device: Optional[str] = None, progress: bool = True,
          stop_at: Optional[float] = None) -> tuple[Optional[list[History]], dict]:
    """Go on with the sweep in ``out`` (start it if there is none) until it is done, or until the first checkpoint
    ``stop_after`` seconds or more into this call, or a checkpoint at the first step past ``stop_at`` (see
    :func:`diagonal_sweep.train_sweep`): (the histories, or None if it stopped; ``{"started_at"`` the step this call
    began at, ``"stopped_at"`` the checkpoint's step or None, ``"seconds"`` this call's time ``}``). Checks the
    device and the folder first (:func:`check`); a finished sweep is read, not trained again."""
    diagonal_sweep.ops_for(array_device)  # a device this machine lacks: a one-line error before the folder is touched
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    check(out, configs, dtype, array_device)
    done = finished(out, len(configs))
    if done is not None:
        return done, {"started_at": max(c.steps for c in configs), "stopped_at": None, "seconds": 0.0}
    state_path = out / "state.npz"
    resume = diagonal_sweep.load_state(state_path) if state_path.exists() else None
    adopt_code(out, resume.step if resume else 0)
    t0, saved = time.perf_counter(), {}

    def save(state):
        diagonal_sweep.save_state(state_path, state)
        saved["step"] = state.step

    histories = diagonal_sweep.train_sweep(configs, dtype, progress, resume=resume, on_checkpoint=save,
                                           checkpoint_every=every, stop_after=stop_after, stop_at=stop_at,
                                           array_device=array_device)
    info = {"started_at": resume.step if resume else 0, "stopped_at": None if histories else saved["step"],
            "seconds": time.perf_counter() - t0}
    if histories is None:
        return None, info
    for j, h in enumerate(histories):
        atomic_write(out / f"{j}.npz", h.to_bytes())
    state_path.unlink(missing_ok=True)
    return histories, info
