"""Paper A's robustness helpers: phases in epochs, spreads over seeds, threshold grids."""

import math

import numpy as np
import pytest

from grok_lib.history import History
from grok_lib.paper_a import recorded_numbers, robustness, sensitivity


def test_epoch_share_weights_each_record_by_the_epochs_it_stands_for():
    steps = np.array([0, 1, 2, 4, 100])
    flags = np.array([True, True, True, False, False])
    # records at 0, 1, 2 cover epochs [0, 4); the record at 4 covers [4, 100)
    assert robustness.epoch_share(steps, flags, 0, 100) == pytest.approx(0.04)
    assert np.mean(flags) == pytest.approx(0.6)  # the share of records would say 60%
    assert robustness.epoch_share(steps, flags, 0, 4) == 1.0
    assert robustness.epoch_share(steps, flags, 50, 100) == 0.0
    assert math.isnan(robustness.epoch_share(steps, flags, 100, 100))


def test_spread_and_seed_summary():
    assert robustness.spread([300.0, 100.0, 200.0]) == "200 [100–300]"
    assert robustness.spread([1.0, math.nan, 3.0], ".1f") == "2.0 [1.0–3.0] (1 never)"
    assert robustness.spread([650.0, 611.0, 700.0]) == "650 [611–700]"
    assert robustness.spread([8.25e-7, 8.3e-7]) == "8.28e-07 [8.25e-07–8.3e-07]"
    assert robustness.spread([math.nan]) == "never"
    assert robustness.seed_summary(["reproduced"] * 3) == "reproduced for all 3 seeds"
    assert robustness.seed_summary(["reproduced", "partly", "reproduced"]) == "reproduced 2, partly 1 of 3 seeds"


def _run(wd: float, srank: list[float], train_loss: list[float], test_acc: list[float]) -> History:
    n = len(srank)
    return History(steps=np.arange(n) * 100, config={"weight_decay": wd},
                   metrics={"srank_E": np.array(srank), "train_loss": np.array(train_loss),
                            "test_acc": np.array(test_acc)})


def test_the_clock_ratio_moves_with_the_fraction_of_the_peak():
    h = _run(1.0, [20, 30, 40, 39, 36, 34, 32, 30, 29, 29], [4, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6],
             [0] * 5 + [1] * 5)
    grid = robustness.ratio_grid(h)
    assert grid[(0.95, 1e-4)] == pytest.approx(400 / 300)  # 36 <= 0.95 * 40 first at epoch 400
    assert grid[(0.8, 1e-4)] == pytest.approx(600 / 300)  # 32 <= 0.8 * 40 first at epoch 600
    assert grid[(0.8, 1e-3)] == pytest.approx(600 / 200)
    assert math.isnan(grid[(0.7, 1e-4)])  # never below 0.7 * 40 = 28
    rows = sensitivity.clock_ratio_sensitivity([h])
    assert rows[1]["ε"] == "1e-04" and rows[1]["f=0.8"] == 2.0 and rows[1]["f=0.7"] == "never"


def test_spread_table_merges_seed_tables_row_by_row():
    a = [{"weight_decay": 0.6, "T": 100.0}, {"weight_decay": 1.0, "T": 50.0}]
    b = [{"weight_decay": 0.6, "T": 300.0}, {"weight_decay": 1.0, "T": "never"}]
    assert robustness.spread_table([a, b]) == [{"weight_decay": 0.6, "T": "200 [100–300]"},
                                               {"weight_decay": 1.0, "T": "50 [50–50] (1 never)"}]


def test_split_table_states_the_arithmetic():
    unordered, ordered, small = recorded_numbers.split_table(113)
    assert unordered["of all unordered"] == pytest.approx(0.5, abs=1e-3) and unordered["test pairs whose mirror trained"] == 0
    assert ordered["of p²"] == pytest.approx(0.3, abs=1e-3)
    assert ordered["of all unordered"] == pytest.approx(1 - 0.7**2, abs=0.01)
    assert ordered["test pairs whose mirror trained"] == pytest.approx(0.3, abs=0.01)
    assert small["test pairs whose mirror trained"] == 0
