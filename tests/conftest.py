from pathlib import Path

import pytest

from grok_lib import arithmetic, paths

from grok_lib.paper_a.config import profile_config
from grok_lib.store import RunStore

ROOT = Path(__file__).resolve().parent.parent


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
    if lane(request.node) != "unit":
        yield
        return
    root = tmp_path_factory.mktemp("unit-store") / "runs"
    monkeypatch.setenv("GROK_STORE", str(root))
    yield
    assert not root.exists(), ("a unit test wrote into the run store (GROK_STORE): mark it train, notebook or "
                               "book (tests/conftest.py, LANES)")


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


def pytest_report_header(config):
    facts = arithmetic.describe()
    return [f"arithmetic: {arithmetic.summary(facts)}; id {facts['id']}",
            f"comparison tier: {arithmetic.tier()} (exact where the arithmetic is the book's recording, "
            f"else within the measured envelope: book/envelope.json)"]


#: The test lanes, cheapest first (``pytest -m <lane>``; ``make test-quick`` runs ``unit``). A test is
#: ``unit`` unless it is marked otherwise or uses what a heavier lane means; ``make test`` runs them all.
LANES = {
    "unit": "no training beyond a few tiny ci runs, no notebook kernel, no book build: seconds in all",
    "train": "trains or reads the book's runs, retrains recorded prefixes, kills and resumes real processes",
    "notebook": "executes notebooks in kernels (nbval's cells of the book, papermill reruns)",
    "book": "builds the HTML book and reads it in a browser",
}
#: Fixtures that put a test in a heavier lane (whatever its own marks say).
#: (``smoke``: benchmarks/gpu_check.py's rehearsal, trained in a fresh interpreter, tests/test_gpu_check.py.)
LANE_OF_FIXTURE = {"built_book": "book", "scratch_store": "notebook", "smoke": "train"}


def pytest_configure(config):
    for lane, what in LANES.items():
        config.addinivalue_line("markers", f"{lane}: {what}")


def lane(item) -> str:
    """The lane a collected test runs in: the heaviest of its fixtures' lanes and its own marks."""
    from nbval.plugin import IPyNbCell

    found = {m.name for m in item.iter_markers() if m.name in LANES}
    found |= {LANE_OF_FIXTURE[f] for f in getattr(item, "fixturenames", ()) if f in LANE_OF_FIXTURE}
    if isinstance(item, IPyNbCell):
        found.add("notebook")
    order = list(LANES)
    return max(found, key=order.index) if found else "unit"


def pytest_collection_modifyitems(config, items):
    """Each test gets its lane's mark (so ``-m unit`` selects the quick lane). In the envelope tier nbval
    executes every notebook (an error still fails) but does not compare its printed numbers digit by
    digit: they are the book's numbers in other arithmetic, and the envelope tests (figure numbers,
    prefixes of recorded runs, verdicts) compare them instead."""
    from nbval.plugin import IPyNbCell

    envelope = arithmetic.tier() == "envelope"
    for item in items:
        item.add_marker(lane(item))
        if envelope and isinstance(item, IPyNbCell):
            item.options["check"] = False


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
