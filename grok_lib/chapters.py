"""The book's chapters, each declared once, at the end of its chapter module: one module per notebook,
``grok_lib/<part>/chapters/<stem>.py`` for ``notebooks/<part>/<stem>.ipynb``, ending in its ``CHAPTER``.

A chapter is one notebook: the one setup function it calls (its chapter module's ``run``, whose parameters are the
notebook's parameters; tests check the notebook's parameters cell and call against it), the runs that call plans at
a profile (no overrides): a list, or named groups (``{"alpha": [...], "weight_decay": [...]}``) that the
notebook and the figures read by name (``run.groups["alpha"]``), never by position and never rebuilt from
the values its runs happen to have (a group that holds several seeds is split by its configs' seed); the
claim-only runs its claims read besides them, the claims it grades (their ids: the chapter module's ``CLAIMS`` holds
each claim's words and tolerance, and a test holds the committed records to this list), and the figures it saves,
each with its title, the function that draws it from the chapter's runs (the notebook's cell is
``run.figure(chapter.FIGURE)``; the image tests draw every declared figure from synthetic runs of the same shape)
and the function that reduces the default profile's runs to the figure's key numbers. Every list that once
restated this is derived here:

- the figure manifest (:func:`manifest`: figure -> title, notebook, parameters, files),
- the key-number registry the figure-number tests and ``scripts/measure_envelope.py`` read (:func:`figure_numbers`),
- the book's runs that ``make`` trains up front (:func:`book_configs`),
- the recorded sets a figure is drawn from, which its caption names (:func:`recorded_sets`).

A part's ``chapters`` package gathers its chapter modules for the book (:func:`gathering`: ``MODULES``, ``CHAPTERS``,
``REGISTRY``, at their first use); a part with figures drawn from recorded sets also declares ``load_set(name)`` (the
histories of one of its recorded sets, or of ``"default"``: its default runs that recorded figures compare with) and
``recorded_profiles()`` (profile -> its configs), which their captions compare with. Reading Part A's declarations
loads no matplotlib (its chapter modules name it with :func:`deferred`: the GPU check reads them on a machine without
it); the chapter modules of Parts B and C import pyplot with the rest of the chapter.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from importlib import import_module
from typing import Callable, Mapping, Optional, Sequence, Union

from .paths import parts


#: A chapter's runs: a list, or named groups (a run may sit in two groups: the run two sweeps share).
Runs = Union[Sequence, Mapping[str, Sequence]]


def flat(runs: Runs) -> list:
    """The runs of a list or of named groups as one list, in order; a run in two groups is listed once."""
    if isinstance(runs, Mapping):
        return list(dict.fromkeys(c for group in runs.values() for c in group))
    return list(runs)


def shaped(runs: Runs, histories: Sequence) -> Union[list, dict]:
    """``histories`` (one per run of ``flat(runs)``, in order) in the shape of ``runs``: a list stays a
    list, named groups of configs become the same named groups of histories."""
    if not isinstance(runs, Mapping):
        return list(histories)
    by_config = dict(zip(flat(runs), histories, strict=True))
    return {name: [by_config[c] for c in group] for name, group in runs.items()}


class _Deferred:
    """A module's stand-in: each attribute read imports the module (``import_module``: the first time only, then
    from ``sys.modules``) and reads it there."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        return getattr(import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported at first use>"


def deferred(name: str) -> _Deferred:
    """Module ``name``, imported at its first attribute access and not looked up before (finding a module's spec
    runs its package's ``__init__``): Part A's chapter modules name matplotlib and the plotting style this way, so
    that reading their declarations needs no matplotlib installed (the GPU check reads them on a machine with torch
    and numpy only); drawing a figure imports it."""
    return _Deferred(name)


def no_claim_runs(runs: Runs) -> list:
    return []


@dataclass(frozen=True)
class Figure:
    name: str  # "<part>/<figure>": its files figures/<name>.png|svg, its committed numbers, its image baseline
    title: str  # what the landing page and the manifest call it
    numbers: Callable  # numbers(the chapter's default histories, shaped as its runs), or numbers(*sets)
    draw: Callable  # draw(the chapter's histories, shaped as its runs), or draw(*sets) -> a matplotlib Figure
    sets: tuple[str, ...] = ()  # recorded sets both read instead, in argument order (the part's load_set)
    interactive: bool = False  # the book also shows a version drawn in the reader's browser (grok_lib.interactive)


@dataclass(frozen=True)
class Chapter:
    notebook: str  # "notebooks/<part>/<stem>.ipynb"
    call: Callable  # the one setup function its notebook calls: its parameters are the notebook's parameters
    runs: Callable[[str], Runs]  # profile -> the configs its setup call plans with no overrides (list or named groups)
    figures: tuple[Figure, ...]
    claim_runs: Callable[[Runs], list] = no_claim_runs  # its runs (as ``runs`` gives them) -> configs one claim reads
    claims: tuple[str, ...] = ()  # the ids of the claims its notebook grades (its chapter module's CLAIMS)

    @property
    def stem(self) -> str:
        return self.notebook.rsplit("/", 1)[1].removesuffix(".ipynb")


def toc_stems(part: str) -> tuple[str, ...]:
    """The chapter modules' names of ``part``, in book order: its notebooks as
    ``_toc.yml`` lists them. A new chapter is listed there, not in a module, so adding one changes no module the other
    chapters' notebooks import (they do not re-execute)."""
    from .paths import TOC

    return tuple(re.findall(rf"^\s*- file: notebooks/{part}/(\w+)\s*$", TOC.read_text(), re.M))


def gathered(part: str) -> dict:
    """Part ``part``'s chapter modules, gathered for the book: ``MODULES`` (its chapter modules in book
    order), ``CHAPTERS`` (their declarations) and ``REGISTRY`` (its claims by id, in book order: a chapter that grades
    no claim declares no ``CLAIMS``). Its package's ``__getattr__`` calls this at the first use of any (PEP 562): a
    notebook that imports its own chapter module loads no other chapter."""
    modules = tuple(import_module(f"grok_lib.{part}.chapters.{stem}") for stem in toc_stems(part))
    return {"MODULES": modules,
            "CHAPTERS": tuple(m.CHAPTER for m in modules),
            "REGISTRY": {cid: claim for m in modules for cid, claim in getattr(m, "CLAIMS", {}).items()}}


def gathering(part: str, namespace: dict):
    """``(__getattr__, __dir__)`` for the ``chapters`` package of ``part`` (PEP 562; ``namespace``: the package's
    ``globals()``): ``MODULES``, ``CHAPTERS`` and ``REGISTRY`` (:func:`gathered`) are gathered together at the first
    use of any and kept. So a notebook that imports its own chapter module loads no other chapter, and an edit to one
    chapter re-executes only its notebook (and the claims report, which reads every chapter's claims)."""
    names = ("MODULES", "CHAPTERS", "REGISTRY")

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        namespace.update(gathered(part))
        return namespace[name]

    def __dir__():
        return sorted({*namespace, *names})

    return __getattr__, __dir__


def _module(part: str):
    return import_module(f"grok_lib.{part}.chapters")


def chapters(part: Optional[str] = None) -> list[Chapter]:
    """The chapters of ``part`` (every part's, in part order, when None)."""
    return [c for p in ([part] if part else parts()) for c in _module(p).CHAPTERS]


def chapter(part: str, stem: str) -> Chapter:
    """The chapter of notebook ``notebooks/<part>/<stem>.ipynb``."""
    found = [c for c in chapters(part) if c.stem == stem]
    if not found:
        raise KeyError(f"{part} has no chapter {stem!r}; its chapters: {', '.join(c.stem for c in chapters(part))}")
    return found[0]


def claims_of(part: str) -> dict:
    """``part``'s claims by id, gathered from its chapter modules (its ``chapters`` package's ``REGISTRY``)."""
    return _module(part).REGISTRY


def registry() -> dict:
    """Every part's claims (id -> Claim), in part order: what the claims report lists."""
    return {cid: claim for p in parts() for cid, claim in claims_of(p).items()}


def recorded_profiles(part: str) -> dict[str, list]:
    """Profile -> its configs, for the captions of ``part``'s recorded figures (its ``recorded_profiles()``)."""
    return _module(part).recorded_profiles()


def figures(part: Optional[str] = None) -> dict[str, tuple[Chapter, Figure]]:
    """Figure name -> (its chapter, the figure), in book order."""
    return {f.name: (c, f) for c in chapters(part) for f in c.figures}


def declaring(name: str) -> tuple[Chapter, Figure]:
    """(its chapter, the figure) of figure ``name``. The chapter modules already loaded are asked first: a notebook
    has imported its own, so drawing its figure loads no other chapter (and an edit to another chapter does not
    re-execute it); otherwise, or if none of them declares it, the part's chapters are gathered."""
    part = name.split("/", 1)[0]
    prefix = f"grok_lib.{part}.chapters."
    for module_name, module in list(sys.modules.items()):
        own = getattr(module, "CHAPTER", None) if module_name.startswith(prefix) else None
        for f in getattr(own, "figures", ()):
            if f.name == name:
                return own, f
    return figures(part)[name]


def manifest_entry(chapter: Chapter, figure: Figure) -> dict:
    """One figure's entry of the manifest: {title, notebook, parameters (of the committed run), outputs}."""
    return {"title": figure.title, "notebook": chapter.notebook, "parameters": {"profile": "default"},
            "outputs": [f"figures/{figure.name}.png", f"figures/{figure.name}.svg"]}


def manifest(part: Optional[str] = None) -> dict[str, dict]:
    """The figure manifest: name -> {title, notebook, parameters (of the committed run), outputs}; ``part``: only
    that part's figures."""
    return {name: manifest_entry(c, f) for name, (c, f) in figures(part).items()}


def recorded_sets(name: str) -> tuple[str, ...]:
    """The recorded sets figure ``name`` is drawn from (empty for a figure of the book's own runs)."""
    try:
        return declaring(name)[1].sets
    except KeyError:  # not a declared figure
        return ()


def book_configs(profile: str = "default", part: Optional[str] = None) -> list:
    """Every run the chapters of ``part`` (of every part when None) need, each once: their own and their
    claims' (trained up front by ``make``), in the order the chapters first need them."""
    return list(book_chapters(profile, part))  # configs are frozen: equal ones (of one type) are one run


def book_chapters(profile: str = "default", part: Optional[str] = None) -> dict:
    """Each run of :func:`book_configs` -> the chapters that need it (``"<part>/<stem>"``), for progress lines."""
    needed: dict = {}
    for c in chapters(part):
        own = c.runs(profile)
        name = f"{c.notebook.split('/')[1]}/{c.stem}"
        for config in flat(own) + c.claim_runs(own):
            needed.setdefault(config, []).append(name)
    return needed


def with_claim_runs(plan: Callable[[Runs], list], run):
    """``run`` (a notebook's :class:`~grok_lib.notebook.Run`) with the histories of its chapter's claim-only runs
    (``run.claim_histories``), planned from its own runs (named groups where it has them) and served from the store
    or trained. ``plan``: the chapter's claim-only runs (the function its declaration names as ``claim_runs``)."""
    from dataclasses import replace

    from .runs import run_all

    own = run.group_configs or list(run.configs)
    return replace(run, claim_histories=run_all(plan(own), progress=False))


def inputs(figure: Figure, runs: Runs) -> tuple:
    """The arguments ``figure``'s ``draw`` and ``numbers`` take: ``(runs,)`` (its chapter's histories, shaped as
    its runs), or, for a figure of recorded sets, those sets' histories (its part's ``load_set``)."""
    if not figure.sets:
        return (runs,)
    load = _module(figure.name.split("/", 1)[0]).load_set
    return tuple(load(s) for s in figure.sets)


def figure_numbers(part: Optional[str] = None) -> dict[str, Callable[[], dict]]:
    """Figure name -> a function computing its key numbers from the default profile's runs (or its recorded sets)."""
    from .runs import run_all

    declared = figures(part)
    runs: dict[str, list] = {}  # a chapter's default histories, read once for all its figures (they only read them)

    def compute(name: str) -> dict:
        c, f = declared[name]
        if not f.sets and c.notebook not in runs:
            own = c.runs("default")
            runs[c.notebook] = shaped(own, run_all(flat(own), progress=False))
        return f.numbers(*inputs(f, runs.get(c.notebook)))

    return {name: (lambda name=name: compute(name)) for name in declared}
