"""Which code made a number: the hash of the library's source and the repository's commit.

The recorded runs' manifests (:mod:`grok_lib.recorded`) stamp them. A figure's caption names only the modules its
notebook had loaded (:func:`grok_lib.code_deps.loaded_code`), since a build re-executes a notebook only when those
change.
"""

from __future__ import annotations

import hashlib
import subprocess
from functools import lru_cache
from pathlib import Path

from . import paths

#: The library's folder: every ``*.py`` under it is hashed, the paper packages included.
LIBRARY = Path(__file__).parent


def library_files() -> list[Path]:
    """Every source file of grok_lib, in every subpackage, sorted."""
    return sorted(LIBRARY.rglob("*.py"))


@lru_cache(maxsize=1)  # a process sees one library; hashing it reads every file
def library_hash() -> str:
    """A short hash of every grok_lib source file, the paper packages included: identifies the
    exact library code."""
    h = hashlib.sha256()
    for f in library_files():
        h.update(f.relative_to(LIBRARY).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def git_commit() -> str:
    """``git describe --always --dirty`` of the repository, or 'unknown' outside git."""
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=paths.ROOT, capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
