"""The bridge to Part A (``notebooks/paper_b/init_scale_adamw.ipynb``): Paper A's MLP and AdamW from α times the
standard initialisation, seed × α × λ; the book's predictions B.bridge.* (Paper B's clock carried over to AdamW,
counted apart from the paper's claims) with their bars and checks, the tables, key numbers, prose and the figure."""

from __future__ import annotations

import collections
import math
from typing import Sequence

import matplotlib.pyplot as plt

from ...chapters import Chapter, Figure
from ...claims import registry
from ...figure_numbers import none_if_nan
from ...grading import Claim, draw, grade, Result
from ...history import History
from ...notebook import Run, start
from .. import bridge, measure, regimes, selection
from ..bridge import InitScaleConfig
from ..claim_terms import BRIDGE_ACC, CLOCK_QUOTE, ORDER_INVERSIONS, REBUTTAL, SLOPE, SLOPE_GRID
from ..curve_numbers import at_steps, rounded, seeds_table
from ..draws import inversions
from ..panels import adam_step_panel, curves, delay_panel, norm_shrink_panel
from ..selection import seeds, unique
from ..words import order_phrase, regime_reading, shown, verdict_reading


BRIDGE_SLOPE = SLOPE  #: measured delay over ln(alpha) / (lambda lr) steps (its grid: SLOPE_GRID)


CLAIMS = registry([
    Claim(
        "B.bridge.delay", "B", "prediction", "review",
        f"the book's question: Paper B's clock ({REBUTTAL}) carried over to Part A's model and AdamW", CLOCK_QUOTE,
        "Under AdamW, a larger α delays grokking, at every weight decay.",
        f"inversions of 'strictly later for every larger α' in the grokking step (first test accuracy ≥ {BRIDGE_ACC}) "
        "over α = 1 … 1000 (a run that never groks counts as later), summed over the weight decays, per seed",
        ORDER_INVERSIONS, fmt=".0f"),
    Claim(
        "B.bridge.clock", "B", "prediction", "review",
        f"the book's prediction: Paper B's clock ({REBUTTAL}) carried over to Part A's model and AdamW", CLOCK_QUOTE,
        r"The delay is $T(\alpha) - T(1) = \ln\alpha/(\lambda\,\mathrm{lr})$ steps: the time decoupled weight decay "
        r"needs to shrink the weights back by $\alpha$.",
        "least-squares slope through the origin of the measured delay against ln α / (λ lr), per weight decay, per seed",
        BRIDGE_SLOPE, bars=SLOPE_GRID, fmt=".2f",
        why="the book's own bar"),
])


def run(profile: str = "default", alphas=None, weight_decays=None, seeds=None, p=None, train_frac=None,
        width=None, lr=None, beta2=None, steps=None, device=None, *, output_path=None) -> Run:
    """The bridge to Part A: Paper A's MLP and AdamW from alpha times the standard init, seed x alpha x lambda."""
    overrides = {"p": p, "train_frac": train_frac, "width": width, "lr": lr, "beta2": beta2, "steps": steps,
                 "device": device}
    configs = bridge.sweep(profile, alphas, weight_decays, seeds, **overrides)
    parameters = {"profile": profile, "alphas": alphas, "weight_decays": weight_decays, "seeds": seeds, **overrides}
    return start(profile, parameters, configs, bridge.sweep("default"), output_path)


def init_scale_runs(histories: Sequence[History]) -> list[History]:
    """The bridge's runs: Paper A's MLP from alpha times the standard init (in order, once each)."""
    return [h for h in unique(histories) if type(h.cfg) is InitScaleConfig]


def bridge_runs(histories: Sequence[History], seed: int | None = None) -> list[History]:
    """The bridge's runs of ``seed`` (None: the first seed's, which the figure shows), by lambda then alpha."""
    runs = init_scale_runs(histories)
    seed = seeds(runs)[0] if seed is None else seed
    return sorted((h for h in runs if h.cfg.data_seed == seed),
                  key=lambda h: (h.cfg.weight_decay, h.cfg.alpha))


def bridge_delays(runs: Sequence[History]) -> dict[float, list[measure.Delay]]:
    """One seed's delays per weight decay, by α (:func:`grok_lib.paper_b.measure.delays`)."""
    ds = measure.delays(runs, BRIDGE_ACC)
    return {lam: [d for d in ds if d.weight_decay == lam] for lam in sorted({d.weight_decay for d in ds})}


def evaluate_bridge(histories: Sequence[History]) -> list[Result]:
    """The bridge chapter's predictions on each seed's α × λ runs (a run that never groks counts as later)."""
    all_runs = init_scale_runs(histories)
    where = regimes.groks(all_runs)
    delay_draws, clock_draws, text = [], [], []
    for s in seeds(all_runs):
        by_lam = bridge_delays(bridge_runs(histories, s))
        lams = tuple(f"λ={lam:g}" for lam in by_lam)
        delay_draws.append(draw([inversions([d.step if math.isfinite(d.step) else math.inf for d in ds])
                                 for ds in by_lam.values()], int(s), (), lams))
        slopes = [measure.slope_through_origin([d.predicted for d in ds if d.alpha > 1],
                                               [d.delay for d in ds if d.alpha > 1]) for ds in by_lam.values()]
        clock_draws.append(draw(slopes, int(s), (), lams))
        text.append(f"seed {s}: " + "; ".join(
            f"λ={lam:g}: steps " + ", ".join(f"α={d.alpha:g}: {'never' if not math.isfinite(d.step) else int(d.step)}"
                                             for d in ds)
            + " (delays vs predicted " + ", ".join(f"{d.delay:.0f}/{d.predicted:.0f}" for d in ds if d.alpha > 1) + ")"
            for lam, ds in by_lam.items()))
    return [grade(CLAIMS["B.bridge.delay"], delay_draws, "grokking steps: " + "; ".join(text), where),
            grade(CLAIMS["B.bridge.clock"], clock_draws, regime=where)]


#: The bridge's train fit: first recorded step with train accuracy >= this.
FIT_ACC = 0.99


BRIDGE_STEPS = (0, 100, 200, 400, 800, 1200, 1600, 2000, 2400, 2800)


def bridge_table(histories: Sequence[History], seed: int | None = None) -> list[dict]:
    """Per bridge run (of ``seed``; None: the first): the train fit and grokking steps, their delays against
    alpha = 1 at the same lambda, the shrinking clock ln(alpha) / (lambda lr) and Adam's memory
    4 ln(alpha) / (1 - beta2), in steps."""
    runs = bridge_runs(histories, seed)
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


def bridge_seeds_table(histories: Sequence[History]) -> list[dict]:
    """The bridge's train-fit and grokking steps and delays at every seed."""
    seeds = selection.seeds(init_scale_runs(histories))
    return seeds_table({s: bridge_table(histories, s) for s in seeds}, ("lambda", "alpha"),
                       ("fit step", "grok step", "grok delay"))


def bridge_delay_rows(histories: Sequence[History]) -> list[dict]:
    """The rows :func:`grok_lib.paper_b.panels.delay_panel` draws."""
    runs = bridge_runs(histories)
    by = {(float(h.cfg.alpha), float(h.cfg.weight_decay)): h for h in runs}
    return [r | {"lr": float(by[(r["alpha"], r["lambda"])].cfg.lr),
                 "beta2": float(by[(r["alpha"], r["lambda"])].cfg.beta2), "weight_decay": r["lambda"]}
            for r in bridge_table(histories)]


def bridge_fit_table(histories: Sequence[History]) -> list[dict]:
    """Per lambda: least-squares slopes through the origin of the grokking and train-fit delays against the
    shrinking clock ln(alpha) / (lambda lr) and against Adam's memory 4 ln(alpha) / (1 - beta2) (alpha > 1)."""
    runs = bridge_runs(histories)
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
    for h in bridge_runs(histories):
        values |= at_steps(h, ("train_acc", "test_acc", "norm", "adam_step"), BRIDGE_STEPS)
    for r in bridge_table(histories):
        tag = f"a={r['alpha']:g},wd={r['lambda']:g}"
        values[f"{tag}/T_fit"], values[f"{tag}/T_grok"] = none_if_nan(r["fit step"]), none_if_nan(r["grok step"])
    return values


def bridge_reading(histories: Sequence[History]) -> dict[str, str]:
    """The numbers and orderings the bridge page states (the first seed's runs, as its figure; the spread over
    seeds), as Markdown for :func:`grok_lib.display.glue`."""
    rows = bridge_table(histories)
    lams = sorted({r["lambda"] for r in rows})
    by_lam = {lam: sorted((r for r in rows if r["lambda"] == lam), key=lambda r: r["alpha"]) for lam in lams}
    # per lambda (none where the runs have no alpha > 1: every fit then reads "n/a")
    fit = collections.defaultdict(dict, {r["lambda"]: r for r in bridge_fit_table(histories)})
    ordered = [lam for lam in lams if order_phrase([r["grok step"] for r in by_lam[lam]], "up", "down", "") == "up"]
    alphas = [r["alpha"] for r in by_lam[lams[0]]][1:]
    lo, hi = lams[0], lams[-1]
    ratio = [a["grok delay"] / b["grok delay"] if b["grok delay"] else math.nan
             for a, b in zip(by_lam[lo][1:], by_lam[hi][1:])]
    seeds = selection.seeds(init_scale_runs(histories))
    tables = {s: bridge_table(histories, s) for s in seeds}
    finite = lambda c, i: [t[i][c] for t in tables.values() if math.isfinite(t[i][c])]  # noqa: E731 (never: NaN)
    spread = {c: max((max(v) - min(v) for i in range(len(rows)) if (v := finite(c, i))), default=math.nan)
              for c in ("fit step", "grok step")}
    out = {
        "br_moves": "; ".join(f"from {shown(by_lam[lam][0]['grok step'])} to {shown(by_lam[lam][-1]['grok step'])} "
                              f"at λ = {lam:g}" for lam in lams),
        "br_order": ("later for every larger α at every λ" if ordered == lams else
                     f"later for every larger α only at λ = {', '.join(f'{x:g}' for x in ordered)}" if ordered else
                     "not later for every larger α at any λ"),
        "br_slopes": ", ".join(f"{shown(fit[lam].get('grok / ln(a)/(l lr)', 'n/a'), '.2f')} (λ = {lam:g})"
                               for lam in lams),
        "br_lambda_pred": shown(hi / lo, ".2f"), "br_lo": f"{lo:g}", "br_hi": f"{hi:g}",
        "br_lambda_measured": ", ".join(shown(x, ".2f") for x in ratio),
        "br_alphas": ", ".join(f"{a:g}" for a in alphas),
        "br_memory": ", ".join(shown(r["4 ln(a)/(1-b2)"]) for r in by_lam[lo][1:]),
        "br_fit_memory": ", ".join(f"{shown(fit[lam].get('fit / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                   for lam in lams),
        "br_grok_memory": ", ".join(f"{shown(fit[lam].get('grok / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                    for lam in lams),
        "br_seeds": f"{len(seeds)}",
        "br_spread_grok": shown(spread["grok step"]), "br_spread_fit": shown(spread["fit step"]),
        "br_spread_compare": ("less" if spread["fit step"] < spread["grok step"] else "no less"),
    }
    return out


def describe(run: Run) -> str:
    """The line the notebook prints: the first seed's grid."""
    runs = bridge_runs(run.histories)
    return (f"profile {run.profile!r}: {len(runs)} runs, alpha {sorted({h.cfg.alpha for h in runs})} x lambda "
            f"{sorted({h.cfg.weight_decay for h in runs})}")


def definitions() -> str:
    """How the table below reads its steps."""
    return (f"grokking step: the first recorded step with test accuracy >= {BRIDGE_ACC}\n"
            f"train fit: the first recorded step with train accuracy >= {FIT_ACC}")


def verdicts_reading(run: Run) -> dict[str, str]:
    """The bridge's numbers (:func:`bridge_reading`) and its verdicts, in words."""
    results = evaluate_bridge(run.histories)
    return {**bridge_reading(run.histories), "br_verdicts": verdict_reading(results),
            "br_regime": regime_reading(results[0])}


def init_scale_figure(histories: Sequence[History], delay_rows: Sequence[dict]) -> plt.Figure:
    """The bridge, 2 x 3: test accuracy against steps per lambda (a, b); the delays against ln(alpha) (c);
    the norm against the decay-only prediction (d) and Adam's step size (e), at the largest lambda; train
    accuracy per lambda (f)."""
    fig, axes = plt.subplots(2, 3, figsize=(14.2, 6.8), layout="constrained")
    lams = sorted({float(h.cfg.weight_decay) for h in histories})
    by_lam = {lam: sorted((h for h in histories if float(h.cfg.weight_decay) == lam),
                          key=lambda h: h.cfg.alpha) for lam in lams}
    for ax, lam, tag in zip(axes[0, :2], lams[-2:][::-1] if len(lams) > 1 else lams, "ab"):
        curves(by_lam[lam], "test_acc", "steps", ax=ax, ylabel="test accuracy", logx=False,
               title=rf"({tag}) test accuracy, $\lambda$={lam:g}")
        ax.set_xlabel("AdamW step")
    delay_panel(delay_rows, ax=axes[0, 2])
    axes[0, 2].set_title("(c) delays against the two clocks")
    top = by_lam[lams[-1]]
    norm_shrink_panel(top, ax=axes[1, 0])
    axes[1, 0].set_title(rf"(d) $\|\theta\|$, $\lambda$={lams[-1]:g}")
    adam_step_panel(top, ax=axes[1, 1])
    axes[1, 1].set_title(rf"(e) Adam's step, $\lambda$={lams[-1]:g}")
    curves(top, "train_acc", "steps", ax=axes[1, 2], ylabel="train accuracy", logx=False,
           title=rf"(f) train accuracy, $\lambda$={lams[-1]:g}")
    axes[1, 2].set_xlabel("AdamW step")
    # right of the axes, as (c)'s above it: inside, the late rises crossed it
    axes[1, 2].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig


def draw_init_scale(histories):
    return init_scale_figure(bridge_runs(histories), bridge_delay_rows(histories))


FIGURE = Figure("paper_b/init_scale_adamw", "Bridge to Part A: Paper A's MLP and AdamW from α times the standard "
                "initialisation", init_scale_numbers, draw_init_scale)
CHAPTER = Chapter("notebooks/paper_b/init_scale_adamw.ipynb", run, bridge.sweep, (FIGURE,), claims=tuple(CLAIMS))
