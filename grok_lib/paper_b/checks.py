"""Paper B's checks: the claims each notebook records, as :class:`grok_lib.claims.Result` objects (``evaluate_*``, one
per notebook), from the registry of :mod:`grok_lib.paper_b.claims` and one check per claim (:data:`EVALUATORS`,
keyed by claim id): those of the diagonal-net chapters in :mod:`grok_lib.paper_b.checks_diagonal`, those of the
MLP chapters in :mod:`grok_lib.paper_b.checks_mlp`. A notebook with sweeps passes its histories as named groups
(``run.groups``; see :mod:`grok_lib.paper_b.chapter_runs`)."""

from __future__ import annotations

from typing import Callable, Sequence

from ..claims import Result, across_seeds
from ..history import History
from . import checks_diagonal, checks_mlp, selection
from .claims import REGISTRY
from .selection import Groups

EVALUATORS: dict[str, Callable[..., tuple[str, str]]] = {
    "B.fig1a.kernel_then_rich": checks_diagonal.kernel_then_rich,
    "B.fig1a.fractions": checks_diagonal.fig1a_fractions,
    "B.thm.window": checks_diagonal.theorem_window,
    "B.thm.limit": checks_diagonal.theorem_limit,
    "B.thm.log_alpha_slope": checks_diagonal.log_alpha_slope,
    "B.thm.inverse_lambda_slope": checks_diagonal.inverse_lambda_slope,
    "B.fig1a.norm": checks_diagonal.norm_decay,
    "B.regimes.cosines": checks_diagonal.regime_cosines,
    "B.regimes.test_acc": checks_diagonal.regime_test_acc,
    "B.misgrokking": checks_diagonal.misgrokking,
    "B.mc.kernel_plateau": checks_diagonal.mc_kernel_plateau,
    "B.mc.recovery": checks_diagonal.mc_recovery,
    "B.mc.clock": checks_diagonal.mc_clock,
    "B.modadd.alpha_order": checks_mlp.modadd_alpha_order,
    "B.modadd.lambda_order": checks_mlp.modadd_lambda_order,
    "B.modadd.clock": checks_mlp.modadd_clock,
    "B.bridge.delay": checks_mlp.bridge_delay,
    "B.bridge.clock": checks_mlp.bridge_clock,
}

assert list(EVALUATORS) == list(REGISTRY)


def _results(calls: Sequence[tuple[str, tuple]]) -> list[Result]:
    """Each claim's evaluator on its runs; a claim whose measurement needs what the runs do not have (a fit
    through fewer than two transitions, in a short rerun) is "not reproduced", saying why."""
    out = []
    for cid, args in calls:
        try:
            text, verdict = EVALUATORS[cid](*args)
        except ValueError as err:
            text, verdict = f"not measurable on these runs: {err}", "not reproduced"
        out.append(Result(REGISTRY[cid], text, verdict))
    return out


def evaluate_sparse(groups: Groups, focus_at_seeds: Sequence[History] | None = None) -> list[Result]:
    """The sparse-classification notebook's claims on its sweeps (``groups``: ``run.groups``): Fig. 1a, the window,
    its limit, the slopes, the norm. ``focus_at_seeds``: the focus run at every data seed (its own first, then the
    ``claim_histories`` of :func:`grok_lib.paper_b.chapter_runs.sparse`); None: the focus run alone, where
    B.fig1a.fractions has no spread between data draws to judge by."""
    alpha_sweep, lambda_sweep = groups["alpha"], groups["weight_decay"]
    focus_at_seeds = list(focus_at_seeds) if focus_at_seeds else [selection.focus_run(groups)]
    return _results([("B.fig1a.kernel_then_rich", (alpha_sweep,)), ("B.fig1a.fractions", (focus_at_seeds,)),
                     ("B.thm.window", (alpha_sweep,)), ("B.thm.limit", (alpha_sweep,)),
                     ("B.thm.log_alpha_slope", (alpha_sweep,)),
                     ("B.thm.inverse_lambda_slope", (lambda_sweep, alpha_sweep)),
                     ("B.fig1a.norm", (alpha_sweep,))])


def evaluate_regimes(groups: Groups) -> list[Result]:
    """The kernel-vs-rich notebook's claims (``groups``: ``run.groups``): cosines and test accuracies of both sparse
    sweeps' runs against the margin classifiers, and misgrokking."""
    sparse_runs = selection.sweep_runs(groups)
    return _results([("B.regimes.cosines", (sparse_runs,)), ("B.regimes.test_acc", (sparse_runs,)),
                     ("B.misgrokking", (selection.misgrokking_run(groups),))])


def evaluate_misgrokking(runs: Sequence[History]) -> list[Result]:
    """B.misgrokking on misgrokking runs at several data seeds (the recorded paper-scale set): a verdict holds only
    where it holds for every seed (:func:`grok_lib.claims.across_seeds`)."""
    return across_seeds([_results([("B.misgrokking", (h,))]) for h in runs], [int(h.cfg.data_seed) for h in runs])


def evaluate_matrix_completion(h: History) -> list[Result]:
    """The matrix-completion notebook's claims."""
    return _results([("B.mc.kernel_plateau", (h,)), ("B.mc.recovery", (h,)), ("B.mc.clock", (h,))])


def evaluate_modadd(groups: Groups, clock_runs: Sequence[History] = ()) -> list[Result]:
    """The modular-addition notebook's claims on every seed's sweeps (``groups``: ``run.groups``).
    B.modadd.lambda_order holds only where it holds for every seed (:func:`grok_lib.claims.across_seeds`);
    B.modadd.alpha_order and B.modadd.clock are judged over the seeds together (orders that hold at every seed;
    slopes' means and standard errors over seeds). ``clock_runs``: the claim-only alphas (``claim_histories`` of
    :func:`grok_lib.paper_b.chapter_runs.modadd`), which only B.modadd.clock's ln(alpha) fit reads."""
    seeds = selection.seeds(groups["alpha"])
    sweeps = [selection.seed_sweeps(groups, s) for s in seeds]
    alpha_sweeps = [a for a, _ in sweeps]
    clock_sweeps = [selection.with_clock_runs(a, clock_runs) for a in alpha_sweeps]
    lambda_order = across_seeds([_results([("B.modadd.lambda_order", (l,))]) for _, l in sweeps], seeds)
    return (_results([("B.modadd.alpha_order", (alpha_sweeps,))]) + lambda_order
            + _results([("B.modadd.clock", (clock_sweeps, [l for _, l in sweeps]))]))


def evaluate_bridge(histories: Sequence[History]) -> list[Result]:
    """The bridge notebook's claims (Part A's model and AdamW with a scaled initialisation), on each
    seed's alpha x lambda runs: a verdict holds only where it holds for every seed."""
    seeds = selection.seeds(selection.init_scale_runs(histories))
    return across_seeds([_results([("B.bridge.delay", (runs,)), ("B.bridge.clock", (runs,))])
                         for runs in (selection.bridge_runs(histories, s) for s in seeds)], seeds)
