"""Execute notebooks with papermill, in place and atomically (what `make notebooks` runs).

Each notebook is executed with its own default parameters into a temporary file next
to it, which then replaces the notebook; a failing notebook leaves the committed one
untouched. Independent notebooks run ``--jobs`` at a time (one process each; default: one
per CPU core); the notebooks given with ``--then`` run afterwards, one by one (the claims
report reads the records the others write). Extra papermill parameters are deliberately not accepted here: committed
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


def _run_one(name: str) -> tuple[str, float]:
    return name, execute_in_place(Path(name))


def main(argv: list[str]) -> int:
    import argparse
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    ap = argparse.ArgumentParser(description="Execute notebooks in place with their default parameters.")
    ap.add_argument("notebooks", nargs="+", help="independent notebooks (run --jobs at a time)")
    ap.add_argument("--then", action="append", default=[], help="a notebook to run after all the others")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="notebooks at a time (default: CPU cores)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs must be a positive integer, got {args.jobs}")
    for name in args.notebooks + args.then:
        path = Path(name)
        if path.suffix != ".ipynb" or not path.exists():
            print(f"run_notebooks: {name} is not an existing .ipynb file", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    if args.jobs == 1 or len(args.notebooks) == 1:
        for name in args.notebooks:
            print(f"executing {name} ...", flush=True)
            print(f"  done in {execute_in_place(Path(name)):.0f} s", flush=True)
    else:
        print(f"executing {len(args.notebooks)} notebooks, {args.jobs} at a time ...", flush=True)
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            for future in as_completed([pool.submit(_run_one, n) for n in args.notebooks]):
                name, seconds = future.result()  # a failing notebook raises here
                print(f"  {name} done in {seconds:.0f} s", flush=True)
    for name in args.then:
        print(f"executing {name} ...", flush=True)
        print(f"  done in {execute_in_place(Path(name)):.0f} s", flush=True)
    print(f"notebooks executed in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
