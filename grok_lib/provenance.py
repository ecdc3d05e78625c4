"""Where each figure comes from: the figure manifest and the caption printed under a figure.

``book/figures.yml`` maps each figure to its notebook, the parameters of the committed run
and the files it writes. A notebook prints :func:`caption` right under the figure, naming
the notebook, the parameters it ran with and the exact library code.
"""

from __future__ import annotations

import hashlib
import subprocess
from functools import lru_cache
from pathlib import Path

import yaml

from . import __version__, paths

MANIFEST = paths.ROOT / "book" / "figures.yml"


def load_manifest(path: Path = MANIFEST) -> dict[str, dict]:
    """The figure manifest: name -> {title, notebook, parameters, outputs}."""
    data = yaml.safe_load(path.read_text()) or {}
    for name, entry in data.items():
        missing = {"title", "notebook", "parameters", "outputs"} - set(entry)
        if missing:
            raise ValueError(f"{path.name}: figure {name} lacks {', '.join(sorted(missing))}")
    return data


@lru_cache(maxsize=1)
def library_hash() -> str:
    """A short hash of every grok_lib source file, the paper packages included: identifies the
    exact library code."""
    h = hashlib.sha256()
    for f in library_files():
        h.update(f.relative_to(LIBRARY).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


LIBRARY = Path(__file__).parent


def library_files() -> list[Path]:
    """Every source file of grok_lib, in every subpackage, sorted."""
    return sorted(LIBRARY.rglob("*.py"))


def git_commit() -> str:
    """``git describe --always --dirty`` of the repository, or 'unknown' outside git."""
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=paths.ROOT, capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def caption(name: str, parameters: dict) -> str:
    """The provenance line printed under figure ``name`` (Markdown)."""
    entry = load_manifest()[name]
    given = ", ".join(f"`{k}={v!r}`" for k, v in parameters.items() if v is not None)
    return (
        f"**Figure `{name}`** — {entry['title']}. Made by `{entry['notebook']}` with {given} "
        f"(every other setting from the profile); grok_lib {__version__}, library code `{library_hash()}`, "
        f"git `{git_commit()}`."
    )
