"""Paper B's claims under the one grading rule: the registry's declarations, and every check on synthetic runs whose
answer is known, on both sides of its bar; the regime checks (GD's stability, the transition complete)."""

import math

import pytest

from grok_lib.grading import KINDS, VERDICTS, Claim, Regime
from grok_lib.paper_b import chapters as chapters_b, claim_terms, draws, paper_lambda, regimes
from grok_lib.paper_b.chapters import init_scale_adamw as init_chapter
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter

from .synthetic import classification, fractions, grokking_at, regression

REGISTRY = chapters_b.REGISTRY
CLAIMS = list(REGISTRY.values())


@pytest.fixture(autouse=True)
def gentle_sharpness(monkeypatch):
    """Synthetic histories have no data to measure a sharpness on: every run's is 1 (lr x S = its lr)."""
    monkeypatch.setattr(regimes, "sharpness_at_init", lambda config: 1.0)


def test_every_claim_is_declared_with_kind_basis_quantity_and_bar():
    assert list(REGISTRY) == [c.id for c in CLAIMS]
    for c in CLAIMS:
        assert isinstance(c, Claim) and c.id.startswith("B.") and c.paper == "B" and c.kind in KINDS
        assert all((c.where, c.quote, c.statement, c.quantity, c.threshold))
    assert {c.id for c in CLAIMS if c.kind == "prediction"} == {"B.bridge.delay", "B.bridge.clock"}
    assert not any("partly" in f"{c.statement} {c.quantity} {c.why} {c.threshold}" for c in CLAIMS)


def test_the_bars_are_the_papers_numbers_at_their_precision_or_moved():
    assert sparse_chapter.PAPER_FIG1A_FRACTIONS == pytest.approx((0.3505, 0.7423), abs=1e-3)
    assert sparse_chapter.START_FRACTION.lo == pytest.approx(0.3505 - 0.103, abs=1e-3)
    assert matrix_chapter.MC_PAPER_CLOCK == pytest.approx(4.34, abs=0.01)
    assert matrix_chapter.MC_CLOCK.width() == pytest.approx(2.0)  # "~1e6 steps": a decade either side
    reg = REGISTRY
    assert not reg["B.fig1a.start_fraction"].bars and not reg["B.mc.clock"].bars  # the paper's numbers: one bar
    assert len(reg["B.thm.limit"].bars) == 2 and len(reg["B.fig1a.norm"].bars) == 2  # the book's: moved
    assert reg["B.mc.clock"].grid.startswith("drop q")


def collapsing_sweep(offset=1.0):
    """An alpha sweep whose transition starts at lambda t = ln(alpha) - offset - 0.5 and ends at ln(alpha) - offset
    (fractions closing in on 1)."""
    return [fractions(1 - (offset + 0.5) / math.log(a), 1 - offset / math.log(a), alpha=a, steps=300_000)
            for a in (16.0, 128.0, 1024.0, 8192.0)]


def ends_at(alpha, lam, end, lr=0.01, steps=200_000):
    """A classification run whose test accuracy reaches 0.9 at clock ``end`` (and 0.6 at 0.15 before it)."""
    return fractions(end - 0.15, end, alpha=alpha, lam=lam, lr=lr, steps=steps)


def by_id(results):
    return {r.claim.id: r for r in results}


def test_the_sparse_checks_on_a_sweep_that_follows_the_theory():
    alpha_sweep = collapsing_sweep()
    same = [ends_at(128.0, lam, 1 - 1.0 / math.log(128.0)) for lam in (0.01, 0.02, 0.04)]  # lambda t_end the same
    got = by_id(sparse_chapter.evaluate_sparse({"alpha": alpha_sweep, "weight_decay": same}))
    assert list(got) == [cid for cid in REGISTRY if cid.startswith(("B.fig1a", "B.thm"))]
    for cid in ("B.fig1a.fit_at_once", "B.fig1a.final_acc", "B.fig1a.norm", "B.thm.window", "B.thm.log_alpha_slope",
                "B.thm.inverse_lambda_slope", "B.fig1a.kernel_acc"):
        assert got[cid].verdict == "reproduced", (cid, got[cid].measured)
    assert all(r.verdict in VERDICTS and r.regime.ok for r in got.values())


def test_the_window_and_the_limit_say_no_when_the_data_disagree():
    flat = [classification(alpha=a, start=0.3, end=0.5) for a in (16.0, 128.0, 1024.0)]  # no move toward 1
    got = by_id(sparse_chapter.evaluate_sparse({"alpha": flat, "weight_decay": flat[1:2]}))
    assert got["B.thm.window"].verdict == "not reproduced"
    assert got["B.thm.limit"].verdict == "not reproduced"
    assert got["B.thm.log_alpha_slope"].verdict == "not reproduced"


def test_inverse_lambda_slope_grades_lambda_t_the_same_for_every_lambda():
    def sweep(ends):
        return [ends_at(128.0, lam, e) for lam, e in zip((0.01, 0.02, 0.04), ends)]

    assert draws.lambda_t_spread(sweep((0.8, 0.8, 0.8)), claim_terms.END_ACC) == pytest.approx(0, abs=0.01)
    grows = sweep((0.75, 0.8, 0.9))  # lambda t_end grows by a fifth over the sweep: beyond every bar
    assert draws.lambda_t_spread(grows, claim_terms.END_ACC) == pytest.approx(0.2, abs=0.02)
    got = by_id(sparse_chapter.evaluate_sparse({"alpha": collapsing_sweep(), "weight_decay": grows}))
    assert got["B.thm.inverse_lambda_slope"].verdict != "reproduced"
    assert "slope against 1/λ over ln α" in got["B.thm.inverse_lambda_slope"].measured  # reported, not graded


def test_fig1a_fractions_against_the_papers_reading_per_data_seed():
    paper_s, paper_e = sparse_chapter.PAPER_FIG1A_FRACTIONS
    sweep = collapsing_sweep()

    def graded(starts_ends):
        seeds = [fractions(s, e, seed=i) for i, (s, e) in enumerate(starts_ends)]
        return by_id(sparse_chapter.evaluate_sparse({"alpha": sweep, "weight_decay": sweep[1:2]}, seeds))

    near = graded([(paper_s + d, paper_e - d) for d in (-0.02, 0.0, 0.02)])
    assert near["B.fig1a.start_fraction"].verdict == near["B.fig1a.end_fraction"].verdict == "reproduced"
    late = graded([(paper_s + 0.2 + d, paper_e + d) for d in (-0.01, 0.0, 0.01)])
    assert late["B.fig1a.start_fraction"].verdict == "not reproduced"
    assert late["B.fig1a.end_fraction"].verdict == "reproduced"
    straddle = graded([(paper_s, paper_e), (paper_s, paper_e + 0.2), (paper_s, paper_e)])
    assert straddle["B.fig1a.end_fraction"].verdict == "inconclusive"


def test_a_claim_that_cannot_be_measured_is_not_tested_saying_why():
    one = [classification(alpha=128.0, start=0.5, end=0.8)]
    got = by_id(sparse_chapter.evaluate_sparse({"alpha": one, "weight_decay": one}))
    assert got["B.thm.log_alpha_slope"].verdict == "not tested faithfully"
    assert "not measurable" in got["B.thm.log_alpha_slope"].measured


def test_outside_the_regime_nothing_is_graded(monkeypatch):
    monkeypatch.setattr(regimes, "sharpness_at_init", lambda config: 250.0)  # lr 0.01 x 250 = 2.5
    got = by_id(sparse_chapter.evaluate_sparse({"alpha": collapsing_sweep(), "weight_decay": collapsing_sweep()[1:2]}))
    assert {r.verdict for r in got.values()} == {"not tested faithfully"}
    assert "2.5" in got["B.thm.window"].measured
    never = [classification(alpha=a, start=5.0, end=6.0, steps=1000) for a in (16.0, 128.0)]  # no transition
    where = regimes.transition_ends(never)
    assert not where.ok and "0 of 2 runs" in where.measured


def test_the_regime_checks_read_the_runs():
    runs = collapsing_sweep()
    stable = regimes.stability(runs)
    assert stable.ok and "α=16 λ=0.02: 0.01" in stable.measured  # lr 0.01 x sharpness 1
    assert regimes.transition_ends(runs).ok
    both = regimes.both(stable, Regime(False, "q", "r", "m"))
    assert not both.ok and both.measured == "m"
    # each check's numbers follow its own quantity: the sharpness products are not read as the second check's
    assert both.text().startswith(f"{stable.quantity} {stable.requirement}: {stable.measured}; and q r: m")


def misgrokking(end):
    """A misgrokking-like run: test accuracy 0.98 in the kernel phase, falling to 0.53 from clock 0.3 to ``end``."""
    h = classification(alpha=128.0, start=0.3, end=end, kernel_acc=0.98, steps=100_000, lr=0.01)
    h.metrics["test_acc"] = 0.98 - 0.45 * (h["test_acc"] - 0.98) / (1 - 0.98)
    h.config.update(gamma=25.0, d=1000, n_train=32)
    return h


def test_the_kernel_vs_rich_checks_and_misgrokking():
    sweep = collapsing_sweep()
    falling = misgrokking(1.0)
    got = by_id(kernel_chapter.evaluate_regimes({"alpha": sweep, "weight_decay": sweep[1:2], "misgrokking": [falling]}))
    assert got["B.regimes.kernel_acc_match"].verdict == "reproduced"
    assert got["B.regimes.rich_acc_match"].verdict == "reproduced"
    assert got["B.misgrokking.starts_high"].verdict == "reproduced"
    assert got["B.misgrokking.falls"].verdict == "reproduced", got["B.misgrokking.falls"].measured
    (high, falls) = kernel_chapter.evaluate_misgrokking([misgrokking(6.0)])  # still falling when the run stops (clock 4.1)
    assert high.verdict == "reproduced" and falls.verdict == "not tested faithfully"
    assert "points up to clock" in falls.measured


def test_the_matrix_completion_checks():
    h = regression(drop_at=1.5, every=1)  # train MSE 0.1 e^-t: fitted to 1e-3 of it by t = 6.9
    got = by_id(matrix_chapter.evaluate_matrix_completion(h))
    assert list(got) == [cid for cid in REGISTRY if cid.startswith("B.mc.") and cid != "B.mc.noisy_init"]  # its own evaluator
    assert got["B.mc.recovery"].verdict == "reproduced" and got["B.mc.rank_one"].verdict == "reproduced"
    assert got["B.mc.kernel_plateau"].verdict == "reproduced" and got["B.mc.train_fit"].verdict == "reproduced"
    assert got["B.mc.clock"].verdict == "reproduced"  # a fall at clock 1.5-2 is within a decade of 4.3


def test_mc_clock_is_a_decade_either_side_of_the_papers_number():
    def fall(centre):
        return regression(alpha=10.0, lam=1e-3, lr=0.4, drop_at=centre, steps=int(60 * math.log(10) / 0.4e-3))

    assert by_id(matrix_chapter.evaluate_matrix_completion(fall(matrix_chapter.MC_PAPER_CLOCK / 5)))["B.mc.clock"].verdict == "reproduced"
    assert by_id(matrix_chapter.evaluate_matrix_completion(fall(matrix_chapter.MC_PAPER_CLOCK * 12)))["B.mc.clock"].verdict == "not reproduced"


def mlp_sweeps(ends_by_seed, alphas=(1.0, 10.0, 30.0), lams=(1e-3, 2e-3, 3e-3), lam_ends=None):
    """Every seed's alpha sweep (at lambda 2e-3) and lambda sweep (at alpha 10) grokking at the given steps."""
    alpha_runs, lambda_runs = [], []
    for seed, ends in enumerate(ends_by_seed):
        alpha_runs += [grokking_at(e, alpha=a, seed=seed) for a, e in zip(alphas, ends)]
        lambda_runs += [grokking_at(e, alpha=10.0, lam=lam, seed=seed)
                        for lam, e in zip(lams, (lam_ends or [(2500, 1500, 1000)] * len(ends_by_seed))[seed])]
    return alpha_runs, lambda_runs


def test_the_modadd_orders_and_clocks_over_seeds():
    assert draws.inversions([1, 2, 3]) == 0 and draws.inversions([2, 1, 3]) == 1 and draws.inversions([1, math.nan, 2]) == 1
    assert draws.inversions([3, 2, 1], later=False) == 0
    # lambda t = ln(alpha) + 2 at every seed (lr 2, lambda 2e-3: step = 250 lambda t): the clock's slope, exactly
    on_clock = [[int(250 * (math.log(a) + 2)) for a in (1.0, 10.0, 30.0)]] * 3
    same_lambda_t = [[int(5 / (lam * 2.0)) for lam in (1e-3, 2e-3, 3e-3)]] * 3  # lambda t = 5 at every lambda
    a, lam = mlp_sweeps(on_clock, lam_ends=same_lambda_t)
    where = Regime(True, "q", "r", "m")
    got = by_id(modular_chapter.grade_modadd(a, lam, where))
    assert got["B.modadd.alpha_order"].verdict == "reproduced"
    assert got["B.modadd.lambda_order"].verdict == "reproduced"
    assert got["B.modadd.log_alpha_clock"].verdict == "reproduced", got["B.modadd.log_alpha_clock"].measured
    assert got["B.modadd.inverse_lambda_clock"].verdict == "reproduced", got["B.modadd.inverse_lambda_clock"].measured
    earlier = [[2000, 1600, 2200]] * 3  # alpha = 10 earlier than alpha = 1 at every seed
    got = by_id(modular_chapter.grade_modadd(*mlp_sweeps(earlier), where))
    assert got["B.modadd.alpha_order"].verdict == "not reproduced"
    mixed = [[1000, 1500, 2000], [1600, 1500, 2300], [900, 1400, 2100]]
    assert by_id(modular_chapter.grade_modadd(*mlp_sweeps(mixed), where))["B.modadd.alpha_order"].verdict == "inconclusive"
    outside = Regime(False, "lr × the sharpness at initialisation", "< 2", "α=100: 850")
    assert {r.verdict for r in modular_chapter.grade_modadd(a, lam, outside)} == {"not tested faithfully"}


def bridge_run(alpha, lam, grok, fit, lr=0.02, steps=2000, seed=0):
    import numpy as np

    from grok_lib.history import History
    from grok_lib.paper_b.bridge import InitScaleConfig

    s = np.arange(0, steps + 1, 20)
    metrics = {"test_acc": np.where(s >= grok, 1.0, 0.0), "train_acc": np.where(s >= fit, 1.0, 0.0), "t": s * lr}
    from dataclasses import replace

    config = replace(InitScaleConfig(), alpha=alpha, weight_decay=lam, lr=lr, beta2=0.98, steps=steps,
                     data_seed=seed, init_seed=seed)
    return History(steps=s, metrics=metrics, config=config.to_dict(), config_type=InitScaleConfig)


def test_the_bridge_predictions():
    lr = 0.02
    on_clock = [bridge_run(a, lam, 300 + math.log(a) / (lam * lr), 40) for lam in (0.6, 1.0) for a in (1.0, 10.0, 100.0)]
    got = by_id(init_chapter.evaluate_bridge(on_clock))
    assert got["B.bridge.delay"].verdict == "reproduced" and got["B.bridge.clock"].verdict == "reproduced"
    assert got["B.bridge.clock"].word == "confirmed"  # a prediction's word
    slow = [bridge_run(a, lam, 300 + 4 * math.log(a) / (lam * lr), 40) for lam in (0.6, 1.0) for a in (1.0, 10.0, 100.0)]
    assert by_id(init_chapter.evaluate_bridge(slow))["B.bridge.clock"].verdict == "not reproduced"
    early = [bridge_run(1.0, 1.0, 300, 40), bridge_run(10.0, 1.0, 200, 40)]
    assert by_id(init_chapter.evaluate_bridge(early))["B.bridge.delay"].verdict == "not reproduced"


def test_the_sparse_claims_at_the_papers_lambda_leave_out_the_spread_over_lambda():
    """The recorded set at the paper's lambda has an alpha sweep at one data seed and the focus run at the others: the
    sweep's claims and the fractions over seeds are graded, the spread over lambda (no lambda sweep) is left out."""
    paper_s, paper_e = sparse_chapter.PAPER_FIG1A_FRACTIONS
    sweep = [fractions(1 - 1.5 / math.log(a), 1 - 1.0 / math.log(a), alpha=a, lam=1e-3, lr=0.05, steps=300_000)
             for a in (16.0, 128.0, 1024.0, 8192.0)]
    others = [fractions(paper_s + 0.3, paper_e, lam=1e-3, lr=0.05, seed=s) for s in (1, 2)]
    got = by_id(sparse_chapter.evaluate_sparse_paper_lambda([*sweep, *others]))
    assert "B.thm.inverse_lambda_slope" not in got and "B.thm.limit" in got
    start = got["B.fig1a.start_fraction"]
    assert [d.seed for d in start.draws] == [0, 1, 2]
    assert start.verdict == "not reproduced"  # two of three seeds start 0.3 late


def test_the_papers_lambda_table_and_reading_put_each_run_beside_the_figures_run():
    
    at_paper = [fractions(0.45, 0.70, lam=1e-3, lr=0.05, seed=s) for s in (0, 1)]
    book = [fractions(0.55, 0.78, seed=s) for s in (0, 1)]
    for h in at_paper:
        h.config.update(d=4000, n_train=128)
    rows = paper_lambda.lambda_table(at_paper, book)
    assert [(r["start frac"], r["start frac, book's lambda"]) for r in rows] == [(0.45, 0.55), (0.45, 0.55)]
    manifest = {"runs": [{"seconds": 1800.0}, {"seconds": 1800.0}], "machine": "a CPU"}
    bars = sparse_chapter.START_FRACTION, sparse_chapter.END_FRACTION
    words = paper_lambda.paper_lambda_words(at_paper, rows, book[0], manifest, *bars)
    assert words["lam_start_shift"] == "-0.10 (every seed)" and words["lam_end_shift"] == "-0.08 (every seed)"
    assert paper_lambda.shift_span([-0.081, -0.06]) == "-0.08 to -0.06"  # a range only where the values differ
    assert words["lam_hours"] == "1.0 h" and words["lam_other_seeds"] == "1"
    assert words["lam_start_in"] == f"{sum(sparse_chapter.START_FRACTION.holds(0.45) for _ in rows)} of 2"


def test_the_papers_lambda_reading_of_a_rerun_without_the_figures_runs():
    """A rerun whose alphas or seeds leave out the recorded set's focus run reads the set alone, saying so."""
    
    at_paper = [fractions(0.45, 0.70, lam=1e-3, lr=0.05, seed=s) for s in (0, 1)]
    for h in at_paper:
        h.config.update(d=4000, n_train=128)
    rows = paper_lambda.lambda_table(at_paper, [fractions(0.3, 0.6, alpha=4.0, seed=1)])
    words = paper_lambda.paper_lambda_words(at_paper, rows, fractions(0.3, 0.6, alpha=4.0, seed=1),
                                            {"runs": [{"seconds": 60.0}], "machine": "a CPU"},
                                            sparse_chapter.START_FRACTION, sparse_chapter.END_FRACTION)
    assert words["lam_focus_alpha"] == "128" and words["lam_start_shift"].startswith("(not measured")
    assert words["lam_answer"].endswith("data seeds (not measured: these figures have no run at the same α and data seed)")
