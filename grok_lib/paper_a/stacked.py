"""Stacked sweeps: members that differ only in numbers train as one model.

A weight-decay sweep of Paper A (or one over seeds or learning rates) runs the same
computation M times on the same data. Here the parameters carry a leading member axis
(E is M x p x d, W is M x width x d, b is M x width, U is M x p x width), every product is
a batched one (``torch.bmm``), the optimiser keeps per-element state with a per-member
learning rate and weight decay, and the loss is the sum of the members' means, so each
member's gradient is exactly its solo gradient. On the CPU every operation is the one the
solo model does per member, so a member's numbers are bitwise those of its solo run
(``tests/paper_a/test_stacked.py`` asserts it against plain ``ModAddMLP`` + ``torch.optim.AdamW``).
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import torch
from torch import nn

from ..config import ConfigError
from .config import ModAddConfig
from .model import ModAddMLP, PairSum

#: Config fields in which the members of one stacked sweep may differ.
MEMBER_FIELDS = ("weight_decay", "init_seed", "lr")
#: Fields that do not affect the computation (may differ too).
FREE_FIELDS = ("checkpoint_every",)


def stack_signature(config: ModAddConfig) -> tuple:
    """What members of one stack must share: every field but :data:`MEMBER_FIELDS`."""
    skip = set(MEMBER_FIELDS) | set(FREE_FIELDS)
    return tuple((k, v) for k, v in sorted(dataclasses.asdict(config).items()) if k not in skip)


def check_stackable(configs: Sequence[ModAddConfig]) -> None:
    """Raise a one-line ConfigError if ``configs`` cannot train as one stack."""
    if not configs:
        raise ConfigError("a stacked sweep needs at least one config, got none")
    first = stack_signature(configs[0])
    for c in configs[1:]:
        diff = [k for (k, v), (_, w) in zip(first, stack_signature(c)) if v != w]
        if diff:
            raise ConfigError(f"configs of one stacked sweep may differ only in {', '.join(MEMBER_FIELDS)}; "
                              f"these differ: {', '.join(diff)}")


class StackedMLP(nn.Module):
    """M copies of :class:`ModAddMLP` as one module with a leading member axis."""

    BLOCKS = ("E", "W", "b", "U")

    def __init__(self, members: Sequence[ModAddMLP]):
        super().__init__()
        for name in self.BLOCKS:
            setattr(self, name, nn.Parameter(torch.stack([getattr(m, name).detach() for m in members])))

    def bind(self, members: Sequence[ModAddMLP]) -> None:
        """Point each member's parameters at its slice of the stack (no copy), for per-member metrics."""
        for i, m in enumerate(members):
            for name in self.BLOCKS:
                setattr(m, name, nn.Parameter(getattr(self, name).data[i], requires_grad=False))

    def share_grads(self, members: Sequence[ModAddMLP]) -> None:
        """Give each member view its slice of the stacked gradients."""
        for i, m in enumerate(members):
            for name in self.BLOCKS:
                g = getattr(self, name).grad
                getattr(m, name).grad = None if g is None else g[i]

    def preactivation(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """W z + b for every member (M x n x width), with E W^T formed once per member."""
        return PairSum.apply(torch.bmm(self.E, self.W.transpose(1, 2)), a, b) + self.b[:, None, :]

    def logits(self, pre: torch.Tensor) -> torch.Tensor:
        return torch.bmm(torch.relu(pre), self.U.transpose(1, 2))

    def blocks(self) -> dict[str, torch.Tensor]:
        return {name: getattr(self, name) for name in self.BLOCKS}


class StackedAdamW:
    """AdamW over stacked parameters, with a learning rate and a weight decay per member.

    The update is torch.optim.AdamW's (single-tensor path, the CPU default) operation by
    operation; only the decay factor and the step size become (M, 1, ...) tensors when
    the members' values differ, which keeps every member's arithmetic identical to its
    solo run.
    """

    def __init__(self, params: dict[str, torch.Tensor], lr: Sequence[float], weight_decay: Sequence[float],
                 betas: tuple[float, float], eps: float = 1e-8):
        self.params = params
        self.lr, self.wd = [float(x) for x in lr], [float(x) for x in weight_decay]
        self.beta1, self.beta2 = betas
        self.eps = eps
        self.step_count = 0
        self.exp_avg = {k: torch.zeros_like(v) for k, v in params.items()}
        self.exp_avg_sq = {k: torch.zeros_like(v) for k, v in params.items()}

    def per_member(self, values: Sequence[float], like: torch.Tensor):
        """``values`` (one per member) as a scalar when all are equal, else a tensor shaped to broadcast over
        ``like``'s member axis."""
        if len(set(values)) == 1:
            return values[0]
        return torch.tensor(values, dtype=like.dtype, device=like.device).view(-1, *([1] * (like.dim() - 1)))

    @torch.no_grad()
    def step(self) -> None:
        self.step_count += 1
        step = float(self.step_count)
        bias1, bias2 = 1 - self.beta1**step, 1 - self.beta2**step
        for name, param in self.params.items():
            grad, exp_avg, exp_avg_sq = param.grad, self.exp_avg[name], self.exp_avg_sq[name]
            decay = self.per_member([1 - lr * wd for lr, wd in zip(self.lr, self.wd)], param)
            if not (isinstance(decay, float) and decay == 1.0):  # AdamW skips the multiply when wd == 0
                param.mul_(decay)
            exp_avg.lerp_(grad, 1 - self.beta1)
            exp_avg_sq.mul_(self.beta2).addcmul_(grad, grad, value=1 - self.beta2)
            denom = (exp_avg_sq.sqrt() / bias2**0.5).add_(self.eps)
            step_size = self.per_member([-lr / bias1 for lr in self.lr], param)
            if isinstance(step_size, float):
                param.addcdiv_(exp_avg, denom, value=step_size)
            else:  # addcdiv computes self + (value * t1) / t2; the same order with a tensor value
                param.add_(exp_avg.mul(step_size).div_(denom))

    def zero_grad(self) -> None:
        for p in self.params.values():
            p.grad = None

    def state_arrays(self) -> dict[str, torch.Tensor]:
        out = {f"exp_avg/{k}": v for k, v in self.exp_avg.items()}
        return out | {f"exp_avg_sq/{k}": v for k, v in self.exp_avg_sq.items()}

    def load_state_arrays(self, arrays: dict[str, torch.Tensor], step_count: int) -> None:
        for k in self.exp_avg:
            self.exp_avg[k].copy_(arrays[f"exp_avg/{k}"])
            self.exp_avg_sq[k].copy_(arrays[f"exp_avg_sq/{k}"])
        self.step_count = step_count
