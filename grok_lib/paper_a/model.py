"""Paper A's model: z = E[a] + E[b],  h = ReLU(W z + b),  logits = U h.

Shapes: E is p x d (token embeddings), W is width x d, b has width entries, U is p x width
(the head). The paper does not state its initialisation (its code is not public), so it is
a named setting, drawn from a generator seeded by the config:

- ``pytorch`` (the default): what a plain ``nn.Embedding`` + ``nn.Linear`` model gets in
  PyTorch: E ~ N(0, 1); W, b ~ U(+-1/sqrt(d)); U ~ U(+-1/sqrt(width)). ``||E||_F`` is then
  about sqrt(p d) = 120 at p = 113, d = 128.
- ``scaled_embed``: the same, but E ~ N(0, 1/d) (about 11x smaller at d = 128), the scale
  of a fan-in-normalised embedding.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn


class PairSum(torch.autograd.Function):
    """Rows T[..., a_i, :] + T[..., b_i, :] of a (p x width) table, or of a stack of tables
    (M x p x width, see :mod:`grok_lib.stacked`): the one-hot input made explicit.

    Forward is a gather along the table's rows. Backward adds each row's gradient back onto
    its two tokens: a scatter-add on the CPU (deterministic there, and much cheaper than the
    dense product with the n x p pair matrix), a dense one-hot product on a GPU (where
    scatter-add uses atomics and is not deterministic).
    """

    @staticmethod
    def forward(ctx, table, a, b):
        ctx.save_for_backward(a, b)
        ctx.rows = table.shape[-2]
        return table.index_select(-2, a) + table.index_select(-2, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        rows = pair_sum_grad_onehot if grad.is_cuda else pair_sum_grad_scatter
        return rows(grad, a, b, ctx.rows), None, None


def pair_sum_grad_scatter(grad, a, b, rows: int) -> torch.Tensor:
    """sum_i grad[..., i, :] (e_{a_i} + e_{b_i}) by scatter-add (the CPU path)."""
    out = torch.zeros(*grad.shape[:-2], rows, grad.shape[-1], dtype=grad.dtype, device=grad.device)
    return out.index_add_(-2, a, grad).index_add_(-2, b, grad)


def pair_sum_grad_onehot(grad, a, b, rows: int) -> torch.Tensor:
    """The same sum as a dense one-hot product (the GPU path: deterministic there)."""
    onehot = F.one_hot(a, rows) + F.one_hot(b, rows)
    return onehot.to(grad.dtype).T @ grad


#: The standard deviation of E per initialisation scheme (the names are config.INITS).
EMBED_STD = {"pytorch": lambda d: 1.0, "scaled_embed": lambda d: 1 / math.sqrt(d)}


class ModAddMLP(nn.Module):
    """The one-hidden-layer ReLU MLP on summed token embeddings."""

    def __init__(self, p: int, d_embed: int, width: int, seed: int, dtype=torch.float32, init: str = "pytorch"):
        super().__init__()
        g = torch.Generator().manual_seed(seed)

        def uniform(shape, bound):
            return (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1) * bound

        e = torch.randn(p, d_embed, generator=g, dtype=torch.float64)
        if init != "pytorch":  # the default multiplies by nothing, so its numbers stay those of earlier runs
            e = e * EMBED_STD[init](d_embed)
        self.E = nn.Parameter(e.to(dtype))
        self.W = nn.Parameter(uniform((width, d_embed), 1 / math.sqrt(d_embed)).to(dtype))
        self.b = nn.Parameter(uniform((width,), 1 / math.sqrt(d_embed)).to(dtype))
        self.U = nn.Parameter(uniform((p, width), 1 / math.sqrt(width)).to(dtype))

    def preactivation(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """W z + b for the pairs (a_i, b_i), with z = E[a] + E[b].

        Since the input is one-hot, W z = (E W^T)[a] + (E W^T)[b]: E W^T is formed once
        (p x width) instead of projecting every sample (identical maths, far less work).
        """
        return PairSum.apply(self.E @ self.W.T, a, b) + self.b

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """Logits (n x p) for the pairs (a_i, b_i)."""
        return torch.relu(self.preactivation(a, b)) @ self.U.T

    def blocks(self) -> dict[str, torch.Tensor]:
        """The named weight blocks, in a fixed order (for metrics and checkpoints)."""
        return {"E": self.E, "W": self.W, "b": self.b, "U": self.U}
