"""Execute notebooks with papermill, in place and atomically (what `make notebooks` runs).

Each notebook is executed with its own default parameters into a temporary file next
to it, which then replaces the notebook; a failing notebook leaves the committed one
untouched. Independent notebooks run ``--jobs`` at a time (one process each; default: one
per CPU core); the notebooks given with ``--then`` run afterwards, one by one (the claims
report reads the records the others write). Extra papermill parameters are deliberately not accepted here: committed
outputs are always those of the default profile. To run with other parameters use
``scripts/rerun.py NOTEBOOK OUTPUT -p NAME VALUE`` (or papermill with ``--inject-output-path``)
with an output path outside notebooks/: such a run writes its figures and claims beside
its output notebook, never into the book (see the README).

A warm build skips what cannot have changed: each executed notebook records in its metadata the
grok_lib modules its kernel imported and a fingerprint (its cells' sources, those modules' sources, the
arithmetic, the recorded runs, the
envelope's variants of the book's machine, whose verdicts decide "partly", and, for the claims report,
the claim records it reads); a notebook whose fingerprint is unchanged and whose figure files
(the figure manifest, :func:`grok_lib.provenance.load_manifest`) are on disk is not executed again (``--force`` executes everything).
A fresh clone has no ``figures/``, so a cold build executes every notebook. An edit to a module
re-executes only the notebooks that imported it, and an executed notebook holds no time stamp, so a
notebook executed again with nothing changed is rewritten byte for byte (``git diff`` stays empty).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import functools
import hashlib
import json

import grok_lib  # noqa: F401  first: it pins the arithmetic before numpy and torch load (grok_lib/arithmetic.py)

from grok_lib import figure_numbers, paths
from grok_lib.arithmetic import arithmetic_id
from grok_lib.claims import RECORDS
from grok_lib.envelope_verdicts import measured_variants
from grok_lib.code_deps import code_hash, module_hashes
from grok_lib.execution import execute
from grok_lib.recorded import RECORDED
from grok_lib.provenance import load_manifest

FINGERPRINT = "grok_fingerprint"
IMPORTS = "grok_imports"  # the grok_lib modules the notebook's kernel imported (grok_lib.execution)


@functools.lru_cache(maxsize=1)
def _variants_of_the_book_machine() -> str:
    """What envelope_verdicts.across_arithmetic reads of the envelope (read once: the file is large and every notebook's
    fingerprint needs it)."""
    if not paths.ENVELOPE.exists():
        return ""
    return json.dumps(measured_variants(json.loads(paths.ENVELOPE.read_text())), sort_keys=True)


def fingerprint(path: Path, code: str) -> str:
    """What a notebook's outputs depend on: its cells' sources, ``code`` (the hash of the library modules it
    imported: :func:`grok_lib.code_deps.code_hash`), the arithmetic, the recorded runs (their manifests hold every
    file's checksum), the verdicts of the envelope's variants (a verdict holds only where they agree:
    envelope_verdicts.across_arithmetic), and (for the claims report, which reads them) the claim records."""
    h = hashlib.sha256()
    for cell in json.loads(path.read_text())["cells"]:
        h.update("".join(cell["source"]).encode())
    h.update(code.encode())
    h.update(arithmetic_id().encode())  # another arithmetic, other numbers
    for manifest in sorted(RECORDED.rglob("manifest.json")):
        h.update(manifest.read_bytes())
    h.update(_variants_of_the_book_machine().encode())
    if "claims_report" in path.name:
        for record in sorted(RECORDS.rglob("*.json")):
            h.update(record.read_bytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def _library_now() -> dict[str, str]:
    """The library's module hashes, read once for every notebook's up-to-date check."""
    return module_hashes()


def up_to_date(path: Path) -> bool:
    """Whether executing ``path`` again would change nothing (see the module docstring): also, the book holds
    the key numbers of each of its figures (the data files its committed run writes)."""
    metadata = json.loads(path.read_text()).get("metadata", {})
    imports = metadata.get(IMPORTS)
    if imports is None:  # executed before the build recorded what a notebook imports
        return False
    rel = path.resolve().relative_to(paths.ROOT).as_posix()
    figures = {name: e for name, e in load_manifest().items() if e["notebook"] == rel}
    files = [paths.ROOT / o for e in figures.values() for o in e["outputs"]]
    return (metadata.get(FINGERPRINT) == fingerprint(path, code_hash(imports, _library_now()))
            and all(f.exists() for f in files) and all(figure_numbers.committed(name) for name in figures))


#: What papermill and the kernel stamp into an executed notebook that changes with every execution (times,
#: durations): dropped, so that executing an unchanged notebook rewrites it byte for byte.
VOLATILE_NOTEBOOK = ("start_time", "end_time", "duration")
VOLATILE_CELL = ("execution", "papermill")


def without_timestamps(nb: dict) -> dict:
    """``nb`` without what :data:`VOLATILE_NOTEBOOK` and :data:`VOLATILE_CELL` name."""
    for key in VOLATILE_NOTEBOOK:
        nb["metadata"].get("papermill", {}).pop(key, None)
    for cell in nb["cells"]:
        for key in VOLATILE_CELL:
            cell.get("metadata", {}).pop(key, None)
    return nb


def execute_in_place(path: Path) -> float:
    tmp = path.with_name(f".{path.stem}.running.ipynb")
    t0 = time.perf_counter()
    # taken before the kernel starts: a library edited while it runs must not be stamped as what it ran
    hashes = module_hashes()
    try:
        imports = execute(path, tmp, cwd=path.parent)  # quiet: the build prints one line per notebook
        nb = without_timestamps(json.loads(tmp.read_text()))
        nb["metadata"][FINGERPRINT] = fingerprint(path, code_hash(imports, hashes))
        nb["metadata"][IMPORTS] = imports
        tmp.write_text(json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n")  # as nbformat writes
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
    ap.add_argument("--force", action="store_true", help="execute every notebook, even those that are up to date")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs must be a positive integer, got {args.jobs}")
    for name in args.notebooks + args.then:
        path = Path(name)
        if path.suffix != ".ipynb" or not path.exists():
            print(f"run_notebooks: {name} is not an existing .ipynb file", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    if not args.force:
        fresh = [n for n in args.notebooks if up_to_date(Path(n))]
        args.notebooks = [n for n in args.notebooks if n not in fresh]
        if fresh:
            print(f"{len(fresh)} notebook(s) up to date (same cells, same modules they ran, figures on disk): not executed",
                  flush=True)
    if not args.notebooks:
        pass
    elif args.jobs == 1 or len(args.notebooks) == 1:
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
        if not args.force and up_to_date(Path(name)):
            print(f"{name} up to date: not executed", flush=True)
            continue
        print(f"executing {name} ...", flush=True)
        print(f"  done in {execute_in_place(Path(name)):.0f} s", flush=True)
    print(f"notebooks executed in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
