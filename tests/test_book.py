"""The book builds strictly (-W --keep-going) from the committed notebooks, with no network."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_book_builds_strictly(tmp_path):
    jb = Path(sys.executable).parent / "jupyter-book"
    src = tmp_path / "src"
    # Build a copy, so a test run never touches the working tree's _build.
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", "_build", ".cache", ".git", "figures", "test-artifacts"))
    proc = subprocess.run([str(jb), "build", str(src), "--all", "-W", "--keep-going"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    html = src / "_build" / "html"
    page = (html / "notebooks" / "fig1_loss_curves.html").read_text()
    assert "<img" in page and "Key numbers" in page
    assert "&lt;Figure size" not in page  # no figure repr leaking as text
    assert (html / "index.html").exists()
