"""The findings box at the top of a chapter page (grok_lib.findings): the excerpt of a measured text keeps a clause
whole, and the text shown beside a headline verdict is the one of a setting that gave it."""

from grok_lib.claims import headlines
from grok_lib.findings import box, deciding_record, excerpt


def test_the_excerpt_ends_at_the_first_clause_outside_parentheses():
    text = "seed 0, kernel window's end (λt / ln α; from 0.02) 0.2: α=16: 0.573; seed 1: 0.6"
    assert excerpt(text) == "seed 0, kernel window's end (λt / ln α; from 0.02) 0.2: α=16: 0.573"
    assert excerpt("λ=0.6: 1.5; the rest") == "λ=0.6: 1.5"
    assert excerpt("Not in the regime. seed 0: 3") == "Not in the regime"
    # a stray ")" closes nothing: the "; " inside the later parentheses is still inside them
    assert excerpt("c in [0, 1) (λt; from 0.02): 0.5; rest") == "c in [0, 1) (λt; from 0.02): 0.5"
    # an unclosed "(" leaves no end outside parentheses: the first end at any depth
    assert excerpt("c in (0, 1]: 0.5; rest") == "c in (0, 1]: 0.5"


def record(setting, verdict, measured):
    return {"id": "X.a.b", "paper": "X", "kind": "claim", "statement": "s", "source": "paper_x/page",
            "setting": setting, "verdict": verdict, "measured": measured}


def test_the_box_shows_the_numbers_of_the_setting_that_gave_the_headline():
    default = record("default", "not tested faithfully", "Not in the paper's regime: too short")
    paper = record("paper", "not reproduced", "seed 0: 19.3")
    every = [default, paper]
    head = headlines(every)["X.a.b"]
    assert head["verdict"] == "not reproduced"
    assert deciding_record(every, default, head) is paper
    text = box("paper_x/page", every, {})
    assert "*Measured (paper's settings):* seed 0: 19.3" in text and "too short" not in text
    # where the default profile gave the headline, its own text, unlabelled
    agree = [record("default", "reproduced", "seed 0: 1"), record("paper", "reproduced", "seed 0: 2")]
    assert "*Measured:* seed 0: 1" in box("paper_x/page", agree, {})
    # settings that disagree make the headline inconclusive, which no one setting gave: the default's text
    split = [record("default", "reproduced", "seed 0: 1"), record("paper", "not reproduced", "seed 0: 2")]
    assert "*Measured:* seed 0: 1" in box("paper_x/page", split, {})
    # a setting that was itself inconclusive gave an inconclusive headline: its text, labelled
    torn = [record("default", "not reproduced", "seed 0: 1"), record("paper", "inconclusive", "seed 0: 2")]
    assert "*Measured (paper's settings):* seed 0: 2" in box("paper_x/page", torn, {})
