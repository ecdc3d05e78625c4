"""The house style and every plot function of the book.

Plot functions take histories (or plain arrays) and an ``Axes``; they never train or
load anything. Figures are saved with fixed metadata so the same data gives the same
bytes (what figure regression needs).
"""

from __future__ import annotations

from typing import Sequence

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from . import paths
from .history import History

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "svg.hashsalt": "grok-book",  # stable SVG ids
}


def use_house_style() -> None:
    """Apply the book's matplotlib style (call once per notebook)."""
    mpl.rcParams.update(STYLE)


def weight_decay_colors(weight_decays: Sequence[float]) -> dict[float, tuple]:
    """One colour per weight decay, light (small) to dark (large)."""
    cmap = plt.get_cmap("viridis")
    ordered = sorted(weight_decays)
    n = max(len(ordered) - 1, 1)
    return {wd: cmap(0.85 - 0.75 * i / n) for i, wd in enumerate(ordered)}


def _epochs(history: History) -> np.ndarray:
    # Step 0 cannot sit on a log axis; it is drawn at 0.5 ("before the first update").
    return np.where(history.steps == 0, 0.5, history.steps).astype(float)


def plot_loss_curves(ax, histories: Sequence[History], log_x: bool = False) -> None:
    """Train (dashed) and test (solid) cross-entropy vs epoch, one colour per weight decay."""
    colors = weight_decay_colors([h.config["weight_decay"] for h in histories])
    for h in histories:
        wd = h.config["weight_decay"]
        c = colors[wd]
        ax.plot(_epochs(h), h["train_loss"], ls="--", color=c, lw=1.1)
        ax.plot(_epochs(h), h["test_loss"], ls="-", color=c, label=f"λ = {wd:g}")
    ax.set_yscale("log")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("epoch (full-batch step)")
    ax.set_ylabel("cross-entropy")
    style = [plt.Line2D([], [], ls="--", color="grey"), plt.Line2D([], [], ls="-", color="grey")]
    ax.legend(style, ["train", "test"], loc="upper right")


def plot_accuracy_curves(ax, histories: Sequence[History]) -> None:
    """Train (dashed) and test (solid) accuracy vs epoch, one colour per weight decay."""
    colors = weight_decay_colors([h.config["weight_decay"] for h in histories])
    for h in histories:
        c = colors[h.config["weight_decay"]]
        ax.plot(_epochs(h), h["train_acc"], ls="--", color=c, lw=1.1)
        ax.plot(_epochs(h), h["test_acc"], ls="-", color=c, label=f"λ = {h.config['weight_decay']:g}")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("epoch (full-batch step)")
    ax.set_ylabel("accuracy")
    ax.legend(loc="lower right", title="weight decay")


def _box(ax, x, y, w, h, text, color):
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=color, ec="black", lw=0.8))
    ax.text(x, y, text, ha="center", va="center", fontsize=7.5)


def _arrow(ax, x0, y0, x1, y1, text=""):
    ax.add_patch(FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=10, lw=0.9, color="black"))
    if text:
        ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.045, text, ha="center", va="bottom", fontsize=7)


def draw_architecture(ax, p: int, d_embed: int, width: int) -> None:
    """A sketch of Paper A's model: two tokens, summed embeddings, one ReLU layer, the head."""
    ax.set_xlim(-0.03, 1.0)
    ax.set_ylim(0, 1)
    ax.axis("off")
    for y, tok in ((0.78, "a"), (0.22, "b")):
        _box(ax, 0.05, y, 0.08, 0.12, tok, "#dde8f5")
        _box(ax, 0.23, y, 0.15, 0.16, f"E[{tok}]\n$\\in\\mathbb{{R}}^{{{d_embed}}}$", "#f7e3c8")
        _arrow(ax, 0.095, y, 0.15, y, "E")
        _arrow(ax, 0.31, y + (-0.06 if y > 0.5 else 0.06), 0.385, 0.5 + (0.05 if y > 0.5 else -0.05))
    _box(ax, 0.42, 0.50, 0.07, 0.11, "+", "#ffffff")
    _box(ax, 0.62, 0.50, 0.21, 0.24, f"h = ReLU(Wz+b)\n{width} units", "#d9eed9")
    _box(ax, 0.885, 0.50, 0.19, 0.24, f"logits = Uh\n{p} classes", "#eadcf2")
    _arrow(ax, 0.455, 0.50, 0.515, 0.50, "z")
    _arrow(ax, 0.725, 0.50, 0.785, 0.50, "U")
    ax.set_title(f"(a) the model, on (a + b) mod {p}", loc="left")


def figure1(histories: Sequence[History]):
    """Paper A, Figure 1: the model sketch, the loss curves, and the accuracy curves."""
    cfg = histories[0].config
    fig = plt.figure(figsize=(12, 3.8), layout="constrained")
    ax_arch, ax_loss, ax_acc = fig.subplots(1, 3, width_ratios=[1.4, 1.2, 1.0])
    draw_architecture(ax_arch, cfg["p"], cfg["d_embed"], cfg["width"])
    plot_loss_curves(ax_loss, histories)
    ax_loss.set_title("(b) cross-entropy", loc="left")
    plot_accuracy_curves(ax_acc, histories)
    ax_acc.set_title("(c) accuracy", loc="left")
    return fig


def save_figure(fig, name: str) -> list:
    """Save ``fig`` as PNG and SVG under ``figures/`` with metadata that does not vary."""
    out = []
    for suffix, meta in ((".png", {"Software": None}), (".svg", {"Date": None, "Creator": None})):
        path = paths.figure_path(name, suffix)
        fig.savefig(path, metadata=meta)
        out.append(path)
    return out
