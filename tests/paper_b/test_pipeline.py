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
from grok_lib.paper_b import chapters as chapters_b, panels, run_sets, sample_complexity, selection
from grok_lib.paper_b.chapters import init_scale_adamw as init_chapter
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The ci runs of every Part B notebook, by notebook stem, from a scratch store."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GROK_STORE", str(tmp_path_factory.mktemp("store") / "runs"))
    try:
        yield {"sparse_classification": sparse_chapter.run("ci"), "kernel_vs_rich": kernel_chapter.run("ci"),
               "matrix_completion": matrix_chapter.run("ci"), "modular_addition": modular_chapter.run("ci"),
               "init_scale_adamw": init_chapter.run("ci")}
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
    for table in (sparse_chapter.step_size_table(sparse), sparse_chapter.transition_table(sparse), sparse_chapter.paper_table(sparse),
                  sparse_chapter.window_table(sparse), kernel_chapter.margin_table(kr), kernel_chapter.regime_table(kr),
                  kernel_chapter.misgrokking_table(kr), matrix_chapter.matrix_completion_table(runs["matrix_completion"].histories),
                  modular_chapter.modadd_table(ma), modular_chapter.modadd_fit_table(ma), modular_chapter.modadd_shift_table(ma),
                  init_chapter.bridge_table(runs["init_scale_adamw"].histories),
                  init_chapter.bridge_fit_table(runs["init_scale_adamw"].histories)):
        assert tables.format_table(table).count("\n") >= 2
    # the kernel-vs-rich notebook reads the table's two parts by named group: the sweeps' rows, then the misgrokking run's
    by_group = [kernel_chapter.regime_row(h) for h in [*selection.sweep_runs(kr), kernel_chapter.misgrokking_run(kr)]]
    assert repr(by_group) == repr(kernel_chapter.regime_table(kr))


def test_claims_evaluate_on_short_runs(runs):
    sparse = runs["sparse_classification"]
    seeds = [selection.focus_run(sparse.groups), *sparse.claim_histories]
    results = (sparse_chapter.evaluate_sparse(sparse.groups, seeds)
               + kernel_chapter.evaluate_regimes(runs["kernel_vs_rich"].groups)
               + [kernel_chapter.evaluate_sample_gap(sample_complexity.for_run(selection.focus_run(runs["kernel_vs_rich"].groups)))]
               + matrix_chapter.evaluate_matrix_completion(matrix_chapter.matrix_completion_run(runs["matrix_completion"].histories))
               + [matrix_chapter.evaluate_noisy_init(matrix_chapter.matrix_completion_run(runs["matrix_completion"].histories),
                                             run_sets.recorded("mc_init_noise"))]
               + modular_chapter.evaluate_modadd(runs["modular_addition"].groups, runs["modular_addition"].claim_histories)
               + init_chapter.evaluate_bridge(runs["init_scale_adamw"].histories))
    assert [r.claim.id for r in results] == list(chapters_b.REGISTRY)
    assert all(isinstance(r, Result) and r.verdict in VERDICTS and r.measured for r in results)
    fixed = modular_chapter.evaluate_modadd_fixed(runs["modular_addition"].groups)  # the figure runs, at their fixed step
    assert [r.claim.id for r in fixed] == [cid for cid in chapters_b.REGISTRY if cid.startswith("B.modadd.")]


def test_figures_draw(runs):
    sparse, kr = runs["sparse_classification"].groups, runs["kernel_vs_rich"].groups
    a, lam = sparse["alpha"], sparse["weight_decay"]
    ma, ml = modular_chapter.seed_sweeps(runs["modular_addition"].groups)
    bridge = runs["init_scale_adamw"].histories
    made = [sparse_chapter.fig1a_sparse(selection.focus_run(sparse), a), panels.sweeps_figure(a, lam), sparse_chapter.sparse_transition(a, lam),
            kernel_chapter.margins_sparse(selection.focus_run(kr), kr["alpha"]),
            kernel_chapter.misgrokking_figure(kernel_chapter.misgrokking_run(kr)),
            matrix_chapter.matrix_completion_figure(matrix_chapter.matrix_completion_run(runs["matrix_completion"].histories)),
            panels.sweeps_figure(ma, ml, logx=False), modular_chapter.modadd_fits(ma, ml),
            init_chapter.init_scale_figure(init_chapter.bridge_runs(bridge), init_chapter.bridge_delay_rows(bridge))]
    assert all(isinstance(f, Figure) for f in made)
