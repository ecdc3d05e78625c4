"""Part A's drawing helpers that are not a figure of their own (every figure is tested in tests/test_figure_images.py)."""

import matplotlib.pyplot as plt
import pytest

from grok_lib import style
from grok_lib.paper_a import panels
from image_compare import COMPARE


@pytest.mark.mpl_image_compare(filename="fig1_architecture.png", **COMPARE)
def test_fig1_architecture_sketch():
    style.use_house_style()
    fig, ax = plt.subplots(figsize=(5, 3))
    panels.draw_architecture(ax, p=113, d_embed=128, width=512)
    return fig
