"""Small deterministic histories for drawing plot functions in tests (never shown in the book)."""

from __future__ import annotations

import numpy as np

from grok_lib.history import History


def fig1_sweep(weight_decays=(0.6, 0.7, 0.8, 0.9, 1.0), epochs: int = 4000) -> list[History]:
    """Analytic loss/accuracy curves shaped like a grokking sweep: fast train fit, late test drop."""
    steps = np.unique(np.concatenate([[0], np.geomspace(1, epochs, 30).round(), np.arange(0, epochs + 1, 100)]))
    steps = steps.astype(np.int64)
    out = []
    for wd in weight_decays:
        t_grok = 1500 + 2000 * (1.0 - wd) / 0.4  # later for smaller weight decay
        train_loss = 4.7 * np.exp(-steps / 150.0) + 1e-6 * (1 + wd)
        bump = 10.0 * np.exp(-(((steps - 300) / 900.0) ** 2))
        test_loss = 4.7 * np.exp(-steps / 4000.0) + bump
        test_loss = test_loss / (1 + np.exp((steps - t_grok) / 250.0)) + 1e-3 * wd
        acc = lambda t0, w: 1 / (1 + np.exp(-(steps - t0) / w))  # noqa: E731
        metrics = {
            "train_loss": train_loss,
            "test_loss": test_loss,
            "train_acc": acc(100, 20),
            "test_acc": acc(t_grok, 200),
        }
        config = {"p": 113, "d_embed": 128, "width": 256, "weight_decay": wd, "epochs": epochs}
        out.append(History(steps=steps, metrics=metrics, config=config))
    return out
