"""The README's "Use the library" snippet runs as written, from a plain Python process, and reads both clocks."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def snippet() -> str:
    """The first Python block of the README's "Use the library" section."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Use the library", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.mark.train
def test_the_readme_library_snippet_runs_and_reads_both_clocks():
    out = subprocess.run([sys.executable, "-c", snippet()], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    steps = [float(m) for m in re.findall(r"at step (\S+)$", out.stdout, re.M)]
    assert len(steps) == 3 and all(s == s and s > 0 for s in steps), out.stdout  # three finite clock readings
