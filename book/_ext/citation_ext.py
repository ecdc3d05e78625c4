"""The commit the book was built from, in the citation on its first page ("Cite this book").

``book/intro.md`` holds the placeholder :data:`PLACEHOLDER` in its BibTeX entry; when Sphinx reads that page it is
replaced by the commit of the checkout the HTML is built from (``git rev-parse HEAD``, the tree that the header's
source archive also holds: ``book/_ext/source_ext.py``), with "plus uncommitted changes" where tracked files differ
from it. Filled in at build time, not committed: a hash written into the committed page would be stale one commit
later. Built from a copy with no git history (``tests/conftest.py``), the entry says so instead of naming a commit.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

PLACEHOLDER = "@BOOK_COMMIT@"
#: The page whose source holds the placeholder.
DOCNAME = "book/intro"


def commit(root: Path) -> str:
    """The words that name the commit the book in ``root`` is built from."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout.strip()

    try:
        if git("rev-parse", "--show-toplevel") != str(root.resolve()):
            raise subprocess.CalledProcessError(1, "git")  # a folder inside another repository: not this book's history
        sha = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (built from a copy without its git history)"
    return f"commit {sha}" + (" plus uncommitted changes" if dirty else "")


def _fill(app, docname: str, source: list[str]) -> None:
    if docname == DOCNAME:
        source[0] = source[0].replace(PLACEHOLDER, commit(Path(app.confdir)))


def _always_outdated(app, env, added, changed, removed):
    return [DOCNAME]  # the commit changes without the page's source changing


def setup(app):
    app.connect("source-read", _fill)
    app.connect("env-get-outdated", _always_outdated)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
