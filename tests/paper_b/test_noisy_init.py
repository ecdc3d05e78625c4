"""Remark 3.13 (B.mc.noisy_init): the recorded runs with initialisation noise are graded against the chapter's
noise-free run on the same observed set, at every noise level, drop and seed; a rerun at other settings is not
compared with them."""

from dataclasses import replace

import pytest

from grok_lib.paper_b import claim_terms, recordings, run_sets
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.runs import run_all


@pytest.fixture(scope="module")
def runs():
    (clean,) = run_all(matrix_chapter.matrix_completion_configs("default"), progress=False)
    return clean, run_sets.recorded("mc_init_noise")


def test_the_recorded_set_is_the_chapters_run_with_noise_at_every_level_and_seed(runs):
    clean, noisy = runs
    assert len(noisy) == len(recordings.MC_NOISE_LEVELS) * len(recordings.MC_NOISE_SEEDS)
    assert {(h.cfg.init_noise, h.cfg.init_seed) for h in noisy} == {
        (s, k) for s in recordings.MC_NOISE_LEVELS for k in recordings.MC_NOISE_SEEDS}
    assert matrix_chapter.noisy_twins(clean, noisy) == noisy


@pytest.mark.train
def test_every_noise_level_drop_and_seed_is_a_draw_and_larger_noise_moves_the_clock_more(runs):
    clean, noisy = runs
    result = matrix_chapter.evaluate_noisy_init(clean, noisy)
    points = {(d.seed, d.point) for d in result.draws}
    assert points == {(k, (s, q)) for k in recordings.MC_NOISE_SEEDS for s in recordings.MC_NOISE_LEVELS for q in claim_terms.MC_DROP_LEVELS}
    largest = {s: max(d.values[0] for d in result.draws if d.point[0] == s) for s in recordings.MC_NOISE_LEVELS}
    assert largest[recordings.MC_NOISE_LEVELS[0]] <= largest[recordings.MC_NOISE_LEVELS[-1]]
    rows = matrix_chapter.mc_noise_table(clean, noisy)
    assert len(rows) == 1 + len(noisy) and rows[0]["init seed"] == "–"


def test_a_rerun_at_other_settings_is_not_compared_with_the_default_profiles_noisy_runs(runs):
    clean, noisy = runs
    other = replace(clean, config={**clean.config, "alpha": 20.0})
    assert matrix_chapter.noisy_twins(other, noisy) == []
    assert matrix_chapter.evaluate_noisy_init(other, noisy).verdict == "not tested faithfully"
