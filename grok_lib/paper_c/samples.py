"""Paper C's samples: the teacher, the training and test inputs and their noise, the students' initial weights,
the steps a run records, and the data in the eigenbasis of the sample covariance (numpy, float64).

All seeded by the config: teacher T and student S_0 with i.i.d. N(0, 1/(2 d_in d_out)) entries,
N_tr = round(d_in / lambda) training inputs and ``n_test`` test inputs x ~ N(0, I) (rotated into the
eigenbasis of the sample covariance, see :func:`make_data`), labels y = T^T x (+ N(0, sigma_n^2) noise on the
training labels). Each object has its own random stream, so changing lambda keeps the teacher, and a larger
N_tr extends the training set. The nets start from W1 ~ N(0, 1/(2 d_in h)), W2 ~ N(0, 1/(2 h d_out)): the
paper's initialisation applied to each layer (our reading; it gives the paper's eta -> eta/(2 d_out^2)).
The trainer that uses them is :mod:`grok_lib.paper_c.simulate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .config import LinearEstimatorConfig

#: Random streams: one per object, so that each is the same whatever the others' sizes.
STREAM_TEACHER, STREAM_X_TRAIN, STREAM_NOISE, STREAM_X_TEST, STREAM_TEST_NOISE = 0, 1, 2, 3, 4
STREAM_S0, STREAM_W1, STREAM_W2 = 10, 11, 12
#: Modes whose part of D~ is below this fraction of the largest are left out of the per-sample
#: errors: they change them by less than 1e-13 relative (GD's late steps live in a few soft modes).
NEGLIGIBLE_MODE = 1e-13
#: The training inputs are rotated into the eigenbasis when N_tr <= this * d_in (see Rotated).
ROTATE_TRAIN = 2
@dataclass
class Data:
    teacher: np.ndarray  # T, (d_in, d_out)
    x_train: np.ndarray  # (N_tr, d_in)
    noise_train: np.ndarray  # Xi, (N_tr, d_out): y_train = x_train T + Xi
    x_test: np.ndarray  # (n_test, d_in): the test inputs
    z_test: np.ndarray  # (n_test, d_in): their coordinates in the eigenbasis V of Sigma_tr, x V
    noise_test: np.ndarray  # (n_test, d_out): zeros unless test_label_noise
    v: np.ndarray  # V (d_in, d_in), eigenvectors of Sigma_tr (ascending eigenvalues s)
    s: np.ndarray  # the eigenvalues of Sigma_tr


def _rng(seed: int, stream: int) -> np.random.Generator:
    return np.random.default_rng([seed, stream])


def make_data(config: LinearEstimatorConfig) -> Data:
    """The teacher, the training inputs, the sample covariance's eigenbasis, the test inputs and the noise.

    The test inputs are drawn in the original basis and then rotated into the eigenbasis (z = x V).
    (Drawing z and setting x = V z would skip that product, but for lambda > 1 the eigenvectors of
    the zero eigenvalue are any basis of the null space, which LAPACK picks differently with the
    thread count: the test set, and its numbers, would then depend on the machine's threads.)
    """
    d_in, d_out, seed = config.d_in, config.d_out, config.data_seed
    teacher = _rng(seed, STREAM_TEACHER).standard_normal((d_in, d_out)) / math.sqrt(2 * d_in * d_out)
    x_train = _rng(seed, STREAM_X_TRAIN).standard_normal((config.n_train, d_in))
    s, v = eigenbasis(config, x_train)
    noise = config.label_noise * _rng(seed, STREAM_NOISE).standard_normal((config.n_train, d_out))
    x_test = _rng(seed, STREAM_X_TEST).standard_normal((config.n_test, d_in))
    noise_test = np.zeros((config.n_test, d_out))
    if config.test_label_noise:
        noise_test = config.label_noise * _rng(seed, STREAM_TEST_NOISE).standard_normal((config.n_test, d_out))
    return Data(teacher, x_train, noise, x_test, x_test @ v, noise_test, v, s)


def init_linear(config: LinearEstimatorConfig) -> np.ndarray:
    """S_0 with i.i.d. N(0, 1/(2 d_in d_out)) entries (the paper's initialisation)."""
    std = 1 / math.sqrt(2 * config.d_in * config.d_out)
    return _rng(config.init_seed, STREAM_S0).standard_normal((config.d_in, config.d_out)) * std


def init_net(config: LinearEstimatorConfig) -> tuple[np.ndarray, np.ndarray]:
    """W1 ~ N(0, 1/(2 d_in h)) (d_in x h) and W2 ~ N(0, 1/(2 h d_out)) (h x d_out)."""
    d_in, h, d_out = config.d_in, config.hidden, config.d_out
    w1 = _rng(config.init_seed, STREAM_W1).standard_normal((d_in, h)) / math.sqrt(2 * d_in * h)
    w2 = _rng(config.init_seed, STREAM_W2).standard_normal((h, d_out)) / math.sqrt(2 * h * d_out)
    return w1, w2


def record_steps(config: LinearEstimatorConfig) -> np.ndarray:
    """Step 0, ``n_log`` log-spaced steps, ``n_grid`` regular steps and the last step."""
    log = np.round(np.geomspace(1, config.steps, config.n_log)).astype(np.int64)
    grid = np.linspace(0, config.steps, config.n_grid + 1).round().astype(np.int64) if config.n_grid else []
    return np.unique(np.concatenate([[0, config.steps], log, grid])).astype(np.int64)


_EIGEN_CACHE: dict = {}


def eigenbasis(config: LinearEstimatorConfig, x_train: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sample_eigenbasis` of the run's training inputs, cached for the last two input sets:
    runs that share them (a d_out or gamma sweep) share this O(d_in^3) step."""
    key = (config.d_in, config.n_train, config.data_seed)
    if key not in _EIGEN_CACHE:
        while len(_EIGEN_CACHE) >= 2:
            _EIGEN_CACHE.pop(next(iter(_EIGEN_CACHE)))
        _EIGEN_CACHE[key] = sample_eigenbasis(x_train)
    return _EIGEN_CACHE[key]


def sample_eigenbasis(x_train: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(s, V): eigenvalues (ascending) and eigenvectors of Sigma = X^T X / N_tr.

    With N_tr < d_in the smallest d_in - N_tr eigenvalues are exactly 0 (rank N_tr); they are set
    to 0 rather than left at rounding level. Each eigenvector's sign is fixed (its largest entry is
    positive), so that the test inputs x = V z do not depend on the LAPACK build's sign choices.
    """
    n, d = x_train.shape
    s, v = np.linalg.eigh(x_train.T @ x_train / n)
    v *= np.sign(v[np.abs(v).argmax(axis=0), np.arange(d)])
    if n < d:
        s[: d - n] = 0.0
    return np.clip(s, 0.0, None), v


class Rotated:
    """The run's data in the eigenbasis V of Sigma: the spectrum, V^T D_0, V^T T, V^T X^T Xi / N_tr,
    and the inputs, with which the per-sample errors of any D~ are X V D~ - Xi.

    The training inputs are rotated (X V, once) only when N_tr <= ROTATE_TRAIN d_in: the product
    then pays for itself through the modes skipped at late times; for large N_tr (small lambda,
    where every mode decays at a similar rate) the errors are X (V D~) instead.
    """

    def __init__(self, config: LinearEstimatorConfig, data: Data, s0: np.ndarray):
        n = config.n_train
        self.config = config
        self.s, self.v = data.s, data.v
        self.d0 = self.v.T @ (s0 - data.teacher)
        self.teacher = self.v.T @ data.teacher
        self.h = self.v.T @ (data.x_train.T @ data.noise_train / n)
        self.noise_sq = float((data.noise_train**2).sum() / n)
        rotate = n <= ROTATE_TRAIN * config.d_in
        self.inputs = {"train": data.x_train @ self.v if rotate else data.x_train, "test": data.z_test}
        self.rotated = {"train": rotate, "test": True}
        self.noise = {"train": data.noise_train, "test": data.noise_test}

    def sq_errors_of(self, which: str, deltas: np.ndarray) -> np.ndarray:
        """||D^T x - xi||^2 per state (rows) and sample of ``which`` (columns), for D~ = ``deltas`` (k, d_in, d_out).

        Modes above the last one whose part of D~ reaches NEGLIGIBLE_MODE of the largest are
        skipped (the eigenvalues ascend, and GD's late states live in the soft modes).
        """
        x, noise = self.inputs[which], self.noise[which]
        n, d_out = noise.shape
        size = np.abs(deltas).max(axis=(0, 2))
        big = np.nonzero(size > NEGLIGIBLE_MODE * size.max())[0]
        m = int(big[-1]) + 1 if len(big) else 0
        stacked = deltas[:, :m, :].transpose(1, 0, 2).reshape(m, len(deltas) * d_out)  # m may be 0 (D = 0)
        out = x[:, :m] @ stacked if self.rotated[which] else x @ (self.v[:, :m] @ stacked)
        err = out.reshape(n, len(deltas), d_out) - noise[:, None, :]
        return (err**2).sum(axis=2).T
