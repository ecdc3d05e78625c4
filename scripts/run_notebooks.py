"""Execute notebooks with papermill, in place and atomically (what `make notebooks` runs).

Each notebook is executed with its own default parameters into a temporary file next
to it, which then replaces the notebook; a failing notebook leaves the committed one
untouched. Extra papermill parameters are deliberately not accepted here: committed
outputs are always those of the default profile. To run with other parameters, call
papermill yourself with an output path outside notebooks/ (see the README).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import papermill as pm


def execute_in_place(path: Path) -> float:
    tmp = path.with_name(f".{path.stem}.running.ipynb")
    t0 = time.perf_counter()
    try:
        pm.execute_notebook(str(path), str(tmp), cwd=str(path.parent), kernel_name="python3", progress_bar=False, log_output=True)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return time.perf_counter() - t0


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: run_notebooks.py NOTEBOOK.ipynb [...]", file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        if path.suffix != ".ipynb" or not path.exists():
            print(f"run_notebooks: {name} is not an existing .ipynb file", file=sys.stderr)
            return 2
        print(f"executing {path} ...", flush=True)
        print(f"  done in {execute_in_place(path):.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
