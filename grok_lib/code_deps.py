"""Which library modules a notebook ran: recorded in its kernel, hashed by the build.

A kernel started by :func:`grok_lib.execution.execute` has :data:`IMPORTS_ENV` naming a file; ``import grok_lib``
in that kernel registers a hook (:func:`record_imports_if_asked`) that writes, after every cell, the grok_lib
modules loaded so far. What a notebook imported is what it ran (lazy imports and lookups by name included), so
:func:`code_hash` of those modules is the part of the library its outputs depend on (scripts/run_notebooks.py).
Standard library only: every process that imports grok_lib imports this.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

#: The environment variable naming the file a kernel writes its imported grok_lib modules to.
IMPORTS_ENV = "GROK_IMPORTS_FILE"
LIBRARY = Path(__file__).parent


def record_imports_if_asked() -> None:
    """In a kernel started by :func:`execute`: after every cell, write the grok_lib modules loaded so far to the
    file :data:`IMPORTS_ENV` names (atomically; it lies in a temporary folder, never in the book)."""
    path = os.environ.get(IMPORTS_ENV)
    if not path:
        return
    ipython = sys.modules.get("IPython")  # a kernel has loaded it; nothing else here needs it
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return

    def write(*_):
        names = loaded_modules()
        tmp = f"{path}.tmp"
        Path(tmp).write_text(json.dumps(names))
        os.replace(tmp, path)

    shell.events.register("post_run_cell", write)


def module_hashes() -> dict[str, str]:
    """Every grok_lib module (by name) -> a hash of its source file: read once before a notebook runs, so that a
    file edited while it runs is not stamped as what it ran."""
    out = {}
    for f in sorted(LIBRARY.rglob("*.py")):
        rel = f.relative_to(LIBRARY).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(("grok_lib", *parts))] = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
    return out


def code_hash(imports: list[str], hashes: dict[str, str]) -> str:
    """The hash of the modules ``imports`` as ``hashes`` has them (a module that no longer exists counts as
    changed: ``missing``)."""
    h = hashlib.sha256()
    for name in sorted(imports):
        h.update(f"{name}={hashes.get(name, 'missing')};".encode())
    return h.hexdigest()[:16]


def loaded_modules() -> list[str]:
    """The grok_lib modules this process has loaded so far, sorted."""
    # a copy first: a kernel thread may import while this reads (a generator over sys.modules then fails)
    return sorted(m for m in list(sys.modules) if m == "grok_lib" or m.startswith("grok_lib."))


def loaded_code() -> str:
    """A short hash of the grok_lib modules this process has loaded so far: in a figure's caption, the code that
    drew it (a notebook's later imports and the modules it never loads do not change it, so a notebook that is not
    re-executed keeps a caption that is still true)."""
    return code_hash(loaded_modules(), module_hashes())[:12]
