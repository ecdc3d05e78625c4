"""grok_lib: the small library behind the grokking companion book.

The shared core, one module per concern (it imports no paper package; ``chapters`` and ``provenance``
read a part's modules by name):

- :mod:`grok_lib.arithmetic`      the pinned floating-point arithmetic (set before numpy and torch load), recorded and keyed
- :mod:`grok_lib.blas`            numpy's OpenBLAS held to one thread inside a block (ctypes; numpy has no call for it)
- :mod:`grok_lib.config`          one-line validation errors, named profiles, device resolution
- :mod:`grok_lib.kinds`           the table of run kinds: how each config type trains, what its key hashes
- :mod:`grok_lib.history`         a training history: plain arrays, saved as npz
- :mod:`grok_lib.plans`           a config planned once: its kind, device and store key; groups; divergence
- :mod:`grok_lib.store`           the run store: cache, checksums, checkpoints, resume
- :mod:`grok_lib.locks`           the run store's per-key locks (one process trains a key, others wait)
- :mod:`grok_lib.runs`            sweeps: read every config's history, train the missing ones (in processes)
- :mod:`grok_lib.atomic`          atomic file writes (temporary file and rename)
- :mod:`grok_lib.guard`           the book's folders, refused to every write but the committed build's
- :mod:`grok_lib.distributed`     sweeps trained by the workers of a Dask cluster
- :mod:`grok_lib.notebook`        what a notebook holds after its one setup call
- :mod:`grok_lib.execution`       executing a notebook with papermill, the kernel's own log kept off the console
- :mod:`grok_lib.code_deps`       which library modules a notebook ran: recorded in its kernel, hashed by the build
- :mod:`grok_lib.chapters`        the chapters as each part declares them, and every list derived from them
- :mod:`grok_lib.clocks`          generic clocks: first crossings, T_cls, the grokking epoch
- :mod:`grok_lib.fits`            least-squares line and power-law fits with uncertainties
- :mod:`grok_lib.grading`         the one grading rule: a claim's declaration, draws, regimes, verdicts
- :mod:`grok_lib.claims`          the claim records, the report's tables and the headline verdicts
- :mod:`grok_lib.verdict_list`    the committed list of every record's verdict, and the re-grade's changes
- :mod:`grok_lib.coverage`        what of each paper is tested: its statements, their claims' verdicts or why not
- :mod:`grok_lib.seed_statements` what a statement of a paper is; every part's statements, gathered
- :mod:`grok_lib.envelope_verdicts` the book's verdicts held against the same claims in other arithmetic
- :mod:`grok_lib.figure_numbers`  figure regression of the numbers behind a figure
- :mod:`grok_lib.recorded`        recorded runs: long runs computed once, committed, checked against today's code
- :mod:`grok_lib.provenance`      the figure manifest and the caption under each figure
- :mod:`grok_lib.code_version`    which code made a number: the library's source hash and the commit
- :mod:`grok_lib.style`           the house plot style and saving figures
- :mod:`grok_lib.tables`          tables for notebook output (Markdown for the book, fixed-width text)
- :mod:`grok_lib.display`         figures, tables and verdicts as the book shows them (Markdown)
- :mod:`grok_lib.figure_files`    a saved figure's files: made legible, PNG, SVG and its plotted data, shipped
- :mod:`grok_lib.overlay`         a rerun's figure drawn over the book's (the book's curves in grey beneath)
- :mod:`grok_lib.landing`         the landing page's generated findings, figure gallery and results tables
- :mod:`grok_lib.findings`        the findings box at the top of every chapter and part page
- :mod:`grok_lib.interactive`     the book's interactive figures: Plotly versions drawn from the figures' data files
- :mod:`grok_lib.paths`           every path the project writes to, and the list of parts

One subpackage per paper, ``grok_lib.paper_<x>`` (:func:`grok_lib.paths.parts` finds them on disk), each with its
configs, run kinds, models, chapters, claims and statements; its own docstring names the paper and indexes its
modules, and the book's contents (``_toc.yml``) list the parts, so adding a paper edits no module that another
part's notebooks import.
"""

from . import arithmetic as _arithmetic

_arithmetic.pin()  # before anything imports numpy or torch: they choose their kernels when they load

from . import paths as _paths  # noqa: E402  (imports neither numpy nor torch)

_paths.anchor_store_env()

__version__ = "0.2.0"

from .code_deps import record_imports_if_asked as _record_imports_if_asked  # noqa: E402

_record_imports_if_asked()  # a kernel of the book's build: which grok_lib modules its notebook ran (code_deps.py)
