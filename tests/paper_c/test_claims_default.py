"""Part C's claims: the default profile's verdicts re-derived from the runs (a change that flips one fails CI),
and the committed records cover the registry."""

import pytest

from grok_lib import claims, envelope_verdicts
from grok_lib.paper_c import checks as CK
from grok_lib.paper_c import checks_beyond as CKN
from grok_lib.paper_c import checks_wd_dout as CKW
from grok_lib.paper_c import claims as claims_c
from grok_lib.paper_c import chapter_runs

#: The verdicts the book records for the default profile (book/claims/paper_c/*.json, written by the notebooks;
#: the measured numbers are in each record): the one place a verdict is kept.
RECORDED = {r["id"]: r["verdict"] for r in claims.load_records() if r["paper"] == "C"}


@pytest.mark.train
def test_default_profile_verdicts():
    curves, times = chapter_runs.loss_curves().histories, chapter_runs.grok_time().histories
    noise_run, nets = chapter_runs.label_noise(), chapter_runs.nets().groups
    noise, wd = noise_run.groups, chapter_runs.weight_decay()
    (two_layer,), (tanh,) = nets["two_layer"], nets["tanh"]
    every = [*noise_run.histories, *noise_run.claim_histories]
    tuned = CKN.full_noise_runs(noise["full"], noise_run.claim_histories)
    rebuttal = CKN.tuned_noise_runs(noise["fractions"], noise_run.claim_histories)
    results = [CK.evaluate_dynamics(curves), CK.evaluate_mp(curves), CK.evaluate_accuracy_law(curves),
               *CK.evaluate_plateau(curves), CK.evaluate_formula(times), CK.evaluate_divergence(times),
               *CKW.evaluate_weight_decay(wd.histories, wd.claim_histories),
               CKW.evaluate_d_out(chapter_runs.d_out().histories),
               CKW.evaluate_gamma_law(chapter_runs.d_out().histories), CKN.evaluate_two_layer(two_layer),
               CKN.evaluate_tanh(tanh, two_layer), *CKN.evaluate_noise(every),
               CKN.evaluate_tuned_noise(tuned, rebuttal), CKN.evaluate_noise_theory(every),
               CKN.evaluate_test_noise(noise_run.claim_histories),
               *CKN.evaluate_data_ratio(chapter_runs.modadd_data_ratio().histories)]
    # as the book records them: a verdict holds only where every measured arithmetic gives it
    got = {r.claim.id: r.verdict for r in envelope_verdicts.across_arithmetic(results)}
    compared = envelope_verdicts.measured_here(RECORDED)  # in other arithmetic: the claims measured there as graded now
    assert {k: got[k] for k in compared} == {k: RECORDED[k] for k in compared}
    assert set(got) == set(RECORDED)


def test_committed_records_cover_the_registry():
    # at every setting: the rebuttal's other activations (C.nets.relu, C.nets.tanh_gain) are measured on the
    # recorded paper-size runs only
    records = [r for r in claims.load_records(setting=None) if r["paper"] == "C"]
    assert sorted({r["id"] for r in records}) == sorted(claims_c.REGISTRY)
    assert {r["id"] for r in records if r["setting"] == "default"} >= set(claims_c.REGISTRY) - {"C.nets.relu", "C.nets.tanh_gain"}
    for r in records:
        claim = claims_c.REGISTRY[r["id"]]
        assert r["statement"] == claim.statement and r["kind"] == claim.kind and r["verdict"] in claims.VERDICTS
        assert r["grading"] == claim.grading()  # recorded under the claim's current grading
