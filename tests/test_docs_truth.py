"""What the README and DEVELOPING.md state about the code stays true: the run count of the measured timings, the
commits they name, the example errors (each produced by the code and compared with the text), the tier line that
`make test-quick` prints. A change that makes one of them stale fails here, so the docs are updated with it."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from grok_lib.chapters import book_configs
from grok_lib.config import ConfigError
from grok_lib.notebook import parameters
from grok_lib.paper_a import run_sets
from grok_lib.paper_a.chapters import deep_linear_clocks as dln_chapter

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
DEVELOPING = (ROOT / "DEVELOPING.md").read_text()

pytestmark = pytest.mark.unit


def _flat(text: str) -> str:
    """Prose with its line breaks and runs of spaces as single spaces (a message may wrap in the Markdown)."""
    return re.sub(r"\s+", " ", text)


def _timing_cell(row: str) -> str:
    """The newest measurement (the first column after the command) of the README's timing-table row that starts
    with ``row``."""
    line = next((line for line in README.splitlines() if line.startswith(row)), None)
    assert line, f"the README's timing table has no row starting {row!r}"
    return line.split(" | ")[1]


@pytest.mark.parametrize("row", ["| `make book`, cold", "| `make test` ("])
def test_the_readme_timings_name_a_commit_of_this_history_and_todays_run_count(row):
    cell = _timing_cell(row)
    commit = re.search(r"\(([0-9a-f]{7,40})\b", cell)
    runs = re.search(r"(\d+) runs trained", cell)
    assert commit and runs, f"the README's timing {row!r} must name its commit and its run count: {cell!r}"
    trained = len(set(book_configs("default")))  # what scripts/train_book_runs.py trains
    assert int(runs.group(1)) == trained, (
        f"the README's timing {row!r} was measured with {runs.group(1)} runs; the book trains {trained} today: "
        f"measure it again from a fresh clone and update the row")
    if (ROOT / ".git").exists():
        known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit.group(1)}^{{commit}}"],
                               capture_output=True)
        assert known.returncode == 0, f"the README's timing {row!r} names {commit.group(1)}, not in this history"


def _message(call, **given) -> str:
    with pytest.raises(ConfigError) as err:
        call(**given)
    return str(err.value)


#: Each example error DEVELOPING.md quotes, and the call that makes it today.
EXAMPLES = {
    "unknown parameter": lambda: _message(lambda: parameters({"lr": 1e6}, run_sets.mlp)),
    "train_frac": lambda: _message(run_sets.mlp, train_frac=1.5),
    "weight_decays": lambda: _message(run_sets.mlp, weight_decays=[-1]),
    "depths": lambda: _message(dln_chapter.run, depths=[5]),
    "memory": lambda: _message(run_sets.mlp, p=10007),
    "time": lambda: _message(dln_chapter.run, steps=10**13),
}


@pytest.mark.parametrize("example", EXAMPLES)
def test_developings_example_errors_are_what_the_code_says(example, tmp_path, monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    message = EXAMPLES[example]()
    quoted = message in _flat(DEVELOPING)
    assert quoted, f"DEVELOPING.md's example of the {example} error is not what the code says today: {message}"


def test_make_test_quick_prints_the_comparison_tier():
    """The README says pytest prints the tier; ``make test-quick`` runs it with ``-q``, which hides the header."""
    quick = subprocess.run(["make", "-n", "-s", "test-quick"], capture_output=True, text=True, cwd=ROOT).stdout
    assert " -q" in quick  # what follows checks the tier line survives -q
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_fits.py", "-k", "not_a_test_name"], capture_output=True, text=True, cwd=ROOT)
    assert re.search(r"^comparison tier: (exact|envelope) ", done.stdout, re.M), done.stdout[-2000:]


def test_the_readme_has_a_use_the_library_section_of_its_own():
    assert re.search(r"^## Use the library", README, re.M)


def prose_files() -> dict[str, str]:
    """Every text a reader or a developer reads: the notebooks' markdown cells, the book's pages and the READMEs."""
    import json

    texts = {str(p): p.read_text() for p in (*ROOT.glob("book/*.md"), ROOT / "README.md", ROOT / "DEVELOPING.md",
                                              ROOT / "benchmarks" / "README.md")}
    for p in sorted(ROOT.glob("notebooks/**/*.ipynb")):
        cells = json.loads(p.read_text())["cells"]
        texts[str(p)] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return texts


def test_every_source_file_the_prose_names_exists():
    """A module moved or split (as the role modules were, into one module per chapter) leaves no page pointing at it."""
    named = {(path, m.group(0)) for path, text in prose_files().items()
             for m in re.finditer(r"\b(?:grok_lib|benchmarks|scripts|tests)/[A-Za-z0-9_/]+\.py\b", text)}
    missing = sorted(f"{where}: {name}" for where, name in named if not (ROOT / name).is_file())
    assert len(named) > 50 and not missing, missing


def test_every_dotted_name_the_prose_gives_resolves():
    """`grok_lib.paper_b.run_sets.modadd_configs` and the like: a module, or an attribute of one, that exists."""
    import importlib

    def resolves(name: str) -> bool:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for attr in parts[i:]:
                if not hasattr(obj, attr):
                    return False
                obj = getattr(obj, attr)
            return True
        return False

    named = {(path, m.group(0)) for path, text in prose_files().items()
             for m in re.finditer(r"\bgrok_lib(?:\.[A-Za-z_][A-Za-z0-9_]*)+", text)}
    missing = sorted(f"{where}: {name}" for where, name in named if not resolves(name))
    assert len(named) > 20 and not missing, missing
