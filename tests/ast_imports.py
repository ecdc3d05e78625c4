"""The modules a Python file imports, read from its syntax tree (used by the layout and GPU-check tests)."""

from __future__ import annotations

import ast
from pathlib import Path


def imports_of(path: Path, package: str) -> set[str]:
    """Absolute names of every module ``path`` imports, wherever in the file (at the top or inside a
    function); relative imports are resolved against ``package``, the package ``path`` belongs to."""
    names = set()
    for node in ast.walk(ast.parse(Path(path).read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names |= {base} | {f"{base}.{a.name}" for a in node.names}
    return names
