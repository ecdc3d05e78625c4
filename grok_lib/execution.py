"""Executing a notebook with papermill, with the kernel's own log kept out of the console.

A kernel process writes its log to the terminal it inherits: a warning that it talks over TCP
without encryption (on loopback, to this process) and, when papermill stops it (jupyter_client
interrupts a kernel before shutting it down), ``KeyboardInterrupt caught in kernel``. Neither is
about the notebook. Here the kernel's stdout and stderr go to a log file instead, printed only if
the execution fails; what the notebook's cells print still reaches the notebook (and, when
``echo`` is set, the console as it arrives: a rerun's progress bars).
"""

from __future__ import annotations

import logging
import sys
import tempfile
from pathlib import Path
from typing import Optional

import papermill as pm
from jupyter_client.manager import AsyncKernelManager

#: Names scripts/rerun.py injects that the parameters cell does not list on purpose (grok_lib.notebook reads them).
INJECTED = ("PAPERMILL_OUTPUT_PATH",)


class _KernelLogToFile(AsyncKernelManager):
    """A kernel manager that starts its kernel with stdout and stderr redirected to ``log_file``."""

    log_file = None  # an open file, set on a subclass per execution (nbclient instantiates the class itself)

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        kw["stdout"] = kw["stderr"] = self.log_file
        await super()._async_launch_kernel(kernel_cmd, **kw)


class _InjectedNamesAreKnown(logging.Filter):
    """Drops papermill's "Passed unknown parameter" warning for the names in :data:`INJECTED` only."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not any(record.getMessage() == f"Passed unknown parameter: {name}" for name in INJECTED)


logging.getLogger("papermill").addFilter(_InjectedNamesAreKnown())


def execute(notebook: Path, output: Path, parameters: Optional[dict] = None, cwd: Optional[Path] = None,
            echo: bool = False) -> None:
    """Execute ``notebook`` into ``output`` with papermill (``python3`` kernel). ``echo``: copy what the
    cells print to this process's stdout and stderr as it arrives. On failure the kernel's log is printed
    to stderr and papermill's error is raised."""
    with tempfile.NamedTemporaryFile("w+", prefix="grok-kernel-", suffix=".log") as log:
        manager = type("KernelLogToFile", (_KernelLogToFile,), {"log_file": log})
        try:
            pm.execute_notebook(str(notebook), str(output), parameters=parameters or {},
                                cwd=str(cwd) if cwd else None, kernel_name="python3", progress_bar=False,
                                kernel_manager_class=manager,
                                stdout_file=sys.stdout if echo else None, stderr_file=sys.stderr if echo else None)
        except BaseException:
            log.flush()
            log.seek(0)
            text = log.read().strip()
            if text:
                print(f"the kernel's log ({notebook}):\n{text}", file=sys.stderr)
            raise
