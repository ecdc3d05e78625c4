"""The key numbers of the MLP chapters' figures (Paper B's two-layer net on modular addition, the bridge to
Part A), computed once: as in :mod:`grok_lib.paper_b.key_numbers`, ``<figure>_table(...)`` rows the notebook prints
and a regression reduction ``<figure>_numbers(runs)`` per figure, and the tables at every seed. Modular
addition's take the notebook's histories as named groups (``run.groups``: ``"alpha"`` and ``"weight_decay"``, every
seed's sweep; see :mod:`grok_lib.paper_b.chapter_runs`), the bridge's its list of histories.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..figure_numbers import none_if_nan
from ..history import History
from ..tables import format_value
from . import measure, selection
from .key_numbers import at_steps, fit_attr, rounded, run_tag
from .measure import crossing_step
from .selection import Groups
from .thresholds import BRIDGE_ACC

#: The bridge's train fit: first recorded step with train accuracy >= this.
FIT_ACC = 0.99


# --- modular addition (Paper B's MLP) ------------------------------------------------------------------
MODADD_STEPS = (0, 500, 1000, 1500, 2000, 3000)


def modadd_table(groups: Groups, seed: int | None = None) -> list[dict]:
    """Per run of both sweeps (of ``seed``; None: the first): the transition steps and times, ln(alpha) / lambda,
    the end on the clock."""
    alpha_sweep, lambda_sweep = selection.seed_sweeps(groups, seed)
    rows = []
    for h in selection.unique([*alpha_sweep, *lambda_sweep]):
        tr = measure.accuracy_transition(h)
        unit = measure.clock_unit(h.cfg)
        rows.append({"alpha": h.cfg.alpha, "lambda": h.cfg.weight_decay,
                     "train acc 1 at": crossing_step(measure.first_crossing(h, "train_acc", 1.0)),
                     "start step": crossing_step(tr.start), "end step": crossing_step(tr.end),
                     "end t": rounded(tr.end.t, 1) if tr.end else math.nan,
                     "ln(a)/l (t)": rounded(unit, 0) if math.isfinite(unit) else "n/a",
                     "end frac": rounded(tr.fractions[1]) if math.isfinite(unit) else "n/a",
                     "final test acc": rounded(h.final("test_acc"))})
    return rows


def modadd_shift_table(groups: Groups) -> list[dict]:
    """Between consecutive alphas of the alpha sweep: the shift of the end time t against the clock's
    prediction ln(alpha2 / alpha1) / lambda (the offset-free reading of the ln(alpha) law), at the first seed."""
    alpha_sweep, _ = selection.seed_sweeps(groups)
    times = measure.transition_times(alpha_sweep)
    rows = []
    for (h1, t1), (h2, t2) in zip(zip(alpha_sweep, times), list(zip(alpha_sweep, times))[1:]):
        a1, a2, lam = float(h1.cfg.alpha), float(h2.cfg.alpha), float(h1.cfg.weight_decay)
        pred = math.log(a2 / a1) / lam
        rows.append({"alpha": f"{a1:g} -> {a2:g}", "shift of end t": rounded(t2 - t1, 1),
                     "ln(a2/a1)/lambda": rounded(pred, 0), "ratio": rounded((t2 - t1) / pred)})
    return rows


def modadd_fit_table(groups: Groups) -> list[dict]:
    """The end time t against ln(alpha) and against 1 / lambda (the first seed's sweeps): fitted slope, its theory
    value, R^2."""
    alpha_sweep, lambda_sweep = selection.seed_sweeps(groups)
    lam, alpha = float(alpha_sweep[0].cfg.weight_decay), float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    log_a = math.log(alpha) if alpha > 1 else math.nan
    return [{"fit": f"t vs ln(a) at lambda {lam:g}", "slope": rounded(fit_attr(fa, "slope"), 1),
             "+-": rounded(fit_attr(fa, "slope_se"), 1), "theory slope": rounded(1 / lam, 1),
             "ratio": rounded(fit_attr(fa, "slope", lam)),
             "R^2": rounded(fit_attr(fa, "r2")), "runs": fa.n if fa else 0},
            {"fit": f"t vs 1/lambda at alpha {alpha:g}", "slope": rounded(fit_attr(fl, "slope"), 3),
             "+-": rounded(fit_attr(fl, "slope_se"), 3), "theory slope": rounded(log_a, 3),
             "ratio": rounded(fit_attr(fl, "slope") / log_a),
             "R^2": rounded(fit_attr(fl, "r2")), "runs": fl.n if fl else 0}]


def modadd_sweeps_numbers(groups: Groups) -> dict:
    """Modular addition: accuracies and losses at fixed steps, and the transition steps, per run of the first seed."""
    alpha_sweep, lambda_sweep = selection.seed_sweeps(groups)
    values = {}
    for h in selection.unique([*alpha_sweep, *lambda_sweep]):
        values |= at_steps(h, ("train_acc", "test_acc", "test_loss", "norm"), MODADD_STEPS)
        tr = measure.accuracy_transition(h)
        values[f"{run_tag(h)}/T_start"], values[f"{run_tag(h)}/T_end"] = (none_if_nan(crossing_step(tr.start)),
                                                                          none_if_nan(crossing_step(tr.end)))
    return values


def modadd_fits_numbers(groups: Groups) -> dict:
    """Modular addition: the two fits."""
    values = {}
    for row in modadd_fit_table(groups):
        for k in ("slope", "ratio", "R^2"):
            values[f"{row['fit']}/{k}"] = none_if_nan(row[k])
    return values


# --- modular addition: the paper's regime, and the in-regime runs ---------------------------------------------------
def stability_table(groups: Groups, paper_configs: Sequence = ()) -> list[dict]:
    """lr x the Gauss-Newton sharpness at initialisation (:mod:`grok_lib.paper_b.sharpness`) of the figure runs
    (the first seed's, at the profile's fixed step) and of ``paper_configs`` (the paper's settings), per alpha and
    lambda: full-batch GD follows gradient flow only below 2."""
    from .regimes import sharpness_at_init

    alpha_sweep, lambda_sweep = selection.seed_sweeps(groups)
    rows = []
    for source, configs in (("figure runs", [h.cfg for h in selection.unique([*alpha_sweep, *lambda_sweep])]),
                            ("paper's settings", list(paper_configs))):
        for c in configs:
            s = sharpness_at_init(c)
            rows.append({"runs": source, "p": c.p, "width": c.width, "alpha": c.alpha, "lambda": c.weight_decay,
                         "lr": c.lr, "sharpness at init": float(f"{s:.4g}"), "lr x sharpness": float(f"{c.lr * s:.3g}")})
    return rows


def stable_table(groups: Groups, stable_runs: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per in-regime run of ``seed`` (None: the first): its steps, the step at initialisation and lr x the sharpness
    there, the largest lr_t x S_t of the run, and the transition's onset and end on lambda t (and in t)."""
    alpha_runs, lambda_runs = selection.stable_sweeps(groups, stable_runs)
    seed = selection.seeds(alpha_runs)[0] if seed is None else seed
    from .regimes import sharpness_at_init

    rows = []
    for h in selection.unique([h for h in [*alpha_runs, *lambda_runs] if h.cfg.data_seed == seed]):
        lam = float(h.cfg.weight_decay)
        onset, end = (measure.first_crossing(h, "test_acc", q) for q in (measure.START_ACC, measure.END_ACC))
        rows.append({"alpha": h.cfg.alpha, "lambda": lam, "steps": int(h.steps[-1]),
                     "first step": float(f"{h['lr'][0]:.3g}"),
                     "lr x S at init": rounded(h["lr"][0] * sharpness_at_init(h.cfg)),
                     "max lr x S": rounded(h.meta.get("max_lr_sharpness", math.nan)),
                     "onset lambda t": rounded(lam * onset.t, 2) if onset else math.nan,
                     "end lambda t": rounded(lam * end.t, 2) if end else math.nan,
                     "end t": rounded(end.t, 0) if end else math.nan,
                     "stop lambda t": rounded(lam * float(h["t"][-1]), 2),
                     "final test acc": rounded(h.final("test_acc"))})
    return rows


def stable_seeds_table(groups: Groups, stable_runs: Sequence[History]) -> list[dict]:
    """The in-regime runs' onset and end on lambda t at every seed, the same settings."""
    alpha_runs, _ = selection.stable_sweeps(groups, stable_runs)
    tables = {s: stable_table(groups, stable_runs, s) for s in selection.seeds(alpha_runs)}
    return seeds_table(tables, ("alpha", "lambda"), ("onset lambda t", "end lambda t"))


# --- the bridge to Part A ---------------------------------------------------------------------------------
BRIDGE_STEPS = (0, 100, 200, 400, 800, 1200, 1600, 2000, 2400, 2800)


def bridge_table(histories: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per bridge run (of ``seed``; None: the first): the train fit and grokking steps, their delays against
    alpha = 1 at the same lambda, the shrinking clock ln(alpha) / (lambda lr) and Adam's memory
    4 ln(alpha) / (1 - beta2), in steps."""
    runs = selection.bridge_runs(histories, seed)
    delays = {(d.alpha, d.weight_decay): d for d in measure.delays(runs, BRIDGE_ACC)}
    fits = {(d.alpha, d.weight_decay): d for d in measure.delays(runs, FIT_ACC, "train_acc")}
    rows = []
    for h in runs:
        key = (float(h.cfg.alpha), float(h.cfg.weight_decay))
        g, f = delays[key], fits[key]
        rows.append({"lambda": key[1], "alpha": key[0], "fit step": f.step, "grok step": g.step,
                     "fit delay": f.delay, "grok delay": g.delay,
                     "ln(a)/(l lr)": rounded(g.predicted, 0),
                     "4 ln(a)/(1-b2)": rounded(4 * math.log(key[0]) / (1 - float(h.cfg.beta2)), 0),
                     "grok delay / ln(a)/(l lr)": rounded(g.delay / g.predicted, 2) if key[0] > 1 else "n/a",
                     "final test acc": rounded(h.final("test_acc"))})
    return rows


def seeds_table(tables: dict, keys: Sequence[str], columns: Sequence[str]) -> list[dict]:
    """One per-run table at several seeds (``{seed: rows}``, the same rows in the same order) merged: the
    ``keys`` columns, then each of ``columns`` as its values at the seeds, "seed 0 / seed 1 / ..."."""
    seeds = ", ".join(str(s) for s in tables)
    rows = []
    for same in zip(*tables.values()):
        row = {k: same[0][k] for k in keys}
        row |= {f"{c} (seeds {seeds})": " / ".join(format_value(r[c]) for r in same) for c in columns}
        rows.append(row)
    return rows


def bridge_seeds_table(histories: Sequence[History]) -> list[dict]:
    """The bridge's train-fit and grokking steps and delays at every seed."""
    seeds = selection.seeds(selection.init_scale_runs(histories))
    return seeds_table({s: bridge_table(histories, s) for s in seeds}, ("lambda", "alpha"),
                       ("fit step", "grok step", "grok delay"))


def modadd_seeds_table(groups: Groups) -> list[dict]:
    """Modular addition's transition end steps and end times at every seed."""
    seeds = selection.seeds(groups["alpha"])
    return seeds_table({s: modadd_table(groups, s) for s in seeds}, ("alpha", "lambda"),
                       ("end step", "end t", "final test acc"))


def bridge_delay_rows(histories: Sequence[History]) -> list[dict]:
    """The rows :func:`grok_lib.paper_b.plots.delay_panel` draws."""
    runs = selection.bridge_runs(histories)
    by = {(float(h.cfg.alpha), float(h.cfg.weight_decay)): h for h in runs}
    return [r | {"lr": float(by[(r["alpha"], r["lambda"])].cfg.lr),
                 "beta2": float(by[(r["alpha"], r["lambda"])].cfg.beta2), "weight_decay": r["lambda"]}
            for r in bridge_table(histories)]


def bridge_fit_table(histories: Sequence[History]) -> list[dict]:
    """Per lambda: least-squares slopes through the origin of the grokking and train-fit delays against the
    shrinking clock ln(alpha) / (lambda lr) and against Adam's memory 4 ln(alpha) / (1 - beta2) (alpha > 1)."""
    runs = selection.bridge_runs(histories)
    beta2 = {(float(h.cfg.alpha), float(h.cfg.weight_decay)): float(h.cfg.beta2) for h in runs}
    groks = [d for d in measure.delays(runs, BRIDGE_ACC) if d.alpha > 1]
    fits = [d for d in measure.delays(runs, FIT_ACC, "train_acc") if d.alpha > 1]
    rows = []
    for lam in sorted({d.weight_decay for d in groks}):
        row = {"lambda": lam}
        for name, ds in (("grok", groks), ("fit", fits)):
            mine = [d for d in ds if d.weight_decay == lam]
            memory = [4 * math.log(d.alpha) / (1 - beta2[(d.alpha, lam)]) for d in mine]
            row[f"{name} / ln(a)/(l lr)"] = rounded(measure.slope_through_origin([d.predicted for d in mine],
                                                                             [d.delay for d in mine]), 2)
            row[f"{name} / 4 ln(a)/(1-b2)"] = rounded(measure.slope_through_origin(memory, [d.delay for d in mine]), 2)
        rows.append(row)
    return rows


def init_scale_numbers(histories: Sequence[History]) -> dict:
    """The bridge: accuracies, norm and Adam's step at fixed steps; fit and grokking steps, per run."""
    values = {}
    for h in selection.bridge_runs(histories):
        values |= at_steps(h, ("train_acc", "test_acc", "norm", "adam_step"), BRIDGE_STEPS)
    for r in bridge_table(histories):
        tag = f"a={r['alpha']:g},wd={r['lambda']:g}"
        values[f"{tag}/T_fit"], values[f"{tag}/T_grok"] = none_if_nan(r["fit step"]), none_if_nan(r["grok step"])
    return values
