"""Part B end to end at the ci profile: each notebook's setup call, tables, figure numbers, claims and figures.

Trains the ci runs (seconds) into a scratch run store; nothing of the book is written.
"""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from grok_lib import chapters, kinds, tables  # noqa: E402
from grok_lib.claims import VERDICTS, Result  # noqa: E402
from grok_lib.paper_b import claims, figures, mlp_figures, plots, selection, setup  # noqa: E402


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The ci runs of every Part B notebook, by notebook stem, from a scratch store."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GROK_STORE", str(tmp_path_factory.mktemp("store") / "runs"))
    try:
        yield {"sparse_classification": setup.sparse("ci"), "kernel_vs_rich": setup.kernel_rich("ci"),
               "matrix_completion": setup.matrix_completion("ci"), "modular_addition": setup.modadd("ci"),
               "init_scale_adamw": setup.init_scale("ci")}
    finally:
        mp.undo()
        plt.close("all")


def test_setup_plans_the_notebooks_configs_and_book_configs_covers_them(runs):
    book = chapters.book_configs("ci", "paper_b")
    for stem, run in runs.items():
        chapter = chapters.chapter("paper_b", stem)
        assert run.configs == chapter.runs("ci"), stem
        assert not run.committed  # ci is not the book's settings: nothing of the book is written
        assert all(c in book for c in run.configs)
        assert len(run.histories) == len(run.configs)
        # claim-only runs: planned from the notebook's, kept apart
        assert [h.cfg for h in run.claim_histories] == chapter.claim_runs(run.configs)
    assert len(book) == len(set(map(repr, book)))
    assert {kinds.kind_of(c).name.split("+")[0] for c in book} == {
        "paper_b.sparse", "paper_b.misgrokking", "paper_b.matrix_completion", "paper_b.modadd", "paper_b.init_scale"}


def test_every_figure_has_numbers_a_notebook_and_a_regression_entry(runs):
    declared = chapters.figures("paper_b")
    assert set(declared) == set(chapters.figure_numbers("paper_b")) and len(declared) == 9
    for name, (chapter, figure) in declared.items():
        values = figure.numbers(runs[chapter.stem].histories)
        assert values and all(v is None or isinstance(v, (int, float)) for v in values.values()), name


def test_tables_print(runs):
    sparse, kr = runs["sparse_classification"].histories, runs["kernel_vs_rich"].histories
    for table in (figures.step_size_table(sparse), figures.transition_table(sparse), figures.paper_table(sparse),
                  figures.window_table(sparse), figures.margin_table(kr), figures.regime_table(kr),
                  figures.misgrokking_table(kr), figures.matrix_completion_table(runs["matrix_completion"].histories),
                  mlp_figures.modadd_table(runs["modular_addition"].histories),
                  mlp_figures.modadd_fit_table(runs["modular_addition"].histories),
                  mlp_figures.modadd_shift_table(runs["modular_addition"].histories),
                  mlp_figures.bridge_table(runs["init_scale_adamw"].histories),
                  mlp_figures.bridge_fit_table(runs["init_scale_adamw"].histories)):
        assert tables.format_table(table).count("\n") >= 2


def test_claims_evaluate_on_short_runs(runs):
    a, lam = selection.split_sparse(runs["sparse_classification"].histories)
    kr = runs["kernel_vs_rich"].histories
    seeds = [selection.focus_run(a, lam), *runs["sparse_classification"].claim_histories]
    results = (claims.evaluate_sparse(a, lam, seeds)
               + claims.evaluate_regimes(selection.sparse_runs(kr), selection.misgrokking_run(kr))
               + claims.evaluate_matrix_completion(selection.matrix_completion_run(runs["matrix_completion"].histories))
               + claims.evaluate_modadd(runs["modular_addition"].histories, runs["modular_addition"].claim_histories)
               + claims.evaluate_bridge(runs["init_scale_adamw"].histories))
    assert [r.claim.id for r in results] == list(claims.REGISTRY)
    assert all(isinstance(r, Result) and r.verdict in VERDICTS and r.measured for r in results)


def test_figures_draw(runs):
    a, lam = selection.split_sparse(runs["sparse_classification"].histories)
    kr = runs["kernel_vs_rich"].histories
    ma, ml = selection.split_modadd(runs["modular_addition"].histories)
    bridge = runs["init_scale_adamw"].histories
    made = [plots.fig1a_sparse(selection.focus_run(a, lam), a), plots.sweeps_figure(a, lam), plots.sparse_transition(a, lam),
            plots.margins_sparse(selection.focus_run(*selection.split_sparse(kr)), selection.split_sparse(kr)[0]),
            plots.misgrokking_figure(selection.misgrokking_run(kr)),
            plots.matrix_completion_figure(selection.matrix_completion_run(runs["matrix_completion"].histories)),
            plots.sweeps_figure(ma, ml, logx=False), plots.modadd_fits(ma, ml),
            plots.init_scale_figure(selection.bridge_runs(bridge), mlp_figures.bridge_delay_rows(bridge))]
    assert all(isinstance(f, Figure) for f in made)
