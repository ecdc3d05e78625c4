"""One OpenBLAS thread for numpy inside a block. Numpy has no call for it (and threadpoolctl is not a dependency),
but the OpenBLAS its wheel loads exports its own ``set_num_threads``: found here in numpy's bundled libraries and
called through ctypes. With two processes side by side (``pytest -n 2``, two training workers), an OpenBLAS whose idle
threads spin on the other process's core made a d = 4,000 diagonal-net step about ten times slower (2.4 ms against
0.22 ms; DEVELOPING.md), and its reductions (a norm, a dot product) give other last bits with another thread count."""

from __future__ import annotations

import contextlib
import ctypes
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

#: The thread-count calls of the OpenBLAS builds numpy ships (scipy-openblas, 64-bit ints), then the plain names.
_CALLS = (("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
          ("openblas_set_num_threads", "openblas_get_num_threads"))


def _openblas() -> Optional[tuple]:
    """(set, get) of the OpenBLAS numpy loaded, or None where none is found (another BLAS: nothing to limit here)."""
    libs = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(libs.glob("*openblas*.so*")):
        lib = ctypes.CDLL(str(path))  # the library numpy already loaded: dlopen hands back the same one
        for set_name, get_name in _CALLS:
            if hasattr(lib, set_name) and hasattr(lib, get_name):
                return getattr(lib, set_name), getattr(lib, get_name)
    return None


def threads() -> Optional[int]:
    """numpy's OpenBLAS thread count now (None where no OpenBLAS is found)."""
    calls = _openblas()
    return int(calls[1]()) if calls else None


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """numpy's OpenBLAS runs one thread inside the block, and what it ran before after it."""
    calls = _openblas()
    if calls is None:
        yield
        return
    set_threads, get_threads = calls
    before = int(get_threads())
    set_threads(1)
    try:
        yield
    finally:
        set_threads(before)
