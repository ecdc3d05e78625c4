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
from grok_lib.paper_b import checks, claims, key_numbers, mlp_numbers, plots, sample_complexity, selection, chapter_runs  # noqa: E402


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The ci runs of every Part B notebook, by notebook stem, from a scratch store."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GROK_STORE", str(tmp_path_factory.mktemp("store") / "runs"))
    try:
        yield {"sparse_classification": chapter_runs.sparse("ci"), "kernel_vs_rich": chapter_runs.kernel_rich("ci"),
               "matrix_completion": chapter_runs.matrix_completion("ci"), "modular_addition": chapter_runs.modadd("ci"),
               "init_scale_adamw": chapter_runs.init_scale("ci")}
    finally:
        mp.undo()
        plt.close("all")


def test_setup_plans_the_notebooks_configs_and_book_configs_covers_them(runs):
    book = chapters.book_configs("ci", "paper_b")
    for stem, run in runs.items():
        chapter = chapters.chapter("paper_b", stem)
        planned = chapter.runs("ci")
        assert run.configs == chapters.flat(planned), stem
        # named groups reach the notebook by name, each history that of its config
        assert run.group_configs == (planned if isinstance(planned, dict) else {}), stem
        assert {k: [h.cfg for h in g] for k, g in run.groups.items()} == run.group_configs, stem
        assert not run.committed  # ci is not the book's settings: nothing of the book is written
        assert all(c in book for c in run.configs)
        assert len(run.histories) == len(run.configs)
        # claim-only runs: planned from the notebook's, kept apart
        assert [h.cfg for h in run.claim_histories] == chapter.claim_runs(planned)
    assert len(book) == len(set(map(repr, book)))
    assert {kinds.kind_of(c).name.split("+")[0] for c in book} == {
        "paper_b.sparse", "paper_b.misgrokking", "paper_b.matrix_completion", "paper_b.modadd", "paper_b.modadd_stable",
        "paper_b.init_scale"}


def test_every_figure_has_numbers_a_notebook_and_a_regression_entry(runs):
    declared = chapters.figures("paper_b")
    assert set(declared) == set(chapters.figure_numbers("paper_b")) and len(declared) == 9
    for name, (chapter, figure) in declared.items():
        run = runs[chapter.stem]
        values = figure.numbers(run.groups or run.histories)  # shaped as the chapter's runs
        assert values and all(v is None or isinstance(v, (int, float)) for v in values.values()), name


def test_tables_print(runs):
    sparse, kr, ma = (runs[stem].groups for stem in ("sparse_classification", "kernel_vs_rich", "modular_addition"))
    for table in (key_numbers.step_size_table(sparse), key_numbers.transition_table(sparse), key_numbers.paper_table(sparse),
                  key_numbers.window_table(sparse), key_numbers.margin_table(kr), key_numbers.regime_table(kr),
                  key_numbers.misgrokking_table(kr), key_numbers.matrix_completion_table(runs["matrix_completion"].histories),
                  mlp_numbers.modadd_table(ma), mlp_numbers.modadd_fit_table(ma), mlp_numbers.modadd_shift_table(ma),
                  mlp_numbers.bridge_table(runs["init_scale_adamw"].histories),
                  mlp_numbers.bridge_fit_table(runs["init_scale_adamw"].histories)):
        assert tables.format_table(table).count("\n") >= 2
    # the kernel-vs-rich notebook reads the table's two parts by named group: the sweeps' rows, then the misgrokking run's
    by_group = [key_numbers.regime_row(h) for h in [*selection.sweep_runs(kr), selection.misgrokking_run(kr)]]
    assert repr(by_group) == repr(key_numbers.regime_table(kr))


def test_claims_evaluate_on_short_runs(runs):
    sparse = runs["sparse_classification"]
    seeds = [selection.focus_run(sparse.groups), *sparse.claim_histories]
    results = (checks.evaluate_sparse(sparse.groups, seeds)
               + checks.evaluate_regimes(runs["kernel_vs_rich"].groups)
               + [checks.evaluate_sample_gap(sample_complexity.for_run(selection.focus_run(runs["kernel_vs_rich"].groups)))]
               + checks.evaluate_matrix_completion(selection.matrix_completion_run(runs["matrix_completion"].histories))
               + [checks.evaluate_noisy_init(selection.matrix_completion_run(runs["matrix_completion"].histories),
                                             chapter_runs.recorded("mc_init_noise"))]
               + checks.evaluate_modadd(runs["modular_addition"].groups, runs["modular_addition"].claim_histories)
               + checks.evaluate_bridge(runs["init_scale_adamw"].histories))
    assert [r.claim.id for r in results] == list(claims.REGISTRY)
    assert all(isinstance(r, Result) and r.verdict in VERDICTS and r.measured for r in results)
    fixed = checks.evaluate_modadd_fixed(runs["modular_addition"].groups)  # the figure runs, at their fixed step
    assert [r.claim.id for r in fixed] == [cid for cid in claims.REGISTRY if cid.startswith("B.modadd.")]


def test_figures_draw(runs):
    sparse, kr = runs["sparse_classification"].groups, runs["kernel_vs_rich"].groups
    a, lam = sparse["alpha"], sparse["weight_decay"]
    ma, ml = selection.seed_sweeps(runs["modular_addition"].groups)
    bridge = runs["init_scale_adamw"].histories
    made = [plots.fig1a_sparse(selection.focus_run(sparse), a), plots.sweeps_figure(a, lam), plots.sparse_transition(a, lam),
            plots.margins_sparse(selection.focus_run(kr), kr["alpha"]),
            plots.misgrokking_figure(selection.misgrokking_run(kr)),
            plots.matrix_completion_figure(selection.matrix_completion_run(runs["matrix_completion"].histories)),
            plots.sweeps_figure(ma, ml, logx=False), plots.modadd_fits(ma, ml),
            plots.init_scale_figure(selection.bridge_runs(bridge), mlp_numbers.bridge_delay_rows(bridge))]
    assert all(isinstance(f, Figure) for f in made)
