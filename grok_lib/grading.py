"""The one grading rule of the book: what a claim declares before any run, and how its measurements become a
verdict.

A claim (:class:`Claim`) says what kind of statement it is (the paper's claim, a premise the paper relies on,
or the book's own prediction), where the paper says it and in which words, the one statement it makes, the
quantity measured (the paper's own metric wherever it names one), the bar (:class:`Bar`) and, where the book
had to choose a level the paper does not give (an accuracy level, a fit window, a top-k), the grid of
reasonable choices (:class:`Choice`), its central value first among equals.

A check measures the quantity once per *draw*: one seed (or one recorded run) at one point of the choices'
grid (:class:`Draw`); a draw may hold several members (the runs of a sweep the statement quantifies over, "for
every weight decay"), and it is on the passing side only if every member is. Then :func:`grade`:

- **reproduced** where every draw passes, **not reproduced** where none does;
- **inconclusive** otherwise, with the numbers that straddle the bar;
- **not tested faithfully** where the runs are outside the paper's regime (:class:`Regime`), whatever they
  measure; the measured reason is the verdict's text.

Across the arithmetic variants of the envelope the same rule holds (``grok_lib.envelope_verdicts``): a verdict
that one variant measured under the same grading does not share is inconclusive.

No rule may ask for a spread tighter than the runs' own: a two-sided bar narrower than the spread of the
central choice's values over seeds marks the result :attr:`Result.too_tight` (the book's test fails on one).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from itertools import product
from typing import Any, Iterable, Sequence

#: The verdicts, strongest first.
VERDICTS = ("reproduced", "not reproduced", "inconclusive", "not tested faithfully")
#: What a claim is: the paper's own claim, a premise or assumption the paper relies on (it does not claim it
#: holds in its experiments), or the book's own prediction (neither paper states it).
KINDS = {"claim": "the paper's claim", "premise": "a premise the paper relies on",
         "prediction": "the book's own prediction"}
#: Where the paper says it: its text (quoted), one of its figures as the book reads it, or second-hand: a
#: review of the paper or the authors' rebuttal (quoted).
BASES = {"text": "the paper's text", "figure": "the book's reading of a figure", "review": "second-hand"}
#: How each kind's verdicts read: a premise "holds" in these runs, a prediction is "confirmed".
WORDS = {
    "claim": {v: v for v in VERDICTS},
    "premise": {"reproduced": "holds in these runs", "not reproduced": "does not hold in these runs",
                "inconclusive": "inconclusive", "not tested faithfully": "not tested faithfully"},
    "prediction": {"reproduced": "confirmed", "not reproduced": "not confirmed",
                   "inconclusive": "inconclusive", "not tested faithfully": "not tested faithfully"},
}


def _fmt(x: float, fmt: str) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "never"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:{fmt}}"


@dataclass(frozen=True)
class Bar:
    """What counts as reproduced: the measured value at or above ``lo`` and at or below ``hi`` (either may be
    None: a one-sided bar). ``log``: the band is judged on a log scale (its width in decades). A value that
    never came (NaN: a clock that never stopped) passes only if ``never_passes``."""

    lo: float | None = None
    hi: float | None = None
    log: bool = False
    never_passes: bool = False

    def __post_init__(self):
        if self.lo is None and self.hi is None:
            raise ValueError("a bar needs lo, hi or both")
        if self.lo is not None and self.hi is not None and not self.lo <= self.hi:
            raise ValueError(f"a bar's lo must not exceed its hi, got [{self.lo}, {self.hi}]")
        if self.log and any(b is not None and b <= 0 for b in (self.lo, self.hi)):
            raise ValueError("a log-scale bar needs positive ends")

    def holds(self, value: float) -> bool:
        """Whether ``value`` is on the passing side."""
        if value is None or math.isnan(value):
            return self.never_passes
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def width(self) -> float:
        """A two-sided band's width (in decades where ``log``); infinite for a one-sided bar."""
        if self.lo is None or self.hi is None:
            return math.inf
        return math.log10(self.hi / self.lo) if self.log else self.hi - self.lo

    def spread(self, values: Iterable[float]) -> float:
        """The spread (max - min) of ``values`` on the bar's scale; NaNs left out."""
        finite = [v for v in values if v is not None and not math.isnan(v) and (not self.log or v > 0)]
        if len(finite) < 2:
            return 0.0
        if self.log:
            return math.log10(max(finite) / min(finite))
        return max(finite) - min(finite)

    def text(self, fmt: str = "g") -> str:
        """The bar in words: "≥ 2", "≤ 0.1", "in [1e-07, 1e-05]"."""
        if self.lo is None:
            out = f"≤ {self.hi:{fmt}}"
        elif self.hi is None:
            out = f"≥ {self.lo:{fmt}}"
        else:
            out = f"in [{self.lo:{fmt}}, {self.hi:{fmt}}]"
        return out + (" (never counts as passing)" if self.never_passes else "")


def moved(bar: Bar, factor: float = 2.0) -> tuple[Bar, Bar]:
    """A bar the book chose, moved a reasonable amount either way (its grid beside the central one): a
    one-sided bar's end divided and multiplied by ``factor``; a band's half-width (on its own scale: a ratio
    for a log band, the plain difference otherwise) halved and doubled about its centre."""
    if bar.lo is None or bar.hi is None:
        end = bar.lo if bar.lo is not None else bar.hi
        side = "lo" if bar.lo is not None else "hi"
        return tuple(replace(bar, **{side: end * f}) for f in (1 / factor, factor))
    if bar.log:
        centre, ratio = math.sqrt(bar.lo * bar.hi), math.sqrt(bar.hi / bar.lo)
        return tuple(replace(bar, lo=centre / ratio ** f, hi=centre * ratio ** f) for f in (1 / factor, factor))
    centre, half = (bar.lo + bar.hi) / 2, (bar.hi - bar.lo) / 2
    return tuple(replace(bar, lo=centre - half * f, hi=centre + half * f) for f in (1 / factor, factor))


@dataclass(frozen=True)
class Choice:
    """A level the book had to choose where the paper names none: its ``name``, the ``central`` (the book's
    own) value, and the ``grid`` of reasonable choices (the central one among them), with the reason."""

    name: str
    central: Any
    grid: tuple
    why: str = ""
    fmt: str = "g"

    def __post_init__(self):
        if self.central not in self.grid:
            raise ValueError(f"choice {self.name!r}: the central value {self.central!r} must be on its grid {self.grid}")

    def text(self) -> str:
        return (f"{self.name} ∈ {{{', '.join(_fmt(v, self.fmt) for v in self.grid)}}} "
                f"(central {_fmt(self.central, self.fmt)})")


@dataclass(frozen=True)
class Claim:
    """One statement the book checks, declared before any run (see the module docstring)."""

    id: str  # <paper letter>.<figure or topic>.<name>
    paper: str  # its part's letter: "A" for grok_lib.paper_a
    kind: str  # a key of KINDS
    basis: str  # a key of BASES: where the paper says it
    where: str  # "Fig. 1b", "Sec. 2", "rebuttal to reviewer XQUe"
    quote: str  # the paper's words (text, review) or the book's reading of the figure, labelled as such
    statement: str  # the one statement graded
    quantity: str  # what is measured, per draw (the paper's metric wherever it names one)
    bar: Bar
    choices: tuple = ()  # Choice, ...: the levels the book chose, each over its grid
    bars: tuple = ()  # Bar, ...: where the bar is the book's choice, the other reasonable bars (the central is ``bar``)
    fmt: str = ".3g"  # how the quantity's values print
    why: str = ""  # why this quantity and bar (where the paper's words leave room)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.id}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.basis not in BASES:
            raise ValueError(f"claim {self.id}: basis must be one of {', '.join(BASES)}, got {self.basis!r}")
        if not (len(self.paper) == 1 and "A" <= self.paper <= "Z"):
            raise ValueError(f"claim {self.id}: paper must be its part's capital letter (A for paper_a), "
                             f"got {self.paper!r}")

    @property
    def threshold(self) -> str:
        """The bar in words, with the quantity's format (and the other bars of its grid, where it has one)."""
        fmt = self.fmt if self.fmt != ".3g" else "g"
        if not self.bars:
            return self.bar.text(fmt)
        return f"{self.bar.text(fmt)} (and, moving the book's bar, {' and '.join(b.text(fmt) for b in self.bars)})"

    @property
    def grid(self) -> str:
        """The choices in words ("" where the book chose no level)."""
        return "; ".join(c.text() for c in self.choices)

    def all_bars(self) -> tuple:
        """The central bar, then the others of its grid."""
        return (self.bar, *self.bars)

    def grid_points(self) -> list[tuple]:
        """Every point of the choices' grid (one empty point where there are no choices)."""
        return list(product(*(c.grid for c in self.choices)))

    def central_point(self) -> tuple:
        return tuple(c.central for c in self.choices)

    def grading(self) -> str:
        """A fingerprint of how this claim is graded (quantity, bar, choices): a verdict measured in other
        arithmetic under another grading says nothing of this one (``grok_lib.envelope_verdicts``)."""
        text = "\n".join([RULE_VERSION, self.quantity, repr(self.all_bars()), repr(self.choices)])
        return hashlib.sha256(text.encode()).hexdigest()[:12]


#: Bumped when the rule itself changes: every claim's grading changes with it.
RULE_VERSION = "rule-1"


@dataclass(frozen=True)
class Draw:
    """One measurement of a claim's quantity: at ``seed`` (an int, or a name such as "paper") and ``point`` (the
    choices' values, in the claim's order), one value per member of the sweep the statement quantifies over
    (``members`` names them: "λ=0.6"; a single value needs no name)."""

    values: tuple
    seed: Any = 0
    point: tuple = ()
    members: tuple = ()

    def __post_init__(self):
        if not self.values:
            raise ValueError("a draw needs at least one value")
        if self.members and len(self.members) != len(self.values):
            raise ValueError(f"{len(self.values)} values for {len(self.members)} members")

    def passes(self, bar: Bar) -> bool:
        return all(bar.holds(v) for v in self.values)


def draw(value, seed: Any = 0, point: tuple = (), members: tuple = ()) -> Draw:
    """A :class:`Draw` of one value or of a sweep's values (a sequence, one per member)."""
    values = tuple(float(v) for v in value) if isinstance(value, (list, tuple)) else (float(value),)
    return Draw(values, seed, tuple(point), tuple(members))


@dataclass(frozen=True)
class Regime:
    """Whether the runs are in the paper's regime, by the quantity that defines it: ``quantity`` ("lr × the
    Gauss–Newton sharpness at initialisation"), its ``requirement`` ("< 2 for every α: GD is stable"), the
    ``measured`` values in words and whether they meet it (``ok``)."""

    ok: bool
    quantity: str
    requirement: str
    measured: str

    def text(self) -> str:
        return (f"{self.quantity} {self.requirement.strip()}: {self.measured}"
                f" — {'in the regime' if self.ok else 'outside the regime'}")


@dataclass(frozen=True)
class Result:
    """A graded claim: the verdict, the measured text and the draws it came from."""

    claim: Claim
    measured: str
    verdict: str
    draws: tuple = ()
    regime: Regime | None = None
    too_tight: bool = False  # a two-sided bar narrower than the central choice's spread over seeds
    verdict_here: str = ""  # where the arithmetic variants changed the verdict: this arithmetic's own

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}; got {self.verdict!r}")

    @property
    def word(self) -> str:
        """The verdict as this claim's kind reads it (a premise "holds in these runs")."""
        return WORDS[self.claim.kind][self.verdict]


def sides(claim: Claim, draws: Sequence[Draw]) -> tuple[list[tuple[Draw, Bar]], list[tuple[Draw, Bar]]]:
    """Every (draw, bar) pair on the passing side, and the others (each draw against each bar of the claim's
    grid of bars)."""
    pairs = [(d, b) for d in draws for b in claim.all_bars()]
    return [p for p in pairs if p[0].passes(p[1])], [p for p in pairs if not p[0].passes(p[1])]


def verdict_of(claim: Claim, draws: Sequence[Draw], regime: Regime | None = None) -> str:
    """The rule itself: not tested faithfully outside the regime; reproduced where every draw passes, not
    reproduced where none does, inconclusive otherwise."""
    if regime is not None and not regime.ok:
        return "not tested faithfully"
    if not draws:
        raise ValueError(f"claim {claim.id}: no draw to grade")
    passing, failing = sides(claim, draws)
    if not failing:
        return "reproduced"
    if not passing:
        return "not reproduced"
    return "inconclusive"


def central_spread(claim: Claim, draws: Sequence[Draw]) -> float:
    """The largest spread over seeds, at the central choice, of one member's value (on the bar's scale)."""
    central = [d for d in draws if d.point == claim.central_point()]
    by_member: dict[int, list[float]] = {}
    for d in central:
        for i, v in enumerate(d.values):
            by_member.setdefault(i, []).append(v)
    return max((claim.bar.spread(vs) for vs in by_member.values()), default=0.0)


def _label(d: Draw, claim: Claim) -> str:
    parts = [] if d.seed is None else [f"seed {d.seed}" if isinstance(d.seed, int) else str(d.seed)]
    parts += [f"{c.name} {_fmt(v, c.fmt)}" for c, v in zip(claim.choices, d.point)]
    return ", ".join(parts)


def _labelled(d: Draw, claim: Claim, fmt: str) -> str:
    label = _label(d, claim)
    return f"{label}: {_values(d, fmt)}" if label else _values(d, fmt)


def _values(d: Draw, fmt: str) -> str:
    if d.members:
        return ", ".join(f"{m}: {_fmt(v, fmt)}" for m, v in zip(d.members, d.values))
    return ", ".join(_fmt(v, fmt) for v in d.values)


def summary(claim: Claim, draws: Sequence[Draw]) -> str:
    """The draws in words: the central choice's values per seed, then how many (draw, bar) pairs pass and, where
    they split, the clearest pass and the clearest failure (the numbers that straddle the bar)."""
    fmt = claim.fmt
    central = [d for d in draws if d.point == claim.central_point()]
    head = "; ".join(_labelled(d, claim, fmt) for d in central) or "no draw at the central choice"
    passing, failing = sides(claim, draws)
    what = f"{len(draws)} draws" + (f" × {len(claim.all_bars())} bars" if claim.bars else "")
    count = f"{len(passing)} of {len(passing) + len(failing)} ({what}) pass"
    if not passing or not failing:
        return f"{head} — {count}"

    def depth(pair: tuple[Draw, Bar]) -> float:
        # how far the pair's worst member is inside its bar (negative: outside)
        d, b = pair
        margins = []
        for v in d.values:
            if math.isnan(v):
                margins.append(-math.inf)
                continue
            margins.append(min((v - b.lo) if b.lo is not None else math.inf, (b.hi - v) if b.hi is not None else math.inf))
        return min(margins)

    def said(pair: tuple[Draw, Bar]) -> str:
        d, b = pair
        bar = f" against {b.text(fmt if fmt != '.3g' else 'g')}" if claim.bars else ""
        return f"{_labelled(d, claim, fmt)}{bar}"

    best, worst = max(passing, key=depth), min(failing, key=depth)
    return f"{head} — {count}; straddling the bar: passes at {said(best)}; fails at {said(worst)}"


def grade(claim: Claim, draws: Sequence[Draw], context: str = "", regime: Regime | None = None) -> Result:
    """Grade ``claim`` on its ``draws`` by the one rule (:func:`verdict_of`). ``context``: the check's own
    numbers that the draws do not carry (reported, not graded), put after the summary."""
    draws = tuple(draws)
    unknown = [d.point for d in draws if d.point not in claim.grid_points()]
    if unknown:
        raise ValueError(f"claim {claim.id}: draws at points off its grid: {unknown[:3]}")
    verdict = verdict_of(claim, draws, regime)
    parts = []
    if regime is not None and not regime.ok:  # the reason first: nothing below is graded
        parts.append("Not in the paper's regime: " + regime.text())
    if draws:
        parts.append(summary(claim, draws))
    if context:
        parts.append(context)
    if regime is not None and regime.ok:
        parts.append("Regime: " + regime.text())
    tight = bool(draws) and central_spread(claim, draws) > min(b.width() for b in claim.all_bars())
    if tight:
        parts.append(f"the bar's width ({min(b.width() for b in claim.all_bars()):.3g}) is narrower than the runs' own spread at the "
                     f"central choice ({central_spread(claim, draws):.3g}): no rule may ask for that")
    return Result(claim, ". ".join(p.rstrip(".") for p in parts) + ".", verdict, draws, regime, tight)


def not_graded(claim: Claim, reason: str, regime: Regime | None = None) -> Result:
    """A claim the runs cannot test faithfully (``regime`` not ok, or no draw possible), with the reason."""
    regime = regime or Regime(False, "the runs", "must measure the quantity", reason)
    return Result(claim, f"Not in the paper's regime: {regime.text()}.", "not tested faithfully", (), regime)


def combine(verdicts: Sequence[str]) -> str:
    """Several verdicts of one claim (settings, arithmetic variants) as one by the same rule: their common
    verdict; not tested faithfully ones left out (they measured nothing the claim is about); inconclusive
    where the others differ; not tested faithfully if nothing else is left."""
    faithful = [v for v in verdicts if v != "not tested faithfully"]
    if not faithful:
        return "not tested faithfully"
    return faithful[0] if len(set(faithful)) == 1 else "inconclusive"
