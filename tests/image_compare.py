"""The settings every image-regression test shares (tests/paper_*/test_figure_images.py): where the baselines
live and how close an image must be to its baseline."""

from pathlib import Path

import matplotlib
from matplotlib import ft2font

#: One folder per matplotlib and FreeType version: text rendering differs between them.
BASELINE_DIR = Path(__file__).parent / "baseline" / f"mpl{matplotlib.__version__}-ft{ft2font.__freetype_version__}"
#: RMS difference (0-255 scale) allowed between the baseline and the new image.
TOLERANCE = 2
COMPARE = dict(baseline_dir=str(BASELINE_DIR), tolerance=TOLERANCE, style="default",
               savefig_kwargs={"metadata": {"Software": None}, "dpi": 80})
