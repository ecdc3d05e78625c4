"""Part C's claims: the default profile's verdicts re-derived from the runs (a change that flips one fails CI),
and the committed records cover the registry."""

import pytest

from grok_lib import claims, envelope_verdicts
from grok_lib.paper_c import checks as CK
from grok_lib.paper_c import checks_beyond as CKN
from grok_lib.paper_c import checks_wd_dout as CKW
from grok_lib.paper_c import claims as claims_c
from grok_lib.paper_c import setup

#: The verdicts the book records for the default profile (book/claims/paper_c/*.json, written by the notebooks;
#: the measured numbers are in each record): the one place a verdict is kept.
RECORDED = {r["id"]: r["verdict"] for r in claims.load_records() if r["paper"] == "C"}


@pytest.mark.train
def test_default_profile_verdicts():
    curves, times = setup.loss_curves().histories, setup.grok_time().histories
    noise_run, nets = setup.label_noise(), setup.nets().histories
    noise, wd = noise_run.histories, setup.weight_decay()
    results = [CK.evaluate_dynamics(curves), CK.evaluate_mp(curves), CK.evaluate_accuracy_law(curves),
               CK.evaluate_plateau(curves), CK.evaluate_formula(times),
               CK.evaluate_divergence(times), CKW.evaluate_weight_decay(wd.histories + wd.claim_histories),
               CKW.evaluate_d_out(setup.d_out().histories), CKN.evaluate_two_layer(nets[0]),
               CKN.evaluate_tanh(nets[1]), CKN.evaluate_noise(noise), CKN.evaluate_tuned_noise(CKN.tuned_noise_runs(noise + noise_run.claim_histories)),
               CKN.evaluate_tuned_noise_full(noise[-1]), CKN.evaluate_data_ratio(setup.modadd_data_ratio().histories)]
    # as the book records them: a verdict holds only where every measured arithmetic gives it
    got = {r.claim.id: r.verdict for r in envelope_verdicts.across_arithmetic(results)}
    compared = envelope_verdicts.measured_here(RECORDED)  # in other arithmetic: the claims measured there as graded now
    assert {k: got[k] for k in compared} == {k: RECORDED[k] for k in compared}
    assert set(got) == set(RECORDED)


def test_committed_records_cover_the_registry():
    records = [r for r in claims.load_records() if r["paper"] == "C"]
    assert sorted(r["id"] for r in records) == sorted(claims_c.REGISTRY)
    for r in records:
        assert r["statement"] == claims_c.REGISTRY[r["id"]].statement and r["verdict"] in claims.VERDICTS
