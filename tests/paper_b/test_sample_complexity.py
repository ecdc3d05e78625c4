"""The sample-size sweep of the two margin classifiers (B.bounds.sample_gap): its grid, its readings and a tiny
sweep on sparse data where the rich classifier must need fewer samples."""

from grok_lib.paper_b import sample_complexity as S
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.config import SparseConfig


def test_grid_doubles_from_16_to_the_first_power_of_two_at_least_d():
    assert S.n_grid(4000) == (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
    assert S.n_grid(64) == (16, 32, 64) and S.n_grid(5) == (16,)


def test_smallest_n_and_the_gap_are_lower_bounds_when_a_level_is_never_reached():
    sw = S.Sweep(SparseConfig(d=64), (16, 32, 64), {"l1": {16: 0.8, 32: 0.99}, "l2": {16: 0.6, 32: 0.7, 64: 0.93}})
    assert sw.smallest_n("l1", 0.95) == 32 and sw.smallest_n("l2", 0.9) == 64
    assert sw.smallest_n("l2", 0.95) == 128  # never on the grid: twice its last size
    assert sw.gap(0.95) == 4.0 and sw.gap(0.9) == 2.0


def test_a_tiny_sweep_stops_each_classifier_at_the_top_level_and_is_graded():
    config = SparseConfig(d=128, n_test=500, k=3)
    sweeps = S.sweeps(config, (0, 1), 0.99)
    for sw in sweeps:
        l1 = sw.accuracy["l1"]
        assert max(l1.values()) >= 0.99 and all(v < 0.99 for n, v in l1.items() if n < max(l1))  # stopped there
        assert sw.smallest_n("l1", 0.95) < sw.smallest_n("l2", 0.95)  # k = 3 of d = 128: the rich one needs fewer
    assert [sw.config.data_seed for sw in sweeps] == [0, 1]
    result = kernel_chapter.evaluate_sample_gap(sweeps)
    assert result.claim.id == "B.bounds.sample_gap" and result.measured
    assert {d.seed for d in result.draws} == {0, 1}


def test_the_same_config_gives_the_same_sweep():
    config = SparseConfig(d=64, n_test=300)
    assert S.sweep(config, 0.95).accuracy == S.sweep(config, 0.95).accuracy  # seeded: the same floats
