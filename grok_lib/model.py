"""Paper A's model: z = E[a] + E[b],  h = ReLU(W z + b),  logits = U h.

Shapes: E is p x d (token embeddings), W is width x d, b has width entries, U is p x width
(the head). The initialisation is what a plain ``nn.Embedding`` + ``nn.Linear`` model
gets in PyTorch (E ~ N(0, 1); W, b ~ U(+-1/sqrt(d)); U ~ U(+-1/sqrt(width))), drawn from
a generator seeded by the config, since the paper's code is not public.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class ModAddMLP(nn.Module):
    """The one-hidden-layer ReLU MLP on summed token embeddings."""

    def __init__(self, p: int, d_embed: int, width: int, seed: int, dtype=torch.float32):
        super().__init__()
        g = torch.Generator().manual_seed(seed)

        def uniform(shape, bound):
            return (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1) * bound

        self.E = nn.Parameter(torch.randn(p, d_embed, generator=g, dtype=torch.float64).to(dtype))
        self.W = nn.Parameter(uniform((width, d_embed), 1 / math.sqrt(d_embed)).to(dtype))
        self.b = nn.Parameter(uniform((width,), 1 / math.sqrt(d_embed)).to(dtype))
        self.U = nn.Parameter(uniform((p, width), 1 / math.sqrt(width)).to(dtype))

    def preactivation(self, pairs: torch.Tensor) -> torch.Tensor:
        """W z + b for every row of the pair matrix M (z = M @ E), formed as M @ (E W^T) + b."""
        return torch.addmm(self.b, pairs, self.E @ self.W.T)

    def forward(self, pairs: torch.Tensor) -> torch.Tensor:
        """Logits (n x p) for the pair matrix ``pairs`` (see :func:`grok_lib.task.pair_matrix`)."""
        return torch.relu(self.preactivation(pairs)) @ self.U.T

    def blocks(self) -> dict[str, torch.Tensor]:
        """The named weight blocks, in a fixed order (for metrics and checkpoints)."""
        return {"E": self.E, "W": self.W, "b": self.b, "U": self.U}
