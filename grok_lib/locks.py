"""The run store's per-key locks: a process trains a key only while it holds ``K.lock`` (an ``flock``), so a
second process asking for the same key waits and then reads the first one's entry (:mod:`grok_lib.store`)."""

from __future__ import annotations

import errno
import fcntl
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from .config import ConfigError


class StoreError(ConfigError):
    """The run store's folder cannot be used as asked: the message names it (``GROK_STORE``) and what to do."""


@contextmanager
def locked(folder: Path, keys: Sequence[str], label: str, progress: bool = True) -> Iterator[None]:
    """Hold the locks of ``keys`` in the store folder ``folder`` (taken in sorted order, so two groups never
    deadlock); ``label``: how messages name the folder.

    A lock is an ``flock`` on ``K.lock``; the kernel drops it when its process dies, so a
    killed run never blocks the next one. The holder removes the file when done; a
    process that was waiting on a removed file takes the lock again on the new one.
    """
    held: list[tuple[Path, int]] = []
    try:
        for key in sorted(set(keys)):
            held.append(_acquire(folder / f"{key}.lock", key, label, progress))
        yield
    finally:
        for path, fd in reversed(held):
            try:
                path.unlink(missing_ok=True)
            except OSError:
                pass  # another user's lock file in a sticky folder: harmless
            os.close(fd)

def _acquire(path: Path, key: str, label: str, progress: bool) -> tuple[Path, int]:
    told = False
    while True:
        # O_NOFOLLOW: a symlink planted at K.lock in a shared store must not make us create a file elsewhere
        try:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
            except PermissionError:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)  # another user's lock file: flock needs no write access
        except OSError as err:
            raise _not_a_lock(err, path, key, label) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if progress and not told:
                print(f"run store: run {key} is being trained by another process; waiting for it ...",
                      file=sys.stderr, flush=True)
                told = True
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            current = os.stat(path)
            mine = os.fstat(fd)
            if (current.st_ino, current.st_dev) == (mine.st_ino, mine.st_dev):
                return path, fd
        except FileNotFoundError:
            pass
        os.close(fd)  # the holder removed the file we waited on: lock the current one


def _not_a_lock(err: OSError, path: Path, key: str, label: str) -> OSError:
    """What opening the lock path ``path`` failed with, as a one-line StoreError naming it where something else
    sits there (a symbolic link, a folder: the user removes it); any other error as it was."""
    if err.errno == errno.ELOOP:
        return StoreError(f"{label}: {path.name} is a symbolic link, not a lock file; remove it "
                          f"(the store never follows links it did not make)")
    if err.errno == errno.EISDIR:
        return StoreError(f"{label}: {path} is a folder, not a lock file; remove it to train run {key}")
    return err
