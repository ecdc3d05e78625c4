"""Part B's default-profile verdicts, re-derived from the runs and asserted (as tests/paper_a/test_claims.py does for
Paper A), so a change that moves a verdict fails CI; and the committed records agree with the registry."""

import pytest

from grok_lib import chapters, claims, envelope_verdicts
from grok_lib.paper_b import chapters as chapters_b, run_sets, sample_complexity, selection
from grok_lib.paper_b.chapters import init_scale_adamw as init_chapter
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter
from grok_lib.runs import run_all

#: The verdicts the book records for the default profile (book/claims/paper_b/*.json, written by the notebooks;
#: the measured numbers are in each record): the one place a verdict is kept.
RECORDED = {r["id"]: r["verdict"] for r in claims.load_records() if r["paper"] == "B"}
FIXED = {r["id"]: r for r in claims.load_records(setting=modular_chapter.FIXED_LR) if r["paper"] == "B"}


def histories(stem):  # shaped as the chapter's runs: named groups, or a list
    own = chapters.chapter("paper_b", stem).runs("default")
    return chapters.shaped(own, run_all(chapters.flat(own), progress=False))


def claim_runs(stem):  # the claim-only runs (more seeds, the in-regime runs), as the notebook reads them
    chapter = chapters.chapter("paper_b", stem)
    return run_all(chapter.claim_runs(chapter.runs("default")), progress=False)


@pytest.mark.train
def test_default_profile_verdicts():
    sparse, modadd = histories("sparse_classification"), histories("modular_addition")
    focus_at_seeds = [selection.focus_run(sparse), *claim_runs("sparse_classification")]
    results = (sparse_chapter.evaluate_sparse(sparse, focus_at_seeds)
               + kernel_chapter.evaluate_regimes(histories("kernel_vs_rich"))
               + [kernel_chapter.evaluate_sample_gap(sample_complexity.for_run(selection.focus_run(histories("kernel_vs_rich"))))]
               + matrix_chapter.evaluate_matrix_completion(matrix_chapter.matrix_completion_run(histories("matrix_completion")))
               + [matrix_chapter.evaluate_noisy_init(matrix_chapter.matrix_completion_run(histories("matrix_completion")),
                                             run_sets.recorded("mc_init_noise"))]
               + modular_chapter.evaluate_modadd(modadd, claim_runs("modular_addition"))
               + init_chapter.evaluate_bridge(histories("init_scale_adamw")))
    assert not [r.claim.id for r in results if r.too_tight]  # no bar asks for less than the runs' own spread
    # as the book records them: a verdict holds only where every measured arithmetic gives it
    got = {r.claim.id: r.verdict for r in envelope_verdicts.across_arithmetic(results)}
    compared = envelope_verdicts.measured_here(RECORDED)  # in other arithmetic: the claims measured there as graded now
    assert {k: got[k] for k in compared} == {k: RECORDED[k] for k in compared}
    assert set(got) == set(RECORDED)
    # the figure runs at the profile's fixed step: outside the paper's regime, so not graded
    fixed = modular_chapter.evaluate_modadd_fixed(modadd)
    assert {r.verdict for r in fixed} == {"not tested faithfully"}
    assert {r.claim.id for r in fixed} == set(FIXED)


def test_committed_records_cover_the_registry():
    records = [r for r in claims.load_records() if r["paper"] == "B"]
    assert sorted(r["id"] for r in records) == sorted(chapters_b.REGISTRY)
    for r in records:
        assert r["verdict"] in claims.VERDICTS and r["measured"]
        assert r["statement"] == chapters_b.REGISTRY[r["id"]].statement
        assert r["kind"] == chapters_b.REGISTRY[r["id"]].kind
        assert r["source"].startswith("paper_b/") and not r.get("too_tight")
    assert all(r["verdict"] == "not tested faithfully" and "outside the regime" in r["regime"] for r in FIXED.values())
