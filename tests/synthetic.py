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


def paper_a_sweep(weight_decays=(0.6, 0.8, 1.0), epochs: int = 4000, p: int = 31, d: int = 8) -> list[History]:
    """Synthetic histories with every metric and snapshot the Paper A plots read.

    The embeddings go from noise to a clean frequency-3 Fourier embedding; the other
    metrics are smooth analytic curves. Seeded, so the images are deterministic.
    """
    rng = np.random.default_rng(0)
    noise = rng.normal(size=(p, d))
    phase = 2 * np.pi * 3 * np.arange(p) / p
    clean = np.zeros((p, d))
    clean[:, 0], clean[:, 1] = np.cos(phase), np.sin(phase)
    out = []
    for h in fig1_sweep(weight_decays, epochs):
        s = h.steps.astype(float)
        wd = h.config["weight_decay"]
        bump = np.exp(-(((s - 1000) / 700.0) ** 2))
        fall = 1 / (1 + np.exp(-(s - 2500 * (1.6 - wd)) / 300.0))
        h.metrics |= {
            "srank_E": 31 + 6 * bump - 15 * fall,
            "srank_W": 45 - 15 * fall,
            "srank_U": 42 - 14 * fall,
            "srank_EW": 23 - 8 * fall,
            "grad_U": 0.15 * np.exp(-s / 300) + 1e-6,
            "grad_W": 0.10 * np.exp(-s / 300) + 1e-6,
            "grad_E": 0.005 * np.exp(-s / 400) + 8e-7 * wd,
            "spec_U": 1 + 6 * (1 - np.exp(-s / 500)),
            "spec_W": 1.4 + 6 * (1 - np.exp(-s / 500)),
            "mean_delta_h": 10 * np.exp(-s / 300) + 3e-5,
            "mean_delta_z": 12 * np.exp(-s / 300) + 3e-5,
            "mean_delta_B": 1.5 * np.exp(-s / 300) + 3e-6,
            "update_U": 0.03 * np.exp(-s / 50) + 2e-4,
            "update_E": 0.0015 * np.exp(-s / 500) + 1.5e-4 * wd,
            "churn": np.where(s == 0, np.nan, 0.01 + 0.3 * np.exp(-s / 30)),
            "norm_E": 60 * np.exp(-wd * s / 2000) + 5,
        }
        h.config |= {"p": p, "d_embed": d, "train_frac": 0.5, "data_seed": 0}
        h.snapshot_steps = np.array([0, 500, epochs])
        mix = [0.0, 0.3, 1.0]
        for block, scale in (("E", 1.0), ("U", 0.8)):
            h.snapshots[block] = np.stack([scale * (m * clean + (1 - m) * noise + 0.03 * rng.normal(size=(p, d)))
                                           for m in mix])
        out.append(h)
    return out


def dln_sweep(depths=(1, 2, 3, 4), steps_total: int = 30000) -> list[History]:
    """Analytic deep-linear histories with every metric the deep-linear plots read.

    GD without decay: margin ~ log t; AdamW: margin about linear, then flat; with decay the
    loss has a floor and the energy gap decays exponentially at 2 p lambda lr, as measured.
    """
    steps = np.unique(np.concatenate([[0], np.geomspace(1, steps_total, 120).round(),
                                      np.linspace(0, steps_total, 101).round()])).astype(np.int64)
    t = steps.astype(float)
    out = []
    for depth in depths:
        p = 2.0 / depth
        for opt, wd in (("gd", 0.0), ("gd", 1e-3), ("gd", 3e-3), ("adamw", 0.0), ("adamw", 1e-3)):
            lr = 0.2 if opt == "gd" else 1e-2
            if opt == "gd":
                margin = -1.0 + (0.9 + 0.2 * depth) * np.log1p(t / 40.0)
            else:
                margin = -1.0 + (18 + 2 * depth) * (1 - np.exp(-t / 400.0))
            floor = 0.05 * wd * 1e3 / depth
            loss = 0.3 * np.exp(-margin) + floor
            gap = 1.5 * np.exp(-t / (60.0 * depth)) + (1e-3 * np.exp(-2 * p * wd * lr * t) if wd else 0.0)
            metrics = {"train_loss": loss, "margin": margin, "energy": 0.02 + floor + gap}
            for i in range(4):
                measured = -0.01 * (i + 1) * np.exp(-t / 3000.0) - 1e-4
                metrics[f"drift_measured_{i}"] = measured
                metrics[f"drift_factored_{i}"] = measured * (1 + 0.01 / (1 + t / 100.0))
                metrics[f"drift_prop43_{i}"] = measured / (depth * 5.0 ** (2 - p))
                metrics[f"sv_{i}"] = (4.0 - i) * np.exp(-wd * t / 10.0)  # recorded beside its drift, as a real run does
            config = {"depth": depth, "optimizer": opt, "weight_decay": wd, "lr": lr, "n_classes": 5,
                      "steps": steps_total}
            out.append(History(steps=steps, metrics=metrics, config=config, meta={"energy_min": 0.02 + floor}))
    return out
