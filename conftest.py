"""What every pytest session of this repository applies, whichever folder it collects: ``make test`` runs
``pytest tests`` and then ``pytest notebooks`` (nbval) as two sessions, and only this file (the rootdir's
conftest) is loaded by both. It holds the rules a test's outcome depends on in both: the comparison tier
(printed in the header) and what nbval compares in it, and the test lanes. The fixtures of ``tests/`` are in
``tests/conftest.py``."""

import pytest

from grok_lib import arithmetic

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


def pytest_report_header(config):
    facts = arithmetic.describe()
    return [f"arithmetic: {arithmetic.summary(facts)}; id {facts['id']}",
            f"comparison tier: {arithmetic.tier()} (exact where the arithmetic is the book's recording, "
            f"else within the measured envelope: book/envelope.json)"]


def pytest_terminal_summary(terminalreporter):
    """The tier again at the end, where ``-q`` (``make test-quick``) still prints it: the header is not shown there."""
    terminalreporter.write_line(f"comparison tier: {arithmetic.tier()} (arithmetic id {arithmetic.describe()['id']})")


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


def nbval_compares(tier: str) -> bool:
    """Whether nbval compares a checked cell's printed output digit by digit in ``tier``: only in the exact tier.
    Elsewhere the cells print the book's numbers in other arithmetic; nbval still executes every notebook (an
    error fails), and the envelope tests (figure numbers, prefixes of recorded runs, verdicts) compare instead."""
    return tier == "exact"


def pytest_collection_modifyitems(config, items):
    """Each test gets its lane's mark (so ``-m unit`` selects the quick lane), and each nbval cell is compared
    as the tier says (:func:`nbval_compares`)."""
    from nbval.plugin import IPyNbCell

    compare = nbval_compares(arithmetic.tier())
    for item in items:
        item.add_marker(lane(item))
        if not compare and isinstance(item, IPyNbCell):
            item.options["check"] = False
