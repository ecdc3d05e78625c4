"""The book's folders, guarded where files are written.

``book/``, ``notebooks/``, ``recorded/`` and ``figures/`` hold what the committed build made. Every file
grok_lib writes goes through :func:`grok_lib.atomic.atomic_write`, which asks :func:`check_write` first: a
path that lies inside one of these folders once symlinks are followed is refused with one line, unless the
write happens inside :func:`book_writes`, which only the committed build enters (a notebook run whose
settings are the committed ones, ``scripts/record_runs.py``, ``scripts/make_landing.py``, ...). So a rerun
cannot reach the book through a symlinked output folder, an injected ``PAPERMILL_OUTPUT_PATH``, a run
store placed inside ``notebooks/`` or a script: the refusal does not depend on the entry point.
"""

from __future__ import annotations

import contextlib
import contextvars
from pathlib import Path
from typing import Iterator, Optional

from .config import ConfigError
from .paths import ROOT

#: The folders of the committed book: only the committed build writes there.
PROTECTED = ("book", "notebooks", "recorded", "figures")

_BOOK_WRITES: contextvars.ContextVar[bool] = contextvars.ContextVar("grok_book_writes", default=False)


class ProtectedPathError(ConfigError):
    """A write into the committed book's folders by anything but the committed build."""


@contextlib.contextmanager
def book_writes() -> Iterator[None]:
    """Allow writes into the book's folders inside this block (the committed build only)."""
    token = _BOOK_WRITES.set(True)
    try:
        yield
    finally:
        _BOOK_WRITES.reset(token)


def protected_folder(path: Path | str) -> Optional[str]:
    """The book folder (``book``, ...) that ``path`` lies in once symlinks are followed, or None."""
    resolved = Path(path).expanduser().resolve()
    return next((f for f in PROTECTED if resolved.is_relative_to(ROOT / f)), None)


def refusal(path: Path | str, what: str = "a file") -> Optional[str]:
    """Why writing ``what`` at ``path`` is refused (one line), or None if it may be written now."""
    if _BOOK_WRITES.get():
        return None
    folder = protected_folder(path)
    if folder is None:
        return None
    via = "" if Path(path).expanduser().absolute().is_relative_to(ROOT / folder) else " (through a symlink)"
    return (f"refusing to write {what} at {path}: it lies inside the book's {folder}/ folder{via}, which only "
            f"`make book` writes; choose a folder outside {ROOT}/{{{','.join(PROTECTED)}}}, e.g. /tmp")


def check_write(path: Path | str, what: str = "a file") -> None:
    """A one-line :class:`ProtectedPathError` if ``path`` may not be written now (see :func:`refusal`)."""
    reason = refusal(path, what)
    if reason:
        raise ProtectedPathError(reason)
