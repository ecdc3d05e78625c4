"""How Paper A's pages say their graded results in words (for :func:`grok_lib.display.glue`): a verdict in its
kind's words with the measured reason where it was not tested faithfully, several settings' verdicts at once,
the verdicts of seeds graded alone, a span of epochs."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from ..grading import Result, sides
from ..tables import typeset
from .robustness import seed_of


def reading(r: Result) -> str:
    """"`id` is **its verdict**", with the regime's measured reason where it was not tested faithfully."""
    text = f"`{r.claim.id}` is **{r.word}**"
    if r.verdict == "not tested faithfully" and r.regime is not None:
        text += f" ({typeset(r.regime.quantity)}: {typeset(r.regime.measured)})"
    return text


def graded(r: Result) -> str:
    """"`id` (a premise): **verdict**", with how many (draw, bar) pairs pass where they split."""
    passing, failing = sides(r.claim, r.draws)
    split = f", {len(passing)} of {len(passing) + len(failing)} (level, bar) pairs passing" if passing and failing else ""
    return f"`{r.claim.id}`{' (a premise)' if r.claim.kind == 'premise' else ''}: **{r.word}**{split}"


def words(results: Sequence[Mapping[str, Result]], claim_id: str) -> str:
    """The verdicts of ``claim_id`` over several settings' results (each id -> Result), each once, in bold."""
    return " and ".join(sorted({f"**{r[claim_id].word}**" for r in results}))


def by_seed(results: Sequence[Result], seeds: Sequence) -> str:
    """The verdicts of one claim graded on each seed alone (``results`` in the order of ``seeds``' sweeps)."""
    if len({r.verdict for r in results}) == 1:
        return f"is **{results[0].word}** for each of the {len(seeds)} seeds graded alone"
    return "differs between the seeds graded alone (" + ", ".join(
        f"{r.word} for seed {seed_of(s)}" for s, r in zip(seeds, results)) + ")"


def span(values: Sequence[float]) -> str:
    """"lo–hi" of the finite epochs, "never" if none, noting the ones that never came."""
    finite = [v for v in values if math.isfinite(v)]
    return (f"{min(finite):,.0f}–{max(finite):,.0f}" if finite else "never") + ("" if len(finite) == len(values) else " (some never)")


def output_weights(histories: Sequence, results: Mapping[str, Result]) -> str:
    """Figure 2's panel B in words: the output weights U at the end of ``histories``, read on E's dominant
    frequency (the same reordering), and the verdicts of the output-weight claims (``results``: id -> Result)."""
    from .checks import polygon_on
    from .geometry import dominant_frequency, energy_fraction

    ends = [(h.snapshot("E", int(h.steps[-1])), h.snapshot("U", int(h.steps[-1]))) for h in histories]
    polygons = [polygon_on(u, dominant_frequency(e)) for e, u in ends]
    shares = [energy_fraction(u, 5) for _, u in ends]
    lo_hi = lambda v, f: f"{min(v):{f}}–{max(v):{f}}"  # noqa: E731
    ids = ("A.fig2.output_circle", "A.fig2.output_evenly_spaced", "A.fig2.output_fourier")
    circle, spacing, fourier = (results[i].word if i in results else "not graded" for i in ids)
    return (f"The output weights U (panel B), read on E's dominant frequency (the paper's 'same label reordering'), "
            f"end at radius CV {lo_hi([p['radius_cv'] for p in polygons], '.3f')} and angle error "
            f"{lo_hi([p['angle_rms'] for p in polygons], '.2f')} steps, with {lo_hi(shares, '.3f')} of their energy "
            f"in their 5 strongest frequencies: graded, their circle is **{circle}**, their even spacing "
            f"**{spacing}** and their Fourier claim **{fourier}**")


def srank_order(paper: Mapping[str, Sequence], results: Mapping[str, Mapping[str, Result]]) -> str:
    """The book's prediction A.fig3.srank_wd_order in words at the paper's settings: per split (``paper``: name ->
    histories, ``results``: name -> id -> Result), T_rep at the book's f by weight decay and its verdict."""
    from .clocks import T_REP_FRACTION, t_rep_srank
    from .robustness import by_weight_decay

    parts = []
    for name, hs in paper.items():
        ordered = by_weight_decay(hs)
        reps = ", ".join("never" if math.isnan(t) else f"{t:,.0f}" for t in (t_rep_srank(h) for h in ordered))
        parts.append(f"{reps} with {name} (**{results[name]['A.fig3.srank_wd_order'].word}** over the grid of f)")
    lams = ", ".join(f"{h.cfg.weight_decay:g}" for h in by_weight_decay(next(iter(paper.values()))))
    return (f"The book's prediction that the stable rank falls earlier for every larger weight decay, as the test "
            f"loss does (`A.fig3.srank_wd_order`; the paper states no order): $T_{{\\mathrm{{rep}}}}({T_REP_FRACTION:g})$ "
            f"at λ = {lams} is " + ", and ".join(parts))
