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


def head_commit() -> str:
    """The commit the working tree was checked out at (``git rev-parse --short HEAD``; no
    ``-dirty``: executing the notebooks rewrites them, so the tree is never clean while they run),
    or 'unknown' outside git. The exact library code is named by :func:`library_hash`."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short=7", "HEAD"], cwd=paths.ROOT, capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def stamp(name: str, parameters: dict, devices=(), today: str | None = None) -> str:
    """The provenance sentence of a figure's caption (Markdown): the notebook (with a link to its
    executed source in the book), the parameters it ran with, the library version and code hash,
    the device, the date (UTC) and the commit the run started from.

    Only in figure cells, which nbval does not compare (their outputs hold no key number), so the
    date and commit may change from one execution to the next; the figure files themselves do not.
    """
    import datetime

    entry = load_manifest()[name]
    notebook = entry["notebook"]
    given = ", ".join(f"`{k}={v!r}`" for k, v in parameters.items() if v is not None)
    source = f"../../_sources/{notebook}"  # where the book keeps the executed notebook
    today = today or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    device = ", ".join(devices) or "cpu"
    return (f"Made by `{notebook}` (<a href=\"{source}\">notebook</a>) with {given} (every other setting "
            f"from the profile); grok_lib {__version__}, library code `{library_hash()}`; run on {device} "
            f"on {today}, from commit `{head_commit()}`.")
