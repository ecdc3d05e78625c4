"""How ``make test`` spreads the tests over its workers (``-n auto --dist loadfile``, tests/conftest.py): the files
that read the built book run as one work unit, so the book is built once per session, not once per worker."""
import re
from pathlib import Path

from conftest import BOOK_FILES, work_unit

ROOT = Path(__file__).resolve().parent.parent

#: A test file reads the built book if a test takes ``built_book`` or imports test_browser's ``site`` fixture.
_READS_THE_BOOK = re.compile(r"def test_\w+\([^)]*\bbuilt_book\b|from test_browser import [^\n]*\bsite\b")


def test_every_file_that_reads_the_built_book_is_in_the_book_unit():
    readers = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")
               if _READS_THE_BOOK.search(p.read_text()) or re.search(r"^def site\(built_book\)", p.read_text(), re.M)}
    assert readers == set(BOOK_FILES)


def test_the_book_files_are_one_unit_and_every_other_file_its_own():
    units = {work_unit(f"{f}::test_x") for f in BOOK_FILES}
    assert len(units) == 1
    assert work_unit("tests/test_store.py::test_x[a::b]") == "tests/test_store.py"
    assert work_unit("tests/paper_a/test_train.py::test_y") == "tests/paper_a/test_train.py"
    assert units.isdisjoint({"tests/test_book.py", "tests/test_store.py"})
