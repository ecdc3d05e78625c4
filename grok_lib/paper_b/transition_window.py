"""The sparse page's transition window (Theorems 3.4 and 3.5): the window (1 ± c) ln(alpha) / lambda fitted to the
alpha sweep, the start and end fractions' limit for alpha -> infinity, and the end time's slopes against ln(alpha) and
1 / lambda, as the page's table and in its words. Reported beside the claims that grade them
(:mod:`grok_lib.paper_b.chapters.sparse_classification`); the figure is drawn there."""

from __future__ import annotations

import math

import numpy as np

from ..notebook import Run
from . import measure
from .curve_numbers import fit_attr, rounded, transition_row
from .selection import Groups


def window_table(groups: Groups) -> list[dict]:
    """The window (1 +- c) ln(alpha) / lambda fitted to the alpha sweep, the fractions' limit for alpha -> infinity,
    and the slopes of the end time against ln(alpha) and 1 / lambda, each beside the theory's value."""
    alpha_sweep, lambda_sweep = groups["alpha"], groups["weight_decay"]
    fr = [measure.accuracy_transition(h).fractions for h in alpha_sweep]
    win = measure.window_fit([f[0] for f in fr], [f[1] for f in fr])
    big = [h for h in alpha_sweep if h.cfg.alpha > 1]
    ls, le = measure.try_fit(measure.fraction_limits, big) or (None, None)
    lam = float(alpha_sweep[0].cfg.weight_decay)
    alpha = float(lambda_sweep[0].cfg.alpha)
    fa, fl = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep), measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    return [
        {"quantity": "window c (smallest holding every run)", "measured": rounded(win.c), "theory": "any c in (0, 1)"},
        {"quantity": "mean midpoint (start+end)/2", "measured": rounded(win.center), "theory": "1 (alpha -> inf)"},
        {"quantity": "mean half width (end-start)/2", "measured": rounded(win.half_width), "theory": "0 (alpha -> inf)"},
        {"quantity": "start fraction at 1/ln(a) = 0", "measured": rounded(fit_attr(ls, "intercept")), "theory": "1"},
        {"quantity": "end fraction at 1/ln(a) = 0", "measured": rounded(fit_attr(le, "intercept")), "theory": "1"},
        {"quantity": "start: slope in 1/ln(a)", "measured": rounded(fit_attr(ls, "slope")),
         "theory": "(finite-alpha offset)"},
        {"quantity": "end: slope in 1/ln(a)", "measured": rounded(fit_attr(le, "slope")),
         "theory": "(finite-alpha offset)"},
        {"quantity": f"end time t vs ln(a): slope x lambda ({lam:g})", "measured": rounded(fit_attr(fa, "slope", lam)),
         "theory": "1"},
        {"quantity": f"end time t vs 1/lambda: slope / ln(a) ({alpha:g})",
         "measured": rounded(fit_attr(fl, "slope", 1 / math.log(alpha)) if alpha > 1 else math.nan), "theory": "1"},
    ]


def _signed(fit, fmt: str) -> str:
    """``− |slope|`` or ``+ |slope|`` of a fitted line."""
    return f"{'−' if fit.slope < 0 else '+'} {abs(fit.slope):{fmt}}"


def transition_reading(run: Run) -> dict[str, str]:
    """The window, the fractions' limit for alpha -> infinity and the slopes (:func:`window_table`), in words."""
    alpha_sweep, lambda_sweep = run.groups["alpha"], run.groups["weight_decay"]
    alpha_rows = [transition_row(h) for h in alpha_sweep]
    lambda_rows = [transition_row(h) for h in lambda_sweep]
    window = measure.window_fit([r["start frac"] for r in alpha_rows], [r["end frac"] for r in alpha_rows])
    widest = alpha_rows[int(np.nanargmax(window.c_per_run)) if np.isfinite(window.c_per_run).any() else 0]
    start_fit, end_fit = (measure.try_fit(measure.fraction_limits, [h for h in alpha_sweep if h.cfg.alpha > 1])
                          or (None, None))
    log_alpha_fit = measure.try_fit(measure.fit_vs_log_alpha, alpha_sweep)
    inverse_lambda_fit = measure.try_fit(measure.fit_vs_inverse_lambda, lambda_sweep)
    largest = alpha_rows[-1]
    lambda_end_fracs = [r["end frac"] for r in lambda_rows]
    window_cs = [measure.window_c(h) for h in alpha_sweep]
    shrinks = [b[2] < a[1] for a, b in zip(window_cs, window_cs[1:])]
    log_focus = math.log(lambda_sweep[0].cfg.alpha)
    ends = [(h, measure.accuracy_transition(h).end) for h in lambda_sweep]
    lambda_t_ends = [h.cfg.weight_decay * end.t for h, end in ends if end]
    return dict(
        window_cs=", ".join(f"{c:.2f} [{lo:.2f}, {hi:.2f}] (α = {h.cfg.alpha:g})"
                            for h, (c, lo, hi) in zip(alpha_sweep, window_cs)),
        window_shrinks=("shrinks from each α to the next by more than the grid allows" if all(shrinks) and shrinks
                        else f"shrinks beyond the grid at {sum(shrinks)} of {len(shrinks)} steps of α"),
        window_c=f"{window.c:.3g}",
        widest_alpha=f"{widest['alpha']:g}",
        widest_end=(f"starts at {widest['start frac']:.3g}" if 1 - widest["start frac"] >= widest["end frac"] - 1
                    else f"ends at {widest['end frac']:.3g}"),
        starts_climb=f"{alpha_rows[0]['start frac']:.3g} to {largest['start frac']:.3g}",
        ends_climb=f"{alpha_rows[0]['end frac']:.3g} to {largest['end frac']:.3g}",
        limit_r2=f"{start_fit.r2:.3f} and {end_fit.r2:.3f}" if start_fit else "nan",
        start_line=f"{start_fit.intercept:.3f} {_signed(start_fit, '.2f')}/ln α" if start_fit else "nan",
        end_line=f"{end_fit.intercept:.3f} {_signed(end_fit, '.2f')}/ln α" if end_fit else "nan",
        start_offset=_signed(start_fit, ".2f") if start_fit else "nan",
        end_offset=_signed(end_fit, ".2f") if end_fit else "nan",
        limit_start=f"{start_fit.intercept:.2f}" if start_fit else "nan",
        limit_end=f"{end_fit.intercept:.2f}" if end_fit else "nan",
        largest_alpha=f"{largest['alpha']:g}",
        largest_log_alpha=f"{math.log(largest['alpha']):.1f}",
        largest_early=f"{100 * (1 - largest['end frac']):.0f}–{100 * (1 - largest['start frac']):.0f}%",
        log_alpha_slope=(f"{log_alpha_fit.slope * alpha_sweep[0].cfg.weight_decay:.2f}" if log_alpha_fit
                         else "nan"),
        inverse_lambda_slope=f"{inverse_lambda_fit.slope / log_focus:.2f}" if inverse_lambda_fit else "nan",
        lambda_end_range=f"{min(lambda_end_fracs):.3g}–{max(lambda_end_fracs):.3g}",
        inverse_lambda_raw=f"{inverse_lambda_fit.slope:.3f}" if inverse_lambda_fit else "nan",
        inverse_lambda_log=f"{log_focus:.3f}",
        lambda_t_trend=("it grows with λ at fixed α, where the clock says it should not depend on λ"
                        if len(lambda_t_ends) > 1 and all(np.diff(lambda_t_ends) > 0) else
                        "it falls with λ at fixed α, where the clock says it should not depend on λ"
                        if len(lambda_t_ends) > 1 and all(np.diff(lambda_t_ends) < 0)
                        else "it moves in no single direction with λ"),
        lambda_t_spread=(f"{max(lambda_t_ends) / min(lambda_t_ends) - 1:.1%}" if len(lambda_t_ends) > 1 else "nan"),
        lambda_clock_ends=", ".join(f"{h.cfg.weight_decay * end.t:.2f} (λ = {h.cfg.weight_decay:g})"
                                    for h, end in ends if end),
    )
