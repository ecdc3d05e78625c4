"""Paper B's recorded sets (grok_lib/paper_b/recordings.py) and what they need of the trainers: the
misgrokking run's stop on the clock, and the callbacks recorded.retrain_prefix reads the first steps with."""

import math
from dataclasses import replace

import numpy as np
import pytest

from grok_lib import recorded
from grok_lib.config import ConfigError
from grok_lib.history import stamped
from grok_lib.paper_b import config, diagonal, matrix_completion, recordings
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.kinds import MATRIX_COMPLETION, MISGROKKING


def test_the_sets_are_found_and_their_configs_are_the_papers():
    sets = recorded.definitions()
    assert {"paper_b/mc_paper", "paper_b/misgrokking_paper"} <= set(sets)
    (mc,) = recordings.mc_paper()
    paper = config.PROFILES["paper"]["matrix_completion"]
    assert replace(mc, steps=paper.steps) == paper and mc.steps == recordings.MC_STEPS
    assert mc.weight_decay == 1e-4 and mc.lr == 0.1 and mc.alpha == 10.0 and mc.d == 97 and mc.observed_frac == 0.05
    runs = recordings.misgrokking_paper()
    assert [c.data_seed for c in runs] == list(recordings.MISGROKKING_SEEDS)
    for c in runs:
        assert (c.d, c.gamma, c.n_train) == (100_000, 25.0, 32)
        assert c.stop_clock == recordings.MISGROKKING_STOP_CLOCK and c.n_snapshots == 0
    for _, (_, configs, blocks) in ((n, sets[n]) for n in ("paper_b/mc_paper", "paper_b/misgrokking_paper")):
        assert blocks == ()
        assert len(configs()) >= 1


def test_the_default_runs_do_not_stop_on_the_clock():
    assert all(getattr(c, "stop_clock", 0.0) == 0.0 for p in config.PROFILES.values() for c in p.values())


@pytest.mark.parametrize("bad,message", [(-1.0, "stop_clock"), (math.inf, "stop_clock")])
def test_stop_clock_is_checked(bad, message):
    with pytest.raises(ConfigError, match=message):
        config.MisgrokkingConfig(stop_clock=bad)


def test_stop_clock_needs_the_clock():
    with pytest.raises(ConfigError, match="stop_clock needs weight_decay > 0 and alpha > 1"):
        config.MisgrokkingConfig(stop_clock=1.0, weight_decay=0.0)


def test_a_run_stops_on_the_clock_and_is_the_same_run_until_then():
    c = config.PROFILES["ci"]["misgrokking"]
    full = diagonal.train(c, progress=False)
    stopped = diagonal.train(replace(c, stop_clock=1.5, steps=10 * c.steps), progress=False)
    clock = np.asarray(stopped["t"]) * c.weight_decay / math.log(c.alpha)
    assert clock[-1] >= 1.5 and (clock[:-1] < 1.5).all()
    # the last row is the stop step's; every earlier one is on the schedule the steps cap plans
    schedule = diagonal.record_steps(10 * c.steps, c.n_log)
    assert set(stopped.steps[:-1].tolist()) <= set(schedule.tolist())
    # the same trajectory as the plain run at the steps both record (same data, same steps)
    common = sorted(set(full.steps.tolist()) & set(stopped.steps.tolist()))
    assert len(common) > 3
    i, j = ([int(np.flatnonzero(h.steps == s)[0]) for s in common] for h in (full, stopped))
    for name in ("t", "train_loss", "test_acc", "norm"):
        assert np.array_equal(np.asarray(full[name])[i], np.asarray(stopped[name])[j])


def test_callbacks_see_every_recorded_row_and_change_nothing():
    c = config.PROFILES["ci"]["misgrokking"]
    plain = diagonal.train(c, progress=False)
    seen = {}
    watched = diagonal.train(c, progress=False, callbacks=(lambda step, row: seen.setdefault(step, dict(row)),))
    assert list(seen) == plain.steps.tolist() == watched.steps.tolist()
    for name in plain.metrics:
        assert np.array_equal(plain[name], watched[name])
        assert [seen[s][name] for s in seen] == list(np.asarray(plain[name]))
    m = config.PROFILES["ci"]["matrix_completion"]
    seen_mc = []
    h = matrix_completion.train(m, progress=False, callbacks=(lambda step, row: seen_mc.append((step, row["test_mse"])),))
    assert [s for s, _ in seen_mc] == h.steps.tolist() and [v for _, v in seen_mc] == list(h["test_mse"])


def test_the_group_trainers_hand_callbacks_on_and_retrain_prefix_stops():
    seen = []
    c = config.PROFILES["ci"]["misgrokking"]
    (h,) = MISGROKKING.train([c], device="cpu", resume=None, on_checkpoint=None, progress=False,
                             callbacks=(lambda step, row: seen.append(step),))
    assert seen == h.steps.tolist()
    m = config.PROFILES["ci"]["matrix_completion"]
    rows = recorded.retrain_prefix(m, 30)
    full = MATRIX_COMPLETION.train([m], device="cpu", resume=None, on_checkpoint=None, progress=False)[0]
    assert max(rows) <= 30 and sorted(rows) == [int(s) for s in full.steps if s <= 30]
    assert recorded.compare_prefix(full, rows, 0.0) == []


def test_the_paper_scale_tables_and_verdicts_read_ci_runs():
    
    runs = [replace(config.PROFILES["ci"]["misgrokking"], data_seed=s) for s in (0, 1)]
    mis = stamped([diagonal.train(c, progress=False) for c in runs], runs)  # typed, as the store gives them
    rows = kernel_chapter.misgrokking_seeds_table(mis)
    assert [r["data seed"] for r in rows] == [0, 1]
    assert all(f"clock <= {level:g}" in r for r in rows for level in kernel_chapter.MISGROK_FALL_LEVELS)
    high, falls = kernel_chapter.evaluate_misgrokking(mis)
    assert (high.claim.id, falls.claim.id) == ("B.misgrokking.starts_high", "B.misgrokking.falls")
    assert all("seed 0" in r.measured and "seed 1" in r.measured for r in (high, falls))
    mc_config = config.PROFILES["ci"]["matrix_completion"]
    (mc,) = stamped([matrix_completion.train(mc_config, progress=False)], [mc_config])
    both = matrix_chapter.matrix_completion_compare(mc, mc)
    assert [r["reading"] for r in both][:3] == ["lambda", "step size", "steps"]
    assert all(r["this page's run"] == r["paper's settings"] or r["this page's run"] != r["this page's run"] for r in both)
