"""Part B's claim-only runs: more data seeds that one claim reads, and the modular-addition claims' in-regime runs,
planned beside the notebooks' runs, trained up front with them, and never read by a figure (so no figure's numbers
move)."""

import math

from grok_lib import chapters
from grok_lib.paper_b import config, run_sets
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter


def _chapter(stem):
    return chapters.chapter("paper_b", stem)


def _keys(configs):
    return {repr(sorted(c.to_dict().items())) for c in configs}


def test_claim_configs_are_the_focus_run_at_more_seeds_and_the_in_regime_sweeps():
    sparse = _chapter("sparse_classification").runs("default")
    seeds = _chapter("sparse_classification").claim_runs(sparse)
    focus = sparse_chapter.focus_config(sparse)
    assert focus in sparse["alpha"] and focus in sparse["weight_decay"]  # the run both sweeps share
    assert [c.data_seed for c in seeds] == list(range(focus.data_seed + 1, focus.data_seed + config.FIG1A_DATA_SEEDS))
    assert all(c == focus.__class__(**{**focus.to_dict(), "data_seed": c.data_seed}) for c in seeds)

    modadd = _chapter("modular_addition").runs("default")
    extra = _chapter("modular_addition").claim_runs(modadd)
    seeds = config.seeds_of("modadd", "default")
    lam, alpha = modadd["alpha"][0].weight_decay, modadd["weight_decay"][0].alpha
    lams = sorted({c.weight_decay for c in modadd["weight_decay"]})
    per_seed = len(config.STABLE_ALPHAS) + len(lams) - 1  # the run both sweeps share, once
    assert len(extra) == len(seeds) * per_seed and all(isinstance(c, config.StableModAddConfig) for c in extra)
    assert {c.alpha for c in extra if c.weight_decay == lam} == set(config.STABLE_ALPHAS)
    assert sorted({c.weight_decay for c in extra if c.alpha == alpha}) == lams
    assert all(c.stop_lambda_t == config.STABLE_STOP and c.stable_c == config.STABLE_C for c in extra)
    base = modadd["alpha"][0]
    assert all((c.p, c.width, c.train_frac, c.lr) == (base.p, base.width, base.train_frac, base.lr) for c in extra)
    assert _chapter("matrix_completion").claim_runs([]) == []


def test_claim_runs_are_trained_up_front_and_read_by_no_figure():
    book = _keys(chapters.book_configs("default", "paper_b"))
    figure_runs = set()
    for c in chapters.chapters("paper_b"):
        figure_runs |= _keys(chapters.flat(c.runs("default")))
    with_claims = [c for c in chapters.chapters("paper_b") if c.claim_runs(c.runs("default"))]
    assert [c.stem for c in with_claims] == ["sparse_classification", "modular_addition"]
    for c in with_claims:
        extra = _keys(c.claim_runs(c.runs("default")))
        assert extra <= book  # scripts/train_book_runs.py trains them
        assert not extra & figure_runs  # a figure's numbers never read them


def test_the_in_regime_runs_follow_a_reruns_seeds_and_lambdas():
    configs = modular_chapter.modadd_configs("ci", weight_decays=[2e-3, 5e-3], seeds=[4])
    extra = _chapter("modular_addition").claim_runs(configs)
    assert {c.data_seed for c in extra} == {4} and 5e-3 in {c.weight_decay for c in extra}
    assert len(extra) == len(set(extra))


def test_a_rerun_focuses_on_the_alpha_sweeps_run_nearest_the_lambda_sweeps_alpha():
    groups = run_sets.sparse_configs("ci", alphas=[2.0, 64.0], weight_decays=[0.1])  # leaves the profile's alpha out
    alpha = groups["weight_decay"][0].alpha
    focus = sparse_chapter.focus_config(groups)
    assert focus in groups["alpha"] and focus not in groups["weight_decay"]
    assert all(abs(math.log(focus.alpha / alpha)) <= abs(math.log(c.alpha / alpha)) for c in groups["alpha"])


def test_the_sweeps_are_named_groups_in_the_order_of_their_values_and_seeds_outermost():
    sparse = run_sets.sparse_configs("ci", alphas=[16.0, 4.0], weight_decays=[0.1, 0.05])
    assert [c.alpha for c in sparse["alpha"]] == [4.0, 16.0]
    assert [c.weight_decay for c in sparse["weight_decay"]] == [0.05, 0.1]
    assert len({c.weight_decay for c in sparse["alpha"]}) == len({c.alpha for c in sparse["weight_decay"]}) == 1
    kernel_rich = kernel_chapter.kernel_rich_configs("ci")
    assert list(kernel_rich) == ["alpha", "weight_decay", "misgrokking"] and len(kernel_rich["misgrokking"]) == 1
    modadd = modular_chapter.modadd_configs("ci", alphas=[10.0, 1.0], seeds=[3, 1])
    assert [(c.data_seed, c.alpha) for c in modadd["alpha"]] == [(3, 1.0), (3, 10.0), (1, 1.0), (1, 10.0)]
    per_seed = len(modadd["weight_decay"]) // 2
    assert [c.data_seed for c in modadd["weight_decay"]] == [3] * per_seed + [1] * per_seed
