"""Rerun one notebook with your own parameters, without touching the committed book.

    .venv/bin/python scripts/rerun.py NOTEBOOK OUTPUT.ipynb [-p NAME VALUE]... [-y YAML]...

    .venv/bin/python scripts/rerun.py notebooks/paper_a/fig1_loss_curves.ipynb /tmp/fig1.ipynb -p train_frac 0.3 -p epochs 12000
    .venv/bin/python scripts/rerun.py notebooks/paper_a/fig1_loss_curves.ipynb /tmp/fig1.ipynb -y "weight_decays: [0.5, 1.5]" --over-book

What it adds to plain papermill, before any kernel starts: every parameter name is checked
against the notebook's parameters cell (an unknown name is an error that lists them), the
output must be an ``.ipynb`` outside the committed book (``notebooks/``, ``book/``, ``recorded/``,
``figures/``, ``tests/``, ``grok_lib/``, ``_build/``; symlinks followed, its ``_outputs`` folder
included), and the output
path is passed to the notebook (as papermill's ``--inject-output-path`` does), so a run
whose settings are not the committed ones writes its figures and claims beside it, in
``OUTPUT_outputs/``. ``-p`` values are typed as papermill types them (int, float, True /
False / None, else a string); lists go through ``-y`` (YAML). The notebook itself checks
the values (one-line ConfigError naming the parameter) before anything is trained.

What the rerun writes is yours: its figures' titles and its claim records state the parameters it was given
(records: ``"setting": "your parameters"``, ``"parameters"``), its figures' data files carry their key numbers,
and what does not depend on them (figures and verdicts of the book's recorded runs) is shown as the book's and
not saved with it. ``--over-book`` draws each figure over the book's own: the book's curves in grey beneath yours.
What the notebook prints (the progress bars while it trains) reaches this console as it arrives.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from pathlib import Path

import grok_lib  # noqa: F401  first: it pins the arithmetic for this process and the kernel it starts
from grok_lib import overlay

ROOT = Path(__file__).resolve().parent.parent
#: Folders of the committed book (and what builds it): a rerun never writes there. The claims report
#: and the provenance test read every record and notebook under them.
COMMITTED = ("notebooks", "book", "recorded", "figures", "tests", "grok_lib", "_build")


def parameter_names(notebook: Path) -> list[str]:
    """The names the notebook's ``parameters`` cell assigns, in order. Read with ``ast``, not papermill's
    ``inspect_notebook``, which drops a line whose comment holds " = " (``alpha = None  # U = V = alpha I``)."""
    cells = json.loads(notebook.read_text())["cells"]
    cell = next((c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])), None)
    if cell is None:
        return []
    names = []
    for node in ast.parse("".join(cell["source"])).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        names += [t.id for t in targets if isinstance(t, ast.Name) and t.id not in names]
    return names


def typed(value: str):
    """A ``-p`` value typed as papermill's command line types it."""
    if value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[value]
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def parse(argv: list[str]) -> tuple[Path, Path, dict, bool]:
    """(notebook, output, parameters, over_book) from the command line; SystemExit(2) with a one-line message on
    misuse."""
    import yaml

    ap = argparse.ArgumentParser(description="Rerun a notebook with your own parameters (see the README).")
    ap.add_argument("notebook", type=Path)
    ap.add_argument("output", type=Path, help="the executed copy (.ipynb, outside notebooks/)")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    ap.add_argument("-y", "--yaml", action="append", default=[], metavar="YAML",
                    help='e.g. "weight_decays: [0.5, 1.5]"')
    ap.add_argument("--over-book", action="store_true",
                    help="draw each figure over the book's own (the book's curves in grey beneath yours)")
    args = ap.parse_args(argv)
    if args.notebook.suffix != ".ipynb" or not args.notebook.is_file():
        ap.error(f"{args.notebook} is not an existing .ipynb file")
    output = args.output.expanduser().resolve()
    if output.suffix != ".ipynb":
        ap.error(f"the output must be an .ipynb file, got {args.output}")
    beside = output.with_name(f"{output.stem}_outputs").resolve()  # a symlink there must not lead into the book
    inside = next((f for f in COMMITTED for path in (output, beside) if path.is_relative_to(ROOT / f)), None)
    if inside:
        ap.error(f"the output {args.output} is inside {inside}/ (the committed book); write it elsewhere, e.g. /tmp")
    params = {name: typed(value) for name, value in args.parameter}
    for text in args.yaml:
        try:
            values = yaml.safe_load(text)
        except yaml.YAMLError as err:
            ap.error(f"-y {text!r} is not YAML ({str(err).splitlines()[0]})")
        if not isinstance(values, dict):
            ap.error(f"-y {text!r} must be a mapping, e.g. \"weight_decays: [0.5, 1.5]\"")
        params |= values
    known = parameter_names(args.notebook)
    unknown = [name for name in params if name not in known]
    if unknown:
        ap.error(f"unknown parameter(s) {', '.join(unknown)}: {args.notebook.name}'s parameters are {', '.join(known)}")
    return args.notebook, output, params, args.over_book


def main(argv: list[str]) -> int:
    import papermill as pm

    from grok_lib.execution import execute

    notebook, output, params, over_book = parse(argv)
    if over_book:  # read by grok_lib.overlay in the kernel, which inherits this environment
        os.environ[overlay.ENV] = "1"
    output.parent.mkdir(parents=True, exist_ok=True)
    print(f"executing {notebook} with {params or 'its default parameters'} into {output} ...", flush=True)
    try:
        # echo: what the notebook prints (its progress bars while it trains) reaches this console as it arrives
        execute(notebook, output, parameters=params | {"PAPERMILL_OUTPUT_PATH": str(output)}, echo=True)
    except pm.PapermillExecutionError as err:
        print(f"rerun: {notebook.name} stopped: {err.ename}: {err.evalue} (the executed copy is {output})",
              file=sys.stderr)
        return 1
    beside = output.with_name(output.stem + "_outputs")
    print(f"done: {output}" + (f"; its figures and claims are in {beside}/" if beside.is_dir() else
                               " (it ran the committed settings: its figures and claims are the book's)"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
