"""The diagonal linear net of Paper B's classification experiments (Sec. 3.2.3), trained full batch.

    f(x) = <beta, x>,  beta = u*u - v*v,  theta = (u, v),  u = v = alpha / sqrt(2d) at init,
    F(theta) = mean_i log(1 + exp(-y_i f(x_i))) + (lambda / 2) ||theta||^2.

With g = dL/dbeta = -(1/n) X^T (y * sigmoid(-y f)) the gradients are dF/du = 2 u g + lambda u
and dF/dv = -2 v g + lambda v (checked against torch autograd in the tests). numpy float64.

Step size. ``lr_rule = "fixed"`` is plain GD. ``"stable"`` takes min(lr, 1 / H) where H
bounds the Hessian's spectral norm at the current point,

    H = max_i s_i (1 - s_i) * ||X M^(1/2)||^2 / n + 2 max_j abs(g_j) + lambda,  M = diag(4 (u^2 + v^2))

(the Gauss-Newton part ||J^T X^T D X J|| / n with J = dbeta/dtheta, plus the curvature
of beta itself; :func:`smoothness_bound`), i.e. half the step at which GD stops being a
descent method. Large alpha
makes the first steps stiff (H ~ alpha^2 / d); once the data are fitted max s(1 - s)
collapses and the cap lr takes over. Continuous time t = sum of the step sizes is
recorded, so the theory's clock lambda t / ln(alpha) is exact for either rule.
"""

from __future__ import annotations

import math
import time

import numpy as np
from tqdm import tqdm

from ..history import History
from . import margins
from .config import DiagonalNetConfig, MisgrokkingConfig, SparseConfig


#: Test sets larger than this many entries are kept compact (int8 signs, float32 Gaussians) and
#: multiplied in chunks: the paper's 10,000 x 100,000 test set would be 8 GB in float64.
COMPACT_ENTRIES = 1 << 23


def make_data(config: DiagonalNetConfig):
    """(x_train, y_train, x_test, y_test, w_star) for a sparse or misgrokking config (labels +-1).

    x_train is float64; x_test too unless it is large (see :data:`COMPACT_ENTRIES`).
    """
    rng = np.random.default_rng(config.data_seed)
    d = config.d
    compact = config.n_test * d > COMPACT_ENTRIES
    if isinstance(config, SparseConfig):
        w_star = np.zeros(d)
        w_star[: config.k] = rng.choice([-1.0, 1.0], size=config.k)

        def draw(n, small):
            x = rng.integers(0, 2, size=(n, d), dtype=np.int8) * np.int8(2) - np.int8(1)
            return x if small else x.astype(np.float64), np.where(x[:, : config.k] @ w_star[: config.k] > 0, 1.0, -1.0)
    elif isinstance(config, MisgrokkingConfig):
        w_star = rng.standard_normal(d)
        w_star /= np.linalg.norm(w_star)

        def draw(n, small):
            z = rng.standard_normal((n, d), dtype=np.float32 if small else np.float64)
            y = np.where(z @ w_star.astype(z.dtype) > 0, 1.0, -1.0)
            z += (config.gamma / 2) * y[:, None].astype(z.dtype) * w_star.astype(z.dtype)
            return z, y
    else:
        raise TypeError(f"make_data needs a SparseConfig or MisgrokkingConfig, got {type(config).__name__}")
    x, y = draw(config.n_train, False)
    x_test, y_test = draw(config.n_test, compact)
    return x, y, x_test, y_test, w_star


def matvec(x: np.ndarray, w: np.ndarray, chunk: int = 256) -> np.ndarray:
    """x @ w in float64, in row chunks when x is stored compactly. A chunk of 256 rows at d = 1e5 is 200 MB in
    float64: 1024 rows (800 MB, fresh pages at every call) took 2.6 times as long, with the same bits. The chunks are
    converted into one buffer, reused: a fresh array per chunk (``astype``) spent most of the time on new pages
    (2,000 rows at d = 1e5: 0.85 s against 0.33 s, the same bits; ``tests/paper_b/test_diagonal.py``)."""
    if x.dtype == np.float64:
        return x @ w
    buf = np.empty((min(chunk, len(x)), x.shape[1]))
    out = []
    for i in range(0, len(x), chunk):
        part = buf[:len(x[i:i + chunk])]
        part[...] = x[i:i + chunk]  # float32 -> float64 is exact: the bits astype gave
        out.append(part @ w)
    return np.concatenate(out)


def init_params(config: DiagonalNetConfig) -> tuple[np.ndarray, np.ndarray]:
    """u = v = alpha / sqrt(2d) * 1, so ||theta|| = alpha and beta = 0."""
    c = config.alpha / math.sqrt(2 * config.d)
    return np.full(config.d, c), np.full(config.d, c)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


def logistic_loss(q: np.ndarray) -> float:
    """mean log(1 + exp(-q)) over the margins q = y f(x), stable for any q."""
    return float(np.mean(np.logaddexp(0.0, -q)))


def accuracy(q: np.ndarray) -> float:
    """Fraction of positive margins, a zero margin counting 1/2 (the paper's code)."""
    return float(np.mean((q > 0) + 0.5 * (q == 0)))


def gradients(u, v, x, y, weight_decay):
    """(dF/du, dF/dv, g = dL/dbeta, s = sigmoid(-q)) of the objective F at (u, v)."""
    q = y * (x @ (u * u - v * v))
    s = sigmoid(-q)
    g = -(x.T @ (y * s)) / len(y)
    return 2 * u * g + weight_decay * u, -2 * v * g + weight_decay * v, g, s


def objective(u, v, x, y, weight_decay) -> float:
    """F(theta) = L(beta) + (lambda / 2) ||theta||^2."""
    return logistic_loss(y * (x @ (u * u - v * v))) + 0.5 * weight_decay * float(u @ u + v @ v)


def smoothness_bound(u, v, g, s, x_norm2, col_norm2, weight_decay, top: int = 16) -> float:
    """An upper bound on ||Hessian of F|| at (u, v) (see the module docstring).

    The Gauss-Newton part is max_i D_i ||X M^(1/2)||^2 / n with M = diag(4 (u^2 + v^2)),
    D_i = s_i (1 - s_i); ||X M^(1/2)|| is bounded by the smaller of ||X|| sqrt(max M) and
    (the ``top`` largest M_j as Frobenius, the rest as operator norm) -- the second is far
    tighter once beta is sparse. ``x_norm2`` = ||X||^2, ``col_norm2`` = the squared column norms.
    """
    m = 4 * (u * u + v * v)
    n = len(s)
    whole = x_norm2 * float(m.max())
    if top < len(m):
        part = np.argpartition(m, len(m) - top - 1)
        head = float(m[part[-top:]] @ col_norm2[part[-top:]])
        split = (math.sqrt(head) + math.sqrt(x_norm2 * float(m[part[-top - 1]]))) ** 2
        whole = min(whole, split)
    return float(np.max(s * (1 - s))) * whole / n + 2 * float(np.max(np.abs(g))) + weight_decay


def record_steps(steps: int, n_log: int) -> np.ndarray:
    """Step 0, the last step, n_log / 2 log-spaced steps and n_log / 2 grid steps."""
    log = np.geomspace(1, steps, max(n_log // 2, 1)).round()
    grid = np.linspace(0, steps, max(n_log - n_log // 2, 2)).round()
    return np.unique(np.concatenate([[0, steps], log, grid]).astype(np.int64))


def data_key(config: DiagonalNetConfig) -> tuple:
    """The fields that determine a config's data (runs of a sweep share it)."""
    names = ("d", "n_train", "n_test", "data_seed", "k", "gamma")
    return (type(config).__name__,) + tuple(getattr(config, k, None) for k in names)


_REFERENCES: dict[tuple, tuple] = {}  # data_key -> (classifiers, meta); a few entries at most


def _references(config: DiagonalNetConfig):
    key = data_key(config)
    if key in _REFERENCES:
        return _REFERENCES[key]
    x, y, x_test, y_test, _ = make_data(config)
    l2, l1 = margins.max_l2_margin(x, y), margins.max_l1_margin(x, y)
    meta = {"l2_margin": l2.margin, "l1_margin": l1.margin, "l2_dual_gap": l2.gap,
            "l2_test_acc": margins.accuracy(l2.w, x_test, y_test), "l1_test_acc": margins.accuracy(l1.w, x_test, y_test),
            "l2_train_acc": margins.accuracy(l2.w, x, y), "l1_train_acc": margins.accuracy(l1.w, x, y),
            "cos_l1_l2": margins.cosine(l1.w, l2.w)}
    if len(_REFERENCES) >= 4:
        _REFERENCES.pop(next(iter(_REFERENCES)))
    _REFERENCES[key] = ({"l2": l2.w, "l1": l1.w}, meta)
    return _REFERENCES[key]


def reference_classifiers(config: DiagonalNetConfig) -> tuple[dict, dict]:
    """({"l2": w, "l1": w}, their margins and train / test accuracies) of the config's training set.

    Computed from the data alone (:mod:`.margins`), never from training; cached per data
    (:func:`data_key`), so a sweep over alpha or lambda solves the two problems once.
    """
    w, meta = _references(config)
    return {k: v.copy() for k, v in w.items()}, dict(meta)


def train(config: DiagonalNetConfig, progress: bool = True, callbacks=()) -> History:
    """Train one diagonal net full batch; a :class:`~grok_lib.history.History` of ``config.steps`` steps.

    Metrics on the recorded steps: ``t`` (continuous time, sum of steps), ``lr`` (the step
    taken there), ``train_loss``, ``test_loss``, ``train_acc``, ``test_acc``, ``objective``,
    ``norm`` (||theta||), ``beta_l1`` (||beta||_1), and with ``config.margins``: ``cos_l2``,
    ``cos_l1`` (cosine of beta with the max-L2 / max-L1 margin classifiers of the training
    set), ``cos_star`` (with w*). Snapshots: ``beta`` at ``n_snapshots`` recorded steps.
    Meta: the margin classifiers' margins and test accuracies, wall seconds.

    A misgrokking config with ``stop_clock`` > 0 stops at the first step whose clock lambda t / ln(alpha)
    is >= stop_clock (``steps`` is then an upper bound): that step is recorded last, and the recorded steps
    are those of the schedule before it. ``callbacks``: each is called as ``cb(step, row)`` at every
    recorded step (the row as recorded).
    """
    t0 = time.perf_counter()
    x, y, x_test, y_test, w_star = make_data(config)
    u, v = init_params(config)
    lam = config.weight_decay
    x_norm2 = float(np.linalg.eigvalsh(x @ x.T)[-1])  # ||X||_2^2 via the n x n Gram matrix
    col_norm2 = (x * x).sum(axis=0)
    meta = {"x_norm2": x_norm2}
    refs = {"star": w_star}
    if config.margins:
        ref_w, ref_meta = reference_classifiers(config)
        refs |= ref_w
        meta |= ref_meta
    meta["setup_seconds"] = round(time.perf_counter() - t0, 3)  # data + margin classifiers
    schedule = record_steps(config.steps, config.n_log)
    keep = set(schedule[np.unique(np.linspace(0, len(schedule) - 1, config.n_snapshots).round().astype(int))]
               .tolist()) if config.n_snapshots else set()
    rows: dict[str, list[float]] = {}
    snaps, snap_steps = [], []
    t = 0.0
    next_record = 0
    stop_clock = getattr(config, "stop_clock", 0.0)
    stop_t = stop_clock * math.log(config.alpha) / lam if stop_clock > 0 else math.inf
    recorded = []
    label = f"diagonal {type(config).__name__[:-6].lower()} alpha={config.alpha:g} wd={lam:g}"
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        du, dv, g, s = gradients(u, v, x, y, lam)
        if config.lr_rule == "stable":
            lr = min(config.lr, 1.0 / smoothness_bound(u, v, g, s, x_norm2, col_norm2, lam))
        else:
            lr = config.lr
        last = step == config.steps or t >= stop_t
        if step == schedule[next_record] or last:
            beta = u * u - v * v
            row = _record_row(beta, u, v, x, y, x_test, y_test, lam, refs)
            if not math.isfinite(row["objective"]):
                raise FloatingPointError(f"diagonal net diverged at step {step}; lower lr (now {config.lr}) "
                                         f"or use lr_rule='stable'")
            row |= {"t": t, "lr": lr}
            for k, val in row.items():
                rows.setdefault(k, []).append(val)
            recorded.append(step)
            for cb in callbacks:
                cb(step, row)
            if step in keep:
                snaps.append(beta.copy())
                snap_steps.append(step)
            next_record = min(next_record + 1, len(schedule) - 1)
        if last:
            break
        u -= lr * du
        v -= lr * dv
        t += lr
    meta["seconds"] = round(time.perf_counter() - t0, 3)
    return History(steps=np.asarray(recorded, dtype=np.int64),
                   metrics={k: np.asarray(val, dtype=np.float64) for k, val in rows.items()},
                   config=config.to_dict(), meta=meta, snapshot_steps=np.asarray(snap_steps, dtype=np.int64),
                   snapshots={"beta": np.asarray(snaps).reshape(len(snaps), config.d)})


def _record_row(beta, u, v, x, y, x_test, y_test, lam, refs) -> dict:
    q, q_test = y * (x @ beta), y_test * matvec(x_test, beta)
    row = {"train_loss": logistic_loss(q), "test_loss": logistic_loss(q_test),
           "train_acc": accuracy(q), "test_acc": accuracy(q_test),
           "norm": math.sqrt(float(u @ u + v @ v)), "beta_l1": float(np.abs(beta).sum())}
    row["objective"] = row["train_loss"] + 0.5 * lam * row["norm"] ** 2
    for name, ref in refs.items():
        row[f"cos_{name}"] = margins.cosine(beta, ref)
    return row
