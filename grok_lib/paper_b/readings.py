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
from . import checks_mlp, measure, selection
from .measure import crossing_step
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


def modadd_claim_reading(groups: Groups, clock_runs: Sequence[History]) -> dict[str, str]:
    """What the modular-addition page states about B.modadd.alpha_order and B.modadd.clock, judged over seeds as the
    claims are (``clock_runs``: the claim-only alphas), as Markdown for :func:`grok_lib.display.glue`."""
    seeds = selection.seeds(groups["alpha"])
    sweeps = [selection.seed_sweeps(groups, s) for s in seeds]
    alphas = [h.cfg.alpha for h in sweeps[0][0]]
    steps = [[crossing_step(measure.accuracy_transition(h).end) for h in a] for a, _ in sweeps]
    orders = checks_mlp.pair_orders(steps)
    clock_sweeps = [selection.with_clock_runs(a, clock_runs) for a, _ in sweeps]
    slopes = [measure.try_fit(checks_mlp.clock_slopes, c, l) for c, (_, l) in zip(clock_sweeps, sweeps)]
    by_alpha, by_lambda = ([s[i] if s else math.nan for s in slopes] for i in (0, 1))
    # the offset-free shift between consecutive alphas > 1, per seed, as a share of ln(a2 / a1) / lambda
    shifts = []
    for a1, a2 in zip(alphas, alphas[1:]):
        if a1 <= 1:
            continue
        per_seed = [(t[alphas.index(a2)] - t[alphas.index(a1)]) * float(a[0].cfg.lr)
                    / (math.log(a2 / a1) / float(a[0].cfg.weight_decay)) for t, (a, _) in zip(steps, sweeps)]
        shifts.append(f"{a1:g} to {a2:g}: " + ", ".join(_shown(x, ".2f") for x in per_seed)
                      + f" (mean {_shown(measure.mean_se(per_seed)[0], '.2f')})")
    extra = sorted({h.cfg.alpha for h in clock_runs})
    extra_steps = "; ".join(f"α = {a:g}: " + " / ".join(_shown(crossing_step(measure.accuracy_transition(h).end))
                                                         for h in clock_runs if h.cfg.alpha == a) for a in extra)

    def mean_pm(values):
        mean, se, _ = measure.mean_se(values)
        return f"{_shown(mean, '.2f')} ± {_shown(se, '.2f')}"

    return {
        "ma_order_pairs": "; ".join(f"{a:g} → {b:g}: {o + ' at every seed' if o != 'mixed' else 'mixed (not the same at every seed)'}"
                                    for a, b, o in zip(alphas, alphas[1:], orders)),
        "ma_clock_alphas": ", ".join(f"{a:g}" for a in sorted({h.cfg.alpha for c in clock_sweeps for h in c if h.cfg.alpha > 1})),
        "ma_extra_alphas": ", ".join(f"{a:g}" for a in extra) or "none",
        "ma_extra_steps": extra_steps or "none",
        "ma_clock_alpha_seeds": ", ".join(_shown(x, ".2f") for x in by_alpha),
        "ma_clock_alpha_mean": mean_pm(by_alpha),
        "ma_clock_lambda_seeds": ", ".join(_shown(x, ".2f") for x in by_lambda),
        "ma_clock_lambda_mean": mean_pm(by_lambda),
        "ma_shift_seeds": "; ".join(shifts) or "none (no two alphas > 1)",
        "ma_seed_list": ", ".join(f"{s}" for s in seeds),
    }
