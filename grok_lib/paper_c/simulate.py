"""Paper C's trainer, ``train(config) -> History`` (numpy, float64), on the teacher-student samples of
:mod:`grok_lib.paper_c.samples`, with the theory on the run's own data (:mod:`grok_lib.paper_c.run_theory`).

Students and how they are trained (full-batch GD, learning rate eta, weight decay gamma):

- ``linear`` with ``solver="eigen"``: GD on a linear student is a linear recursion,
  D_{t+1} = (I - eta (2 Sigma / d_out + gamma)) D_t + eta b, so in the eigenbasis of the *sample*
  covariance Sigma every step t is an exact power (:func:`theory.exact_state`, discrete): a run
  costs the same for 10^2 or 10^8 steps. This is GD itself, not its theory: the recorded metrics
  are measured on the actual training and test samples.
- ``linear`` with ``solver="direct"``: plain GD steps S <- S - eta (grad L_tr + gamma S) with
  matrix products over the samples; the check of the eigen path (they agree to ~1e-10).
- ``two_layer_linear`` (S = W1 W2): GD on W1, W2, with the exact full-batch gradient taken through
  the sample covariance (dL/dS = (2/d_out)(Sigma D - X^T Xi / N_tr)) in its eigenbasis.
- ``tanh`` (f(x) = W2^T tanh(g W1^T x) / g, gain g = 1 unless set) and ``relu`` (f(x) = W2^T relu(W1^T x)): GD with
  per-sample forward and backward passes.
  The nets' initialisation is :func:`grok_lib.paper_c.samples.init_net`.

Recorded on :func:`grok_lib.paper_c.samples.record_steps`: ``train_loss`` and ``test_loss`` (mean squared error / d_out on
the samples), ``gen_loss`` = ||D||^2 / d_out (exact; linear models only), ``train_acc`` and
``test_acc`` (fraction with ||error||^2 <= eps), ``train_acc_eps<e>``/``test_acc_eps<e>`` for the
other thresholds, and the theory on the same steps (see :func:`grok_lib.paper_c.run_theory.theory_curves`). The history's
meta holds the crossing steps (first step with accuracy >= theory.GROK_ACC) for every threshold,
to 1e-4 relative for the linear student (refined between record steps on the exact state), to
the record grid for the nets; its snapshot ``eigenvalues`` is the sample spectrum.
"""

from __future__ import annotations

import time

import numpy as np
from tqdm import tqdm

from ..history import History
from . import theory
from .config import LinearEstimatorConfig
from .run_theory import theory_crossings, theory_curves
from .samples import Data, Rotated, init_linear, init_net, make_data, record_steps

#: Elements per block of per-sample errors (bounds memory: ~16 MB).
BLOCK = 2_000_000
#: Elements per round of the crossing search: a round tries up to 15 steps (d_out = 1, memory-bound
#: products), down to 1 (bisection) for wide outputs, where each step's product is the cost.
SEARCH_BLOCK = 200_000
#: The crossing search stops when the bracket is below this fraction of the step (exact to the
#: step below 10^4 steps; Delta t's error from it is far below the seed-to-seed spread).
CROSSING_RTOL = 1e-4



class _States:
    """Per-sample errors and L_gen of a student whose D~_t (eigenbasis) ``deltas(steps)`` gives."""

    rotated: Rotated

    @property
    def noise(self) -> dict:
        return self.rotated.noise

    def deltas(self, steps) -> np.ndarray:
        raise NotImplementedError

    def gen_losses(self, steps) -> np.ndarray:
        return (self.deltas(steps) ** 2).sum(axis=(1, 2)) / self.rotated.config.d_out

    def sq_errors(self, which: str, steps) -> np.ndarray:
        """||S_t^T x - y||^2 for every sample of ``which`` (train | test) and step: (len(steps), n)."""
        n, d_out = self.rotated.noise[which].shape
        per_block = max(1, BLOCK // (n * d_out))
        return np.concatenate([self.rotated.sq_errors_of(which, self.deltas(steps[i: i + per_block]))
                               for i in range(0, len(steps), per_block)], axis=0)


class EigenLinear(_States):
    """The linear student under discrete GD, at any step, by exact powers in the eigenbasis."""

    def __init__(self, config: LinearEstimatorConfig, rotated: Rotated):
        self.config, self.rotated = config, rotated
        top = config.eta * (2 * rotated.s[-1] / config.d_out + config.gamma)
        if top >= 2:
            raise FloatingPointError(f"GD diverges on this sample: eta (2 s_max / d_out + gamma) = {top:.3g} >= 2")

    def deltas(self, steps) -> np.ndarray:
        """D~_t for each step, (len(steps), d_in, d_out)."""
        c, r = self.config, self.rotated
        phi = theory.decay_factors(r.s, steps, c.eta, c.gamma, c.d_out, discrete=True)
        g = theory.forcing_factors(r.s, phi, c.gamma, c.d_out)
        b = theory.forcing(r.teacher, r.h, c.gamma, c.d_out)
        return phi.T[:, :, None] * r.d0[None] + g.T[:, :, None] * b[None]


class StoredStates(_States):
    """A student whose D~ was kept at the record steps (the two-layer linear net)."""

    def __init__(self, rotated: Rotated, steps, deltas):
        self.rotated = rotated
        self.table = dict(zip(np.asarray(steps).tolist(), deltas))

    def deltas(self, steps) -> np.ndarray:
        return np.stack([self.table[int(t)] for t in steps])


class DirectLinear:
    """The linear student under plain GD steps on the samples; any step, reached by stepping forward
    from the latest state kept (every state it was asked for is kept)."""

    def __init__(self, config: LinearEstimatorConfig, data: Data, s0: np.ndarray):
        self.config, self.data = config, data
        self.y = data.x_train @ data.teacher + data.noise_train
        self.kept = {0: s0.copy()}
        self.inputs = {"train": data.x_train, "test": data.x_test}
        self.noise = {"train": data.noise_train, "test": data.noise_test}

    def _student(self, step: int) -> np.ndarray:
        c, x = self.config, self.data.x_train
        start = max(k for k in self.kept if k <= step)
        s = self.kept[start].copy()
        scale = 2.0 / (x.shape[0] * c.d_out)
        for _ in range(step - start):
            grad = scale * (x.T @ (x @ s - self.y)) + c.gamma * s
            s -= c.eta * grad
        self.kept[step] = s
        return s

    def deltas(self, steps) -> np.ndarray:
        return np.stack([self._student(int(t)) - self.data.teacher for t in steps])

    def gen_losses(self, steps) -> np.ndarray:
        return (self.deltas(steps) ** 2).sum(axis=(1, 2)) / self.config.d_out

    def sq_errors(self, which: str, steps) -> np.ndarray:
        x, noise = self.inputs[which], self.noise[which]
        return np.stack([((x @ d - noise) ** 2).sum(axis=1) for d in self.deltas(steps)])


def refine_crossing(student, which: str, eps: float, level: float, lo: int, hi: int) -> int:
    """The first step in (lo, hi] with accuracy >= level, given accuracy(lo) < level <= accuracy(hi),
    to CROSSING_RTOL: a k-way search on the exact state (assumes one crossing between two record steps)."""
    n, d_out = student.noise[which].shape
    tries = int(np.clip(SEARCH_BLOCK // (n * d_out), 1, 15))
    while hi - lo > max(1, CROSSING_RTOL * hi):
        cand = np.unique(np.linspace(lo, hi, tries + 2).round().astype(np.int64))[1:-1]
        acc = (student.sq_errors(which, cand) <= eps).mean(axis=1)
        above = np.nonzero(acc >= level)[0]
        if len(above) == 0:
            lo = int(cand[-1])
        else:
            j = above[0]
            hi = int(cand[j])
            lo = int(cand[j - 1]) if j > 0 else lo
    return hi


def first_step_at_least(steps, values, level: float):
    """(index, step) of the first recorded value >= level, or (None, None)."""
    above = np.nonzero(np.asarray(values) >= level)[0]
    return (None, None) if len(above) == 0 else (int(above[0]), int(steps[above[0]]))


def _acc_name(which: str, eps: float, config: LinearEstimatorConfig) -> str:
    return acc_name(which, eps, config.eps)


def acc_name(which: str, eps: float, main_eps: float) -> str:
    """The metric name of the ``which`` (train | test) accuracy at threshold ``eps``."""
    return f"{which}_acc" if float(eps) == float(main_eps) else f"{which}_acc_eps{float(eps):g}"


def _record_linear_metrics(config: LinearEstimatorConfig, student, steps) -> dict:
    metrics = {}
    for which in ("train", "test"):
        sq = student.sq_errors(which, steps)
        metrics[f"{which}_loss"] = sq.mean(axis=1) / config.d_out
        for e in config.all_eps:
            metrics[_acc_name(which, e, config)] = (sq <= e).mean(axis=1)
    metrics["gen_loss"] = student.gen_losses(steps)
    return metrics


def _train_linear(config: LinearEstimatorConfig, data: Data, rotated: Rotated | None):
    s0 = init_linear(config)
    student = EigenLinear(config, rotated) if config.solver == "eigen" else DirectLinear(config, data, s0)
    steps = record_steps(config)
    metrics = _record_linear_metrics(config, student, steps)
    crossings = []
    for e in config.all_eps:
        row = {"eps": e}
        for which in ("train", "test"):
            i, step = first_step_at_least(steps, metrics[_acc_name(which, e, config)], theory.GROK_ACC)
            if i is not None and i > 0:
                step = refine_crossing(student, which, e, theory.GROK_ACC, int(steps[i - 1]), step)
            row[f"t_{which}"] = step
        crossings.append(row)
    return steps, metrics, crossings


# --- two-layer nets ---------------------------------------------------------------------------
def two_layer_linear_steps(config: LinearEstimatorConfig, rotated: Rotated):
    """GD on S = W1 W2 with the exact full-batch gradient through Sigma, in Sigma's eigenbasis: yields (W~1, W2,
    S - T) at steps 0, 1, 2, ... (W~1 = V^T W1; W2 is unchanged by the rotation). The trainer and the retrace of
    W2^T W2 (:func:`.measure.second_layer_gram`) both step through it, so they cannot drift apart."""
    s, t_t, h_t = rotated.s[:, None], rotated.teacher, rotated.h
    w1, w2 = init_net(config)
    w1 = rotated.v.T @ w1
    eta, gamma, k = config.eta, config.gamma, 2.0 / config.d_out
    while True:
        d = w1 @ w2 - t_t
        yield w1, w2, d
        g = k * (s * d - h_t)  # dL_tr/dS in the eigenbasis
        w1, w2 = w1 - eta * (g @ w2.T + gamma * w1), w2 - eta * (w1.T @ g + gamma * w2)


def _train_two_layer_linear(config: LinearEstimatorConfig, data: Data, rotated: Rotated, progress: bool,
                            callbacks=()):
    """GD on S = W1 W2 (:func:`two_layer_linear_steps`), recording the losses on the schedule."""
    schedule = set(record_steps(config).tolist())
    steps, deltas = [], []
    bar = tqdm(range(config.steps + 1), desc=f"two-layer linear lam={config.lam:g}", disable=not progress,
               mininterval=10, ascii=True)
    for step, (_, _, d) in zip(bar, two_layer_linear_steps(config, rotated)):
        if step in schedule:
            if not np.isfinite(d).all():
                raise FloatingPointError(f"two-layer linear run diverged at step {step}; lower eta (now {config.eta})")
            steps.append(step)
            deltas.append(d)
            _call(callbacks, step, lambda: _record_linear_metrics(config, StoredStates(rotated, [step], [d]), [step]))
        if step == config.steps:
            break
    steps = np.asarray(steps, dtype=np.int64)
    metrics = _record_linear_metrics(config, StoredStates(rotated, steps, deltas), steps)
    return steps, metrics, _grid_crossings(config, steps, metrics)


def _train_net(config: LinearEstimatorConfig, data: Data, progress: bool, callbacks=()):
    """GD on f(x) = W2^T phi(W1^T x), phi the tanh (with its gain) or the ReLU, per-sample forward and backward."""
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is reported at its next record
        return _net_gd(config, data, progress, callbacks)


def activation(config: LinearEstimatorConfig):
    """The hidden layer's phi and its derivative (given the pre-activation and phi of it) for ``config.model``:
    tanh(g z) / g (slope 1 at 0 for every gain g) or max(z, 0)."""
    if config.model == "relu":
        return (lambda pre: np.maximum(pre, 0.0)), (lambda pre, hid: (pre > 0).astype(pre.dtype))
    g = config.gain
    if g == 1.0:  # the plain tanh, written as such
        return np.tanh, (lambda pre, hid: 1 - hid**2)
    return (lambda pre: np.tanh(g * pre) / g), (lambda pre, hid: 1 - (g * hid) ** 2)


def _net_metrics(config: LinearEstimatorConfig, sq: dict) -> dict:
    """Losses and accuracies from the per-sample squared errors ``sq`` (which -> one array per record step)."""
    metrics = {}
    for which in ("train", "test"):
        errs = np.stack(sq[which])
        metrics[f"{which}_loss"] = errs.mean(axis=1) / config.d_out
        for e in config.all_eps:
            metrics[_acc_name(which, e, config)] = (errs <= e).mean(axis=1)
    return metrics


def _call(callbacks, step: int, metrics) -> None:
    """Call each ``cb(step, row)`` of ``callbacks`` with the step's recorded metrics (``metrics()``: arrays of one
    step; computed only when there is a callback). The nets' trainers call it at each record step as they reach
    it, so a callback that raises stops the run there (what :func:`grok_lib.recorded.retrain_prefix` does)."""
    if callbacks:
        row = {k: float(v[0]) for k, v in metrics().items()}
        for cb in callbacks:
            cb(step, row)


def _net_gd(config: LinearEstimatorConfig, data: Data, progress: bool, callbacks=()):
    phi, dphi = activation(config)
    x, y = data.x_train, data.x_train @ data.teacher + data.noise_train
    x_test = data.x_test
    y_test = x_test @ data.teacher + data.noise_test
    w1, w2 = init_net(config)
    schedule = set(record_steps(config).tolist())
    steps, sq = [], {"train": [], "test": []}
    eta, gamma, scale = config.eta, config.gamma, 2.0 / (x.shape[0] * config.d_out)
    name = config.model if config.gain == 1.0 else f"{config.model} gain={config.gain:g}"
    for step in tqdm(range(config.steps + 1), desc=f"{name} lam={config.lam:g}", disable=not progress,
                     mininterval=10, ascii=True):
        pre = x @ w1
        hid = phi(pre)
        r = hid @ w2 - y
        if step in schedule:
            if not np.isfinite(r).all():
                raise FloatingPointError(f"{name} run diverged at step {step}; lower eta (now {eta})")
            steps.append(step)
            sq["train"].append((r**2).sum(axis=1))
            sq["test"].append(((phi(x_test @ w1) @ w2 - y_test) ** 2).sum(axis=1))
            _call(callbacks, step, lambda: _net_metrics(config, {w: sq[w][-1:] for w in sq}))
        if step == config.steps:
            break
        g_out = scale * r
        g_hid = (g_out @ w2.T) * dphi(pre, hid)
        w1, w2 = w1 - eta * (x.T @ g_hid + gamma * w1), w2 - eta * (hid.T @ g_out + gamma * w2)
    steps = np.asarray(steps, dtype=np.int64)
    metrics = _net_metrics(config, sq)
    return steps, metrics, _grid_crossings(config, steps, metrics)


def _grid_crossings(config, steps, metrics) -> list[dict]:
    return [{"eps": e, **{f"t_{w}": first_step_at_least(steps, metrics[_acc_name(w, e, config)], theory.GROK_ACC)[1]
                          for w in ("train", "test")}} for e in config.all_eps]


# --- the trainer ----------------------------------------------------------------------------
def train(config: LinearEstimatorConfig, progress: bool = True, callbacks=()) -> History:
    """One Paper C run: the simulation on its record steps, the theory on the same steps, the crossings.

    ``callbacks``: each is called as ``cb(step, row)`` at each record step with the simulated metrics of that step
    (the theory's are computed after the run): by the nets as training reaches the step, for the linear student
    (whose steps are exact powers, computed together) once the run is done.
    Deterministic: the same config gives identical arrays.
    """
    t0 = time.perf_counter()
    data = make_data(config)
    # D_0 of the linear student, or of the nets' end-to-end map W1 W2 (the tanh's linearisation, tanh'(0) = 1; the
    # ReLU net has none: its theory curves are the linear net's, the prediction it is compared with)
    s0 = init_linear(config) if config.model == "linear" else np.matmul(*init_net(config))
    rotated = Rotated(config, data, s0)
    if config.model == "linear":
        steps, metrics, crossings = _train_linear(config, data, rotated)
        for i, step in enumerate(steps):
            _call(callbacks, int(step), lambda: {k: v[i: i + 1] for k, v in metrics.items()})
    elif config.model == "two_layer_linear":
        steps, metrics, crossings = _train_two_layer_linear(config, data, rotated, progress, callbacks)
    else:
        steps, metrics, crossings = _train_net(config, data, progress, callbacks)
    seconds_sim = time.perf_counter() - t0
    r = rotated
    metrics |= theory_curves(config, r.s, r.d0, r.teacher, r.h, r.noise_sq, steps)
    for row, th in zip(crossings, theory_crossings(config, r.s, r.d0)):
        row |= th
    meta = {"n_train": config.n_train, "lam_eff": config.lam_eff,
            "grok_acc": theory.GROK_ACC, "crossings": crossings,
            "crossing_resolution": f"{CROSSING_RTOL:g} relative" if config.model == "linear" else "record grid",
            "teacher_sq": float((data.teacher**2).sum()), "l0": float((r.d0**2).sum() / config.d_out),
            "s_min_nonzero": float(r.s[r.s > 0].min()), "s_max": float(r.s.max()),
            "seconds_sim": round(seconds_sim, 3), "seconds": round(time.perf_counter() - t0, 3)}
    metrics = {k: np.asarray(v, dtype=np.float64) for k, v in metrics.items()}
    # the sample spectrum, kept for the MP-density figure (a "snapshot" at step 0)
    return History(steps=steps, metrics=metrics, config=config.to_dict(), meta=meta,
                   snapshot_steps=np.array([0], dtype=np.int64), snapshots={"eigenvalues": r.s[None].copy()})
