"""What the MLP chapters' prose states (modular addition, the bridge to Part A), measured from the runs and
glued into the pages (:func:`grok_lib.display.glue`), never typed: one ``*_reading`` function per page part,
each a dict of Markdown snippets read off the tables of :mod:`grok_lib.paper_b.mlp_numbers`. Modular addition's
take the notebook's histories as named groups (``run.groups``), the bridge's its list of histories.
"""

from __future__ import annotations

import collections
import math
from typing import Sequence

from ..history import History
from ..kinds import kind_of
from ..claims import KINDS, Result
from ..tables import typeset
from . import checks_diagonal, checks_mlp, measure, selection
from .mlp_numbers import bridge_fit_table, bridge_table, modadd_fit_table, modadd_shift_table, modadd_table
from .selection import Groups


# --- what the MLP chapters' prose states (glued into the pages: measured, never typed) ----------------------
def _shown(x, fmt: str = ",.0f") -> str:
    """A number as the prose shows it ("never" for NaN, a table's text as it is)."""
    if isinstance(x, str):
        return x
    return "never" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:{fmt}}"


def _order_phrase(values: Sequence[float], rising: str, falling: str, neither: str) -> str:
    finite = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if len(finite) < len(values) or len(finite) < 2:
        return neither
    if all(b > a for a, b in zip(finite, finite[1:])):
        return rising
    if all(b < a for a, b in zip(finite, finite[1:])):
        return falling
    return neither


def modadd_reading(groups: Groups) -> dict[str, str]:
    """The numbers and orderings the modular-addition page states about its figure (the first seed's runs), and
    the spread over seeds, as Markdown for :func:`grok_lib.display.glue`."""
    alpha_sweep, lambda_sweep = selection.seed_sweeps(groups)
    rows = {(r["alpha"], r["lambda"]): r for r in modadd_table(groups)}
    a_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in alpha_sweep]
    l_rows = [rows[(h.cfg.alpha, h.cfg.weight_decay)] for h in lambda_sweep]
    fit_a, fit_l = modadd_fit_table(groups)
    shifts = modadd_shift_table(groups)
    fits = [r["train acc 1 at"] for r in rows.values()]
    fracs = [r["end frac"] for r in rows.values() if r["end frac"] != "n/a"]  # none without an alpha > 1
    seeds = selection.seeds(groups["alpha"])
    return {
        "ma_first": _shown(min(r["start step"] for r in rows.values())),
        "ma_last": _shown(max(r["end step"] for r in rows.values())),
        "ma_lambda_order": _order_phrase([r["end step"] for r in l_rows], "the larger λ, the later",
                                         "the larger λ, the earlier", "in no simple order of λ"),
        "ma_lambda_fracs": ", ".join(_shown(r["end frac"], ".2f") for r in l_rows),
        "ma_lambda_frac_order": _order_phrase([r["end frac"] for r in l_rows], "later on the clock for larger λ",
                                              "earlier on the clock for larger λ", "in no order of λ on the clock"),
        "ma_alpha_ends": ", ".join(f"{_shown(r['end step'])} (α = {r['alpha']:g})" for r in a_rows),
        "ma_alpha_frac_order": _order_phrase([r["end frac"] for r in a_rows if r["end frac"] != "n/a"],
                                             "move away from it as α grows", "move toward it as α grows",
                                             "do not move steadily toward it"),
        "ma_alpha_fracs": " → ".join(_shown(r["end frac"], ".2f") for r in a_rows if r["end frac"] != "n/a"),
        "ma_fracs_range": f"{_shown(min(fracs, default=math.nan), '.2f')}–{_shown(max(fracs, default=math.nan), '.2f')}",
        "ma_r2_lambda": _shown(fit_l["R^2"], ".3f"), "ma_slope_lambda": _shown(fit_l["slope"], ".2f"),
        "ma_ratio_lambda": _shown(fit_l["ratio"], ".2f"),
        "ma_ratio_alpha": _shown(fit_a["ratio"], ".2f"), "ma_r2_alpha": _shown(fit_a["R^2"], ".2f"),
        "ma_se_alpha": _shown(fit_a["+-"] / fit_a["theory slope"], ".2f") if isinstance(fit_a["+-"], float) else "n/a",
        "ma_shifts": "; ".join(f"{r['alpha'].replace('->', 'to')}: Δt = {_shown(r['shift of end t'])}, "
                               f"{_shown(r['ratio'], '.2f')} of ln(α₂/α₁)/λ = {_shown(r['ln(a2/a1)/lambda'])}"
                               for r in shifts),
        "ma_fit_range": f"{_shown(min(fits))}–{_shown(max(fits))}",
        "ma_seeds": f"{len(seeds)}",
    }


def bridge_reading(histories: Sequence[History]) -> dict[str, str]:
    """The numbers and orderings the bridge page states (the first seed's runs, as its figure; the spread over
    seeds), as Markdown for :func:`grok_lib.display.glue`."""
    rows = bridge_table(histories)
    lams = sorted({r["lambda"] for r in rows})
    by_lam = {lam: sorted((r for r in rows if r["lambda"] == lam), key=lambda r: r["alpha"]) for lam in lams}
    # per lambda (none where the runs have no alpha > 1: every fit then reads "n/a")
    fit = collections.defaultdict(dict, {r["lambda"]: r for r in bridge_fit_table(histories)})
    ordered = [lam for lam in lams if _order_phrase([r["grok step"] for r in by_lam[lam]], "up", "down", "") == "up"]
    alphas = [r["alpha"] for r in by_lam[lams[0]]][1:]
    lo, hi = lams[0], lams[-1]
    ratio = [a["grok delay"] / b["grok delay"] if b["grok delay"] else math.nan
             for a, b in zip(by_lam[lo][1:], by_lam[hi][1:])]
    seeds = selection.seeds(selection.init_scale_runs(histories))
    tables = {s: bridge_table(histories, s) for s in seeds}
    finite = lambda c, i: [t[i][c] for t in tables.values() if math.isfinite(t[i][c])]  # noqa: E731 (never: NaN)
    spread = {c: max((max(v) - min(v) for i in range(len(rows)) if (v := finite(c, i))), default=math.nan)
              for c in ("fit step", "grok step")}
    out = {
        "br_moves": "; ".join(f"from {_shown(by_lam[lam][0]['grok step'])} to {_shown(by_lam[lam][-1]['grok step'])} "
                              f"at λ = {lam:g}" for lam in lams),
        "br_order": ("later for every larger α at every λ" if ordered == lams else
                     f"later for every larger α only at λ = {', '.join(f'{x:g}' for x in ordered)}" if ordered else
                     "not later for every larger α at any λ"),
        "br_slopes": ", ".join(f"{_shown(fit[lam].get('grok / ln(a)/(l lr)', 'n/a'), '.2f')} (λ = {lam:g})"
                               for lam in lams),
        "br_lambda_pred": _shown(hi / lo, ".2f"), "br_lo": f"{lo:g}", "br_hi": f"{hi:g}",
        "br_lambda_measured": ", ".join(_shown(x, ".2f") for x in ratio),
        "br_alphas": ", ".join(f"{a:g}" for a in alphas),
        "br_memory": ", ".join(_shown(r["4 ln(a)/(1-b2)"]) for r in by_lam[lo][1:]),
        "br_fit_memory": ", ".join(f"{_shown(fit[lam].get('fit / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                   for lam in lams),
        "br_grok_memory": ", ".join(f"{_shown(fit[lam].get('grok / 4 ln(a)/(1-b2)', 'n/a'), '.2f')} (λ = {lam:g})"
                                    for lam in lams),
        "br_seeds": f"{len(seeds)}",
        "br_spread_grok": _shown(spread["grok step"]), "br_spread_fit": _shown(spread["fit step"]),
        "br_spread_compare": ("less" if spread["fit step"] < spread["grok step"] else "no less"),
    }
    return out


def verdict_reading(results: Sequence[Result]) -> str:
    """Each result's verdict in the words of its claim's kind (Markdown), and where claims were not tested faithfully,
    the measured reason (once per regime check): what the page's "Reading the verdicts" states, never typed."""
    said = "; ".join(f"`{r.claim.id}` ({KINDS[r.claim.kind]}) is **{r.word}**" for r in results) + "."
    reasons = list(dict.fromkeys(f"{typeset(r.regime.quantity)}: {typeset(r.regime.measured)}" for r in results
                                 if r.verdict == "not tested faithfully" and r.regime is not None))
    return said + "".join(f" Not tested faithfully because of the regime ({why})." for why in reasons)


def regime_reading(result: Result) -> str:
    """A result's regime check in words (Markdown): the quantity, what it must be, what was measured."""
    return typeset(result.regime.text()) if result.regime is not None else "no regime check"


def modadd_claim_reading(groups: Groups, stable_runs: Sequence[History], paper_configs: Sequence = ()) -> dict[str, str]:
    """What the modular-addition page states about its in-regime runs (``stable_runs``: the chapter's claim-only runs)
    and the regime of its figure runs and of the paper's settings (``paper_configs``), as Markdown for
    :func:`grok_lib.display.glue`."""
    from .regimes import sharpness_at_init
    from .thresholds import GD_STABLE

    alpha_runs, lambda_runs = selection.stable_sweeps(groups, stable_runs)
    every = selection.unique([*alpha_runs, *lambda_runs])
    figure_runs = selection.unique([*groups["alpha"], *groups["weight_decay"]])
    fixed = {h.cfg.alpha: h.cfg.lr * sharpness_at_init(h.cfg) for h in figure_runs if h.cfg.data_seed == figure_runs[0].cfg.data_seed}
    largest = max(every, key=lambda h: h.cfg.alpha)
    seeds = selection.seeds(alpha_runs)
    per_seed = checks_mlp.seed_sweeps(alpha_runs, lambda_runs)

    def times(runs, level):  # lambda t at the crossing of ``level``, per run
        return " / ".join(f"{float(h.cfg.weight_decay) * checks_diagonal.crossing_t(h, level):.2f}" for h in runs)

    base = every[0].cfg
    paper = {c.alpha: c.lr * sharpness_at_init(c) for c in paper_configs}
    stable_fixed = [a for a, v in sorted(fixed.items()) if v < GD_STABLE]
    biggest = max(figure_runs, key=lambda h: h.cfg.alpha).cfg
    s_big = sharpness_at_init(biggest)
    return {
        "ma_fixed_stable": ("α = " + ", ".join(f"{a:g}" for a in stable_fixed)) if stable_fixed else "no α",
        "ma_paper_products": ", ".join(f"{_shown(v, '.2g')} (α = {a:g})" for a, v in sorted(paper.items())) or "not measured",
        "ma_paper_stable": ("every α it ran" if paper and all(v < GD_STABLE for v in paper.values())
                            else "not every α it ran"),
        "ma_skipped_alpha": f"{biggest.alpha:g}", "ma_skipped_sharpness": f"{s_big:.3g}",
        "ma_skipped_steps": f"{s_big / (2 * biggest.weight_decay * base.stable_c):,.0f}",
        "ma_fixed_lr": f"{figure_runs[0].cfg.lr:g}",
        "ma_fixed_products": ", ".join(f"{_shown(v, '.3g')} (α = {a:g})" for a, v in sorted(fixed.items())),
        "ma_stable_c": f"{base.stable_c:g}", "ma_stable_cap": f"{base.lr:g}",
        "ma_stable_every": f"{base.sharpness_every}", "ma_stable_stop": f"{base.stop_lambda_t:g}",
        "ma_stable_alphas": ", ".join(f"{a:g}" for a in sorted({h.cfg.alpha for h in alpha_runs})),
        "ma_stable_lambdas": ", ".join(f"{x:g}" for x in sorted({h.cfg.weight_decay for h in lambda_runs})),
        "ma_stable_lambda": f"{alpha_runs[0].cfg.weight_decay:g}", "ma_stable_alpha": f"{lambda_runs[0].cfg.alpha:g}",
        "ma_stable_runs": f"{len(every)}", "ma_stable_seeds": ", ".join(str(x) for x in seeds),
        "ma_stable_init": _shown(max(h["lr"][0] * sharpness_at_init(h.cfg) for h in every), ".3g"),
        "ma_stable_worst": _shown(max(h.meta.get("max_lr_sharpness", math.nan) for h in every), ".3g"),
        "ma_stable_largest_steps": " / ".join(f"{int(h.steps[-1]):,}" for h in every if h.cfg.alpha == largest.cfg.alpha),
        "ma_stable_largest": f"{largest.cfg.alpha:g}",
        "ma_stable_first_step": _shown(min(h["lr"][0] for h in every), ".2g"),
        # their steps at the kind's cost per step, not the runs' wall time: a build on a loaded machine would change it
        "ma_stable_seconds": f"{sum(kind_of(h.cfg).step_seconds(h.cfg.to_dict()) * int(h.steps[-1]) for h in every):.0f}",
        "ma_stable_onsets": "; ".join(f"seed {s}: {times(a, measure.START_ACC)}" for s, a, _ in per_seed),
        "ma_stable_ends": "; ".join(f"seed {s}: {times(a, measure.END_ACC)}" for s, a, _ in per_seed),
        "ma_stable_lambda_onsets": "; ".join(f"seed {s}: {times(lam, measure.START_ACC)}" for s, _, lam in per_seed),
        "ma_stable_lambda_ends": "; ".join(f"seed {s}: {times(lam, measure.END_ACC)}" for s, _, lam in per_seed),
        "ma_stable_slopes": "; ".join(
            f"seed {s}: " + " / ".join(_shown(measure.try_fit(checks_mlp.log_alpha_clock, a, q), ".2f")
                                      for q in (measure.START_ACC, measure.END_ACC)) for s, a, _ in per_seed),
        "ma_stable_finals": f"{min(h.final('test_acc') for h in every):.3f}–{max(h.final('test_acc') for h in every):.3f}",
    }


def paper_lambda_reading(runs: Sequence[History], rows: Sequence[dict], focus: History, manifest: dict) -> dict:
    """The glued words of the sparse page's section "At the paper's lambda and step": ``runs`` the recorded set
    (:func:`grok_lib.paper_b.recordings.sparse_paper_lambda`), ``rows`` its :func:`key_numbers.lambda_table`, ``focus``
    the figures' focus run, ``manifest`` the set's manifest. The start and end are read against the book's reading of
    Fig. 1a (the bars of B.fig1a.start_fraction and B.fig1a.end_fraction)."""
    from .thresholds import END_FRACTION, START_FRACTION

    sweep_seed = runs[0].cfg.data_seed
    focus_alpha = next((h.cfg.alpha for h in runs if h.cfg.data_seed != sweep_seed), focus.cfg.alpha)
    at_focus = [r for r in rows if r["alpha"] == focus_alpha]
    both = [r for r in at_focus if r["start frac, book's lambda"] is not None]  # a rerun may lack the figures' run
    starts = [r["start frac"] - r["start frac, book's lambda"] for r in both]
    ends = [r["end frac"] - r["end frac, book's lambda"] for r in both]
    start_in = sum(START_FRACTION.holds(r["start frac"]) for r in at_focus)
    end_in = sum(END_FRACTION.holds(r["end frac"]) for r in at_focus)
    none = "(not measured: these figures have no run at the same α and data seed)"
    moves = f"{min(starts):+.2f} to {max(starts):+.2f}" if both else none
    book_fracs = [(r["start frac, book's lambda"], r["end frac, book's lambda"]) for r in both]
    return {
        "lam_lambda": f"{runs[0].cfg.weight_decay:g}", "lam_lr": f"{runs[0].cfg.lr:g}",
        "lam_book_lambda": f"{focus.cfg.weight_decay:g}", "lam_book_lr": f"{focus.cfg.lr:g}",
        "lam_d": f"{runs[0].cfg.d:,}", "lam_n": f"{runs[0].cfg.n_train}",
        "lam_alphas": ", ".join(f"{h.cfg.alpha:g}" for h in runs if h.cfg.data_seed == sweep_seed),
        "lam_seed": f"{sweep_seed}", "lam_focus_alpha": f"{focus_alpha:g}",
        "lam_other_seeds": ", ".join(str(h.cfg.data_seed) for h in runs if h.cfg.data_seed != sweep_seed),
        "lam_steps": f"{min(h.cfg.steps for h in runs):,}–{max(h.cfg.steps for h in runs):,}",
        "lam_hours": f"{sum(r['seconds'] for r in manifest['runs']) / 3600:.1f} h",
        "lam_machine": manifest["machine"],
        "lam_focus_fracs": "; ".join(f"{r['start frac']:.2f}–{r['end frac']:.2f} (seed {r['data seed']})"
                                     for r in at_focus),
        "lam_book_fracs": "; ".join(f"{start:.2f}–{end:.2f}" for start, end in book_fracs) or none,
        "lam_start_shift": moves, "lam_end_shift": f"{min(ends):+.2f} to {max(ends):+.2f}" if both else none,
        "lam_start_in": f"{start_in} of {len(at_focus)}", "lam_end_in": f"{end_in} of {len(at_focus)}",
        "lam_answer": (f"at the paper's λ the focus run's start moves by {moves} of the clock and lies in the book's "
                       f"reading of Fig. 1a at {start_in} of {len(at_focus)} data seeds" if both else
                       f"at the paper's λ the focus run's start lies in the book's reading of Fig. 1a at {start_in} of "
                       f"{len(at_focus)} data seeds {none}"),
    }


def noisy_init_reading(clean: History, noisy: Sequence[History], result: Result) -> dict[str, str]:
    """The numbers the matrix-completion page quotes about B.mc.noisy_init (glued): per noise level, the largest
    relative move of the transition clock over the seeds and drops, and the verdict."""
    from .thresholds import MC_DROP_LEVELS

    noisy = checks_diagonal.noisy_twins(clean, noisy)
    moves = collections.defaultdict(list)
    for h in noisy:
        for q in MC_DROP_LEVELS:
            moves[h.cfg.init_noise].append(abs(checks_diagonal.drop_clock(h, q) / checks_diagonal.drop_clock(clean, q) - 1))
    per_level = "; ".join(f"σ = {s:.0e}: at most {max(m):.1%}" for s, m in sorted(moves.items()))
    seeds = sorted({int(h.cfg.init_seed) for h in noisy})
    return {"noise_moves": per_level or "nothing (no noisy run at this run's settings)", "noise_seeds": f"{len(seeds)}",
            "noise_verdict": f"**{result.word}**",
            "noise_levels": ", ".join(f"{s:.0e}" for s in sorted(moves))}


def sample_gap_reading(sweeps: Sequence, result: Result) -> dict[str, str]:
    """The numbers the kernel-vs-rich page quotes about the sample-size sweeps (glued as ``samples_...``): at the
    claim's central accuracy level, each classifier's smallest n over the seeds, the kernel classifier's best test accuracy on the grid,
    and the verdict of B.bounds.sample_gap; the level at which a sweep stops (the top of :data:`SAMPLE_LEVELS`)."""
    from .thresholds import SAMPLE_LEVELS

    (levels,) = result.claim.choices
    level = levels.central

    def sizes(norm: str) -> str:
        values = sorted({sw.smallest_n(norm, level) for sw in sweeps})
        top = sweeps[0].grid[-1]
        return ", ".join(f"{v:.0f}" if v <= top else f"more than {top}" for v in values)

    best_l2 = [max(sw.accuracy["l2"].values()) for sw in sweeps]
    return {"samples_level": f"{level:g}", "samples_l1_n": sizes("l1"), "samples_l2_n": sizes("l2"),
            "samples_top": f"{sweeps[0].grid[-1]:,}", "samples_d": f"{sweeps[0].config.d:,}",
            "samples_stop_level": f"{max(SAMPLE_LEVELS):g}",
            "samples_l2_best": f"{min(best_l2):.3f}–{max(best_l2):.3f}",
            "samples_verdict": f"**{result.word}**"}
