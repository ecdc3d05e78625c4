"""Paper B claims: complete, tolerances formatted from the constants, evaluators give valid verdicts."""

import dataclasses
import math

import pytest

from grok_lib.claims import VERDICTS
from grok_lib.paper_b import checks as CK
from grok_lib.paper_b import claims as CL
from grok_lib.paper_b import thresholds as TH

from .synthetic import classification, regression


def test_every_claim_has_fields_and_an_evaluator():
    fields = [dataclasses.asdict(c) for c in CL.CLAIMS]
    assert len(fields) == len(CL.CLAIMS) == len(CK.EVALUATORS)
    for f in fields:
        assert f["id"].startswith("B.") and f["paper"] == "B"
        assert all(f[k] for k in ("statement", "measure", "tolerance"))
    assert len({f["id"] for f in fields}) == len(fields)


def test_tolerance_text_follows_the_constants():
    assert f"{TH.FIG1A_TOL}" in CL.REGISTRY["B.fig1a.fractions"].tolerance
    assert f"[{TH.SLOPE_RANGE[0]:g}, {TH.SLOPE_RANGE[1]:g}]" in CL.REGISTRY["B.thm.log_alpha_slope"].tolerance
    assert f"{TH.MISGROK_FINAL_MAX}" in CL.REGISTRY["B.misgrokking"].tolerance
    assert TH.PAPER_FIG1A_FRACTIONS == pytest.approx((0.3505, 0.7423), abs=1e-3)
    assert TH.MC_PAPER_CLOCK == pytest.approx(4.34, abs=0.01)


def collapsing_sweep():
    """Transitions that close in on 1 as alpha grows, ending at (ln alpha - 1) / lambda."""
    runs = []
    for alpha in (16.0, 128.0, 1024.0, 8192.0):
        end = 1 - 1 / math.log(alpha) + 0.05
        runs.append(classification(alpha=alpha, lam=0.02, lr=0.01, start=end - 0.25, end=end, steps=100_000))
    return runs


def test_evaluators_on_a_sweep_that_follows_the_theory():
    runs = collapsing_sweep()
    for cid in ("B.fig1a.kernel_then_rich", "B.thm.window", "B.thm.log_alpha_slope", "B.fig1a.norm", "B.regimes.cosines"):
        text, verdict = CK.EVALUATORS[cid](runs)
        assert verdict == "reproduced", (cid, text)
    lam_runs = [classification(alpha=128.0, lam=lam, lr=0.01, start=0.75, end=0.95, steps=200_000)
                for lam in (0.01, 0.02, 0.04)]
    text, verdict = CK.inverse_lambda_slope(lam_runs)
    assert verdict == "reproduced", text
    text, verdict = CK.fig1a_fractions([classification(start=0.2, end=0.6)])
    assert verdict in VERDICTS and "paper 0.35-0.74" in text


def test_evaluators_say_no_when_the_data_disagree():
    flat = [classification(alpha=a, start=0.3, end=0.5) for a in (16.0, 128.0, 1024.0)]  # no move toward 1
    assert CK.theorem_window(flat)[1] == "partly"  # inside the window, not collapsing
    assert CK.log_alpha_slope(flat)[1] == "not reproduced"
    late = [classification(alpha=a, start=1.5, end=2.5, steps=20_000) for a in (16.0, 128.0)]
    assert CK.theorem_window(late)[1] != "reproduced"


def test_regression_and_mlp_evaluators():
    h = regression(drop_at=1.5)
    for f in (CK.mc_kernel_plateau, CK.mc_recovery, CK.mc_clock):
        text, verdict = f(h)
        assert verdict in VERDICTS and text
    assert CK.mc_recovery(h)[1] == "reproduced"
    mlp = [classification(alpha=a, lam=0.002, lr=2.0, start=s, end=s + 0.2, steps=4000)
           for a, s in ((1.5, 0.5), (10.0, 0.6), (100.0, 0.7))]
    assert CK.modadd_alpha_order(mlp)[1] == "reproduced"
    swapped = [classification(alpha=a, lam=0.002, lr=2.0, start=s, end=e, steps=4000)
               for a, s, e in ((1.5, 0.5, 0.7), (10.0, 0.0, 0.05), (100.0, 0.7, 0.9))]  # alpha = 10 earliest
    assert CK.modadd_alpha_order(swapped)[1] == "partly"
    lam = [classification(alpha=10.0, lam=l, lr=2.0, start=0.5, end=0.7, steps=8000) for l in (1e-3, 2e-3, 3e-3)]
    assert CK.modadd_lambda_order(lam)[1] == "reproduced"
    text, verdict = CK.modadd_clock(mlp, lam)
    assert verdict in VERDICTS and "slope" in text


def test_the_registry_is_the_books_claim_type_and_every_id_has_an_evaluator():
    from grok_lib.claims import Claim

    assert list(CL.REGISTRY) == [c.id for c in CL.CLAIMS] == list(CK.EVALUATORS)
    assert all(isinstance(c, Claim) and c.paper == "B" for c in CL.REGISTRY.values())
    assert "exploratory runs" in CL.__doc__ and "not before" in CL.__doc__


def test_limit_and_regime_evaluators():
    closing = [classification(alpha=a, lam=0.02, lr=0.01, start=1 - 2 / math.log(a), end=1 - 1 / math.log(a),
                              steps=100_000) for a in (16.0, 128.0, 1024.0, 8192.0)]  # lambda t = ln(alpha) - const
    text, verdict = CK.theorem_limit(closing)
    assert verdict == "reproduced" and "extrapolated" in text
    stuck = [classification(alpha=a, start=0.3, end=0.5) for a in (16.0, 128.0, 1024.0)]  # no move toward 1
    assert CK.theorem_limit(stuck)[1] == "not reproduced"
    text, verdict = CK.regime_test_acc(collapsing_sweep())
    assert verdict == "reproduced", text
    off = [classification(kernel_acc=0.7)]  # early accuracy 0.7 against the L2 classifier's ... 0.7: fine
    off[0].meta["l2_test_acc"] = 0.5
    assert CK.regime_test_acc(off)[1] == "partly"


def bridge_run(alpha, lam, grok, fit, lr=0.02, steps=2000):
    import numpy as np

    from grok_lib.history import History

    s = np.arange(0, steps + 1, 20)
    metrics = {"test_acc": np.where(s >= grok, 1.0, 0.0), "train_acc": np.where(s >= fit, 1.0, 0.0), "t": s * lr}
    config = {"alpha": alpha, "weight_decay": lam, "lr": lr, "beta2": 0.98}
    return History(steps=s, metrics=metrics, config=config, meta={"model": "paper_b.init_scale"})


def test_bridge_evaluators():
    lr = 0.02
    on_clock = [bridge_run(a, lam, 300 + math.log(a) / (lam * lr), 40) for lam in (0.6, 1.0) for a in (1.0, 10.0, 100.0)]
    assert CK.bridge_delay(on_clock)[1] == "reproduced"
    text, verdict = CK.bridge_clock(on_clock)
    assert verdict == "reproduced", text
    slow = [bridge_run(a, lam, 300 + 4 * math.log(a) / (lam * lr), 40) for lam in (0.6, 1.0) for a in (1.0, 10.0, 100.0)]
    assert CK.bridge_clock(slow)[1] == "not reproduced"
    never = [bridge_run(1.0, 1.0, 300, 40), bridge_run(10.0, 1.0, 10**9, 40)]  # alpha = 10 never groks
    assert CK.bridge_delay(never)[1] == "reproduced"  # never counts as later
    early = [bridge_run(1.0, 1.0, 300, 40), bridge_run(10.0, 1.0, 200, 40)]
    assert CK.bridge_delay(early)[1] == "not reproduced"


def test_a_claim_that_cannot_be_measured_is_not_reproduced_with_the_reason():
    no_transition = [classification(alpha=a, start=5.0, end=6.0, steps=100) for a in (16.0, 128.0)]
    results = CL.evaluate_sparse(no_transition, no_transition)
    by_id = {r.claim.id: r for r in results}
    assert by_id["B.thm.log_alpha_slope"].verdict == "not reproduced"
    assert "not measurable" in by_id["B.thm.log_alpha_slope"].measured
