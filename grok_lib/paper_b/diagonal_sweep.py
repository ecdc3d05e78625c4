"""A sweep of sparse diagonal nets on one data set, trained as one computation.

The members of an alpha (or lambda, or step-size) sweep share the training matrix X (n x d). Trained one by
one (:func:`grok_lib.paper_b.diagonal.train`) every step reads X twice per member, once for the margins
X beta and once for the gradient X^T r; at d = 1e5 that is 2 x 205 MB per member and step, and the step is
bound by memory bandwidth. Here the members' parameters are the rows of (B x d) arrays U and V and a step of
all of them is two matrix products over X:

    Q = (U*U - V*V) X^T   (B x n),   G = -((Y * sigmoid(-Y * Q)) X) / n   (B x d),

then every member takes its own step: U -= lr_j (2 U G + lambda_j U), V -= lr_j (-2 V G + lambda_j V), with
lr_j = min(lr, 1 / H_j) under the stable rule (H_j as :func:`diagonal.smoothness_bound`, whose cheap form
already decides most steps; the tight one is computed only for members it would shorten).

**A member's numbers do not depend on its sweep.** The products are always taken over blocks of
:data:`BLOCK` rows, a short sweep padded with copies of its first member: with the block's shape fixed, a
row's result is bitwise the same whichever rows sit beside it (``tests/paper_b/test_diagonal_sweep.py``
checks a member of a 5-member sweep against the same config trained alone). It is not bitwise the
member-by-member trainer's (a matrix product sums in another order than a matrix-vector product: they agree
to about 1e-15), so runs trained here must not share the run store's entries with :func:`diagonal.train`'s.
``make book`` trains nothing here: the benchmark (``benchmarks/bench_diagonal_sweep.py``),
``scripts/train_stacked_sweep.py`` (the recorded set ``paper_b/sparse_paper_d``), the tests and the GPU check do.

**Resumable.** A sweep of at most :data:`BLOCK` members (one block: the 5-alpha sweep is one) can hand a
:class:`SweepState` to ``on_checkpoint`` every ``checkpoint_every`` steps and continue from one (``resume``): the
block's parameters and clocks and each member's recording so far, as plain arrays (:func:`save_state` writes them
atomically as ``.npz``, no pickles). A resumed sweep's histories are bitwise those of the sweep run straight through
(``tests/paper_b/test_diagonal_sweep.py``); ``stop_after`` (seconds) ends a long sweep at its first checkpoint past
that time, so a session can do part of it and the next one continue (``scripts/train_stacked_sweep.py``).

**On a GPU.** ``array_device`` (``"cuda"``; ``"cpu"`` runs the same code on the CPU, for the tests) keeps X, U, V, the
clocks and the products as torch tensors on that device; the records, checkpoints and the stable step's tight bound (for
the members its cheap form shortens) read the rows they need back to the host. Its numbers are not the numpy path's
bits (another library's products) and a checkpoint names its device: a sweep resumes only where it started. The GPU
check trains the paper-size sweep this way (``benchmarks/paper_b_runs.py``).

``dtype="float32"`` keeps X, U, V and the products in float32 (half the bytes per step); the clock t, the step
sizes and every recorded metric stay float64 (:func:`diagonal._record_row` on beta in float64). It changes four of
the sparse chapter's verdicts (the alpha = 16384 run loses its kernel phase; ``benchmarks/README.md``), so it is
a measurement, not a setting the book's runs may use.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np
from tqdm import tqdm

from ..arithmetic import arithmetic_id
from ..atomic import atomic_write
from ..config import ConfigError, need_choice, need_int
from ..history import History, load_npz, npz_bytes
from . import diagonal
from .config import SparseConfig

#: Rows per product: sweeps are padded (or split) to multiples of it, so a member's arithmetic is fixed.
BLOCK = 8
#: Fields the members of one stacked sweep may differ in (everything else, the data above all, is shared); ``n_log``
#: only sets when a member records.
MEMBER_FIELDS = ("alpha", "weight_decay", "lr", "steps", "n_log")
#: The number types a sweep may compute in.
DTYPES = ("float64", "float32")


def stack_signature(config) -> tuple:
    """What the members of one sweep must share: every field but :data:`MEMBER_FIELDS`."""
    return tuple((k, v) for k, v in sorted(config.to_dict().items()) if k not in MEMBER_FIELDS)


def check_stackable(configs: Sequence) -> None:
    """A one-line ConfigError unless ``configs`` share everything but :data:`MEMBER_FIELDS`."""
    if not configs:
        raise ConfigError("a stacked sweep needs at least one config, got none")
    if not all(isinstance(c, SparseConfig) for c in configs):
        raise ConfigError(f"a stacked sweep trains SparseConfig members, got {sorted({type(c).__name__ for c in configs})}")
    first = stack_signature(configs[0])
    for c in configs[1:]:
        diff = sorted(k for (k, a), (_, b) in zip(first, stack_signature(c)) if a != b)
        if diff:
            raise ConfigError(f"the members of a stacked sweep may differ only in {', '.join(MEMBER_FIELDS)}; "
                              f"these differ in {', '.join(diff)}")


class NumpyOps:
    """The array operations of a block's step on numpy arrays (the CPU path: the book's arithmetic)."""

    sigmoid = staticmethod(diagonal.sigmoid)
    minimum = staticmethod(np.minimum)
    abs = staticmethod(np.abs)

    @staticmethod
    def row_max(a):
        return np.max(a, axis=1)

    @staticmethod
    def put(a: np.ndarray):
        """A host array as the block's array."""
        return a

    @staticmethod
    def host(a) -> np.ndarray:
        """The block's array as a host array (a view where it already is one)."""
        return a

    @staticmethod
    def cast(a, dtype: np.dtype):
        return a.astype(dtype)

    @staticmethod
    def copy(a):
        return a.copy()


class TorchOps:
    """The same operations on torch tensors on ``device`` (see the module docstring, "On a GPU")."""

    def __init__(self, device: str):
        import torch  # late: the numpy path needs no torch

        self.torch, self.device = torch, device

    def sigmoid(self, z):
        return 0.5 * (1.0 + self.torch.tanh(0.5 * z))  # as diagonal.sigmoid

    def minimum(self, a, b):
        return self.torch.minimum(a, b)

    def abs(self, a):
        return self.torch.abs(a)

    def row_max(self, a):
        return self.torch.amax(a, dim=1)

    def put(self, a: np.ndarray):
        return self.torch.from_numpy(np.ascontiguousarray(a)).to(self.device)

    def host(self, a) -> np.ndarray:
        return a.detach().cpu().numpy()

    def cast(self, a, dtype: np.dtype):
        return a.to(getattr(self.torch, np.dtype(dtype).name))

    def copy(self, a):
        return a.clone()


#: The devices a sweep's arrays may live on as torch tensors (``array_device``; None: numpy on the CPU).
ARRAY_DEVICES = ("cpu", "cuda")


def ops_for(array_device: Optional[str]):
    """:class:`NumpyOps` (``array_device`` None), else :class:`TorchOps` on that device (a one-line error for others,
    and for cuda where there is none)."""
    if array_device is None:
        return NumpyOps
    need_choice("array_device", array_device, ARRAY_DEVICES)
    ops = TorchOps(array_device)
    if array_device == "cuda" and not ops.torch.cuda.is_available():
        raise ConfigError("array_device 'cuda' was requested but torch.cuda.is_available() is False; use cpu or None")
    return ops


def products(beta, x, y, ops=NumpyOps):
    """(q, s, g) of every row of ``beta`` (B x d): margins q = y (beta X^T), s = sigmoid(-q), g = dL/dbeta."""
    q = y * (beta @ x.T)
    s = ops.sigmoid(-q)
    g = -((y * s) @ x) / x.shape[0]
    return q, s, g


def step_sizes(lr, u, v, g, s, lam, x_norm2, col_norm2, stable: bool, real: int, ops=NumpyOps):
    """Every row's step: ``lr``, or under the stable rule min(lr, 1 / H) with H as :func:`diagonal.smoothness_bound`.

    The bound with ||X M^(1/2)||^2 <= ||X||^2 max M is checked first: where it already allows lr, so does the
    tighter one, and the partial sort over d that the tighter one needs is skipped. The rows from ``real`` on are
    the block's padding (never recorded): they keep the looser step, which no other row's numbers depend on."""
    if not stable:
        return ops.copy(lr)
    m_max = 4 * ops.row_max(u * u + v * v)
    curv = ops.row_max(s * (1 - s)) / s.shape[1]
    loose = curv * x_norm2 * m_max + 2 * ops.row_max(ops.abs(g)) + lam
    out = ops.minimum(lr, 1.0 / loose)
    for j in np.flatnonzero(ops.host(out[:real] < lr[:real])):
        tight = diagonal.smoothness_bound(ops.host(u[j]), ops.host(v[j]), ops.host(g[j]), ops.host(s[j]), x_norm2,
                                          col_norm2, float(lam[j]))
        out[j] = min(float(lr[j]), 1.0 / tight)
    return out


def _padded(configs: list) -> list:
    """``configs`` padded with copies of the first to a multiple of :data:`BLOCK`."""
    return configs + [configs[0]] * (-len(configs) % BLOCK)


@dataclass
class SweepState:
    """Everything a one-block sweep needs to continue from ``step`` (the step about to be taken, every earlier update
    applied): ``signature`` (its configs, dtype and arithmetic, which a resume must match), the block's ``u``, ``v``
    and clocks ``t``, the seconds spent so far, and per member ``m<j>/...`` its recorded steps, rows and snapshots."""

    step: int
    signature: str
    arrays: dict[str, np.ndarray]

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"step": np.array(self.step, dtype=np.int64), "signature": np.array(self.signature), **self.arrays}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> "SweepState":
        rest = {k: v for k, v in arrays.items() if k not in ("step", "signature")}
        return cls(step=int(arrays["step"]), signature=str(arrays["signature"]), arrays=rest)


def signature(configs: Sequence, dtype: str, array_device: Optional[str] = None) -> str:
    """The configs (as dicts), dtype and arithmetic of a sweep (and the device of its arrays, where it is not numpy's),
    as the text a checkpoint carries: a resume in other arithmetic would mix two machines' numbers in one run."""
    device = {}
    if array_device is not None:  # another library's floats: its version, and on CUDA the GPU and CUDA's
        import torch

        device = {"array_device": array_device, "torch": torch.__version__}
        if array_device == "cuda":
            device |= {"gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
                       "cuda": torch.version.cuda}
    return json.dumps({"dtype": dtype, "configs": [c.to_dict() for c in configs], "arithmetic": arithmetic_id(),
                       **device}, sort_keys=True)


def save_state(path: Path, state: SweepState) -> None:
    """Write ``state`` to ``path`` as ``.npz`` (plain arrays), atomically: a reader finds the old file or the new."""
    atomic_write(Path(path), npz_bytes(state.to_arrays()))


def load_state(path: Path) -> SweepState:
    """The state :func:`save_state` wrote to ``path``."""
    return SweepState.from_arrays(load_npz(Path(path).read_bytes()))


def train_sweep(configs: Sequence, dtype: str = "float64", progress: bool = True, callbacks=(), *,
                resume: Optional[SweepState] = None, on_checkpoint: Optional[Callable[[SweepState], None]] = None,
                checkpoint_every: int = 10_000, stop_after: Optional[float] = None, stop_at: Optional[float] = None,
                array_device: Optional[str] = None) -> Optional[list[History]]:
    """Train the members of one sweep (:class:`~grok_lib.paper_b.config.SparseConfig` s that :func:`check_stackable`
    accepts) as one computation, in ``dtype`` (see the module docstring).

    Each history is the one :func:`diagonal.train` records (the same metrics, snapshots and meta), in the
    order of ``configs``. ``callbacks``: each is called as ``cb(step, row)`` at every recorded step of every
    member, the row carrying ``member`` (its index in ``configs``).

    ``resume``, ``on_checkpoint``, ``checkpoint_every`` and ``stop_after`` (one block only): continue from a
    :class:`SweepState`; receive one every ``checkpoint_every`` steps; and stop at the first checkpoint taken
    ``stop_after`` seconds or more after the start, returning None (the sweep is not finished). ``stop_at`` (a
    ``time.perf_counter()`` value, for a deadline a checkpoint interval must not overrun) is asked at every step: at
    the first step past it the sweep takes a checkpoint there and stops.

    ``array_device``: None (numpy), or the torch device the block's arrays live on (see the module docstring)."""
    configs = list(configs)
    check_stackable(configs)
    need_choice("dtype", dtype, DTYPES)
    need_int("checkpoint_every", checkpoint_every, 1)
    ops = ops_for(array_device)
    stops = stop_after is not None or stop_at is not None
    if (resume is not None or on_checkpoint is not None or stops) and len(configs) > BLOCK:
        raise ConfigError(f"a resumable sweep has at most {BLOCK} members (one block), got {len(configs)}")
    if stops and on_checkpoint is None:
        raise ConfigError("stop_after and stop_at need on_checkpoint: a sweep stopped early continues only from its "
                          "checkpoint")
    plan = _Checkpoints(resume, on_checkpoint, checkpoint_every, stop_after, signature(configs, dtype, array_device),
                        stop_at)
    histories = []
    for at in range(0, len(configs), BLOCK):
        block = configs[at:at + BLOCK]
        done = _train_block(_padded(block), len(block), at, np.dtype(dtype), progress, callbacks, plan, ops)
        if done is None:
            return None
        histories += done
    return histories


@dataclass(frozen=True)
class _Checkpoints:
    """How a block resumes and checkpoints (see :func:`train_sweep`)."""

    resume: Optional[SweepState]
    on_checkpoint: Optional[Callable[[SweepState], None]]
    every: int
    stop_after: Optional[float]
    signature: str
    stop_at: Optional[float] = None


def _train_block(configs: list, real: int, offset: int, dtype: np.dtype, progress: bool, callbacks,
                 plan: _Checkpoints, ops=NumpyOps) -> list[History] | None:
    t0 = time.perf_counter()
    base = configs[0]
    x64, y64, x_test, y_test, w_star = diagonal.make_data(base)
    x, y = ops.put(x64.astype(dtype)), ops.put(y64.astype(dtype))
    x_norm2 = float(np.linalg.eigvalsh(x64 @ x64.T)[-1])
    col_norm2 = (x64 * x64).sum(axis=0)
    meta = {"x_norm2": x_norm2}
    refs = {"star": w_star}
    if base.margins:
        ref_w, ref_meta = diagonal.reference_classifiers(base)
        refs |= ref_w
        meta |= ref_meta
    meta["setup_seconds"] = round(time.perf_counter() - t0, 3)
    inits = [diagonal.init_params(c) for c in configs]
    u = np.stack([a for a, _ in inits]).astype(dtype)
    v = np.stack([b for _, b in inits]).astype(dtype)
    t = np.zeros(len(configs))
    steps = np.array([c.steps for c in configs])
    members = [_Member(c) for c in configs[:real]]
    start, before = 0, 0.0
    if plan.resume is not None:
        u, v, t, start, before = _restore(plan.resume, plan.signature, members)
        meta["resumed_from"] = start  # the last call's start; "seconds" adds up every call's
    u, v, t = ops.put(u), ops.put(v), ops.put(t)
    lam, cap = ops.put(np.array([c.weight_decay for c in configs])), ops.put(np.array([c.lr for c in configs]))
    last = int(steps[:real].max())
    label = f"diagonal sweep of {real} alpha={','.join(f'{c.alpha:g}' for c in configs[:real])}"
    bar = tqdm(total=last + 1, initial=start, desc=label, disable=not progress, mininterval=10, ascii=True)
    for step in range(start, last + 1):
        beta = u * u - v * v
        q, s, g = products(beta, x, y, ops)
        lr = step_sizes(cap, u, v, g, s, lam, x_norm2, col_norm2, base.lr_rule == "stable", real, ops)
        for j, member in enumerate(members):
            if step <= member.config.steps and step == member.next_step:
                beta_j = ops.host(beta[j]).astype(np.float64)
                row = member.record(step, beta_j, ops.host(u[j]), ops.host(v[j]), x64, y64, x_test, y_test, refs)
                row |= {"t": float(t[j]), "lr": float(lr[j])}
                member.keep(step, row, beta_j)
                for cb in callbacks:
                    cb(step, row | {"member": offset + j})
        bar.update(1)
        if step == last:
            break
        lr_cast = ops.cast(lr, dtype)[:, None]
        u -= lr_cast * (2 * u * g + ops.cast(lam, dtype)[:, None] * u)
        v -= lr_cast * (-2 * v * g + ops.cast(lam, dtype)[:, None] * v)
        t += lr
        late = plan.stop_at is not None and time.perf_counter() >= plan.stop_at and step + 1 < last
        if plan.on_checkpoint is not None and ((step + 1) % plan.every == 0 or late):
            spent = before + time.perf_counter() - t0
            state = _state(step + 1, plan.signature, ops.host(u), ops.host(v), ops.host(t), spent, members)
            plan.on_checkpoint(state)
            # stop only with more than the last step left: a call that only records it would pay the setup again
            timed_out = plan.stop_after is not None and time.perf_counter() - t0 >= plan.stop_after
            if (late or timed_out) and step + 1 < last:
                bar.close()
                return None
    bar.close()
    seconds = round(before + time.perf_counter() - t0, 3)
    return [m.history(meta | {"seconds": seconds, "members": real}) for m in members]


def _state(step: int, sig: str, u, v, t, seconds: float, members: list) -> SweepState:
    arrays = {"u": u.copy(), "v": v.copy(), "t": t.copy(), "seconds": np.array(seconds)}
    for j, m in enumerate(members):
        arrays |= {f"m{j}/{k}": a for k, a in m.arrays().items()}
    return SweepState(step, sig, arrays)


def _restore(state: SweepState, sig: str, members: list, why: str = "resume"):
    """The block's (u, v, t, step, seconds so far) from ``state``, its members' recordings put back; a ConfigError if
    the state is another sweep's or was made in other arithmetic."""
    if state.signature != sig:
        raise ConfigError(f"{why}: the checkpoint is of another sweep (its configs, dtype, device or arithmetic "
                          "differ from these)")
    a = state.arrays
    for j, m in enumerate(members):
        m.restore({k.split("/", 1)[1]: v for k, v in a.items() if k.startswith(f"m{j}/")})
    return a["u"].copy(), a["v"].copy(), a["t"].copy(), state.step, float(a["seconds"])


def histories_so_far(state: SweepState, configs: Sequence, dtype: str = "float64",
                     array_device: Optional[str] = None) -> list[History]:
    """Each member's history as far as the checkpoint ``state`` has gone: its recorded steps before ``state.step``,
    bitwise the first rows of the histories the finished sweep returns (``meta``: the seconds so far, the members,
    and ``through_step``, the step the sweep stands at). A ConfigError if the state is not of this sweep (configs,
    dtype, arithmetic, device)."""
    members = [_Member(c) for c in configs]
    *_, step, seconds = _restore(state, signature(configs, dtype, array_device), members, "read")
    return [m.history({"seconds": round(seconds, 3), "members": len(configs), "through_step": step})
            for m in members]


class _Member:
    """One member's recording: its schedule, rows and snapshots (as :func:`diagonal.train` keeps them)."""

    def __init__(self, config):
        self.config = config
        self.schedule = diagonal.record_steps(config.steps, config.n_log)
        picks = np.unique(np.linspace(0, len(self.schedule) - 1, config.n_snapshots).round().astype(int))
        self.snap_at = set(self.schedule[picks].tolist()) if config.n_snapshots else set()
        self.index = 0
        self.rows: dict[str, list[float]] = {}
        self.recorded, self.snaps, self.snap_steps = [], [], []

    @property
    def next_step(self) -> int:
        return int(self.schedule[self.index]) if self.index < len(self.schedule) else -1

    def record(self, step, beta, u, v, x, y, x_test, y_test, refs) -> dict:
        u64, v64 = u.astype(np.float64), v.astype(np.float64)
        row = diagonal._record_row(beta, u64, v64, x, y, x_test, y_test, self.config.weight_decay, refs)
        if not math.isfinite(row["objective"]):
            raise FloatingPointError(f"diagonal net alpha={self.config.alpha:g} diverged at step {step}; lower lr "
                                     f"(now {self.config.lr}) or use lr_rule='stable'")
        return row

    def keep(self, step: int, row: dict, beta) -> None:
        for k, val in row.items():
            self.rows.setdefault(k, []).append(val)
        self.recorded.append(step)
        if step in self.snap_at:
            self.snaps.append(np.asarray(beta, dtype=np.float64).copy())
            self.snap_steps.append(step)
        self.index += 1

    def arrays(self) -> dict[str, np.ndarray]:
        """The recording so far as plain arrays (rows/<metric>, recorded, snaps, snap_steps)."""
        d = self.config.d
        return {**{f"rows/{k}": np.asarray(val, dtype=np.float64) for k, val in self.rows.items()},
                "recorded": np.asarray(self.recorded, dtype=np.int64),
                "snaps": np.asarray(self.snaps, dtype=np.float64).reshape(len(self.snaps), d),
                "snap_steps": np.asarray(self.snap_steps, dtype=np.int64)}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Put back the recording :meth:`arrays` gave (the float64 values round-trip exactly)."""
        self.rows = {k.split("/", 1)[1]: [float(x) for x in val] for k, val in arrays.items() if k.startswith("rows/")}
        self.recorded = [int(s) for s in arrays["recorded"]]
        self.snaps = [row.copy() for row in arrays["snaps"]]
        self.snap_steps = [int(s) for s in arrays["snap_steps"]]
        self.index = len(self.recorded)

    def history(self, meta: dict) -> History:
        c = self.config
        return History(steps=np.asarray(self.recorded, dtype=np.int64),
                       metrics={k: np.asarray(val, dtype=np.float64) for k, val in self.rows.items()},
                       config=c.to_dict(), meta=dict(meta), snapshot_steps=np.asarray(self.snap_steps, dtype=np.int64),
                       snapshots={"beta": np.asarray(self.snaps).reshape(len(self.snaps), c.d)})
