"""Paper A's theory model: a deep linear network A = W_L ... W_1 on a separable K-class task.

The task (our choice; Paper A states none): inputs x ~ N(0, I_d), labels
y = argmax_k (T x)_k from a random Gaussian teacher T (K x d), so the classes are
linearly separable by construction. The student is trained full batch on

    F(W) = L_CE(A) + (lambda / L) * sum_l ||W_l||_F^2,

the layerwise weight decay whose minimum over factorisations of A is
lambda * ||A||_{S_p}^p with p = 2/L (Paper A, eq. 2.7; :func:`schatten_power`). So the
structural energy E(A) = L_CE(A) + lambda ||A||_{S_p}^p (eq. 4.2) is the objective seen
through the end-to-end map. Everything is float64.

The optimiser is plain gradient descent (the paper's theory is gradient flow) or AdamW
with its decoupled decay set to 2 lambda / L, which is the penalty's gradient factor.
The networks are tiny (a 5 x 20 end-to-end map), so the model is written in numpy with
explicit gradients: a step costs tens of microseconds instead of a framework's
per-operation overhead (the gradients are checked against torch autograd in the tests).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, replace

import numpy as np
from tqdm import tqdm

from .config import (PROFILES, ConfigError, need_choice, need_int, need_real, given_overrides,
                     need_list_of_numbers)
from .history import History

OPTIMIZERS = ("gd", "adamw")
DEPTHS = (1, 2, 3, 4)


@dataclass(frozen=True)
class DeepLinearConfig:
    """One deep-linear-network run (all fields are in the run's key)."""

    depth: int = 2  # L, the number of weight matrices; p = 2/L
    n_classes: int = 5  # K
    d_in: int = 20  # input dimension d
    width: int = 20  # width of every hidden layer (unused for depth 1)
    n_train: int = 100  # training points
    init_scale: float = 0.5  # every W_l has i.i.d. N(0, init_scale^2 / fan_in) entries
    lr: float = 0.05  # step size (GD) or AdamW learning rate
    weight_decay: float = 1e-3  # lambda of the layerwise penalty (lambda / L) sum ||W_l||^2
    optimizer: str = "gd"  # gd | adamw
    steps: int = 20_000  # full-batch steps
    seed: int = 0  # seeds the teacher, the data and the init
    n_log: int = 300  # log-spaced record points (plus a regular grid of 100)

    def __post_init__(self) -> None:
        need_choice("depth", self.depth, DEPTHS)
        need_int("n_classes", self.n_classes, 2)
        need_int("d_in", self.d_in, 1)
        need_int("width", self.width, 1)
        need_int("n_train", self.n_train, 1)
        need_real("init_scale", self.init_scale, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("lr", self.lr, 0.0, math.inf, lo_open=True, hi_open=True)
        need_real("weight_decay", self.weight_decay, 0.0, math.inf, lo_open=False, hi_open=True)
        need_choice("optimizer", self.optimizer, OPTIMIZERS)
        need_int("steps", self.steps, 1)
        need_int("seed", self.seed, 0)
        need_int("n_log", self.n_log, 1)
        if self.depth > 1 and self.width < min(self.n_classes, self.d_in):
            raise ConfigError(f"width must be >= min(n_classes, d_in) = {min(self.n_classes, self.d_in)} "
                              f"so that A can have full rank; got {self.width}")

    @property
    def p(self) -> float:
        """The Schatten exponent p = 2/L of the end-to-end penalty."""
        return 2.0 / self.depth

    def to_dict(self) -> dict:
        return asdict(self)


# --- profiles --------------------------------------------------------------------------------
# ci: a second, for unit tests. default: what the book shows (about a minute on 2 CPU cores
# for the whole sweep). paper: larger dimensions and ten times the steps.
_PROFILE_BASES = {
    "ci": DeepLinearConfig(n_classes=3, d_in=8, width=8, n_train=40, lr=0.2, steps=2_000, n_log=60),
    "default": DeepLinearConfig(lr=0.2, steps=30_000),
    "paper": DeepLinearConfig(n_classes=10, d_in=50, width=50, n_train=500, lr=0.2, steps=300_000, n_log=400),
}
#: The runs of each depth: (optimiser, lambda). GD is the theory's setting (lambda = 0: the
#: fast clock alone); AdamW is what Paper A trains its MLP with.
SWEEP_RUNS = (("gd", 0.0), ("gd", 1e-3), ("gd", 3e-3), ("adamw", 0.0), ("adamw", 1e-3))
#: AdamW's learning rate (GD's lr is the profile's); a normalised step needs a smaller one.
ADAMW_LR = 1e-2


def sweep(profile: str, depths=DEPTHS, runs=SWEEP_RUNS, **overrides) -> list[DeepLinearConfig]:
    """One config per depth and (optimiser, lambda) of ``runs``; ``overrides`` (None = keep) apply to all."""
    need_choice("profile", profile, PROFILES)
    depths = need_list_of_numbers("depths", depths)
    if not isinstance(runs, (list, tuple)) or len(runs) == 0:
        raise ConfigError(f"runs must be a non-empty list of (optimizer, weight_decay) pairs, got {runs!r}")
    given = given_overrides(DeepLinearConfig, overrides)
    base = replace(_PROFILE_BASES[profile], **given)
    return [replace(base, depth=int(depth) if float(depth).is_integer() else depth, optimizer=opt, weight_decay=float(wd),
                    lr=ADAMW_LR if opt == "adamw" and "lr" not in given else base.lr)
            for depth in depths for opt, wd in runs]


# --- task and model ----------------------------------------------------------------------
#: AdamW's betas and epsilon (Paper A's optimiser settings for the MLP).
ADAM_BETAS, ADAM_EPS = (0.9, 0.98), 1e-8


def make_task(config: DeepLinearConfig) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): ``n_train`` Gaussian inputs (n x d) and their teacher labels argmax(T x)."""
    rng = np.random.default_rng(config.seed)
    teacher = rng.standard_normal((config.n_classes, config.d_in))
    x = rng.standard_normal((config.n_train, config.d_in))
    return x, (x @ teacher.T).argmax(axis=1)


def init_factors(config: DeepLinearConfig) -> list[np.ndarray]:
    """W_1 (width x d), ..., W_L (K x width), Gaussian with std init_scale / sqrt(fan_in)."""
    rng = np.random.default_rng([config.seed, 1])
    dims = [config.d_in] + [config.width] * (config.depth - 1) + [config.n_classes]
    return [rng.standard_normal((dims[i + 1], dims[i])) * config.init_scale / math.sqrt(dims[i])
            for i in range(config.depth)]


def end_to_end(factors) -> np.ndarray:
    """A = W_L ... W_1."""
    a = factors[0]
    for w in factors[1:]:
        a = w @ a
    return a


# --- metrics -------------------------------------------------------------------------------
def cross_entropy(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy, written as log(1 + sum_{j != y} exp(z_j - z_y)) so that losses
    near 1e-12 keep their digits (log-sum-exp minus z_y would cancel them away)."""
    n = len(y)
    diff = logits - logits[np.arange(n), y][:, None]
    diff[np.arange(n), y] = -np.inf
    top = diff.max(axis=1)
    lse = top + np.log(np.exp(diff - top[:, None]).sum(axis=1))  # log sum_{j != y} exp(diff)
    return float(np.logaddexp(0.0, lse).mean())


def cross_entropy_grad(logits: np.ndarray, onehot: np.ndarray) -> np.ndarray:
    """d mean-CE / d logits = (softmax(logits) - onehot(y)) / n."""
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    return (prob - onehot) / len(onehot)


def margins(logits: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-sample logit margin z_y - max_{j != y} z_j (positive: classified correctly)."""
    n = len(y)
    others = logits.copy()
    others[np.arange(n), y] = -np.inf
    return logits[np.arange(n), y] - others.max(axis=1)


def lemma31_bound(gamma: float, n_classes: int) -> float:
    """Lemma 3.1: every margin >= gamma implies L_CE <= (K - 1) exp(-gamma)."""
    return (n_classes - 1) * math.exp(-gamma)


def schatten_power(a: np.ndarray, p: float) -> float:
    """||A||_{S_p}^p = sum_i s_i^p over the singular values of A."""
    return float((np.linalg.svd(a, compute_uv=False) ** p).sum())


def factor_penalty(factors) -> float:
    """(1/L) sum_l ||W_l||_F^2, which is >= ||A||_{S_{2/L}}^{2/L} with equality when balanced."""
    return float(sum((w**2).sum() for w in factors)) / len(factors)


def balanced_factors(a: np.ndarray, depth: int) -> list[np.ndarray]:
    """A balanced factorisation of A = U S V^T: W_1 = S^{1/L} V^T, W_l = S^{1/L}, W_L = U S^{1/L}.

    Each factor has the singular values s_i^{1/L}, so (1/L) sum ||W_l||^2 = sum s_i^{2/L}:
    it attains the minimum in Paper A's eq. 2.7.
    """
    if depth == 1:
        return [a.copy()]
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    root = np.diag(s ** (1.0 / depth))
    return [root @ vt] + [root.copy() for _ in range(depth - 2)] + [u @ root]


def singular_value_drift(a: np.ndarray, grad_a: np.ndarray, weight_decay: float, depth: int):
    """Two predictions of ds_i/dt at A, from the loss gradient grad_a = dL_CE/dA.

    - ``prop43``: Paper A's Prop. 4.3, ds_i/dt = g_i - lambda p s_i^(p-1), g_i = -u_i^T grad_a v_i
      (gradient flow of E on A itself);
    - ``factored``: gradient flow on balanced factors, which multiplies the same bracket
      by L s_i^(2 - 2/L) (Arora et al. 2019); the two agree for L = 1.

    Returns (s, prop43, factored), s in decreasing order.
    """
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    g = -(u * (grad_a @ vt.T)).sum(axis=0)
    p = 2.0 / depth
    with np.errstate(divide="ignore"):
        bracket = g - weight_decay * p * s ** (p - 1)
    return s, bracket, depth * s ** (2 - p) * bracket


def factor_gradients(factors, grad_a: np.ndarray) -> list[np.ndarray]:
    """dL/dW_l = (W_L ... W_{l+1})^T grad_a (W_{l-1} ... W_1)^T, for every l."""
    right = [None] * len(factors)  # right[l] = W_{l-1} ... W_1 (None: identity)
    for i in range(1, len(factors)):
        right[i] = factors[i - 1] if i == 1 else factors[i - 1] @ right[i - 1]
    grads, left = [None] * len(factors), None  # left = W_L ... W_{l+1}
    for i in reversed(range(len(factors))):
        g = grad_a if left is None else left.T @ grad_a
        grads[i] = g if right[i] is None else g @ right[i].T
        left = factors[i] if left is None else left @ factors[i]
    return grads


# --- training --------------------------------------------------------------------------------
def record_steps(config: DeepLinearConfig) -> np.ndarray:
    """Step 0, ``n_log`` log-spaced steps, a regular grid of 100 and the last step."""
    log = np.round(np.geomspace(1, config.steps, config.n_log)).astype(np.int64)
    grid = np.linspace(0, config.steps, 101).round().astype(np.int64)
    return np.unique(np.concatenate([[0, config.steps], log, grid]))


def _record(config: DeepLinearConfig, factors, a, logits, y, loss, grad_a) -> dict:
    s, prop43, factored = singular_value_drift(a, grad_a, config.weight_decay, config.depth)
    schatten = float((s**config.p).sum())
    row = {
        "train_loss": loss,
        "margin": float(margins(logits, y).min()),
        "train_acc": float((logits.argmax(axis=1) == y).mean()),
        "srank_A": float((s**2).sum() / s[0] ** 2) if s[0] > 0 else 0.0,
        "schatten": schatten,
        "energy": loss + config.weight_decay * schatten,
        "objective": loss + config.weight_decay * factor_penalty(factors),
    }
    for i in range(len(s)):
        row[f"sv_{i}"] = float(s[i])
        row[f"drift_prop43_{i}"] = float(prop43[i])
        row[f"drift_factored_{i}"] = float(factored[i])
    return row


class _AdamW:
    """AdamW on a list of arrays (torch.optim.AdamW's update, bias-corrected)."""

    def __init__(self, params, lr: float, weight_decay: float):
        self.lr, self.wd, self.t = lr, weight_decay, 0
        self.m = [np.zeros_like(w) for w in params]
        self.v = [np.zeros_like(w) for w in params]

    def step(self, params, grads) -> None:
        (b1, b2), self.t = ADAM_BETAS, self.t + 1
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for w, g, m, v in zip(params, grads, self.m, self.v):
            w *= 1 - self.lr * self.wd
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            w -= self.lr * (m / c1) / (np.sqrt(v / c2) + ADAM_EPS)


def train_deep_linear(config: DeepLinearConfig, progress: bool = True) -> History:
    """Train one deep linear network full batch.

    The history records, on :func:`record_steps`: ``train_loss`` (L_CE), ``margin`` (the
    smallest margin over the training set), ``train_acc``, ``srank_A``, ``schatten``
    (||A||_{S_p}^p), ``energy`` (E(A), eq. 4.2), ``objective`` (the trained F(W)),
    ``sv_<i>`` (singular values of A), the two predicted drifts of
    :func:`singular_value_drift`, and ``drift_measured_<i>`` = (s_i(t+1) - s_i(t)) / lr.
    """
    x, y = make_task(config)
    factors = init_factors(config)
    adamw = _AdamW(factors, config.lr, 2 * config.weight_decay / config.depth) if config.optimizer == "adamw" else None
    schedule = set(record_steps(config).tolist())
    rows: dict[str, list[float]] = {}
    steps: list[int] = []
    t0 = time.perf_counter()
    label = f"deep linear L={config.depth} {config.optimizer} wd={config.weight_decay:g}"
    onehot = np.eye(config.n_classes)[y]
    for step in tqdm(range(config.steps + 1), desc=label, disable=not progress, mininterval=10, ascii=True):
        a = end_to_end(factors)
        logits = x @ a.T
        grad_a = cross_entropy_grad(logits, onehot).T @ x
        recorded = step in schedule
        if recorded:
            loss = cross_entropy(logits, y)
            if not math.isfinite(loss):
                raise FloatingPointError(f"deep linear run diverged at step {step}; lower lr (now {config.lr})")
            steps.append(step)
            for k, v in _record(config, factors, a, logits, y, loss, grad_a).items():
                rows.setdefault(k, []).append(v)
        if step == config.steps:
            break
        grads = factor_gradients(factors, grad_a)
        if adamw is not None:
            adamw.step(factors, grads)
        else:
            for w, g in zip(factors, grads):
                w -= config.lr * (g + (2 * config.weight_decay / config.depth) * w)
        if recorded:  # the singular values' velocity over the step just taken
            for i, s_new in enumerate(np.linalg.svd(end_to_end(factors), compute_uv=False)):
                rows.setdefault(f"drift_measured_{i}", []).append((s_new - rows[f"sv_{i}"][-1]) / config.lr)
    for i in range(sum(k.startswith("sv_") for k in rows)):  # no step follows the last record
        rows.setdefault(f"drift_measured_{i}", []).append(math.nan)
    metrics = {k: np.asarray(v, dtype=np.float64) for k, v in rows.items()}
    e_min, e_min_grad = minimum_energy(config, factors)
    meta = {"seconds": round(time.perf_counter() - t0, 3), "model": "deep_linear",
            "energy_min": e_min, "energy_min_grad_norm": e_min_grad}
    return History(steps=np.asarray(steps, dtype=np.int64), metrics=metrics, config=config.to_dict(), meta=meta,
                   snapshot_steps=np.array([config.steps]),
                   snapshots={f"W{i + 1}": w[None].copy() for i, w in enumerate(factors)})


def minimum_energy(config: DeepLinearConfig, factors, max_iter: int = 500) -> tuple[float, float]:
    """E(A_*): the ``factors`` a run ended with, polished to a stationary point of F by L-BFGS.

    At a stationary point of F the factors are balanced, so F there equals E(A_*), the
    reference of the gap Delta(t) = E(A_t) - E(A_*). (The last recorded E is not a good
    reference: it would force Delta to zero at the end of the run.) Returns (E_*, the
    gradient norm reached). Stored in the history's meta as ``energy_min``.
    """
    import torch  # only here: the training loop is numpy

    x, y = (torch.from_numpy(v) for v in make_task(config))
    factors = [torch.tensor(w, requires_grad=True) for w in factors]
    opt = torch.optim.LBFGS(factors, lr=1, max_iter=max_iter, tolerance_grad=1e-13, tolerance_change=1e-16,
                            history_size=50, line_search_fn="strong_wolfe")

    def objective():
        opt.zero_grad()
        a = factors[0]
        for w in factors[1:]:
            a = w @ a
        f = torch.nn.functional.cross_entropy(x @ a.T, y)
        f = f + config.weight_decay / config.depth * sum((w**2).sum() for w in factors)
        f.backward()
        return f

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # L-BFGS amplifies rounding: one thread gives the same result in any process
    try:
        opt.step(objective)
        value = objective().detach()
    finally:
        torch.set_num_threads(threads)
    grad_norm = math.sqrt(sum(float((w.grad**2).sum()) for w in factors))
    return float(value), grad_norm
