"""The fixtures of tests/. The rules every session applies (lanes, the comparison tier, what nbval compares in
it) are in the repository's root conftest.py, which `pytest notebooks` loads too."""
from pathlib import Path

import pytest

from grok_lib import arithmetic, paths

from grok_lib.paper_a.config import profile_config
from grok_lib.store import RunStore

ROOT = Path(__file__).resolve().parent.parent

#: The test files that read the built book (the session fixture ``built_book``, directly or through
#: test_browser's ``site``). A session is one per xdist worker, so the book is built once per worker that runs
#: one of them: under ``--dist loadfile`` (the Makefile's) they run as one work unit, on one worker, and the book
#: is built once instead of once on each worker (the build is about 50 s of a core in make test).
BOOK_FILES = ("tests/test_book.py", "tests/test_browser.py", "tests/test_browser_layout.py",
              "tests/test_browser_pages.py", "tests/test_browser_search.py")


def work_unit(nodeid: str) -> str:
    """The work unit of a test under ``--dist loadfile``: its file, or one unit for every file of BOOK_FILES."""
    path = nodeid.split("::", 1)[0]
    return "the built book" if path in BOOK_FILES else path


def pytest_xdist_make_scheduler(config, log):
    """xdist's file scheduling with the book's files as one unit (:func:`work_unit`); any other --dist as xdist
    has it (None: xdist's own hook decides)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BookFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return BookFilesTogether(config, log)


@pytest.fixture
def ci_config():
    """A config that trains in about a second on a CPU."""
    return profile_config("ci", device="cpu")


@pytest.fixture
def store(tmp_path):
    return RunStore(tmp_path / "runs")


@pytest.fixture(autouse=True)
def _no_device_override(monkeypatch):
    # Tests say their device explicitly; a GROK_DEVICE in the caller's shell must not leak in.
    monkeypatch.delenv("GROK_DEVICE", raising=False)


@pytest.fixture(autouse=True)
def _unit_tests_leave_the_run_store_alone(request, tmp_path_factory, monkeypatch):
    """The unit lane trains nothing into a run store: each unit test gets an empty GROK_STORE of its own and
    fails if anything lands there (``make test-quick`` must work in a fresh clone with no runs)."""
    heavier = {"train", "notebook", "book"}  # the lanes the root conftest.py marks beside "unit"
    if any(m.name in heavier for m in request.node.iter_markers()):
        yield
        return
    root = tmp_path_factory.mktemp("unit-store") / "runs"
    monkeypatch.setenv("GROK_STORE", str(root))
    yield
    assert not root.exists(), ("a unit test wrote into the run store (GROK_STORE): mark it train, notebook or "
                               "book (conftest.py, LANES)")


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """The book built strictly from a copy of the working tree: (returncode, log, html folder).

    A copy, so a test run never touches the working tree's _build; built once per session
    and shared by the build test and the browser test.
    """
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    src = tmp_path_factory.mktemp("book") / "src"
    shutil.copytree(root, src, ignore=shutil.ignore_patterns(
        ".venv", "_build", ".cache", ".git", "figures", "test-artifacts", ".pytest_cache"))
    jb = Path(sys.executable).parent / "jupyter-book"
    proc = subprocess.run([str(jb), "build", str(src), "--all", "-W", "--keep-going"], capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr, src / "_build" / "html"


@pytest.fixture(scope="module")
def scratch_store(tmp_path_factory):
    """One run store for a test module (its notebook runs share their runs), never the book's: GROK_STORE
    points at it while the module's tests run."""
    import os

    root = tmp_path_factory.mktemp("store") / "runs"
    old = os.environ.get("GROK_STORE")
    os.environ["GROK_STORE"] = str(root)
    yield root
    if old is None:
        del os.environ["GROK_STORE"]
    else:
        os.environ["GROK_STORE"] = old


@pytest.fixture
def one_thread():
    """Train in one torch thread, as the run store trains every run (grok_lib.arithmetic.one_thread):
    under MKL's COMPATIBLE branch (DEFAULT_PINS, and AMD's pin set 1) sgemm gives other last bits with another
    thread count (under AMD's AUTO and Intel's AVX2 branch it did not, measured), so a
    reference trained directly must use the store's thread count to compare bitwise."""
    with arithmetic.one_thread():
        yield


def book_files() -> dict:
    """Every part's claim records, figures and figure files in the book, and the notebooks, by path (what a
    rerun must never write)."""
    watched = [*(ROOT / "book" / "claims").rglob("*.json"), *paths.FIGURES.rglob("*.*"),
               *(ROOT / "book" / "figure_files").rglob("*.*"), *(ROOT / "notebooks").rglob("*.ipynb")]
    return {p: p.read_bytes() for p in watched if p.is_file()}


@pytest.fixture
def book_unchanged():
    """Fail if a test writes the book's claim records, figures or notebooks (restoring any it changed, and
    removing any file it added)."""
    before = book_files()
    yield
    after = book_files()
    changed = sorted(str(p.relative_to(ROOT)) for p in after if before.get(p) != after[p])
    for p, data in before.items():
        if after.get(p) != data:
            p.write_bytes(data)
    for p in after.keys() - before.keys():
        p.unlink()
    assert not changed, f"a rerun wrote into the book: {changed}"
