"""Metrics of Paper A's model and its matrices (torch).

Losses are evaluated in float64: the train loss of Paper A's Figure 1 reaches ~1e-6,
where a float32 softmax has no digits left.
"""

from __future__ import annotations

import torch


def cross_entropy64(logits: torch.Tensor, y: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Weighted mean cross-entropy, computed in float64 (differentiable).

    ``logits`` is n x classes, or M x n x classes for a stack of M members (then one loss
    per member). ``weight`` sums to one; with the task's pair weights this is the plain
    mean over ordered pairs.
    """
    logp = torch.log_softmax(logits.to(torch.float64), dim=-1)
    picked = logp.gather(-1, y.expand(logits.shape[:-1]).unsqueeze(-1))[..., 0]
    return -(picked * weight).sum(dim=-1)


def accuracy(logits: torch.Tensor, y: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Weighted fraction of rows whose arg-max is the label."""
    return ((logits.argmax(dim=-1) == y).to(torch.float64) * weight).sum()


def svdvals(a: torch.Tensor) -> torch.Tensor:
    """Singular values of ``a`` in float64, computed on one thread on the CPU.

    LAPACK's threaded SVD sums in an order that depends on the thread count, which moved
    stable ranks by ~1e-15 between a one-thread worker and a two-thread notebook; on one
    thread the values are the same however many threads the process has.
    """
    a = a.detach().to(torch.float64)
    threads = torch.get_num_threads()
    if a.is_cuda or threads == 1:
        return torch.linalg.svdvals(a)
    torch.set_num_threads(1)
    try:
        return torch.linalg.svdvals(a)
    finally:
        torch.set_num_threads(threads)


def stable_rank_and_norm(a: torch.Tensor) -> tuple[float, float]:
    """(srank(A), ||A||_2) from one SVD; srank(A) = ||A||_F^2 / ||A||_2^2 (Paper A, eq. 2.3)."""
    s = svdvals(a)
    top = float(s[0]) if s.numel() else 0.0
    return (float((s**2).sum()) / top**2 if top > 0 else 0.0), top


def stable_rank(a: torch.Tensor) -> float:
    """srank(A) = ||A||_F^2 / ||A||_2^2; 0 for the zero matrix."""
    return stable_rank_and_norm(a)[0]


def logit_gradient_norms(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Per-row ||delta_i|| with delta_i = softmax(logits_i) - onehot(y_i), the gradient of
    the per-sample cross-entropy with respect to the logits (float64)."""
    prob = torch.softmax(logits.to(torch.float64), dim=-1)
    prob[torch.arange(len(y), device=y.device), y] -= 1.0
    return prob.norm(dim=1)
