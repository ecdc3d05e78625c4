"""Static checks of the committed notebooks (nbval re-executes them separately)."""

import ast
import functools
import json
import re
import subprocess
from pathlib import Path

import pytest

from grok_lib.paths import parts

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
REPORT = ROOT / "notebooks" / "claims_report.ipynb"


def cells(nb_path):
    return json.loads(nb_path.read_text())["cells"]


def test_there_are_notebooks_in_one_folder_per_part():
    assert NOTEBOOKS
    folders = {p.parent.name for p in NOTEBOOKS if p != REPORT}
    assert folders == set(parts()), "each part's notebooks live in notebooks/<part>/ (and only there)"
    assert not [p for p in (ROOT / "notebooks").glob("*.ipynb") if p != REPORT], "only the claims report is at the top"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_notebook_conventions(nb):
    cs = cells(nb)
    tags = [c.get("metadata", {}).get("tags", []) for c in cs]
    assert sum("parameters" in t for t in tags) == 1, "exactly one cell tagged 'parameters'"
    assert not any("injected-parameters" in t for t in tags), "committed with papermill -p overrides"
    params = "".join(next(c for c, t in zip(cs, tags) if "parameters" in t)["source"])
    assert re.search(r'^profile = "default"', params, re.M), "committed outputs must be the default profile's"
    code = [c for c in cs if c["cell_type"] == "code"]
    assert all(c.get("outputs") is not None for c in code)
    assert any(c["outputs"] for c in code), "committed without outputs"
    for c in code:
        src = "".join(c["source"])
        defined = [n for n in ast.walk(ast.parse(src)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.ClassDef, ast.Lambda))]
        assert not defined, "functions and classes belong in grok_lib, not in a notebook"
        for out in c["outputs"]:
            assert out["output_type"] != "error", f"an error output in {nb.name}"
    checked = [c for c in code if "# NBVAL_CHECK_OUTPUT" in "".join(c["source"])
               or "nbval-check-output" in c.get("metadata", {}).get("tags", [])]
    assert checked, "no cell is checked by nbval (tag 'nbval-check-output')"


# Plain-text maths the prose must not have (outside $...$ maths and `code`): the clocks with a
# subscript, numbers in e-notation, norms, markdown-escaped subscripts (issue 12).
PLAIN_MATHS = re.compile(r"\bT_(?:rep|cls|grok)\b|(?<![\w.])\d+(?:\.\d+)?e-\d+\b|‖|\\_")


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_prose_writes_its_maths_as_maths(nb):
    found = []
    for c in cells(nb):
        if c["cell_type"] != "markdown":
            continue
        for line in "".join(c["source"]).splitlines():
            prose = re.sub(r"`[^`]*`", "", re.sub(r"\$[^$]*\$", "", line))
            found += [f"{m!r} in: {line[:100]}" for m in PLAIN_MATHS.findall(prose)]
    assert not found, "maths written as plain text (typeset it with $...$):\n" + "\n".join(found)


#: Control characters a page must never hold: "\beta", "\alpha" or "\theta" written into a plain Python
#: string become a backspace, a bell or a tab, and MathJax shows "Math input error" (or "heta") for them.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # terminal colours (a traceback's), not prose


def control_characters(cell) -> list[str]:
    """Control characters in a cell's text: its source and text outputs; in markdown a tab too."""
    texts = ["".join(cell["source"])] + ([_output_text(cell)] if cell["cell_type"] == "code" else [])
    bad = re.compile(CONTROL.pattern[:-1] + "\t]") if cell["cell_type"] == "markdown" else CONTROL
    return [f"{m.group()!r} in ...{t[max(0, m.start() - 30):m.start() + 30]!r}"
            for t in map(lambda x: ANSI.sub("", x), texts) for m in bad.finditer(t)]


def test_control_characters_are_found():
    assert control_characters({"cell_type": "markdown", "source": ["$\beta_2 \approx 1$, $\theta$"]})
    assert control_characters({"cell_type": "code", "source": [""], "outputs": [{"text": "\x07lpha"}]})
    assert not control_characters({"cell_type": "markdown", "source": [r"$\beta_2 \approx 1$"]})


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_control_characters_in_prose_or_outputs(nb):
    found = [f"cell {i}: {f}" for i, c in enumerate(cells(nb)) for f in control_characters(c)]
    assert not found, "control characters (a backslash read as a string escape?):\n" + "\n".join(found[:10])


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_notebook_is_in_the_book_and_the_make_globs(nb):
    rel = nb.relative_to(ROOT).with_suffix("").as_posix()
    assert f"file: {rel}\n" in (ROOT / "_toc.yml").read_text()
    assert nb.relative_to(ROOT).as_posix() in make_notebooks(), "make book does not execute this notebook"


@functools.cache
def make_notebooks(part: str = "") -> str:
    """The commands ``make notebooks`` (with ``PART``) would run, as make prints them without running them."""
    args = ["make", "-n", "-s", "notebooks"] + ([f"PART={part}"] if part else [])
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("part", ["a", "b", "c"])
def test_make_book_part_executes_that_parts_notebooks_and_no_other(part):
    commands = make_notebooks(part)
    for nb in NOTEBOOKS:
        rel = nb.relative_to(ROOT).as_posix()
        assert (rel in commands) == (nb == REPORT or rel.startswith(f"notebooks/paper_{part}/")), rel
    assert f"--part paper_{part}" in commands


@pytest.mark.parametrize("nb", [n for n in NOTEBOOKS if n != REPORT], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_figure_notebook_makes_one_setup_call(nb):
    code = "\n".join("".join(c["source"]) for c in cells(nb) if c["cell_type"] == "code")
    # one call builds the notebook's run: its chapter module's ``run``
    calls = re.findall(r"\bchapter\.(run)\(", code)
    assert len(calls) == 1, f"one setup call per notebook, got {calls}"
    assert "run_all(" not in code and "profile_config(" not in code, "the chapter's run call owns the plumbing"


# --- prose that cannot go stale (issue 25): a markdown cell never types a number the page measures ---
#: A number as prose or outputs write it: 1,900 / 2.3 / 540 (integers below 100 are too common to
#: tell a measurement from a count; e-notation is maths, checked above).
PROSE_NUMBER = re.compile(r"(?<![\w.^_{\\/-])(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})(?![\w^]|\.\d)")
#: References and dates whose numbers are names, not measurements.
REFERENCE = re.compile(r"(?:Lemmas?|Theorems?|Thms?\.|Props?\.|Propositions?|Assumptions?|Corollary|Definition|Remark|"
                       r"Sections?|Secs?\.|§|[Ee]q\.|[Ee]qs\.|Equations?|Figures?|Figs?\.|Tables?|Appendix|arXiv:?)"
                       r"\s*~?\(?(?:[\d.]+\s*(?:,|and|–|-)\s*)*$")
#: A sentence quoting a paper's own number names the paper ("Paper B reports 0.95", "the paper's 3.4").
PAPERS_OWN = re.compile(r"\bPaper [A-Z]\b|\bthe paper\b|\bthe papers\b|\bpaper's\b|\bpapers'\b", re.I)
GLUED = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")


def _output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")))
        parts += ["".join(v) for k, v in out.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(parts)


def _numbers(text: str) -> set[str]:
    return {m.replace(",", "") for m in PROSE_NUMBER.findall(text)}


def measured_numbers(cs) -> set[str]:
    """The numbers a page's outputs measure: its key-number tables and printed results, and the
    "Measured" part of its verdicts; not its settings (the parameters cell and settings table say
    what was run, which prose may repeat) and not its figure captions (dates, hashes)."""
    measured, settings = set(), set()
    for c in cs:
        if c["cell_type"] != "code":
            continue
        src, text = "".join(c["source"]), _output_text(c)
        if "parameters" in c.get("metadata", {}).get("tags", []) or ".settings(" in src:
            settings |= _numbers(src + text)
        elif ".figure(" not in src:
            if ".verdicts(" in src or ".report(" in src:
                text = " ".join(re.findall(r"Measured:\*(.*?)(?:<br>|\n\n|$)", text, re.S))
            measured |= _numbers(text)
    return measured - settings


def typed_measurements(markdown: str, measured: set[str]) -> list[str]:
    """The numbers of ``markdown`` that the page measures, less references, dates and the papers' own."""
    found = []
    prose = "\n".join(line for line in GLUED.sub("", markdown).splitlines() if not line.lstrip().startswith(">"))
    for sentence in re.split(r"(?<=[.!?:;])\s+(?=[A-Z*(])|\n\s*\n|\n(?=\s*[-*|] )", prose):
        if PAPERS_OWN.search(sentence):
            continue
        for m in PROSE_NUMBER.finditer(sentence):
            number = m.group(1).replace(",", "")
            if number in measured and not REFERENCE.search(sentence[:m.start()]) and not re.fullmatch(r"(19|20)\d\d", number):
                found.append(m.group(1))
    return found


def test_typed_measurements_are_found():
    measured = {"2100", "3384", "2.3", "6.2"}
    assert typed_measurements("The grokking epoch falls from 3,384 to 2,100.", measured) == ["3,384", "2,100"]
    assert typed_measurements("Delays of {glue:md}`delay_06` and 6.2 times.", measured) == ["6.2"]
    assert typed_measurements("Lemma 3.4 and Theorem 2.3 hold; Paper A reports 3,384.", measured | {"3.4"}) == []
    assert typed_measurements("Theorems 3.4 and 2.3 say so.", measured | {"3.4"}) == []
    assert typed_measurements("> the paper's words: 2,100 epochs", measured) == []


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_prose_takes_its_measured_numbers_from_the_computation(nb):
    cs = cells(nb)
    measured = measured_numbers(cs)
    typed = {i: t for i, c in enumerate(cs) if c["cell_type"] == "markdown"
             and (t := typed_measurements("".join(c["source"]), measured))}
    assert not typed, ("markdown cells type numbers the page measures (glue them from the computation: "
                       "grok_lib.display.glue and {glue:md}`name`): " + "; ".join(f"cell {i}: {', '.join(t)}"
                                                                                   for i, t in typed.items()))
