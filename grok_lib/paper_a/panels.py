"""What every Paper A MLP figure shares: one colour per weight decay, and the paper's grokking window drawn on the
loss figures. matplotlib is named with :func:`grok_lib.chapters.deferred`: importing this module loads none."""

from __future__ import annotations

from typing import Sequence

from ..chapters import deferred

plt = deferred("matplotlib.pyplot")
patches = deferred("matplotlib.patches")
house_style = deferred("grok_lib.style")


def weight_decay_colors(weight_decays: Sequence[float]) -> dict[float, tuple]:
    """One colour per weight decay, light (small) to dark (large)."""
    cmap = plt.get_cmap("viridis")
    ordered = sorted(weight_decays)
    n = max(len(ordered) - 1, 1)
    return {wd: cmap(0.85 - 0.75 * i / n) for i, wd in enumerate(ordered)}


#: The paper's test-loss window (Fig. 1b), shaded on the paper-settings figures.
PAPER_WINDOW = (4000, 8500)
