"""Execute a notebook's code cells in this process, as papermill would with ``parameters``.

The parameters cell runs first, then ``parameters`` are assigned (papermill's injected
cell), then every other code cell in order, in one fresh namespace. Much faster than a
kernel per combination (the imports and the run store's cache are shared), and the same
code: the notebook's own cells. ``tests/test_reruns.py`` also runs real papermill.
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import json
import random
from pathlib import Path

import matplotlib

matplotlib.use("Agg")


def code_cells(path: Path) -> list[tuple[list[str], str]]:
    """(tags, source) of every code cell of the notebook at ``path``."""
    nb = json.loads(Path(path).read_text())
    return [(c.get("metadata", {}).get("tags", []), "".join(c["source"]))
            for c in nb["cells"] if c["cell_type"] == "code"]


def run_cell(src: str, name: str, ns: dict) -> None:
    """Execute one cell as IPython does: the statements, then a last bare expression's value is
    shown (here: printed as its ``repr``, the ``text/plain`` a notebook would hold)."""
    tree = ast.parse(src, name)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, name, "exec"), ns)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), name, "eval"), ns)
        if value is not None:
            print(repr(value))


def execute(path: Path, parameters: dict, output_path: str | None = None) -> tuple[dict, str]:
    """Run the notebook's code with ``parameters`` (and ``PAPERMILL_OUTPUT_PATH`` if given);
    return its namespace and everything it printed. An exception propagates, with the
    cell's number in the message."""
    import matplotlib.pyplot as plt

    ns: dict = {"__name__": "__main__"}
    out = io.StringIO()
    cells = code_cells(path)
    injected = dict(parameters)
    if output_path is not None:
        injected["PAPERMILL_OUTPUT_PATH"] = output_path
    ns["In"] = [""]  # IPython's sources of the cells run so far (the current one last)
    try:
        with contextlib.redirect_stdout(out):
            for i, (tags, src) in enumerate(cells):
                ns["In"].append(src)
                try:
                    run_cell(src, f"{Path(path).name}[cell {i}]", ns)
                except Exception as err:
                    err.add_note(f"in code cell {i} of {Path(path).name} with {parameters}")
                    raise
                if "parameters" in tags:
                    ns["In"].append("".join(f"{k} = {v!r}\n" for k, v in injected.items()))
                    ns.update(injected)
    finally:
        plt.close("all")
    return ns, out.getvalue()


def draw(space: dict, n: int, seed: int) -> list[dict]:
    """``n`` combinations in which every candidate of every parameter appears (each parameter
    cycles through its shuffled candidates), ``profile`` ci."""
    rng = random.Random(seed)
    cycles = {}
    for name, values in space.items():
        values = list(values)
        rng.shuffle(values)
        cycles[name] = itertools.cycle(values)
    return [{"profile": "ci", **{k: v for k, v in ((k, next(c)) for k, c in cycles.items()) if v is not None}}
            for _ in range(n)]
