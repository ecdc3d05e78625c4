"""The loss plateaus under weight decay against the paper's limits (``notebooks/paper_c/weight_decay.ipynb``):
C.wd.train_limit and C.wd.gen_limit, on one linear run per (λ, γ) and, for the claims only, the small-γ runs at further
seeds."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import matplotlib.pyplot as plt

from ...chapters import Chapter, Figure, with_claim_runs
from ...claims import registry
from ...grading import Bar, Claim, Regime, Result, draw, grade, moved, not_graded
from ...history import History
from ...notebook import Run, start
from ...tables import typeset
from .. import config as C, measure, theory
from ..claim_terms import NOTES
from ..curve_numbers import curves, printed_loss
from ..draws import both, by_seed, gd_regime, label, members
from ..measure import WD_SMALL
from ..panels import lam_title, plot_plateaus, plot_weight_decay
from ..run_sets import further_seeds, given, linear_overrides


WD_BAND = Bar(0.8, 1.25, log=True)  #: final loss / the plateau formula with the teacher's norm


#: The weight-decay claims are judged on this many seeds (data and initialisation): the book's and WD_SEEDS - 1
#: claim-only further seeds of its small-gamma runs (:func:`wd_seed_configs`).
WD_SEEDS = 3


CLAIMS = registry([
    Claim(
        "C.wd.train_limit", "C", "claim", "text", NOTES,
        "Weight decay (small γ, λ < 1): L_tr → γ²/(4(1−λ))",
        r"With a small weight decay $\gamma$ ($\lambda < 1$) the training loss settles at "
        r"$\mathcal{L}_{\mathrm{tr}} \to \gamma^2/(4(1-\lambda))$ (in the book's conventions, times "
        r"$d_{\mathrm{out}}\Vert T\Vert^2$).",
        f"final L_tr over γ² d_out‖T‖² / (4(1 − λ)), per small-γ run (γ d_out / (2λ₋) ≤ {WD_SMALL:g}: "
        f"(λ, γ) ∈ {{0.3, 0.5}} × {{1e-3, 1e-2}} and (0.7, 1e-3)), on each of {WD_SEEDS} seeds (data and "
        "initialisation)",
        WD_BAND, bars=moved(WD_BAND, 1.5), fmt=".3f",
        why="the paper's number is the formula at d_out‖T‖² = 1 (a unit-norm teacher with one output); its "
            "initialisation gives E‖T‖² = 1/2, so the book grades the formula with the run's own teacher norm "
            "(the ratio to the paper's number is reported). The band is the book's, 25% either way, moved by 1.5 "
            "(a band halved would be as narrow as the seeds' own spread)"),
    Claim(
        "C.wd.gen_limit", "C", "claim", "text", NOTES,
        "Weight decay (small γ, λ < 1): … L_gen → γ²/(4(1−λ)³)",
        r"With a small weight decay $\gamma$ ($\lambda < 1$) the generalisation loss settles at "
        r"$\mathcal{L}_{\mathrm{gen}} \to \gamma^2/(4(1-\lambda)^3)$ (in the book's conventions, times "
        r"$d_{\mathrm{out}}\Vert T\Vert^2$).",
        f"final L_gen over γ² d_out‖T‖² / (4(1 − λ)³), per small-γ run (as C.wd.train_limit), on each of {WD_SEEDS} "
        "seeds",
        WD_BAND, bars=moved(WD_BAND, 1.5), fmt=".3f",
        why="as C.wd.train_limit: the formula with the run's own teacher norm, the book's band moved by 1.5"),
])


def run(profile: str = "default", lams=None, gammas=None, d_in=None, eta=None, data_seed=None,
        init_seed=None, *, output_path=None) -> Run:
    """One linear run per (λ, γ); the small-γ runs at further seeds are its claim-only runs (C.wd.*,
    ``run.claim_histories``)."""
    overrides = linear_overrides(d_in, eta, None, None, data_seed, init_seed)
    configs = C.weight_decay_configs(profile, given(lams, C.WD_LAMS), given(gammas, C.WD_GAMMAS), **overrides)
    return with_claim_runs(wd_seed_configs, start(
        profile, {"profile": profile, "lams": lams, "gammas": gammas, **overrides}, configs,
        C.weight_decay_configs("default"), output_path))


def wd_seed_configs(configs: list) -> list:
    """The weight-decay claims' claim-only runs (no figure draws them): the small-gamma runs of the chapter's
    ``configs`` (measure.wd_small_at) at data and init seeds base + 1 ... base + WD_SEEDS - 1, seeds outermost:
    the plateaus rest on the few softest modes of one sample's spectrum, so one seed cannot decide a verdict."""
    return further_seeds([c for c in configs if measure.wd_small_at(c.lam_eff, c.gamma, c.d_out)], WD_SEEDS - 1)


#: The slowest mode must have decayed this many e-foldings by the end of a weight-decay run (its transient is then
#: below e^-20 of its start: the final loss is the plateau).
WD_EFOLDINGS = 10.0


def wd_limits_exact_gamma(lam: float, gamma: float, d_out: int, teacher_sq: float) -> tuple[float, float]:
    """The plateaus of the fixed point D_inf = -gamma (2 Sigma / d_out + gamma)^{-1} T for an isotropic teacher
    of squared norm ``teacher_sq`` under the MP law, without the small-gamma expansion:
    L_gen = (||T||^2 / d_out) E_MP[(gamma / (2 nu / d_out + gamma))^2], L_tr the same with a factor nu inside."""
    def shrink(nu: float) -> float:
        return (gamma / (2 * nu / d_out + gamma)) ** 2

    k = teacher_sq / d_out
    return (k * theory.mp_expectation(lambda nu: nu * shrink(nu), lam), k * theory.mp_expectation(shrink, lam))


def wd_ratios(h: History) -> tuple[float, float]:
    """A small-gamma run's final L_tr and L_gen over the plateau formula with the teacher's norm
    (theory.wd_limits_mp)."""
    c = h.cfg
    ours = theory.wd_limits_mp(h.meta["lam_eff"], c.gamma, c.d_out, h.meta["teacher_sq"])
    return h.final("train_loss") / ours[0], h.final("gen_loss") / ours[1]


def _wd_row(h: History) -> str:
    """One small-gamma run's row of the measured text: its ratios to the formula with the teacher's norm, to the
    paper's number and to the MP plateau without the small-gamma expansion."""
    c, lam, t_sq = h.cfg, h.meta["lam_eff"], h.meta["teacher_sq"]
    final = h.final("train_loss"), h.final("gen_loss")
    r = wd_ratios(h)
    paper = theory.wd_limits_paper(lam, c.gamma)
    exact = wd_limits_exact_gamma(lam, c.gamma, c.d_out, t_sq)
    return (f"{label(h)} (d_out ‖T‖² = {c.d_out * t_sq:.3f}): L_tr/formula {r[0]:.3f}, L_gen/formula {r[1]:.3f} "
            f"(/paper's number {final[0] / paper[0]:.3f}, {final[1] / paper[1]:.3f}; /MP without the small-γ "
            f"expansion {final[0] / exact[0]:.3f}, {final[1] / exact[1]:.3f})")


def weight_decay_seed_ratios(histories: Sequence[History]) -> dict[int, list[tuple[str, float]]]:
    """data seed -> ("L_tr|L_gen <run label>", ratio to the plateau formula with the teacher's norm) of that seed's
    small-gamma runs, seeds in increasing order (the runs of a seed move their data and init seeds together)."""
    out: dict[int, list[tuple[str, float]]] = {}
    for s, hs in by_seed([h for h in histories if measure.wd_small(h)], key=lambda h: (h.cfg.lam, h.cfg.gamma)).items():
        for h in hs:
            r = wd_ratios(h)
            out.setdefault(s, []).extend([(f"L_tr {label(h)}", r[0]), (f"L_gen {label(h)}", r[1])])
    return out


def shown_seed(shown: Sequence[History]) -> int:
    """The data seed of the weight-decay chapter's own runs (the book's seed: one for all of them)."""
    (seed,) = {int(h.cfg.data_seed) for h in shown}
    return seed


def plateau_regime(small: Sequence[History]) -> Regime:
    """A plateau is a run's final loss only if the slowest mode's transient is gone: eta (2 s_min / d_out + gamma)
    times the run's steps, the e-foldings of the slowest mode, at least WD_EFOLDINGS on every small-gamma run."""
    folds = [h.cfg.eta * (2 * h.meta["s_min_nonzero"] / h.cfg.d_out + h.cfg.gamma) * int(h.steps[-1])
             if "s_min_nonzero" in h.meta else math.inf for h in small]
    finite = [f for f in folds if math.isfinite(f)]
    measured = f"{min(finite):.3g} at the fewest" if finite else "not measured (no spectrum)"
    return Regime(all(f >= WD_EFOLDINGS for f in folds), "e-foldings of the slowest mode over the run, "
                  "η (2 s_min / d_out + γ) × steps", f"≥ {WD_EFOLDINGS:g} on every small-γ run (the final loss is the "
                  "plateau)", measured)


def evaluate_weight_decay(shown: Sequence[History], further: Sequence[History] = ()) -> list[Result]:
    """C.wd.train_limit and C.wd.gen_limit on the weight-decay runs' final values, judged against the plateau formula
    with the teacher's norm kept (theory.wd_limits_mp), on each seed's small-gamma runs: ``shown``, the chapter's
    own runs (the book's seed, the figure's), and ``further``, its claim-only runs at further seeds
    (:func:`wd_seed_configs`). One draw per seed, its members the seed's small-gamma runs."""
    train, gen = CLAIMS["C.wd.train_limit"], CLAIMS["C.wd.gen_limit"]
    small = [h for h in [*shown, *further] if measure.wd_small(h)]
    if not small:
        reason = f"no run in the small-γ regime (γ d_out / (2λ₋) ≤ {WD_SMALL:g})"
        return [not_graded(train, reason), not_graded(gen, reason)]
    groups = by_seed(small, key=lambda h: (h.cfg.lam, h.cfg.gamma))
    ratios = {s: [wd_ratios(h) for h in hs] for s, hs in groups.items()}
    train_draws = [draw([r[0] for r in ratios[s]], s, (), members(hs)) for s, hs in groups.items()]
    gen_draws = [draw([r[1] for r in ratios[s]], s, (), members(hs)) for s, hs in groups.items()]
    book_seed = shown_seed(shown)
    rows = [_wd_row(h) for h in groups.get(book_seed, [])]
    context = (f"run by run, seed {book_seed} (the book's; the figure's runs): " + "; ".join(rows)
               + ". The paper's number is the formula at d_out ‖T‖² = 1 (a unit-norm teacher with one output); this "
               "initialisation has E‖T‖² = 1/2")
    where = both(gd_regime(small), plateau_regime(small))
    return [grade(train, train_draws, context, regime=where), grade(gen, gen_draws, regime=where)]


def weight_decay_limits(h: History) -> dict[str, tuple[float, float]]:
    """The plateaus a weight-decay run is compared with: the paper's formula and the limit in the
    book's convention (S <- S - η(∇L + γS))."""
    c, lam = h.cfg, h.meta["lam_eff"]
    return {"paper": theory.wd_limits_paper(lam, c.gamma),
            "our convention": theory.wd_limits_mp(lam, c.gamma, c.d_out, h.meta["teacher_sq"])}


def _ratio(value: float, limit: float) -> float:
    """value / limit to three decimals (NaN where the limit is 0: gamma = 0 has no plateau)."""
    return round(value / limit, 3) if limit else math.nan


def weight_decay_table(histories: Sequence[History]) -> list[dict]:
    """Per (λ, γ): the final losses against the paper's formula and against the book's convention."""
    rows = []
    for h in histories:
        lim = weight_decay_limits(h)
        rows.append({"λ": h.cfg.lam, "γ": h.cfg.gamma, "small-γ regime": measure.wd_small(h),
                     "final L_tr": printed_loss(h.final('train_loss')),
                     "final L_gen": printed_loss(h.final('gen_loss')),
                     "L_tr / paper": _ratio(h.final("train_loss"), lim["paper"][0]),
                     "L_gen / paper": _ratio(h.final("gen_loss"), lim["paper"][1]),
                     "L_tr / ours": _ratio(h.final("train_loss"), lim["our convention"][0]),
                     "L_gen / ours": _ratio(h.final("gen_loss"), lim["our convention"][1])})
    return rows


def weight_decay_data(histories: Sequence[History]) -> dict:
    """What the weight-decay figure draws: each run's limits, and measured against predicted plateaus."""
    limits = [weight_decay_limits(h) for h in histories]
    predicted = [x for lim in limits for x in lim["paper"]]
    measured = [x for h in histories for x in (h.final("train_loss"), h.final("gen_loss"))]
    labels = [f"{k} λ={h.cfg.lam:g} γ={h.cfg.gamma:g}" for h in histories for k in ("tr", "gen")]
    return {"limits": limits, "predicted": predicted, "measured": measured, "labels": labels}


def numbers(histories: Sequence[History]) -> dict[str, float | None]:
    """Regression numbers: the losses at fixed steps and the final plateaus."""
    return curves(histories, ("train_loss", "gen_loss"))


def weight_decay_seed_table(shown: Sequence[History], further: Sequence[History] = ()) -> list[dict]:
    """Per seed (the weight-decay claims' draws): the small-γ runs' lowest and highest ratio of L_tr and of L_gen to
    the formula with the teacher's norm, and which run each lowest is (``shown``: the chapter's own runs, the book's
    seed; ``further``: its claim-only runs at further seeds)."""
    rows = []
    for seed, ratios in weight_decay_seed_ratios([*shown, *further]).items():
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
    book_seed = shown_seed(shown)
    small = [h for h in shown if measure.wd_small(h)]
    ratios = {"paper": [], "ours": [], "exact": []}
    for h in small:
        c, lam, t_sq = h.cfg, h.meta["lam_eff"], h.meta["teacher_sq"]
        final = (h.final("train_loss"), h.final("gen_loss"))
        for key, lim in (("paper", theory.wd_limits_paper(lam, c.gamma)),
                         ("ours", theory.wd_limits_mp(lam, c.gamma, c.d_out, t_sq)),
                         ("exact", wd_limits_exact_gamma(lam, c.gamma, c.d_out, t_sq))):
            ratios[key] += [f / x for f, x in zip(final, lim)]

    def span(xs: Sequence[float]) -> str:
        return f"{min(xs):.3f}–{max(xs):.3f}" if xs else "none"

    train, gen = results
    out = {"wd_paper_ratios": span(ratios["paper"]), "wd_our_ratios": span(ratios["ours"]),
           "wd_exact_ratios": span(ratios["exact"]), "wd_runs": f"{len(small)}",
           "wd_teacher": span([h.cfg.d_out * h.meta["teacher_sq"] for h in small]),
           "wd_bands": typeset(train.claim.threshold), "wd_small": f"{WD_SMALL:g}",
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


def figure_weight_decay(histories: Sequence[History], limits: Sequence[Mapping], predicted, measured, labels):
    """Each (λ, γ) run's losses with the predicted plateaus (``limits[i]`` for run i), and every measured
    plateau against the paper's formula (last panel)."""
    n = len(histories)
    cols = (n + 1) // 2 + 1
    fig, axes = plt.subplots(2, cols, figsize=(4.0 * cols, 7.2), layout="constrained", squeeze=False)
    for i, (h, lim) in enumerate(zip(histories, limits)):
        ax = axes[i % 2, i // 2]
        plot_weight_decay(ax, h, lim)
        ax.set_ylim(min(lim["paper"] + lim["our convention"]) / 30, None)
        lam_title(ax, h, rf", $\gamma$={h.cfg.gamma:g}")
    plot_plateaus(axes[0, -1], predicted, measured)  # labels crowd at small gamma: the table has them
    axes[0, -1].set_title("plateaus vs the formula", loc="left")
    axes[1, -1].axis("off")
    # the first run's legend stands in the free panel, where it hides no curve
    axes[1, -1].legend(*axes[0, 0].get_legend_handles_labels(), loc="center", fontsize=6)
    return fig


def draw_weight_decay(histories: Sequence[History]):
    """The figure from the chapter's runs (:func:`weight_decay_data`)."""
    return figure_weight_decay(histories, **weight_decay_data(histories))


FIGURE = Figure("paper_c/weight_decay", "Paper C: the loss plateaus under weight decay against the paper's limits",
                numbers, draw_weight_decay)
CHAPTER = Chapter("notebooks/paper_c/weight_decay.ipynb", run, C.weight_decay_configs, (FIGURE,),
                  claim_runs=wd_seed_configs, claims=tuple(CLAIMS))
