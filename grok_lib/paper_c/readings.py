"""The numbers each Part C page's prose quotes (``<page>_reading``, glued into the text), computed from the
figures' tables (:mod:`grok_lib.paper_c.key_numbers`, :mod:`grok_lib.paper_c.numbers_beyond`), the measurements
(:mod:`grok_lib.paper_c.measure`) and the claims' results and checks; and the weight-decay page's table of each
seed's ratios (:func:`weight_decay_seed_table`), the weight-decay claims' draws."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..history import History
from ..tables import typeset
from . import checks, checks_wd_dout, measure, theory, thresholds
from .claims import REGISTRY
from .key_numbers import agreement_table, grading_table, loss_curves_table
from .numbers_beyond import net_rows, tuned_noise_table, two_layer_clock


# --- losses and accuracies vs step (λ = 0.1, 0.9, 1.5) ------------------------------------------------
def _listed(items: Sequence[str]) -> str:
    """'a, b and c' (one item: itself)."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _percent(row: dict, key: str) -> float:
    return float(row[key].rstrip("%"))


def loss_curves_reading(histories: Sequence[History], results: Sequence) -> dict[str, str]:
    """The measured numbers the loss-curve page's prose quotes (glued), from its tables and its claims' results
    (C.dyn.exact, C.dyn.mp, C.acc.law, C.plateau.level, C.plateau.no_test_crossing, in that order)."""
    curves, agreement, graded = loss_curves_table(histories), agreement_table(histories), grading_table(histories)
    deep_key = f"sim/exact to {thresholds.LOSS_FLOOR:g}"
    worst_mp = max(graded, key=lambda r: _percent(r, "MP/isotropic"))
    worst_z = max(graded, key=lambda r: max(r["acc. law max z (train)"], r["acc. law max z (test)"]))
    worst_abs = max(graded, key=lambda r: r["acc. law max |Δ| (train)"])
    comparisons = checks.accuracy_law_comparisons(histories)
    near_one = min(agreement, key=lambda r: abs(r["λ"] - 1))
    grokked = [r for r in curves if r["Δt sim"] == r["Δt sim"]]  # NaN: the test accuracy never crossed
    slowest = max(grokked, key=lambda r: r["Δt sim"]) if grokked else curves[0]
    offsets = []
    for h in histories:
        row = measure.crossing(h)
        for w in ("train", "test"):
            t, th = row[f"t_{w}"], row.get(f"theory_t_{w}")
            if t is not None and th is not None and math.isfinite(th) and th > 0:
                offsets.append(abs(t / th - 1))
    dyn, mp = REGISTRY["C.dyn.exact"], REGISTRY["C.dyn.mp"]
    levels = dyn.choices[0].grid
    dyn_by_level = [max(checks.dynamics_error(h, lvl) for h in histories) for lvl in levels]
    mp_by_level = [max(checks.mp_error(h, lvl) for h in histories) for lvl in levels]
    return {
        "dyn_sim_vs_exact": _listed([f"{r['sim/exact in window']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_deep": _listed([f"{r[deep_key]} at λ = {r['λ']:g}" for r in graded]),
        "dyn_floor": f"$10^{{{round(math.log10(thresholds.LOSS_FLOOR))}}}$",
        "dyn_crossing_max": f"{max(offsets, default=math.nan):.1%}",
        "dyn_verdict": results[0].word,
        "dyn_levels": _listed([f"{x:.2%} (ℓ = {lvl:g})" for x, lvl in zip(dyn_by_level, levels)]),
        "dyn_bars": typeset(dyn.threshold),
        "dyn_mp_iso": _listed([f"{r['MP/isotropic']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_one": _listed([f"{r['MP/this D₀']} at λ = {r['λ']:g}" for r in graded]),
        "dyn_mp_worst_lam": f"{worst_mp['λ']:g}",
        "dyn_mp_worst": worst_mp["MP/isotropic"],
        "dyn_mp_levels": _listed([f"{x:.1%} (ℓ = {lvl:g})" for x, lvl in zip(mp_by_level, levels)]),
        "dyn_mp_bars": typeset(mp.threshold),
        "dyn_mp_verdict": results[1].word,
        "window_levels": typeset(dyn.grid),
        "acc_level": f"{thresholds.ACC_LEVEL:g}",
        "acc_levels": ", ".join(f"{x:g}" for x in thresholds.ACC_LEVELS),
        "acc_max_z": f"{max(worst_z['acc. law max z (train)'], worst_z['acc. law max z (test)']):.2f}",
        "acc_max_z_lam": f"{worst_z['λ']:g}",
        "acc_bound": f"{checks.accuracy_law_bound(comparisons, thresholds.ACC_LEVEL):.2f}",
        "acc_bounds": _listed([f"{checks.accuracy_law_bound(comparisons, lvl):.2f} (at {lvl:g})"
                               for lvl in thresholds.ACC_LEVELS]),
        "acc_comparisons": f"{comparisons}",
        "acc_max_abs": f"{worst_abs['acc. law max |Δ| (train)']:.3f}",
        "acc_max_abs_n": f"{worst_abs['N_tr']}",
        "acc_verdict": results[2].word,
        "plateau_verdict": results[3].word,
        "plateau_never_verdict": results[4].word,
        "dyn_regime": typeset(results[0].regime.text()) if results[0].regime else "not measured",
        "dyn_slowest_lam": f"{slowest['λ']:g}",
        "dyn_slowest_train": f"{slowest['t_train']}",
        "dyn_slowest_test": f"{slowest['t_test']}",
        "dyn_near_one_lam": f"{near_one['λ']:g}",
        "dyn_near_one_smallest": near_one["smallest sample eigenvalue"],
        "dyn_near_one_edge": near_one["MP lower edge"],
    }


# --- weight decay --------------------------------------------------------------------------------------
def weight_decay_seed_table(shown: Sequence[History], further: Sequence[History] = ()) -> list[dict]:
    """Per seed (the weight-decay claims' draws): the small-γ runs' lowest and highest ratio of L_tr and of L_gen to
    the formula with the teacher's norm, and which run each lowest is (``shown``: the chapter's own runs, the book's
    seed; ``further``: its claim-only runs at further seeds)."""
    rows = []
    for seed, ratios in checks_wd_dout.weight_decay_seed_ratios([*shown, *further]).items():
        row = {"seed": seed, "small-γ runs": len(ratios) // 2}
        for loss in ("L_tr", "L_gen"):
            mine = [(name, r) for name, r in ratios if name.startswith(loss + " ")]
            lo, hi = min(mine, key=lambda x: x[1]), max(mine, key=lambda x: x[1])
            row |= {f"lowest {loss} ratio": round(lo[1], 3), f"lowest {loss} at": lo[0].split(" ", 1)[1],
                    f"highest {loss} ratio": round(hi[1], 3)}
        rows.append(row)
    return rows


def _place(r: float, claim) -> str:
    """Where a ratio lies against a claim's grid of nested bands (the book's, a narrower and a wider one)."""
    inside = sum(b.holds(r) for b in claim.all_bars())
    return {3: "inside every band of the grid", 2: "inside the book's band but outside the narrower one",
            1: "outside the book's band, inside only the wider one"}.get(inside, "outside every band of the grid")


def weight_decay_reading(shown: Sequence[History], further: Sequence[History], results) -> dict[str, str]:
    """The measured numbers the weight-decay page's prose quotes (glued): the book's seed's small-γ runs' ratios to
    the paper's number, to the formula with the teacher's norm and to the MP plateau without the small-γ expansion,
    the realised d_out ||T||^2, the bands the claims are graded by, and over the seeds the lowest ratio of each loss
    and where it lies (``shown``: the chapter's own runs, the book's seed; ``further``: its claim-only runs;
    ``results``: C.wd.train_limit's and C.wd.gen_limit's)."""
    seeds = weight_decay_seed_table(shown, further)
    book_seed = checks_wd_dout.shown_seed(shown)
    small = [h for h in shown if measure.wd_small(h)]
    ratios = {"paper": [], "ours": [], "exact": []}
    for h in small:
        c, lam, t_sq = h.cfg, h.meta["lam_eff"], h.meta["teacher_sq"]
        final = (h.final("train_loss"), h.final("gen_loss"))
        for key, lim in (("paper", theory.wd_limits_paper(lam, c.gamma)),
                         ("ours", theory.wd_limits_mp(lam, c.gamma, c.d_out, t_sq)),
                         ("exact", checks_wd_dout.wd_limits_exact_gamma(lam, c.gamma, c.d_out, t_sq))):
            ratios[key] += [f / x for f, x in zip(final, lim)]

    def span(xs: Sequence[float]) -> str:
        return f"{min(xs):.3f}–{max(xs):.3f}" if xs else "none"

    train, gen = results
    out = {"wd_paper_ratios": span(ratios["paper"]), "wd_our_ratios": span(ratios["ours"]),
           "wd_exact_ratios": span(ratios["exact"]), "wd_runs": f"{len(small)}",
           "wd_teacher": span([h.cfg.d_out * h.meta["teacher_sq"] for h in small]),
           "wd_bands": typeset(train.claim.threshold), "wd_small": f"{thresholds.WD_SMALL:g}",
           "wd_train_verdict": train.word, "wd_gen_verdict": gen.word, "wd_seeds": f"{len(seeds)}",
           "wd_regime": typeset(train.regime.text()) if train.regime else "not measured",
           "wd_other_seeds": ", ".join(str(r["seed"]) for r in seeds if r["seed"] != book_seed) or "none"}
    for loss, claim in (("L_tr", train.claim), ("L_gen", gen.claim)):
        key = "train" if loss == "L_tr" else "gen"
        out[f"wd_{key}_lowest"] = ", ".join(f"{r[f'lowest {loss} ratio']:.3f} (seed {r['seed']})" for r in seeds) or "none"
        low = min(seeds, key=lambda r: r[f"lowest {loss} ratio"]) if seeds else None
        out[f"wd_{key}_lowest_all"] = f"{low[f'lowest {loss} ratio']:.3f}" if low else "none"
        out[f"wd_{key}_lowest_all_at"] = typeset(f"{low[f'lowest {loss} at']}, seed {low['seed']}") if low else "none"
        out[f"wd_{key}_lowest_all_place"] = _place(low[f"lowest {loss} ratio"], claim) if low else "none"
    return out


# --- Δt vs d_out --------------------------------------------------------------------------------------
def d_out_capped_reading(histories: Sequence[History], cap: int = thresholds.STEP_CAP) -> dict[str, str]:
    """The numbers the d_out page's hypothesis quotes (glued): the cap, where the capped Δt peaks, and the d_out
    whose test crossing falls after the cap (seed means of :func:`.measure.capped_d_out_seed_means`)."""
    table = measure.capped_d_out_seed_means(histories, cap)
    ds = list(table)
    x, interior = measure.peak(ds, [table[d][3] for d in ds])
    late = [d for d in ds if table[d][4]]
    first_late = late[0] if late else ds[-1]
    seeds = len([h for h in histories if h.cfg.d_out == ds[0]])
    return {"cap": f"$10^{{{round(math.log10(cap))}}}$" if cap == 10 ** round(math.log10(cap)) else f"{cap}",
            "cap_peak": f"{x:g}", "cap_peak_where": "an interior" if interior else "an end",
            "cap_late": ", ".join(f"{d} ({table[d][4]} of {seeds} seeds)" for d in late) or "none",
            "cap_first_late": f"{first_late}", "cap_first_late_test": f"{table[first_late][1]:,.0f}",
            "cap_raw_last": f"{table[ds[-1]][2]:,.0f}", "cap_capped_last": f"{table[ds[-1]][3]:,.0f}",
            "cap_last": f"{ds[-1]}"}


# --- the two nets ---------------------------------------------------------------------------------------
def _step_or_beyond(t: float, traced: int) -> str:
    return f"{t:.0f}" if math.isfinite(t) else f"after {traced} (not reached in the steps traced)"


def nets_reading(groups: Mapping[str, Sequence[History]], prefix: str = "nets") -> dict[str, str]:
    """The numbers the nets page's prose quotes about the two-layer linear net's clock (glued as ``<prefix>_...``;
    ``groups``: the nets chapter's named groups, the two-layer linear net the one run of ``two_layer``) and the
    widths the verdicts are for."""
    (two_layer,) = groups["two_layer"]
    clock = two_layer_clock(two_layer)
    gram = clock["gram"]
    c = two_layer.cfg
    numbers = {"shape": f"{c.d_in}-{c.hidden}-{c.d_out}", "assumed": f"{clock['assumed']:.3g}",
               "gram_0": f"{gram[0]:.3f}", "gram_50": f"{gram[min(50, len(gram) - 1)]:.3f}",
               "gram_test": f"{gram[clock['t_test']]:.3f}" if clock["t_test"] is not None else "n/a",
               "rate_test": f"{gram[clock['t_test']] / clock['assumed']:.1f}" if clock["t_test"] is not None else "n/a",
               "clock_train": _step_or_beyond(clock["clock_t_train"], len(gram) - 1),
               "clock_test": _step_or_beyond(clock["clock_t_test"], len(gram) - 1),
               "net_train": f"{clock['t_train']}", "net_test": f"{clock['t_test']}",
               "theory_train": f"{clock['theory_t_train']:.0f}", "theory_test": f"{clock['theory_t_test']:.0f}"}
    return {f"{prefix}_{k}": v for k, v in numbers.items()}


def _crossing_clause(row: dict, which: str) -> str:
    """'training accuracy reaches erf(sqrt 2) at step 166, 3.2 times sooner than the rescaled theory (530)' from a
    :func:`grok_lib.paper_c.numbers_beyond.nets_table` row, or that it never does."""
    what = {"train": "training", "test": "test"}[which]
    t, th = row[f"t_{which}"], row[f"theory t_{which}"]
    if not math.isfinite(t):
        return f"{what} accuracy never reaches erf(√2) (the rescaled theory's crossing: step {th:.0f})"
    return f"{what} accuracy reaches erf(√2) at step {t:.0f}, {th / t:.1f} times sooner than the rescaled theory ({th:.0f})"


def nets_paper_reading(default: Mapping[str, Sequence[History]], paper: Mapping[str, Sequence[History]],
                       default_results: Sequence, paper_results: Sequence) -> dict[str, str]:
    """The numbers the nets page's prose quotes about the paper-scale nets (glued as ``nets_paper_...``): their
    verdicts beside the scale-down's, their crossings against the rescaled theory and against each other, and the
    paper-scale two-layer linear net's second layer (:func:`nets_reading`). ``default`` and ``paper`` are the named
    groups (``two_layer``, ``tanh``) of the default profile and of the recorded set; the results, their claims'."""
    rows = net_rows(paper)
    two, tanh = rows["two_layer"], rows["tanh"]
    scale_down_tanh = net_rows(default)["tanh"]
    verdict = {r.claim.id: r.word for r in paper_results}
    default_verdict = {r.claim.id: r.word for r in default_results}
    regime = {r.claim.id: r.regime for r in paper_results}
    default_regime = {r.claim.id: r.regime for r in default_results}
    groks, groked_before = math.isfinite(tanh["t_test"]), math.isfinite(scale_down_tanh["t_test"])
    ratios = [tanh[f"t_{w}"] / two[f"t_{w}"] for w in ("train", "test")
              if math.isfinite(tanh[f"t_{w}"]) and math.isfinite(two[f"t_{w}"])]
    ahead = all(math.isfinite(r[f"t_{w}"]) and r[f"t_{w}"] < r[f"theory t_{w}"] for r in (two, tanh) for w in ("train", "test"))
    return {"nets_paper_two_layer_verdict": f"**{verdict['C.nets.two_layer']}**",
            "nets_paper_tanh_verdict": f"**{verdict['C.nets.tanh']}**",
            "nets_paper_two_layer_default": default_verdict["C.nets.two_layer"],
            "nets_paper_tanh_default": default_verdict["C.nets.tanh"],
            "nets_tanh_regime": typeset(default_regime["C.nets.tanh"].measured),
            "nets_tanh_regime_bar": typeset(default_regime["C.nets.tanh"].requirement),
            "nets_tanh_in_regime": "inside" if default_regime["C.nets.tanh"].ok else "outside",
            "nets_paper_tanh_regime": typeset(regime["C.nets.tanh"].measured),
            "nets_paper_tanh_regime_bar": typeset(regime["C.nets.tanh"].requirement),
            "nets_paper_tanh_in_regime": "inside" if regime["C.nets.tanh"].ok else "outside",
            "nets_paper_two_layer_train": _crossing_clause(two, "train"),
            "nets_paper_two_layer_test": _crossing_clause(two, "test"),
            "nets_paper_tanh_train": _crossing_clause(tanh, "train"),
            "nets_paper_tanh_test": _crossing_clause(tanh, "test"),
            "nets_paper_tanh_final_acc": f"{tanh['final test acc']:.3f}",
            "nets_paper_tanh_vs_scale_down": {(True, False): "unlike the scale-down's, which never does",
                                              (True, True): "as the scale-down's does",
                                              (False, True): "unlike the scale-down's, which does",
                                              (False, False): "as in the scale-down"}[(groks, groked_before)],
            "nets_paper_tanh_vs_two_layer": (
                "its crossings come at " + " and ".join(f"{r:.2f}" for r in ratios) + " times the two-layer linear "
                "net's (training, test)" if len(ratios) == 2 else "its test crossing cannot be set against the "
                "two-layer linear net's"),
            "nets_paper_both_ahead": ("both nets run ahead of the rescaled linear theory at every crossing" if ahead
                                      else "the nets do not both run ahead of the rescaled linear theory"),
            **nets_reading(paper, prefix="nets_paper")}


# --- label noise --------------------------------------------------------------------------------------
def activation_reading(groups: Mapping[str, Sequence[History]], results: Sequence) -> dict[str, str]:
    """The numbers the nets page's prose quotes about the other activations (glued as ``nets_act_...``): each
    net's factor against the two-layer linear net per seed (:func:`.measure.deviation_factor`, what C.nets.relu
    and C.nets.tanh_gain grade), how many seeds leave NET_BAND, and the verdicts. ``groups``: the recorded set
    ``nets_activation``'s named groups; ``results``: the two claims'."""
    linear = {int(h.cfg.data_seed): h for h in groups["two_layer"]}
    edge = thresholds.NET_BAND.hi
    out = {f"nets_act_{r.claim.id.rsplit('.', 1)[1]}_verdict": f"**{r.word}**" for r in results}
    for name, runs in groups.items():
        if name == "two_layer":
            continue
        factors = [measure.deviation_factor(h, linear[int(h.cfg.data_seed)]) for h in runs]
        never = sum(measure.crossing(h)["t_test"] is None for h in runs)
        key = name.replace(".", "_")
        out[f"nets_act_{key}_factors"] = _listed([f"{f:.2f}" for f in factors])
        out[f"nets_act_{key}_outside"] = f"{sum(f > edge for f in factors)} of {len(factors)}"
        out[f"nets_act_{key}_never"] = f"{never} of {len(runs)}"
        out[f"nets_act_{key}_acc"] = _listed([f"{h.final('test_acc'):.3f}" for h in runs])
    gains = sorted((measure.gain(runs[0]), all(measure.deviation_factor(h, linear[int(h.cfg.data_seed)]) > edge
                                                for h in runs))
                   for name, runs in groups.items() if name.startswith("tanh_g"))
    broken = [g for g, outside in gains if outside]
    whole = [g for g, outside in gains if not outside]
    out["nets_act_threshold"] = (
        f"on this grid the threshold lies between gains {max(whole):g} and {min(broken):g}"
        if broken and whole and max(whole) < min(broken) else
        f"every gain of the grid ({_listed([f'{g:g}' for g, _ in gains])}) leaves the band at every seed, so the "
        "threshold lies below the smallest" if not whole else
        f"no gain of the grid ({_listed([f'{g:g}' for g, _ in gains])}) leaves the band at every seed, so no "
        "threshold shows up to the largest" if not broken else
        "the gains that leave the band at every seed are not all above those that do not")
    out["nets_act_linear_acc"] = _listed([f"{linear[s].final('test_acc'):.3f}" for s in sorted(linear)])
    out["nets_act_edge"] = f"{edge:g}"
    return out


def test_noise_reading(runs: Sequence[History], result) -> dict[str, str]:
    """The numbers the label-noise page quotes about C.noise.test_shift (glued): the runs with noisy test labels,
    their final test loss against L_gen + sigma_n^2, and the largest error the claim measured."""
    from .checks_beyond import test_shift_error

    if not runs:
        return {"test_noise_runs": "no run", "test_noise_final": "n/a", "test_noise_error": "n/a",
                "test_noise_verdict": result.word, "test_noise_n": "n/a"}
    (window,) = result.claim.choices
    errors = [test_shift_error(h, lvl) for h in runs for lvl in window.grid]
    finals = [h.final("test_loss") / (h.final("gen_loss") + h.cfg.label_noise ** 2) for h in runs]
    seeds = sorted({int(h.cfg.data_seed) for h in runs})
    return {"test_noise_runs": f"{len(runs)} runs ({len(seeds)} seeds)",
            "test_noise_final": f"{min(finals):.3f}–{max(finals):.3f}",
            "test_noise_error": f"{max(e for e in errors if math.isfinite(e)):.1%}" if any(map(math.isfinite, errors))
            else "n/a",
            "test_noise_verdict": result.word, "test_noise_n": f"{runs[0].cfg.n_test:,}"}


def tuned_noise_reading(full: Sequence[History], rebuttal: Sequence[History], result) -> dict[str, str]:
    """The numbers the label-noise page quotes about C.noise.tuned (glued): the gaps of the runs at σ* of the full
    noise theory over the seeds (graded) and of the runs at the rebuttal's σ* (``rebuttal``; reported)."""
    graded, shown = tuned_noise_table(full), tuned_noise_table(rebuttal)

    def gaps(rows) -> str:
        crossed = [r["gap / t_test"] for r in rows if r["gap / t_test"] == r["gap / t_test"]]
        return f"{min(crossed):.3f}–{max(crossed):.3f}" if crossed else "none"

    return {"tuned_seeds": f"{len(graded)}", "tuned_verdict": result.word, "tuned_gaps": gaps(graded),
            "tuned_lam": f"{full[0].cfg.lam:g}" if full else "none",
            "tuned_bars": typeset(result.claim.threshold),
            "tuned_regime": typeset(result.regime.text()) if result.regime else "not measured",
            "rebuttal_seeds": f"{len(shown)}", "rebuttal_gaps": gaps(shown),
            "rebuttal_lam": f"{rebuttal[0].cfg.lam:g}" if rebuttal else "none",
            "rebuttal_never": ", ".join(str(r["seed"]) for r in shown if r["gap / t_test"] != r["gap / t_test"]) or "none",
            "rebuttal_final_gen": (f"{min(r['final L_gen'] for r in shown):.3g}–{max(r['final L_gen'] for r in shown):.3g}"
                                   if shown else "none")}


def gamma_law_reading(histories: Sequence[History], result) -> dict[str, str]:
    """What the d_out page quotes about C.acc.gamma_law (glued): per d_out > 1, the largest absolute gap between
    the counted test accuracy and the law over the seeds and record steps, and the verdict."""
    worst: dict[int, float] = {}
    for h in histories:
        if h.cfg.d_out > 1:
            gap = float(measure.accuracy_law_deviations(h)["test"][0].max())
            worst[h.cfg.d_out] = max(worst.get(h.cfg.d_out, 0.0), gap)
    by_dout = "; ".join(f"d_out = {d}: {g:.3f}" for d, g in sorted(worst.items()))
    return {"gamma_verdict": f"**{result.word}**",
            "gamma_by_dout": f"the test accuracy is off the law by at most {by_dout} (absolute, over the seeds and "
                             "record steps)" if worst else "no run with d_out > 1"}
