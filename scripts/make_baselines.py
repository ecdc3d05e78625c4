"""Regenerate the figure-regression references after a deliberate change (`make baselines`).

1. the baseline images of every figure of the book (tests/test_figure_images.py) and of Part A's architecture
   sketch (tests/paper_a/test_plots.py), into the folder named after this matplotlib and FreeType version;
2. the arithmetic the book is recorded in (book/arithmetic.json, grok_lib/arithmetic.py): the
   notebooks write the book's claims and figures only in that arithmetic, and the tests compare
   exactly there (elsewhere within the measured envelope).

The numbers behind every figure are not written here: the notebook's committed run writes them into the
figure's data file (``make notebooks``: ``book/figure_files/<part>/<figure>.json``).

Review the result with `git diff --stat tests/ book/` (and an image viewer) before committing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy and torch load (grok_lib/arithmetic.py)
import matplotlib
import pytest

from grok_lib import arithmetic, paths
from grok_lib.atomic import atomic_write
from grok_lib.guard import book_writes

ROOT = Path(__file__).resolve().parent.parent


def baseline_dir() -> Path:
    """Where pytest-mpl keeps the baselines for this matplotlib and FreeType (as tests/image_compare.py)."""
    from matplotlib import ft2font

    return ROOT / "tests" / "baseline" / f"mpl{matplotlib.__version__}-ft{ft2font.__freetype_version__}"


def main() -> int:
    out = baseline_dir()
    out.mkdir(parents=True, exist_ok=True)
    images = [str(ROOT / "tests" / "test_figure_images.py"), str(ROOT / "tests" / "paper_a" / "test_plots.py")]
    code = pytest.main([*images, "-q", "-k", "not guard", f"--mpl-generate-path={out}"])
    if code != 0:
        return int(code)
    print(f"baseline images written to {out.relative_to(ROOT)}")
    facts = arithmetic.describe()
    if not facts["pinned"]:
        print(f"warning: recording the book in {arithmetic.summary(facts)}, not the pinned arithmetic")
    with book_writes():  # the arithmetic the book is recorded in
        atomic_write(paths.BOOK_ARITHMETIC, (json.dumps(facts, indent=1, sort_keys=True) + "\n").encode())
    print(f"arithmetic written to {paths.BOOK_ARITHMETIC.relative_to(ROOT)}: {facts['id']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
