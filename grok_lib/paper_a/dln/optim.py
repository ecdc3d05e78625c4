"""AdamW on a list of numpy arrays: torch.optim.AdamW's update, bias-corrected."""

from __future__ import annotations

import numpy as np

#: AdamW's betas and epsilon (Paper A's optimiser settings for the MLP).
ADAM_BETAS, ADAM_EPS = (0.9, 0.98), 1e-8



class AdamW:
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
