"""Executing a notebook with papermill: the kernel's own log kept out of the console, and the library modules
the notebook imported returned, so that a build re-executes a notebook only when code it ran changed.

A kernel process writes its log to the terminal it inherits: a warning that it talks over TCP
without encryption (on loopback, to this process) and, when papermill stops it (jupyter_client
interrupts a kernel before shutting it down), ``KeyboardInterrupt caught in kernel``. Neither is
about the notebook. Here the kernel's stdout and stderr go to a log file instead, printed only if
the execution fails; what the notebook's cells print still reaches the notebook (and, when
``echo`` is set, the console as it arrives: a rerun's progress bars).

The kernel is started with :data:`grok_lib.code_deps.IMPORTS_ENV` naming a file, where it records the grok_lib
modules the notebook imported (:mod:`grok_lib.code_deps`).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

from .code_deps import IMPORTS_ENV

#: Names scripts/rerun.py injects that the parameters cell does not list on purpose (grok_lib.notebook reads them).
INJECTED = ("PAPERMILL_OUTPUT_PATH",)


class _InjectedNamesAreKnown(logging.Filter):
    """Drops papermill's "Passed unknown parameter" warning for the names in :data:`INJECTED` only."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not any(record.getMessage() == f"Passed unknown parameter: {name}" for name in INJECTED)


logging.getLogger("papermill").addFilter(_InjectedNamesAreKnown())


def _kernel_manager(log_file, env: dict):
    """A kernel manager class whose kernel starts with stdout and stderr in ``log_file`` and ``env`` added to its
    environment (nbclient instantiates the class itself, so the values are set on a class made per execution)."""
    from jupyter_client.manager import AsyncKernelManager

    class KernelLogToFile(AsyncKernelManager):
        async def _async_launch_kernel(self, kernel_cmd, **kw):
            kw["stdout"] = kw["stderr"] = log_file
            kw["env"] = {**kw.get("env", os.environ), **env}
            await super()._async_launch_kernel(kernel_cmd, **kw)

    return KernelLogToFile


def execute(notebook: Path, output: Path, parameters: Optional[dict] = None, cwd: Optional[Path] = None,
            echo: bool = False) -> list[str]:
    """Execute ``notebook`` into ``output`` with papermill (``python3`` kernel); return the grok_lib modules the
    kernel imported. ``echo``: copy what the cells print to this process's stdout and stderr as it arrives. On
    failure the kernel's log is printed to stderr and papermill's error is raised."""
    import papermill as pm

    with tempfile.TemporaryDirectory(prefix="grok-kernel-") as folder:
        imports = Path(folder) / "imports.json"
        with open(Path(folder) / "kernel.log", "w+") as log:
            manager = _kernel_manager(log, {IMPORTS_ENV: str(imports)})
            try:
                pm.execute_notebook(str(notebook), str(output), parameters=parameters or {},
                                    cwd=str(cwd) if cwd else None, kernel_name="python3", progress_bar=False,
                                    kernel_manager_class=manager, stdout_file=sys.stdout if echo else None,
                                    stderr_file=sys.stderr if echo else None)
            except BaseException:
                log.flush()
                log.seek(0)
                text = log.read().strip()
                if text:
                    print(f"the kernel's log ({notebook}):\n{text}", file=sys.stderr)
                raise
        return json.loads(imports.read_text()) if imports.exists() else []
