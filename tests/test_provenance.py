"""Provenance: the figure manifest (derived from the chapters' declarations, each chapter module's CHAPTER) is the single source of which
notebook makes which figure with which parameters into which files."""

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

from grok_lib.code_deps import loaded_code
from grok_lib.provenance import load_manifest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = load_manifest()
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))


def notebook(path):
    return json.loads(Path(path).read_text())


def parameters_of(nb) -> dict:
    """The literal values assigned in the notebook's cell tagged 'parameters'."""
    cell = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    values = {}
    for node in ast.parse("".join(cell["source"])).body:
        if isinstance(node, ast.Assign):
            values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def code_of(nb) -> str:
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def saved_figures(nb) -> set[str]:
    """The figures a notebook draws and saves: its ``run.figure("<part>/<name>")`` cells, and where its part is laid
    out by chapter its ``run.figure(chapter.<FIGURE>)`` cells (the figure object of the chapter module it imports as
    ``chapter``)."""
    code = code_of(nb)
    names = set(re.findall(r"\brun\.figure\(\s*\"([\w\-/]+)\"\s*\)", code))
    held = re.search(r"^from (grok_lib\.\w+\.chapters) import (\w+) as chapter$", code, re.M)
    if held:
        module = importlib.import_module(f"{held.group(1)}.{held.group(2)}")
        names |= {getattr(module, attr).name for attr in re.findall(r"\brun\.figure\(\s*chapter\.(\w+)\s*\)", code)}
    return names


def shown_figures(nb) -> int:
    """Figures a notebook's outputs show: an embedded PNG (``plt.show()``) or a MyST figure of the
    book's files (``run.figure``)."""
    return sum("image/png" in o.get("data", {}) or "{figure}" in "".join(o.get("data", {}).get("text/markdown", ""))
               for c in nb["cells"] for o in c.get("outputs", []))


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_manifest_entry_matches_its_notebook(name):
    entry = MANIFEST[name]
    nb = notebook(ROOT / entry["notebook"])
    assert name in saved_figures(nb), f"{entry['notebook']} never saves figure {name}"
    params = parameters_of(nb)
    for key, value in entry["parameters"].items():
        assert params.get(key) == value, f"manifest says {key}={value!r}, the notebook has {params.get(key)!r}"
    unlisted = {k: v for k, v in params.items() if v is not None and k not in entry["parameters"]}
    assert not unlisted, f"parameters set in the notebook but missing from the manifest: {unlisted}"
    assert sorted(entry["outputs"]) == sorted([f"figures/{name}.png", f"figures/{name}.svg"])


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_book_shows_each_figure_with_its_provenance(name):
    entry = MANIFEST[name]
    assert entry["notebook"].removesuffix(".ipynb") in (ROOT / "_toc.yml").read_text()
    outputs = [o for c in notebook(ROOT / entry["notebook"])["cells"] for o in c.get("outputs", [])]
    captions = ["".join(o.get("data", {}).get("text/markdown", "")) for o in outputs]
    figure = [c for c in captions if f"figure_files/{name}.png" in c]
    if figure:  # run.figure: the book's PNG, its title as alt text, links to SVG, PNG and data, provenance
        md = figure[0]
        assert f":alt: {entry['title']}" in md
        for suffix in (".svg", ".png", ".json"):
            assert f"figure_files/{name}{suffix})" in md, f"the caption does not link the {suffix} file"
            assert (ROOT / "book" / "figure_files" / f"{name}{suffix}").exists(), f"{name}{suffix} is not shipped"
        assert entry["notebook"] in md and "library code `" in md and "-dirty" not in md
        return
    assert any("image/png" in o.get("data", {}) for o in outputs), "no figure in the committed outputs"
    assert any(f"**Figure `{name}`**" in c and entry["notebook"] in c for c in captions), "no provenance caption"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_saved_figure_is_in_the_manifest(nb_path):
    missing = saved_figures(notebook(nb_path)) - set(MANIFEST)
    assert not missing, f"{nb_path.name} saves figures that no chapter declares (grok_lib.chapters): {missing}"
    # a figure is drawn as its chapter declares it (what the image tests check), never handed over ready-drawn
    assert not re.search(r"\b(saved_figure|save_figure_files|savefig|plt\.show)\(", code_of(notebook(nb_path)))


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_shown_image_is_a_manifest_figure(nb_path):
    # One image per saved figure: an image output without a manifest entry is an unlisted figure.
    nb = notebook(nb_path)
    assert shown_figures(nb) == len(saved_figures(nb) & set(MANIFEST))


def test_prose_pages_show_no_unlisted_images():
    listed = {out for e in MANIFEST.values() for out in e["outputs"]}
    for page in (ROOT / "book").glob("*.md"):
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)|```\{(?:figure|image)\}\s*(\S+)", page.read_text()):
            path = next(t for t in target if t)
            assert path.lstrip("./") in listed, f"{page.name} shows {path}, which no notebook produces"


def test_the_stamp_names_the_library_code_and_the_device_and_nothing_that_changes_with_each_execution():
    from grok_lib.provenance import stamp

    text = stamp("paper_b/fig1a_sparse", {"profile": "default", "d": None}, ("cpu",))
    assert text.endswith("run on cpu.") and loaded_code() in text
    assert not re.search(r"20\d\d-\d\d-\d\d|commit", text)  # no date, no commit: a re-execution rewrites nothing
    assert "notebooks/paper_b/sparse_classification.ipynb" in text and "`d=" not in text
    assert '<a href="../../_sources/notebooks/paper_b/sparse_classification.ipynb">' in text


def test_a_figure_of_recorded_runs_names_them_and_their_settings_from_the_recordings():
    from grok_lib import recorded
    from grok_lib.provenance import recorded_source, stamp

    text = stamp("paper_a/fig3_paper_settings", {"profile": "ci"}, ("cpu",))
    assert "every other setting from the profile" not in text and "profile='ci'" not in text
    assert "from the recorded runs `paper_a/paper_unordered` and `paper_a/paper_ordered`" in text
    configs = [r["config"] for r in recorded.read_manifest("paper_a/paper_ordered")["runs"]]
    manifest = recorded.read_manifest("paper_a/paper_unordered")
    assert f"width {configs[0]['width']:,}" in text and f"epochs {configs[0]['epochs']:,}" in text  # read, not typed
    assert f"train_frac {configs[0]['train_frac']:g}" in text and manifest["recorded"] in text
    assert loaded_code() in text and "commit" not in text
    assert "the recorded ones" in recorded_source("paper_a/init_comparison")  # the default runs are not recorded
    assert recorded_source("paper_a/fig3_stable_rank") is None and recorded_source("paper_b/fig1a_sparse") is None
