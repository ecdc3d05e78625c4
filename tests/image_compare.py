"""The settings every image-regression test shares (tests/test_figure_images.py): where the baselines live, what
each is called and how close an image must be to its baseline."""

from pathlib import Path

import matplotlib
from matplotlib import ft2font

#: One folder per matplotlib and FreeType version: text rendering differs between them.
BASELINE_DIR = Path(__file__).parent / "baseline" / f"mpl{matplotlib.__version__}-ft{ft2font.__freetype_version__}"
#: RMS difference (0-255 scale) allowed between the baseline and the new image.
TOLERANCE = 2
COMPARE = dict(baseline_dir=str(BASELINE_DIR), tolerance=TOLERANCE, style="default",
               savefig_kwargs={"metadata": {"Software": None}, "dpi": 80})


def baseline_name(figure: str) -> str:
    """The baseline image of figure ``figure`` ("<part>/<name>"): ``<part>_<name>.png``."""
    return figure.replace("/", "_") + ".png"


def changed_style_is_caught(baseline_name: str, draw, tmp_path, linewidth: float) -> bool:
    """Whether a one-line change to the house style (thicker lines) fails the comparison of ``draw()``'s
    figure against the committed baseline ``baseline_name`` (what each part's guard test asserts)."""
    import pytest
    from matplotlib.testing.compare import compare_images

    from grok_lib import style

    baseline = BASELINE_DIR / baseline_name
    if not baseline.exists():
        pytest.fail(f"no baseline {baseline_name} for this matplotlib/FreeType ({BASELINE_DIR.name}); run `make baselines`")
    with matplotlib.rc_context():
        style.use_house_style()
        matplotlib.rcParams["lines.linewidth"] = linewidth
        draw().savefig(tmp_path / "changed.png", **COMPARE["savefig_kwargs"])
    result = compare_images(str(baseline), str(tmp_path / "changed.png"), tol=TOLERANCE)
    return result is not None and "Error: Image files did not match" in result
