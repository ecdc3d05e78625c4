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


def figure_path(name: str, suffix: str = ".png") -> Path:
    """The file a figure called ``name`` is saved to; creates the folder."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    return FIGURES / f"{name}{suffix}"
