"""Part C's claims: the default profile's verdicts re-derived from the runs (a change that flips one fails CI),
and the committed records cover the registry."""

import pytest

from grok_lib import claims, envelope_verdicts
from grok_lib.paper_c import chapters as chapters_c
from grok_lib.paper_c.chapters import d_out as ch_d_out
from grok_lib.paper_c.chapters import grok_time as ch_grok_time
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import loss_curves as ch_loss_curves
from grok_lib.paper_c.chapters import modadd_data_ratio as ch_modadd_data_ratio
from grok_lib.paper_c.chapters import nets as ch_nets
from grok_lib.paper_c.chapters import weight_decay as ch_weight_decay


#: The verdicts the book records for the default profile (book/claims/paper_c/*.json, written by the notebooks;
#: the measured numbers are in each record): the one place a verdict is kept.
RECORDED = {r["id"]: r["verdict"] for r in claims.load_records() if r["paper"] == "C"}


@pytest.mark.train
def test_default_profile_verdicts():
    curves, times = ch_loss_curves.run().histories, ch_grok_time.run().histories
    noise_run, nets = ch_label_noise.run(), ch_nets.run().groups
    noise, wd = noise_run.groups, ch_weight_decay.run()
    (two_layer,), (tanh,) = nets["two_layer"], nets["tanh"]
    every = [*noise_run.histories, *noise_run.claim_histories]
    tuned = ch_label_noise.full_noise_runs(noise["full"], noise_run.claim_histories)
    rebuttal = ch_label_noise.tuned_noise_runs(noise["fractions"], noise_run.claim_histories)
    results = [ch_loss_curves.evaluate_dynamics(curves), ch_loss_curves.evaluate_mp(curves), ch_loss_curves.evaluate_accuracy_law(curves),
               *ch_loss_curves.evaluate_plateau(curves), ch_grok_time.evaluate_formula(times), ch_grok_time.evaluate_divergence(times),
               *ch_weight_decay.evaluate_weight_decay(wd.histories, wd.claim_histories),
               ch_d_out.evaluate_d_out(ch_d_out.run().histories),
               ch_d_out.evaluate_gamma_law(ch_d_out.run().histories), ch_nets.evaluate_two_layer(two_layer),
               ch_nets.evaluate_tanh(tanh, two_layer), *ch_label_noise.evaluate_noise(every),
               ch_label_noise.evaluate_tuned_noise(tuned, rebuttal), ch_label_noise.evaluate_noise_theory(every),
               ch_label_noise.evaluate_test_noise(noise_run.claim_histories),
               *ch_modadd_data_ratio.evaluate_data_ratio(ch_modadd_data_ratio.run().histories)]
    # as the book records them: a verdict holds only where every measured arithmetic gives it
    got = {r.claim.id: r.verdict for r in envelope_verdicts.across_arithmetic(results)}
    compared = envelope_verdicts.measured_here(RECORDED)  # in other arithmetic: the claims measured there as graded now
    assert {k: got[k] for k in compared} == {k: RECORDED[k] for k in compared}
    assert set(got) == set(RECORDED)


def test_committed_records_cover_the_registry():
    # at every setting: the rebuttal's other activations (C.nets.relu, C.nets.tanh_gain) are measured on the
    # recorded paper-size runs only
    records = [r for r in claims.load_records(setting=None) if r["paper"] == "C"]
    assert sorted({r["id"] for r in records}) == sorted(chapters_c.REGISTRY)
    assert {r["id"] for r in records if r["setting"] == "default"} >= set(chapters_c.REGISTRY) - {"C.nets.relu", "C.nets.tanh_gain"}
    for r in records:
        claim = chapters_c.REGISTRY[r["id"]]
        assert r["statement"] == claim.statement and r["kind"] == claim.kind and r["verdict"] in claims.VERDICTS
        assert r["grading"] == claim.grading()  # recorded under the claim's current grading
