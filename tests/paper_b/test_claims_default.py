"""Part B's default-profile verdicts, re-derived from the runs and asserted (as tests/test_claims.py does for
Paper A), so a change that moves a verdict fails CI; and the committed records agree with the registry."""

import pytest

from grok_lib import claims
from grok_lib.paper_b import claims as claims_b, selection, setup
from grok_lib.runs import run_all

#: The verdicts of the default profile (see the claims report for the measured numbers).
EXPECTED = {
    "B.fig1a.kernel_then_rich": "reproduced",
    "B.fig1a.fractions": "partly",
    "B.thm.window": "reproduced",
    "B.thm.limit": "reproduced",
    "B.thm.log_alpha_slope": "reproduced",
    "B.thm.inverse_lambda_slope": "partly",
    "B.fig1a.norm": "reproduced",
    "B.regimes.cosines": "reproduced",
    "B.regimes.test_acc": "reproduced",
    "B.misgrokking": "partly",
    "B.mc.kernel_plateau": "reproduced",
    "B.mc.recovery": "reproduced",
    "B.mc.clock": "reproduced",
    "B.modadd.alpha_order": "partly",
    "B.modadd.lambda_order": "partly",  # reproduced on 2 of 3 seeds (issue 25: judged over seeds)
    "B.modadd.clock": "partly",
    "B.bridge.delay": "partly",  # reproduced on every seed here, but not in two other arithmetics (book/envelope.json)
    "B.bridge.clock": "not reproduced",
}


def test_every_registered_claim_has_an_expected_verdict():
    assert set(EXPECTED) == set(claims_b.REGISTRY)
    assert set(EXPECTED.values()) <= set(claims.VERDICTS)


@pytest.mark.slow
def test_default_profile_verdicts():
    def histories(stem):
        return run_all(setup.NOTEBOOK_CONFIGS[stem]("default"), progress=False)

    sparse, kr = histories("sparse_classification"), histories("kernel_vs_rich")
    results = (claims_b.evaluate_sparse(*selection.split_sparse(sparse))
               + claims_b.evaluate_regimes(selection.sparse_runs(kr), selection.misgrokking_run(kr))
               + claims_b.evaluate_matrix_completion(selection.matrix_completion_run(histories("matrix_completion")))
               + claims_b.evaluate_modadd(histories("modular_addition"))
               + claims_b.evaluate_bridge(histories("init_scale_adamw")))
    # as the book records them: a verdict holds only where every measured arithmetic gives it
    assert {r.claim.id: r.verdict for r in claims.across_arithmetic(results)} == EXPECTED


def test_committed_records_cover_the_registry():
    records = [r for r in claims.load_records() if r["paper"] == "B"]
    assert sorted(r["id"] for r in records) == sorted(claims_b.REGISTRY)
    for r in records:
        assert r["verdict"] == EXPECTED[r["id"]] and r["measured"]
        assert r["statement"] == claims_b.REGISTRY[r["id"]].statement
        assert r["source"].startswith("paper_b/")
