"""Every place the project reads or writes, in one module (no relative paths in notebooks)."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository root, which is also the book root.
ROOT = Path(__file__).resolve().parent.parent

#: Figure files written by the notebooks (PNG and SVG); a build product, not committed.
FIGURES = ROOT / "figures"


def store_dir() -> Path:
    """Where the run store keeps histories and checkpoints.

    ``GROK_STORE`` moves it (a shared cache on a cluster, a scratch folder in tests);
    the default is ``.cache/runs`` in the repository.
    """
    return Path(os.environ.get("GROK_STORE", ROOT / ".cache" / "runs"))


#: The notebooks, one folder per part (``notebooks/paper_a/``, ...), the claims report at the top.
NOTEBOOKS = ROOT / "notebooks"


def figure_path(name: str, suffix: str = ".png") -> Path:
    """The file a figure called ``name`` (``paper_a/fig1_loss_curves``) is saved to; creates the folder."""
    path = FIGURES / f"{name}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def parts() -> list[str]:
    """The paper packages of grok_lib that are parts of the book (``paper_a``, ...): found on disk,
    not imported; a part is a ``paper_*`` package with a ``setup`` module (its notebooks' entry
    point). What scripts and tests iterate over, so a new part is never silently skipped
    (tests/test_layout.py fails on a ``paper_*`` package without one)."""
    lib = Path(__file__).parent
    return sorted(p.name for p in lib.glob("paper_*") if (p / "setup.py").exists())
