"""Claims: the registry is consistent, the records the notebooks wrote are valid, and
the default profile's verdicts are re-derived from the runs and must equal the committed records (so a
change that moves a verdict fails CI until the book is re-recorded and the records' diff reviewed)."""

import pytest

from grok_lib import claims, envelope_verdicts
from grok_lib.paper_a import chapters as chapters_a, draws, run_sets
from grok_lib.paper_a.chapters import activation_patterns as activation_chapter
from grok_lib.paper_a.chapters import deep_linear_clocks as dln_chapter
from grok_lib.paper_a.chapters import fig1_loss_curves as fig1_chapter
from grok_lib.paper_a.chapters import fig2_embedding_geometry as fig2_chapter
from grok_lib.paper_a.chapters import fig3_stable_rank as fig3_chapter
from grok_lib.paper_a.chapters import gradient_hierarchy as gradient_chapter
from grok_lib.paper_a.dln.config import sweep as deep_linear_sweep
from grok_lib.paper_a.config import profile_config, weight_decay_sweep
from grok_lib.runs import run_all

#: The verdicts the book records for the default profile (book/claims/paper_a/*.json, written by the notebooks;
#: the measured numbers are in each record): the one place a verdict is kept. The MLP claims are graded on seeds 0-2
#: at once (the book's runs and the recorded seeds 1 and 2: each evaluator takes one sweep per seed).
RECORDED = {r["id"]: r["verdict"] for r in claims.load_records() if r["paper"] == "A"}

EVALUATORS = (fig1_chapter.evaluate_fig1, fig2_chapter.evaluate_fig2, fig3_chapter.evaluate_fig3, gradient_chapter.evaluate_gradients,
              activation_chapter.evaluate_activations)
REGISTRY = chapters_a.REGISTRY


@pytest.mark.train
def test_default_profile_verdicts():
    histories = run_all(weight_decay_sweep(profile_config("default")), progress=False)
    seeds = [histories, *run_sets.seed_sweeps()[1:]]
    got = {r.claim.id: r.verdict for evaluate in EVALUATORS for r in evaluate(seeds)}
    linear = run_all(deep_linear_sweep("default"), progress=False)
    got |= {r.claim.id: r.verdict for r in dln_chapter.evaluate_deep_linear(linear)}
    robust = {r.claim.id: r.verdict for r in envelope_verdicts.across_arithmetic(
        [claims.Result(chapters_a.REGISTRY[k], "", v) for k, v in got.items()])}  # as the book records them
    compared = envelope_verdicts.measured_here(RECORDED)  # in other arithmetic: the claims measured there as graded now
    assert {k: robust[k] for k in compared} == {k: RECORDED[k] for k in compared}
    assert set(robust) == set(RECORDED)


def test_committed_records_cover_the_registry():
    records = [r for r in claims.load_records() if r["paper"] == "A"]
    assert sorted(r["id"] for r in records) == sorted(REGISTRY)
    for r in records:
        assert r["verdict"] in claims.VERDICTS and r["measured"]
        c = REGISTRY[r["id"]]
        assert (r["statement"], r["kind"], r["basis"], r["threshold"], r["grid"]) == (c.statement, c.kind, c.basis,
                                                                                    c.threshold, c.grid)
        assert r["grading"] == c.grading()  # recorded under the grading the registry declares now


#: The settings at which Paper A's MLP claims are also recorded (from recorded runs).
OTHER_SETTINGS = ("paper", "paper_ordered", "seeds")


def test_mlp_claims_are_recorded_at_every_setting():
    """Every MLP claim but Figure 2's panel B ones, whose U weights the recorded sets do not keep."""
    mlp = sorted(cid for cid in REGISTRY if not cid.startswith("A.dln.") and cid not in fig2_chapter.OUTPUT_CLAIMS)
    for setting in OTHER_SETTINGS:
        records = [r for r in claims.load_records(setting=setting) if r["paper"] == "A"]  # B, C: theirs at "paper"
        assert sorted(r["id"] for r in records) == mlp, setting
        assert all(r["setting"] == setting and r["verdict"] in claims.VERDICTS for r in records)
    seeds = [r for r in claims.load_records(setting="seeds") if r["paper"] == "A"]
    assert all({d["seed"] for d in r["draws"]} == {0, 1, 2} for r in seeds)  # every seed is a draw of the one grade


def test_settings_list_has_an_item_per_recorded_setting(tmp_path):
    c = REGISTRY["A.fig1.wd_order"]
    claims.save_records([claims.Result(c, "3 > 2 > 1", "reproduced")], "nb", tmp_path)
    claims.save_records([claims.Result(c, "2 > 3 > 1", "inconclusive")], "nb", tmp_path, setting="paper")
    rows = claims.load_records(tmp_path, setting=None)
    assert [r["setting"] for r in rows] == ["default", "paper"]
    assert [r["setting"] for r in claims.load_records(tmp_path)] == ["default"]
    listed = claims.settings_list(rows, {"default": "D", "paper": "P", "seeds": "S"})
    assert listed.splitlines() == ["- `A.fig1.wd_order` ([nb](nb.ipynb))",
                                   '  - **D**: <span class="verdict verdict-reproduced">✓ reproduced</span>: 3 > 2 > 1',
                                   '  - **P**: <span class="verdict verdict-inconclusive">? inconclusive</span>: 2 > 3 > 1']


def test_only_the_records_layout_is_read_and_a_stray_file_there_is_named(tmp_path):
    """A rerun once wrote its outputs inside book/claims; its records (deeper) must not join the book's."""
    c = REGISTRY["A.fig1.wd_order"]
    claims.save_records([claims.Result(c, "3 > 2 > 1", "reproduced")], "nb", tmp_path)
    claims.save_records([claims.Result(c, "1 > 2 > 3", "not reproduced")], "nb", tmp_path / "paper_a" / "x_outputs" / "claims")
    assert [r["verdict"] for r in claims.load_records(tmp_path)] == ["reproduced"]
    (tmp_path / "paper_a" / "evil.json").write_text('{"cells": []}')
    with pytest.raises(ValueError, match=r"evil.json is not a list of claim records"):
        claims.load_records(tmp_path)


def test_records_round_trip(tmp_path):
    c = REGISTRY["A.fig1.wd_order"]
    claims.save_records([claims.Result(c, "3 > 2 > 1", "reproduced")], "nb", tmp_path)
    [row] = claims.load_records(tmp_path)
    assert row["id"] == c.id and row["source"] == "nb" and row["verdict"] == "reproduced"
    with pytest.raises(ValueError, match="verdict must be one of"):
        claims.Result(c, "x", "maybe")


def test_every_record_links_to_its_notebook():
    """The claims report links each record to notebooks/<source>.ipynb (one folder per part)."""
    from grok_lib.paths import NOTEBOOKS, parts

    records = claims.load_records()
    assert records
    for r in records:
        assert (NOTEBOOKS / f"{r['source']}.ipynb").exists(), r["source"]
        assert r["source"].split("/")[0] in parts(), r["source"]
    assert 'href="paper_a/fig1_loss_curves.html#claim-a-fig1-train-fit"' in claims.markdown_table(records)


def test_claim_texts_are_typeset_on_the_page_but_kept_as_measured():
    from grok_lib.tables import typeset

    text = r"share with ||grad_U|| > ||grad_E||; eps=1e-08, lambda <= 0.5; steps; peak -> end; $\lambda p$ stays"
    assert typeset(text) == (r"share with $\Vert\nabla_U\Vert$ > $\Vert\nabla_E\Vert$; ε=$10^{-8}$, λ ≤ 0.5; steps; "
                             r"peak → end; $\lambda p$ stays")
    # the clocks with their arguments, one formula across " / ", e-notation as powers of ten; code left alone
    assert typeset("T_rep / T_cls(1e-4)") == r"$T_{\mathrm{rep}} / T_{\mathrm{cls}}(10^{-4})$"
    assert typeset("T_grok(95%) at 3.9e-04/step, `1e-3`") == r"$T_{\mathrm{grok}}(95\%)$ at $3.9 \times 10^{-4}$/step, `1e-3`"
    assert typeset("T_rep(1e-6) / T_cls(floor)") == r"$T_{\mathrm{rep}}(10^{-6}) / T_{\mathrm{cls}}(\mathrm{floor})$"
    # ranges take an en dash; a minus sign inside an exponent or a date does not
    assert typeset("about 4k-8.5k epochs, 10-12, 0.6-1.0") == "about 4k–8.5k epochs, 10–12, 0.6–1.0"
    assert typeset("factor L s^(2-2/L) on 2026-12-01") == r"factor $L\,s^{2-2/L}$ on 2026-12-01"
    row = claims.record(claims.Result(REGISTRY["A.fig1.wd_order"], "lambda=1", "inconclusive"), "nb") | {"threshold": "<= 1"}
    assert "λ=1" in claims.markdown_table([row]) and "≤ 1" in claims.markdown_table([row])


def test_the_chapters_declare_exactly_the_registry():
    """Each claim of Paper A is declared by exactly one chapter, and every chapter's claims are in the registry."""
    declared = [cid for chapter in chapters_a.CHAPTERS for cid in chapter.claims]
    assert sorted(declared) == sorted(REGISTRY) and len(declared) == len(set(declared))


def test_every_claim_declares_its_kind_basis_and_grading():
    from grok_lib.grading import BASES, KINDS

    for c in REGISTRY.values():
        assert c.paper == "A" and c.kind in KINDS and c.basis in BASES and c.quote and c.where, c.id
        assert c.quantity and c.threshold, c.id
        for choice in c.choices:
            assert choice.central in choice.grid and len(choice.grid) > 1, (c.id, choice.name)
    # the premises the paper relies on are counted apart from its claims
    assert {c.id for c in REGISTRY.values() if c.kind == "premise"} == {
        "A.relu.frozen_patterns", "A.dln.margin_linear", "A.dln.contraction", "A.dln.slow_poly"}


def _sweep(keep_u: bool, seed: int = 0):
    """A small trained sweep (the ci profile) as a recorded set keeps it (E only) or as a notebook's runs do."""
    from grok_lib.recorded import traces

    histories = run_all(weight_decay_sweep(profile_config("ci", data_seed=seed, init_seed=seed)), progress=False)
    return histories if keep_u else [traces(h, ("E",)) for h in histories]


@pytest.mark.train
def test_output_weight_claims_are_graded_where_u_is_kept_and_say_which_seeds():
    kept, recorded = _sweep(True), _sweep(False, seed=1)
    ids = [r.claim.id for r in fig2_chapter.evaluate_fig2([recorded])]
    assert not set(ids) & set(fig2_chapter.OUTPUT_CLAIMS)  # a recorded set keeps E alone: U's claims are left out
    results = {r.claim.id: r for r in fig2_chapter.evaluate_fig2([kept, recorded])}
    assert set(fig2_chapter.OUTPUT_CLAIMS) <= set(results)
    for cid in fig2_chapter.OUTPUT_CLAIMS:
        assert {d.seed for d in results[cid].draws} == {0}
        assert "graded at seed 0 alone: the recorded seed 1 keeps E's weights, not U's" in results[cid].measured
    # E's claims read E as before: the circle on E's own dominant frequency
    e_cv = [d.values for d in results["A.fig2.circle"].draws if d.seed == 0][0]
    assert list(e_cv) == [fig2_chapter.polygon_reading(h.snapshot("E", int(h.steps[-1])))["radius_cv"]
                          for h in sorted(kept, key=lambda h: h.cfg.weight_decay)]


def test_the_stable_rank_order_needs_every_fall_within_its_run():
    import math

    import numpy as np

    from grok_lib.history import History

    def run(wd, fall_to):  # a stable rank that rises to 10 at epoch 100, then falls to fall_to × 10 by the end
        steps = np.arange(0, 1001, 50)
        srank = np.where(steps <= 100, 5 + steps / 20, 10 - (10 - 10 * fall_to) * (steps - 100) / 900 * (1 + wd))
        srank = np.maximum(srank, 10 * fall_to)
        return History(steps=steps, metrics={"srank_E": srank, "test_acc": np.ones_like(srank),
                                             "train_loss": np.full_like(srank, 1e-9)},
                       config={"weight_decay": wd, "data_seed": 0}, meta={})

    reaching = [run(wd, 0.6) for wd in (0.6, 0.8, 1.0)]
    assert fig3_chapter.fall_regime([reaching], (0.9, 0.8, 0.7)).ok
    short = [run(wd, 0.75) for wd in (0.6, 0.8, 1.0)]
    where = fig3_chapter.fall_regime([short], (0.9, 0.8, 0.7))
    assert not where.ok and "0 of 3 runs get there" in where.measured
    assert draws.inversions([math.nan, 300.0, 200.0]) == 1.0
