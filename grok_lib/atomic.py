"""Atomic file writes: a temporary file in the same folder, then a rename, so that a reader sees
the whole file or none of it. Used by the run store, the claim records, the figure files and the
recorded runs."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from .guard import check_write


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def temp_path(path: Path) -> Path:
    """A fresh temporary name beside ``path`` (``.<name>.<pid>.<random>.tmp``)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    The file is created with mode 0666 less the umask (what ``open`` gives; ``mkstemp``'s
    0600 would hide it from the rest of a group sharing the folder). A path inside the committed book's
    folders is refused unless the committed build writes it (:mod:`grok_lib.guard`).
    """
    check_write(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
