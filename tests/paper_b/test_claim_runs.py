"""Part B's claim-only runs: more data seeds and alphas that one claim reads, planned beside the notebooks' runs,
trained up front with them, and never read by a figure (so no figure's numbers move)."""

from grok_lib.paper_b import config, figures, setup


def _keys(configs):
    return {repr(sorted(c.to_dict().items())) for c in configs}


def test_claim_configs_are_the_focus_run_at_more_seeds_and_the_clock_alphas():
    sparse = setup.NOTEBOOK_CONFIGS["sparse_classification"]("default")
    seeds = setup.claim_configs("sparse_classification", sparse)
    focus = setup._focus_config(sparse)
    assert (focus.alpha, focus.weight_decay) == (sparse[-1].alpha, sparse[0].weight_decay)
    assert [c.data_seed for c in seeds] == list(range(focus.data_seed + 1, focus.data_seed + config.FIG1A_DATA_SEEDS))
    assert all(c == focus.__class__(**{**focus.to_dict(), "data_seed": c.data_seed}) for c in seeds)

    modadd = setup.NOTEBOOK_CONFIGS["modular_addition"]("default")
    extra = setup.claim_configs("modular_addition", modadd)
    n_seeds = len(config.seeds_of("modadd", "default"))
    assert len(extra) == n_seeds * len(config.CLOCK_ALPHAS)
    assert {c.alpha for c in extra} == set(config.CLOCK_ALPHAS)
    assert {c.weight_decay for c in extra} == {modadd[0].weight_decay}  # the alpha sweep's lambda
    assert setup.claim_configs("matrix_completion", []) == []


def test_claim_runs_are_trained_up_front_and_read_by_no_figure():
    book = _keys(setup.book_configs("default"))
    figure_runs = set()
    for stem in set(figures.NOTEBOOK_OF.values()):
        figure_runs |= _keys(setup.NOTEBOOK_CONFIGS[stem]("default"))
    for stem in setup.CLAIM_CONFIGS:
        extra = _keys(setup.claim_configs(stem, setup.NOTEBOOK_CONFIGS[stem]("default")))
        assert extra and extra <= book  # scripts/train_book_runs.py trains them
        assert not extra & figure_runs  # a figure's numbers never read them


def test_a_rerun_that_already_has_a_clock_alpha_gets_no_duplicate():
    configs = setup._modadd_configs("ci", alphas=[1.0, 10.0, config.CLOCK_ALPHAS[0]])
    extra = setup.claim_configs("modular_addition", configs)
    assert config.CLOCK_ALPHAS[0] not in {c.alpha for c in extra}
