"""The book ships its own source code: ``_static/source.tar.gz``, linked from every page's header.

The repository has no public address to link to, so the book carries the code itself:

- When an HTML build finishes, the archive is written into the build: ``git archive HEAD`` of the
  repository (the committed tree the notebooks' outputs come from) where the book is built from a git
  checkout; elsewhere (a copy of the tree, as ``tests/conftest.py`` builds the book) the tree's files,
  less what ``.gitignore`` names (the virtual environment, build outputs, caches) and the build itself.
- The header's "Source code" link is an ``icon_links`` entry of the theme (``html_theme_options`` in
  ``_config.yml``) whose url is :data:`ARCHIVE`. The theme writes a url as it is given, which would break
  on a nested page (``notebooks/paper_a/...``), so each page gets it relative to itself here.

Also resolved here: ``html_search_scorer`` (``book/_static/search_scorer.js``). Sphinx documents it as
relative to the configuration folder but opens it relative to the working directory, so a build started
from another folder would miss it; a relative path is made absolute against the book's root.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import tarfile
import tomllib
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Where the archive lands in the built book, and the url the header link is configured with.
ARCHIVE = "_static/source.tar.gz"


def _prefix(root: Path) -> str:
    """The folder the archive unpacks into: ``grok-lib-<version>`` (pyproject.toml)."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
        return f"{project['name']}-{project['version']}"
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "source"


def _git_archive(root: Path, out: Path, prefix: str) -> bool:
    """``git archive HEAD`` of ``root`` into ``out``; False where ``root`` is not the top of a git checkout."""
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True)
        if top.returncode != 0 or Path(top.stdout.strip()).resolve() != root.resolve():
            return False
        made = subprocess.run(["git", "-C", str(root), "archive", "--format=tar.gz", f"--prefix={prefix}/",
                               "-o", str(out), "HEAD"], capture_output=True, text=True)
    except OSError:  # no git
        return False
    return made.returncode == 0


def _tree_archive(root: Path, out: Path, prefix: str, skip: Path) -> None:
    """The files under ``root`` less ``.git``, ``skip`` and every name ``.gitignore`` matches, as a tar.gz."""
    ignore = [".git"]
    gitignore = root / ".gitignore"
    if gitignore.exists():
        ignore += [line.strip().rstrip("/") for line in gitignore.read_text().splitlines()
                   if line.strip() and not line.startswith(("#", "!"))]
    skip = skip.resolve()

    def kept(path: Path) -> bool:
        return not any(fnmatch.fnmatch(path.name, pattern) for pattern in ignore) and path.resolve() != skip

    def plain(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(out, "w:gz") as tar:
        for folder, dirs, files in os.walk(root):  # ignored folders are pruned, not walked (a .venv is large)
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if kept(here / d))
            for name in sorted(files):
                path = here / name
                if kept(path) and not path.is_symlink():
                    tar.add(path, arcname=f"{prefix}/{path.relative_to(root).as_posix()}", filter=plain)


def write_archive(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    root = Path(app.srcdir)
    out = Path(app.outdir) / ARCHIVE
    out.parent.mkdir(parents=True, exist_ok=True)
    prefix = _prefix(root)
    how = "git archive HEAD"
    if not _git_archive(root, out, prefix):
        how = "the working tree (not a git checkout)"
        _tree_archive(root, out, prefix, skip=Path(app.outdir))
    logger.info(f"source archive: {out} ({out.stat().st_size / 1e6:.1f} MB, from {how})")


def link_archive(app, pagename, templatename, context, doctree) -> None:
    """The header's link to :data:`ARCHIVE`, relative to this page."""
    links = context.get("theme_icon_links") or []
    if any(link.get("url") == ARCHIVE for link in links):
        here = context["pathto"](ARCHIVE, 1)
        context["theme_icon_links"] = [dict(link, url=here) if link.get("url") == ARCHIVE else link
                                       for link in links]


def resolve_search_scorer(app, config) -> None:
    scorer = config.html_search_scorer
    if scorer and not Path(scorer).is_absolute():
        config.html_search_scorer = str(Path(app.confdir or app.srcdir, scorer))


def setup(app):
    app.connect("config-inited", resolve_search_scorer)
    app.connect("html-page-context", link_archive)
    app.connect("build-finished", write_archive)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
