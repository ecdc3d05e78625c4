"""Paper A's robustness helpers: phases in epochs, spreads over seeds, the verdicts seed by seed, threshold grids."""

import math

import numpy as np
import pytest

from grok_lib.grading import Result
from grok_lib.history import History
from grok_lib.paper_a import chapters as chapters_a, robustness
from grok_lib.paper_a.chapters import fig1_loss_curves as fig1_chapter
from grok_lib.paper_a.chapters import fig3_stable_rank as fig3_chapter
from grok_lib.paper_a.chapters import gradient_hierarchy as gradient_chapter


def test_epoch_share_weights_each_record_by_the_epochs_it_stands_for():
    steps = np.array([0, 1, 2, 4, 100])
    flags = np.array([True, True, True, False, False])
    # records at 0, 1, 2 cover epochs [0, 4); the record at 4 covers [4, 100)
    assert gradient_chapter.epoch_share(steps, flags, 0, 100) == pytest.approx(0.04)
    assert np.mean(flags) == pytest.approx(0.6)  # the share of records would say 60%
    assert gradient_chapter.epoch_share(steps, flags, 0, 4) == 1.0
    assert gradient_chapter.epoch_share(steps, flags, 50, 100) == 0.0
    assert math.isnan(gradient_chapter.epoch_share(steps, flags, 100, 100))


def test_spread_over_seeds():
    assert robustness.spread([300.0, 100.0, 200.0]) == "200 [100–300]"
    assert robustness.spread([1.0, math.nan, 3.0], ".1f") == "2.0 [1.0–3.0] (1 never)"
    assert robustness.spread([650.0, 611.0, 700.0]) == "650 [611–700]"
    assert robustness.spread([8.25e-7, 8.3e-7]) == "8.28e-07 [8.25e-07–8.3e-07]"
    assert robustness.spread([math.nan]) == "never"


def _run(wd: float, srank: list[float], train_loss: list[float], test_acc: list[float], seed: int = 0) -> History:
    n = len(srank)
    return History(steps=np.arange(n) * 100, config={"weight_decay": wd, "data_seed": seed},
                   metrics={"srank_E": np.array(srank), "train_loss": np.array(train_loss),
                            "test_acc": np.array(test_acc)})


def test_the_clock_ratio_moves_with_the_fraction_of_the_peak():
    h = _run(1.0, [20, 30, 40, 39, 36, 34, 32, 30, 29, 29], [4, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6],
             [0] * 5 + [1] * 5)
    assert fig3_chapter.T_REP_FRACTION_GRID == chapters_a.REGISTRY["A.fig3.clock_ratio"].choices[0].grid  # the table is the graded grid
    grid = fig3_chapter.ratio_grid(h)
    assert grid[(0.9, 1e-4)] == pytest.approx(400 / 300)  # 36 <= 0.9 * 40 first at epoch 400
    assert grid[(0.8, 1e-4)] == pytest.approx(600 / 300)  # 32 <= 0.8 * 40 first at epoch 600
    assert grid[(0.8, 1e-3)] == pytest.approx(600 / 200)
    assert math.isnan(grid[(0.7, 1e-4)])  # never below 0.7 * 40 = 28
    rows = fig3_chapter.clock_ratio_sensitivity([h])
    # as graded: where the stable rank never falls that far, the run's length (900) stands for T_rep, a lower bound
    assert rows[1]["ε"] == "1e-04" and rows[1]["f=0.8"] == 2.0 and rows[1]["f=0.7"] == "≥ 3.00"


def _result(cid: str, verdict: str) -> Result:
    return Result(chapters_a.REGISTRY[cid], "", verdict)


def test_the_seed_table_grades_each_seed_alone_beside_every_seed_at_once():
    seeds = [[_run(0.6, [1, 2], [1, 1], [0, 1], seed=s)] for s in (0, 1, 2)]
    calls = []

    def evaluate(sweeps):  # an evaluator takes a list of sweeps, one per seed
        calls.append(len(sweeps))
        if len(sweeps) > 1:
            return [_result("A.fig2.circle", "inconclusive")]
        return [_result("A.fig2.circle", "not reproduced" if robustness.seed_of(sweeps[0]) == 1 else "reproduced")]

    assert robustness.seed_table(evaluate, seeds) == [{"claim": "A.fig2.circle", "seed 0": "reproduced",
                                                       "seed 1": "not reproduced", "seed 2": "reproduced",
                                                       "every seed": "inconclusive"}]
    assert calls == [1, 1, 1, 3]
    assert list(robustness.differing(evaluate, seeds)) == ["A.fig2.circle"]


def test_a_premise_reads_in_its_own_words_seed_by_seed():
    seeds = [[_run(0.6, [1, 2], [1, 1], [0, 1], seed=s)] for s in (0, 1)]
    rows = robustness.seed_table(lambda sweeps: [_result("A.relu.frozen_patterns", "not reproduced")], seeds)
    assert rows == [{"claim": "A.relu.frozen_patterns", "seed 0": "does not hold in these runs",
                     "seed 1": "does not hold in these runs", "every seed": "does not hold in these runs"}]


def test_spread_table_merges_seed_tables_row_by_row():
    a = [{"weight_decay": 0.6, "T": 100.0}, {"weight_decay": 1.0, "T": 50.0}]
    b = [{"weight_decay": 0.6, "T": 300.0}, {"weight_decay": 1.0, "T": "never"}]
    assert robustness.spread_table([a, b]) == [{"weight_decay": 0.6, "T": "200 [100–300]"},
                                               {"weight_decay": 1.0, "T": "50 [50–50] (1 never)"}]


def test_split_table_states_the_arithmetic():
    unordered, ordered, small = fig1_chapter.split_table(113)
    assert unordered["of all unordered"] == pytest.approx(0.5, abs=1e-3) and unordered["test pairs whose mirror trained"] == 0
    assert ordered["of p²"] == pytest.approx(0.3, abs=1e-3)
    assert ordered["of all unordered"] == pytest.approx(1 - 0.7**2, abs=0.01)
    assert ordered["test pairs whose mirror trained"] == pytest.approx(0.3, abs=0.01)
    assert small["test pairs whose mirror trained"] == 0
