"""Figure regression, part 2: the numbers behind each figure against the values the book holds (the ``numbers`` in
its data file, book/figure_files/<part>/<figure>.json, written by the notebook's committed run).

The default-profile runs come from the run store (trained on a miss, so this test and
nbval share one training). Tolerances are in grok_lib/figure_numbers.py. Accept a
deliberate change with ``make notebooks``.

Two tiers (grok_lib/arithmetic.py): in the arithmetic the book was recorded in, each number is
compared with its committed value; in other arithmetic, with the envelope measured across one
machine's arithmetic variants (``book/envelope.json``, ``scripts/measure_envelope.py``),
widened by the same tolerances.
"""

import json

import pytest

from grok_lib import arithmetic, chapters, figure_numbers, paths

ENVELOPE = paths.ENVELOPE

#: figure name (``<part>/<figure>``) -> the reduction of the default-profile runs its committed numbers hold,
#: as every chapter module declares it (its ``CHAPTER``)
FIGURES = chapters.figure_numbers()


@pytest.mark.train
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_numbers_match_the_committed_values(name):
    reference = figure_numbers.committed(name)
    assert reference, f"the book holds no numbers for {name}: run `make notebooks` (its committed run writes them)"
    if arithmetic.tier() == "exact":
        problems = figure_numbers.compare(reference, FIGURES[name]())
    else:
        problems = figure_numbers.compare_envelope(json.loads(ENVELOPE.read_text())["figures"][name], FIGURES[name]())
    assert not problems, (
        f"{len(problems)} number(s) behind figure {name} changed ({arithmetic.tier()} tier):\n  "
        + "\n  ".join(problems[:30])
        + "\nIf the change is deliberate, run `make notebooks` and commit the diff of book/figure_files/."
    )


def test_every_figure_in_the_manifest_has_committed_numbers():
    from grok_lib.provenance import load_manifest

    held = {name for name in load_manifest() if figure_numbers.committed(name)}
    assert set(load_manifest()) == set(FIGURES) == held


def test_compare_reports_each_kind_of_change():
    expected = {"wd=1/test_loss@100": 1.0, "wd=1/test_acc@100": 0.5, "wd=1/T_grok(95%)": 2000.0, "wd=1/T_cls(1e-6)": None}
    assert figure_numbers.compare(expected, dict(expected)) == []
    within = expected | {"wd=1/test_loss@100": 1.0005, "wd=1/test_acc@100": 0.501, "wd=1/T_grok(95%)": 2050.0}
    assert figure_numbers.compare(expected, within) == []
    changed = expected | {"wd=1/test_loss@100": 1.01, "wd=1/test_acc@100": 0.51, "wd=1/T_grok(95%)": 2100.0,
                          "wd=1/T_cls(1e-6)": 3000.0}
    problems = figure_numbers.compare(expected, changed)
    assert len(problems) == 4
    assert any("test_loss@100: expected 1, got 1.01" in p and "rel tolerance 0.001" in p for p in problems)
    missing = {k: v for k, v in expected.items() if "acc" not in k}
    assert figure_numbers.compare(expected, missing) == ["wd=1/test_acc@100: expected 0.5, missing now"]
