"""Every place the project reads or writes, in one module (no relative paths in notebooks)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .config import ConfigError

#: The repository root, which is also the book root.
ROOT = Path(__file__).resolve().parent.parent

#: The arithmetic the committed book was recorded in (:mod:`grok_lib.arithmetic`; ``make baselines``).
BOOK_ARITHMETIC = ROOT / "book" / "arithmetic.json"

#: The envelope: the book's numbers and verdicts in the arithmetic variants of one machine
#: (``scripts/measure_envelope.py``); what other arithmetic is compared with, and what a verdict must survive.
ENVELOPE = ROOT / "book" / "envelope.json"

#: Figure files written by the notebooks (PNG and SVG); a build product, not committed.
FIGURES = ROOT / "figures"

#: The figure files the book ships (PNG, SVG, data), copied from FIGURES by the notebooks: committed.
SHIPPED_FIGURES = ROOT / "book" / "figure_files"

#: The claim records the notebooks write, one JSON file per notebook under its part's folder.
RECORDS = ROOT / "book" / "claims"
#: Every claim record's verdict, committed (``scripts/list_verdicts.py`` writes it after a deliberate change): a
#: verdict that moves without it fails a test that names the claim.
VERDICT_LIST = ROOT / "book" / "verdicts.json"
#: What the re-grading of 2026-12 changed, per paper: each old claim, its old verdict, the claims it became, why.
REGRADE = ROOT / "book" / "regrade"

#: Recorded runs (too long for ``make book``), one folder per set (:mod:`grok_lib.recorded`).
RECORDED = ROOT / "recorded"

#: The landing page's generated body (``scripts/make_landing.py``) and the table of contents it reads.
LANDING = ROOT / "book" / "_landing.md"
TOC = ROOT / "_toc.yml"


def store_dir() -> Path:
    """Where the run store keeps histories and checkpoints.

    ``GROK_STORE`` moves it (a shared cache on a cluster, a scratch folder in tests);
    the default is ``.cache/runs`` in the repository. A set but empty ``GROK_STORE`` is a
    ConfigError (it would silently mean the current folder); whether the folder is usable
    is checked by the store itself (:meth:`grok_lib.store.RunStore.check`).
    """
    value = os.environ.get("GROK_STORE")
    if value is None:
        return ROOT / ".cache" / "runs"
    if not value.strip():
        raise ConfigError(f"GROK_STORE must be a folder for the run store, got {value!r}; "
                          f"unset it to use {ROOT / '.cache' / 'runs'}")
    return Path(value).expanduser()


def anchor_store_env() -> None:
    """Make a relative ``GROK_STORE`` absolute, against the folder it was given in (called once, when
    grok_lib is imported; see :func:`given_in`). Child processes inherit the absolute path: a notebook kernel that papermill
    starts in ``notebooks/paper_c`` then uses the same store as the script that started it, not a
    second one inside the repository."""
    value = os.environ.get("GROK_STORE")
    if value and value.strip() and not Path(value).expanduser().is_absolute():
        os.environ["GROK_STORE"] = str(given_in() / Path(value).expanduser())


def given_in() -> Path:
    """The folder the user gave relative paths in: the current folder, except in a process that a tool started
    inside the book's ``notebooks/`` (papermill's ``--cwd``, Jupyter: a notebook's kernel), where it is the
    shell's ``PWD``, which such a kernel inherits unchanged. (``PWD`` alone is not trusted: a process that
    Python starts with another ``cwd`` inherits its parent's.)"""
    cwd, pwd = Path.cwd(), os.environ.get("PWD")
    if cwd.resolve().is_relative_to(ROOT / "notebooks") and pwd and Path(pwd).is_absolute() and Path(pwd).is_dir():
        return Path(pwd)
    return cwd


def store_label(root: Path) -> str:
    """How messages name the store folder ``root``: ``GROK_STORE=<value>`` when it comes from there."""
    value = os.environ.get("GROK_STORE")
    if value is not None and value.strip() and Path(value).expanduser() == Path(root):
        return f"GROK_STORE={value}"
    return f"run store {root}"


#: The notebooks, one folder per part (``notebooks/paper_a/``, ...), the claims report at the top.
NOTEBOOKS = ROOT / "notebooks"


def figure_path(name: str, suffix: str = ".png", folder: Path = FIGURES) -> Path:
    """The file a figure called ``name`` (``paper_a/fig1_loss_curves``) is saved to under ``folder``
    (the book's ``figures/``, or a rerun's own folder); creates the folder."""
    path = Path(folder) / f"{name}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def parts() -> list[str]:
    """The paper packages of grok_lib that are parts of the book (``paper_a``, ...): found on disk,
    not imported; a part is a ``paper_*`` package with a ``chapters`` package (its chapter modules,
    :mod:`grok_lib.chapters`). What scripts and tests iterate over, so a new part is never
    silently skipped (tests/test_layout.py fails on a ``paper_*`` package without one)."""
    lib = Path(__file__).parent
    return sorted(p.name for p in lib.glob("paper_*") if (p / "chapters" / "__init__.py").exists())


def letter(part: str) -> str:
    """A part's paper letter, as its claims, statements, pages and filters name it: ``paper_a`` -> ``A``; a part
    named otherwise is an error (a part is ``paper_`` and one lower-case letter)."""
    if not re.fullmatch(r"paper_[a-z]", part):
        raise ValueError(f"part must be named paper_<one lower-case letter> (paper_a ... paper_z), got {part!r}")
    return part[-1].upper()
