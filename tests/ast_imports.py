"""The modules a Python file imports, read from its syntax tree (used by the layout and GPU-check tests)."""

from __future__ import annotations

import ast
from pathlib import Path


def _nodes(tree: ast.AST, in_functions: bool):
    """Every node of ``tree``; without ``in_functions`` none inside a function's body (what importing the module runs)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if in_functions or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def imports_of(path: Path, package: str, in_functions: bool = True) -> set[str]:
    """Absolute names of every module ``path`` imports, wherever in the file (at the top or inside a
    function; with ``in_functions`` False only those importing the module runs); relative imports are resolved
    against ``package``, the package ``path`` belongs to."""
    names = set()
    for node in _nodes(ast.parse(Path(path).read_text()), in_functions):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names |= {base} | {f"{base}.{a.name}" for a in node.names}
    return names
