"""What a notebook holds after its one setup call, how its parameters reach that call, and
where a run writes.

Each chapter's setup function builds a :class:`Run` from a notebook's parameters (one call,
parameters in, configs and histories out), so notebooks define no functions and repeat no
plumbing: its chapter module's ``run``. The setup
cell passes the notebook's namespace explicitly::

    run = chapter.run(**notebook.parameters(globals(), chapter.run))

:func:`parameters` returns the arguments of that function (the chapter's ``call``, see
:mod:`grok_lib.chapters`): the notebook's parameters are its positional-or-keyword parameters
(the notebook's parameters cell assigns exactly these; ``tests/test_notebooks_ci.py`` checks
it for every notebook), each taken from the namespace,
and its keyword-only ``output_path`` is papermill's ``PAPERMILL_OUTPUT_PATH`` (injected by
``papermill --inject-output-path`` and by ``scripts/rerun.py``). Any other name bound to a
plain value (None, a bool, number, string, list or dict: what ``papermill -p`` / ``-y``
inject) is an unknown parameter: a one-line ConfigError that lists the notebook's
parameters, raised before anything is trained or written. So is any name a cell before the setup
cell assigned (papermill's injected cell among them, read from IPython's history, not from ``In``),
whatever it shadows: ``-p In 5``, ``-p open 1`` and ``-p _epochs 5`` are unknown parameters. Otherwise,
names starting with ``_``, IPython's own names, modules, functions, classes and other objects in the
namespace are the notebook's, not parameters. In a live kernel whose namespace already holds a :class:`Run` (the setup cell
ran before, and later cells have bound their own values) the check is not repeated.

Where a run writes (:func:`start`): a run whose planned runs are exactly those of the
committed settings (the same store keys as the default profile on the CPU, in the arithmetic
the book was recorded in: the same numbers as the committed book) writes the book's claim records (``book/claims``) and
figures (``figures/``). Any other run writes its figures and claims into
``<output notebook>_outputs/`` beside its output notebook, or into a new temporary folder
when the output notebook is unknown (Jupyter, papermill without ``--inject-output-path``),
and prints where.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional, Sequence

from . import arithmetic, overlay, paths
from .chapters import Runs, flat, shaped
from .claims import DEFAULT_SETTING, RECORDED_SETTINGS, Result, format_results, save_records
from .envelope_verdicts import across_arithmetic
from .guard import book_writes, check_write
from .config import ConfigError, aligned_dicts
from .history import History
from .plans import plan, run_key
from .runs import run_all
from .store import RunStore
from .tables import format_value

#: The values papermill can inject (``-p`` and ``-y``): a global holding one of these is a parameter.
PLAIN = (type(None), bool, int, float, str, list, dict)
#: Names IPython puts into every namespace.
IPYTHON_NAMES = frozenset({"In", "Out", "get_ipython", "exit", "quit", "open"})
#: Papermill's own injected names, and the setup argument each one feeds (None: unused).
PAPERMILL_NAMES = {"PAPERMILL_INPUT_PATH": None, "PAPERMILL_OUTPUT_PATH": "output_path"}


def swept(values: Sequence) -> str:
    """The values a swept parameter takes, for a settings table ("0.1, 0.2, …, 0.9" when many)."""
    shown = [format_value(v) for v in values]
    return ", ".join(shown if len(shown) <= 6 else shown[:3] + ["…", shown[-1]]) + f" ({len(values)} values)"


@dataclass
class Run:
    profile: str  # the named profile the notebook ran with
    parameters: dict  # the notebook's parameters as given (None: the profile's value), for captions
    configs: list  # the resolved configs, in order
    histories: list[History] = field(default_factory=list)  # one per config, same order
    output: Optional[Path] = None  # this run's own folder for figures and claims (set by start() for other settings)
    committed_settings: bool = False  # set by start(): the run's store keys are the committed ones
    book_settings: bool = False  # set by start(): the committed settings, in whatever arithmetic (the envelope applies)
    devices: tuple = ()  # set by start(): the devices the runs were planned on, for captions
    # Runs one claim reads and no figure draws (a verdict's further seeds), planned from the run's configs (its
    # named groups where it has them) by the chapter (grok_lib.chapters.with_claim_runs): kept apart, so that no
    # figure or table picks them up.
    claim_histories: list[History] = field(default_factory=list)
    # Named groups (set by start() when the setup call planned its runs as named groups): group name -> its
    # histories, in the group's order (``run.groups["alpha"]``); ``group_configs`` the same for the configs.
    groups: dict[str, list[History]] = field(default_factory=dict)
    group_configs: dict[str, list] = field(default_factory=dict)

    @property
    def committed(self) -> bool:
        """Whether this run writes the book's claim records and figures: :func:`start` decided its
        settings are the committed ones (a Run built directly never writes the book)."""
        return self.committed_settings and self.output is None

    def settings(self, skip: Sequence[str] = ()) -> list[dict]:
        """The configs' settings as table rows (parameter, value), less ``skip``: the value every
        config shares, or, for a parameter the sweep varies, the values it takes (in order)."""
        configs = aligned_dicts(self.configs)
        rows = []
        for k, v in configs[0].items():
            if k in skip:
                continue
            values = list({repr(c[k]): c[k] for c in configs}.values())
            rows.append({"parameter": k, "value": v if len(values) == 1 else swept(values)})
        return rows

    def figure(self, figure):
        """Draw ``figure`` as its chapter declares it (a :class:`grok_lib.chapters.Figure`, or its name
        ``"<part>/<name>"``: from this run's histories, as named groups where it has them, or from the recorded sets
        it declares), save it and return it for display with its caption (:meth:`saved_figure`): a figure cell is
        ``run.figure(chapter.FIGURE)``, or ``run.figure("<part>/<name>")``."""
        from . import chapters, style

        if isinstance(figure, chapters.Figure):
            declared, name = figure, figure.name
        else:
            name = figure
            declared = chapters.declaring(name)[1]  # its own part's declarations only
        if declared.sets and not self.committed:  # recorded runs: the book's figure, whatever this run's parameters
            return self.books_figure(name)
        args = chapters.inputs(declared, self.groups or self.histories)
        style.use_house_style()
        fig = declared.draw(*args)
        # the figure's key numbers go into its data file (the book's run: what the figure-number tests compare)
        return self.saved_figure(fig, name, interactive=declared.interactive, numbers=declared.numbers(*args))

    def given(self) -> str:
        """The parameters this run was given (those not left to its profile), as a rerun's titles and records
        state them: ``profile='ci', weight_decays=[0.3, 1.5]``."""
        shown = {k: v for k, v in self.parameters.items() if v is not None and k != "output_path"}
        return ", ".join(f"{k}={v!r}" for k, v in shown.items())

    def books_figure(self, name: str):
        """Figure ``name`` as the book shows it (its committed files, not redrawn, not copied): a figure of
        recorded runs in a rerun, which the rerun's parameters do not change."""
        from . import display, figure_files, provenance

        files = {suffix: paths.figure_path(name, f".{suffix}", figure_files.SHIPPED) for suffix in ("png", "svg", "json")}
        files["layout"] = json.loads(files["json"].read_text())["layout"]
        return display.FigureView(name, provenance.manifest_entry(name)["title"], files, None,
                                  provenance.stamp(name, {}, ()),
                                  note="(the book's figure, from its recorded runs: your parameters do not change it, "
                                       "so it is not saved with your run)")

    def saved_figure(self, fig, name: str, interactive: bool = False, numbers=None):
        """Save the drawn figure ``name`` legibly (PNG, SVG and its plotted data as JSON) and return it for
        display with its caption: the cell's last expression. The committed run's files are also copied into
        the book (``book/figure_files``), which shows the PNG and links all three; any other run's stay in its
        own folder. ``interactive``: the book also shows, in a dropdown under the figure, a version drawn from
        the same data in the reader's browser (hover values, zoom, series toggled from the legend;
        grok_lib.interactive). ``numbers``: the figure's key numbers, written into its data file."""
        import matplotlib.pyplot as plt

        from . import display, figure_files, provenance

        entry = provenance.manifest_entry(name)
        title = entry["title"]
        if self.output is not None:  # a rerun: its title says what it ran, and its figure may lie over the book's
            title = f"{title} (your run: {self.given()})"
            if overlay.requested() and overlay.draw_book_beneath(fig, name):
                title += "; grey: the book's run"
        if self.output is None:
            with book_writes() if self.committed else contextlib.nullcontext():  # else refused: not the book's run
                files = figure_files.ship(figure_files.save_figure_files(fig, name, title, numbers=numbers), name)
            plt.close(fig)
            return display.FigureView(name, title, files, entry["notebook"],
                                      provenance.stamp(name, self.parameters, self.devices), interactive=interactive)
        files = figure_files.save_figure_files(fig, name, title, self.output / "figures", numbers=numbers)
        plt.close(fig)
        return display.FigureView(name, title, files, None, provenance.stamp(name, self.parameters, self.devices),
                                  note=f"(saved to {files['png'].parent}; the book's figures are not touched)",
                                  interactive=interactive)

    def verdicts(self, results: Sequence[Result], source: str, setting: str = DEFAULT_SETTING):
        """Record ``results`` as :meth:`report` does and return them for display (the cell's last
        expression): each claim's verdict marked by colour and word, as Markdown that wraps."""
        from .display import Verdicts

        text = self.report(results, source, setting)
        if self.book_settings:
            results = across_arithmetic(results, setting)
        note = text[len(format_results(results)):].strip()
        return Verdicts(list(results), note)

    def report(self, results: Sequence[Result], source: str, setting: str = DEFAULT_SETTING) -> str:
        """Record ``results`` as the claims of notebook ``source`` (in ``book/claims`` only for the
        committed settings, else in this run's folder) and return them as text to print. ``setting``
        names results on other runs than the notebook's own (recorded runs, other seeds; see
        :data:`grok_lib.claims.DEFAULT_SETTING`): they are recorded where the notebook's are."""
        if self.book_settings:  # a verdict of the book holds only where every measured arithmetic gives it
            results = across_arithmetic(results, setting)
        text = format_results(results)
        if self.committed:
            with book_writes():
                save_records(results, source, setting=setting)
            return text
        if self.output is None:  # a Run built without start(), not the default profile
            return (f"{text}\n(claims of the {self.profile!r} profile are not recorded; "
                    f"the report shows the default profile's)")
        # given nothing but the default profile, this is the book's own run elsewhere (another arithmetic: what
        # scripts/measure_envelope.py measures): its records are the book's settings, recorded ones included
        own = self.given() == f"profile={DEFAULT_SETTING!r}"
        if setting in RECORDED_SETTINGS and not own:  # the book's recorded runs: the same verdicts whatever the parameters
            return f"{text}\n(the book's verdicts on its recorded runs: not recorded with your run)"
        path = save_records(results, source, self.output / "claims", setting=setting, given="" if own else self.given())
        return f"{text}\n(judged on your run: {self.given()}; recorded in {path}; book/claims is not touched)"


def parameters(namespace: dict, setup) -> dict:
    """The arguments of ``setup`` from a notebook's ``namespace`` (its ``globals()``); a one-line
    ConfigError listing the notebook's parameters for any unknown one (see the module docstring)."""
    signature = inspect.signature(setup).parameters
    names = [n for n, p in signature.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    if not any(isinstance(v, Run) for v in namespace.values()):  # the first setup in this kernel
        # a value bound in the namespace may be IPython's or private; a name a cell assigned is a parameter
        # whatever it shadows (papermill's -p In 5, -p open 1, -p _epochs 5)
        bound = {n for n, v in namespace.items() if isinstance(v, PLAIN)
                 and not n.startswith("_") and n not in IPYTHON_NAMES}
        unknown = sorted(n for n in bound | assigned_before(namespace) if n not in names and n not in PAPERMILL_NAMES)
        if unknown:
            raise ConfigError(f"unknown parameter(s) {', '.join(unknown)}: this notebook's parameters are "
                              f"{', '.join(names)}")
    kwargs = {n: namespace[n] for n in names if n in namespace}
    for injected, argument in PAPERMILL_NAMES.items():
        if argument in signature and signature[argument].kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[argument] = namespace.get(injected)
    return kwargs


def assigned_before(namespace: dict) -> set[str]:
    """The names the cells before this one assigned at their top level (IPython's ``In``: the sources
    of the cells run so far, this one last). A value papermill injected under a name that the setup
    cell then re-imports (``-p chapter 1``) is no longer in the namespace, but its assignment is here."""
    sources = cell_sources(namespace)
    names = set()
    for src in sources[:-1]:
        try:
            tree = ast.parse(src if isinstance(src, str) else "")
        except SyntaxError:  # IPython magics: not a parameters cell
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AnnAssign, ast.AugAssign)) else []
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def cell_sources(namespace: dict) -> list:
    """The sources of the cells run so far in the kernel whose namespace is ``namespace``, this one last:
    read from IPython's history, not from the name ``In``, which a parameter can shadow (``-p In 5``);
    outside IPython, the namespace's ``In`` if it is a list (tests), else none."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the notebook stack
        get_ipython = lambda: None  # noqa: E731
    shell = get_ipython()
    if shell is not None and shell.user_ns is namespace:
        return list(shell.history_manager.input_hist_parsed)
    sources = namespace.get("In")
    return sources if isinstance(sources, list) else []


def _claims_report(profile: str = "default"):
    """The claims report's parameters (it reads the committed records; it trains nothing)."""


def report_parameters(namespace: dict) -> None:
    """Check the claims report's parameters (its ``globals()``): an unknown name, or a profile other than
    ``default`` (the report shows the committed default-profile records, whatever it is asked), is a
    one-line ConfigError, as in every other notebook."""
    profile = parameters(namespace, _claims_report).get("profile", "default")
    if profile != "default":
        raise ConfigError(f"profile must be 'default' for the claims report (it reads the committed records of the "
                          f"default profile; rerun a chapter with another profile to see its verdicts), got {profile!r}")


def output_folder(output_path: Optional[str]) -> Path:
    """Where a run that is not the committed one writes: ``<output notebook without .ipynb>_outputs/``
    beside its output notebook, or a new temporary folder if that is unknown."""
    if output_path:
        out = Path(output_path).expanduser().resolve()
        return out.with_name(f"{out.stem}_outputs")
    return Path(tempfile.mkdtemp(prefix="grok-rerun-"))


def start(profile: str, given: dict, configs: Runs, committed: Runs, output_path: Optional[str] = None,
          store: Optional[RunStore] = None) -> Run:
    """Plan ``configs`` (every ConfigError before anything runs), decide where the run writes, and
    serve the histories from the store (trained on a miss). ``configs`` is a list or named groups
    (:data:`grok_lib.chapters.Runs`); named groups reach the notebook as ``run.groups``, each run
    trained once however many groups hold it.

    The run has the committed settings if its store keys equal those of ``committed`` (the
    notebook's default-profile configs) run on the CPU, where the book is made, and this process
    computes in the arithmetic the book was recorded in (elsewhere the numbers differ in their
    last bits, and so the run writes beside its output notebook).
    """
    groups = dict(configs) if isinstance(configs, Mapping) else {}
    configs, committed = flat(configs), flat(committed)
    plans = [plan(c) for c in configs]
    store = store or RunStore()
    store.check()  # GROK_STORE is a folder (or nothing yet): before any folder is made for the outputs
    book_settings = [p.key for p in plans] == [run_key(c, "cpu") for c in committed]
    is_committed = book_settings and arithmetic.tier() == "exact"
    output = None if is_committed else output_folder(output_path)
    if output is not None:
        check_write(output, "this run's figures and claims")  # before anything is trained
        overlay.requested()  # a bad GROK_OVER_BOOK is an error now, not after the training
        print(f"These settings are not the committed ones: this run's figures and claims go to {output}/ "
              f"(book/claims and figures/ are not touched).")
    trained = len({p.key for p in plans if not store.has(p.key)})
    t0 = time.perf_counter()
    histories = run_all(plans, store)
    if output is not None:  # a rerun keeps, in its executed notebook, what it trained (the book's build trains first)
        runs = len({p.key for p in plans})
        sys.stderr.flush()  # the progress bars' last line first
        print(f"This run: {runs} run(s), {trained} trained now ({time.perf_counter() - t0:.0f} s), "
              f"{runs - trained} read from the run store {store.root}.")
    return Run(profile, dict(given), configs, histories, output=output, committed_settings=is_committed,
               book_settings=book_settings, devices=tuple(sorted({p.device for p in plans})),
               groups=shaped(groups, histories) if groups else {}, group_configs=groups)
