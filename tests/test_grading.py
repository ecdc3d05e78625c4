"""The one grading rule (grok_lib/grading.py): bands on each side of the bar and across it, one-sided bars,
log-scale bands, grids of choices, sweeps, the regime, the spread a bar may ask for, and how verdicts of
several settings or arithmetic variants combine."""

import math

import pytest

from grok_lib.grading import (Bar, Choice, Claim, Regime, combine, draw, grade, moved, not_graded, verdict_of)


def claim(bar, choices=(), kind="claim"):
    return Claim("X.t.claim", "A", kind, "text", "Sec. 1", "the paper's words", "a statement", "a quantity", bar,
                 tuple(choices))


LEVEL = Choice("level", 0.95, (0.9, 0.95, 0.99))


@pytest.mark.parametrize("values, verdict", [
    ((3.0, 4.0, 5.0), "reproduced"),  # every draw inside the band
    ((1.0, 1.5, 2.0), "not reproduced"),  # every draw below it
    ((7.0, 8.0, 9.0), "not reproduced"),  # every draw above it
    ((1.0, 8.0, 9.0), "not reproduced"),  # outside on both sides: still no draw passes
    ((2.0, 4.0, 7.0), "inconclusive"),  # across the bar
    ((2.5, 6.0, 4.0), "reproduced"),  # on the ends: the band is closed
])
def test_a_band_on_each_side_and_across_it(values, verdict):
    c = claim(Bar(2.5, 6.0))
    result = grade(c, [draw(v, seed=s) for s, v in enumerate(values)])
    assert result.verdict == verdict
    assert "(3 draws) pass" in result.measured


@pytest.mark.parametrize("values, verdict", [((2.0, 3.0), "reproduced"), ((0.5, 1.9), "not reproduced"),
                                             ((1.0, 2.0), "inconclusive")])
def test_a_one_sided_bar(values, verdict):
    assert grade(claim(Bar(lo=2.0)), [draw(v, seed=s) for s, v in enumerate(values)]).verdict == verdict


def test_a_clock_that_never_stops_fails_unless_the_bar_says_otherwise():
    never = math.nan
    assert grade(claim(Bar(hi=10.0)), [draw(never)]).verdict == "not reproduced"
    assert grade(claim(Bar(hi=10.0, never_passes=True)), [draw(never)]).verdict == "reproduced"


def test_a_sweep_passes_a_draw_only_if_every_member_does():
    c = claim(Bar(hi=1.0))
    one_member_fails_everywhere = [draw([0.5, 2.0], seed=s, members=("λ=0.6", "λ=1")) for s in range(3)]
    assert grade(c, one_member_fails_everywhere).verdict == "not reproduced"
    mixed = [draw([0.5, 0.5], seed=0, members=("a", "b")), draw([0.5, 2.0], seed=1, members=("a", "b"))]
    result = grade(c, mixed)
    assert result.verdict == "inconclusive" and "b: 2" in result.measured


def test_the_grid_of_choices_counts_like_seeds_and_is_named_where_it_straddles():
    c = claim(Bar(lo=0.5), [LEVEL])
    draws = [draw(v, seed=0, point=(lvl,)) for lvl, v in ((0.9, 0.7), (0.95, 0.6), (0.99, 0.4))]
    result = grade(c, draws)
    assert result.verdict == "inconclusive"
    assert "passes at seed 0, level 0.9: 0.7" in result.measured and "fails at seed 0, level 0.99: 0.4" in result.measured
    assert grade(c, [draw(0.6, seed=0, point=(lvl,)) for lvl in LEVEL.grid]).verdict == "reproduced"


def test_a_draw_off_the_declared_grid_is_an_error():
    with pytest.raises(ValueError, match="off its grid"):
        grade(claim(Bar(lo=0.5), [LEVEL]), [draw(0.6, point=(0.8,))])


def test_a_log_band_and_the_spread_it_may_ask_for():
    c = claim(Bar(1e-7, 1e-5, log=True))
    assert grade(c, [draw(v, seed=s) for s, v in enumerate((1e-6, 2e-6, 5e-7))]).verdict == "reproduced"
    # a bar narrower than the runs' own spread at the central choice is flagged (the book's tests fail on it)
    narrow = claim(Bar(0.9, 1.1))
    result = grade(narrow, [draw(v, seed=s) for s, v in enumerate((0.8, 1.0, 1.3))])
    assert result.too_tight and "narrower than the runs' own spread" in result.measured
    assert not grade(narrow, [draw(v, seed=s) for s, v in enumerate((0.95, 1.0, 1.05))]).too_tight
    # the spread is per member of a sweep across seeds, not across the sweep
    swept = [draw([0.95, 1.05], seed=s, members=("a", "b")) for s in range(3)]
    assert not grade(narrow, swept).too_tight


def test_outside_the_regime_nothing_is_graded():
    outside = Regime(False, "lr × sharpness", "< 2", "912 at α = 100")
    result = grade(claim(Bar(lo=0.0)), [draw(1.0)], regime=outside)
    assert result.verdict == "not tested faithfully" and "912 at α = 100" in result.measured
    inside = Regime(True, "lr × sharpness", "< 2", "0.7 at α = 100")
    assert grade(claim(Bar(lo=0.0)), [draw(1.0)], regime=inside).verdict == "reproduced"
    assert not_graded(claim(Bar(lo=0.0)), "no run groks").verdict == "not tested faithfully"


def test_a_premise_and_a_prediction_read_their_verdicts_in_their_own_words():
    assert grade(claim(Bar(lo=0.0), kind="premise"), [draw(-1.0)]).word == "does not hold in these runs"
    assert grade(claim(Bar(lo=0.0), kind="prediction"), [draw(1.0)]).word == "confirmed"


@pytest.mark.parametrize("verdicts, combined", [
    (["reproduced", "reproduced"], "reproduced"),
    (["not reproduced", "not reproduced"], "not reproduced"),
    (["reproduced", "not reproduced"], "inconclusive"),
    (["reproduced", "inconclusive"], "inconclusive"),
    (["not tested faithfully", "reproduced"], "reproduced"),
    (["not tested faithfully"], "not tested faithfully"),
])
def test_verdicts_of_several_settings_or_arithmetics_combine_by_the_same_rule(verdicts, combined):
    assert combine(verdicts) == combined


def test_declarations_are_checked():
    with pytest.raises(ValueError, match="kind"):
        Claim("X.a.b", "A", "hunch", "text", "", "", "", "", Bar(lo=0))
    with pytest.raises(ValueError, match="capital letter"):
        Claim("X.a.b", "paper_a", "claim", "text", "", "", "", "", Bar(lo=0))
    with pytest.raises(ValueError, match="central"):
        Choice("k", 4, (5, 6, 7))
    with pytest.raises(ValueError, match="lo must not exceed"):
        Bar(2, 1)
    with pytest.raises(ValueError, match="no draw"):
        verdict_of(claim(Bar(lo=0)), [])


def test_a_grid_of_bars_counts_each_bar_like_a_choice():
    c = Claim("X.t.b", "A", "claim", "text", "", "", "", "", Bar(hi=0.1), bars=(Bar(hi=0.05), Bar(hi=0.2)))
    assert grade(c, [draw(0.04)]).verdict == "reproduced"
    result = grade(c, [draw(0.096)])  # passes the book's 0.1 but not half of it: a knife-edge, so inconclusive
    assert result.verdict == "inconclusive" and "against ≤ 0.05" in result.measured
    assert grade(c, [draw(0.3)]).verdict == "not reproduced"
    assert "and, moving the book's bar, ≤ 0.05 and ≤ 0.2" in c.threshold


def test_the_grading_fingerprint_moves_with_the_bar_and_the_grid():
    base = claim(Bar(lo=0.5), [LEVEL])
    assert base.grading() == claim(Bar(lo=0.5), [LEVEL]).grading()
    assert base.grading() != claim(Bar(lo=0.6), [LEVEL]).grading()
    assert base.grading() != claim(Bar(lo=0.5), [Choice("level", 0.95, (0.95, 0.99))]).grading()


def test_a_bar_moved_either_way():
    assert moved(Bar(hi=0.1)) == (Bar(hi=0.05), Bar(hi=0.2))
    assert moved(Bar(lo=2.0)) == (Bar(lo=1.0), Bar(lo=4.0))
    low, high = moved(Bar(0.8, 1.25, log=True))
    assert math.isclose(low.hi, 1.25 ** 0.5) and math.isclose(high.lo, 0.8 ** 2)
    assert moved(Bar(3.0, 5.0)) == (Bar(3.5, 4.5), Bar(2.0, 6.0))
