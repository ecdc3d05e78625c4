"""Embedding geometry (Paper A, Figure 2): Fourier spectra over the token index, the
"generator-based" reordering of tokens, and how close the embedding is to a regular polygon.

A matrix X with one row per token (the embeddings E, or the head U) is read as d signals
over the token index i = 0..p-1. A network that has grokked modular addition uses a few
frequencies k: X[i] ~ Re(c_k exp(2 pi i k i / p)). Relabelling token i as j = k i mod p
(multiplication by k generates Z_p when p is prime) turns frequency k into frequency 1,
so the rows, projected on their frequency-k plane, go round a circle in label order.
"""

from __future__ import annotations

import numpy as np


def fourier_power(x: np.ndarray) -> np.ndarray:
    """Energy per frequency k = 0..p//2 of the rows of ``x`` (p x d), summed over columns.

    Frequencies k and p - k carry the same real signal and are added together; the
    result sums to ||x||_F^2 (Parseval).
    """
    x = np.asarray(x, dtype=np.float64)
    p = x.shape[0]
    power = (np.abs(np.fft.fft(x, axis=0)) ** 2).sum(axis=1) / p
    folded = power[: p // 2 + 1].copy()
    folded[1 : (p + 1) // 2] += power[p - 1 : p // 2 : -1][: (p + 1) // 2 - 1]
    return folded


def dominant_frequency(x: np.ndarray) -> int:
    """The non-constant frequency k >= 1 that carries the most energy."""
    return int(np.argmax(fourier_power(x)[1:]) + 1)


def top_frequencies(x: np.ndarray, n: int) -> list[int]:
    """The ``n`` non-constant frequencies with the most energy, strongest first."""
    power = fourier_power(x)[1:]
    return [int(k) + 1 for k in np.argsort(power)[::-1][:n]]


def energy_fraction(x: np.ndarray, n: int) -> float:
    """Fraction of the non-constant energy of ``x`` in its ``n`` strongest frequencies."""
    power = fourier_power(x)[1:]
    total = power.sum()
    return float(np.sort(power)[::-1][:n].sum() / total) if total > 0 else 0.0


def reorder_labels(p: int, k: int) -> np.ndarray:
    """The new label j = k i mod p of each token i (a relabelling when gcd(k, p) = 1)."""
    if np.gcd(k, p) != 1:
        raise ValueError(f"k must be coprime to p for a relabelling; got k={k}, p={p}")
    return (k * np.arange(p)) % p


def circle_projection(x: np.ndarray, k: int) -> np.ndarray:
    """Complex coordinates z_i of each row of ``x`` on its frequency-k plane.

    With v = sum_i x[i] exp(-2 pi i k i / p) (the frequency-k Fourier coefficient, a
    complex d-vector), ``z_i = <x[i] - mean, conj(v)> / norm(v)``. A pure frequency-k embedding
    whose cosine and sine parts are orthogonal with equal norm gives z_i on a circle at
    angle 2 pi k i / p + const: a regular p-gon once tokens are relabelled by k.
    """
    x = np.asarray(x, dtype=np.float64)
    p = x.shape[0]
    x = x - x.mean(axis=0)
    v = (x * np.exp(-2j * np.pi * k * np.arange(p) / p)[:, None]).sum(axis=0)
    norm = np.linalg.norm(v)
    return (x @ np.conj(v)) / norm if norm > 0 else np.zeros(p, dtype=complex)


def polygon_deviation(z: np.ndarray, k: int) -> dict[str, float]:
    """How far the points z_i are from a regular polygon at angles 2 pi k i / p + phase.

    ``radius_cv``: std/mean of ``abs(z_i)`` (0 on a circle). ``angle_rms``: RMS of the angular
    error after fitting one common phase, in units of the polygon's step 2 pi / p (0 for
    a regular polygon; about p/sqrt(12) = 0.29 p for random angles).
    """
    z = np.asarray(z, dtype=complex)
    p = len(z)
    r = np.abs(z)
    ideal = 2 * np.pi * k * np.arange(p) / p
    phase = np.angle(np.sum(z * np.exp(-1j * ideal)))
    err = np.angle(np.exp(1j * (np.angle(z) - ideal - phase)))
    return {
        "radius_cv": float(r.std() / r.mean()) if r.mean() > 0 else float("nan"),
        "angle_rms": float(np.sqrt(np.mean(err**2)) / (2 * np.pi / p)),
    }
