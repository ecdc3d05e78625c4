"""The sparse page's reading of the sweep at the paper's size (grok_lib/paper_b/paper_d.py), on synthetic histories
with known transitions: a member the recording has not taken through its transition reads "not yet" where it stops
short and is listed with the clock it stands at; its shifts are the differences of the crossings it has."""

import math

import numpy as np
import pytest

from grok_lib.history import History
from grok_lib.paper_b import paper_d

from . import synthetic


def member(alpha, start, end, d, cut_at_clock=None):
    """A history of the sweep at size ``d`` crossing 0.6 at clock ``start`` and 0.9 at ``end``, cut (as a recording
    before the sweep is done) after the clock ``cut_at_clock``."""
    h = synthetic.fractions(start, end, alpha=alpha, steps=4_000_000)
    keep = np.ones(len(h.steps), bool) if cut_at_clock is None else paper_d.measure.clock(h) <= cut_at_clock
    config = h.config | {"d": d, "n_train": 256 if d > 4000 else 128, "n_test": 2000}
    return History(steps=h.steps[keep], metrics={k: v[keep] for k, v in h.metrics.items()}, config=config, meta={})


@pytest.fixture
def sizes():
    big = [member(16.0, 0.10, 0.45, 100_000), member(128.0, 0.50, 0.70, 100_000, cut_at_clock=0.6)]
    small = [member(16.0, 0.08, 0.44, 4000), member(128.0, 0.48, 0.69, 4000)]
    return big, small


def test_the_table_reads_not_yet_where_the_recording_stops_short(sizes):
    big, small = sizes
    rows = paper_d.size_table(big, small)
    assert [r["alpha"] for r in rows] == [16.0, 128.0]
    assert rows[0]["start, d = 100,000"] == pytest.approx(0.10, abs=0.01)
    assert rows[0]["end, d = 4,000"] == pytest.approx(0.44, abs=0.01)
    assert rows[1]["start, d = 100,000"] == pytest.approx(0.50, abs=0.01)
    assert rows[1]["end, d = 100,000"] == paper_d.NOT_YET and rows[1]["clock reached"] <= 0.6


def test_a_member_moves_as_far_as_its_transition_is_recorded(sizes):
    big, small = sizes
    (alpha, start, end), (alpha2, start2, end2) = paper_d.shifts(big, small)
    assert alpha == 16.0 and start == pytest.approx(0.02, abs=0.01) and end == pytest.approx(0.01, abs=0.01)
    # alpha = 128: its start is recorded, its end not yet
    assert alpha2 == 128.0 and start2 == pytest.approx(0.02, abs=0.01) and math.isnan(end2)
    early = [member(128.0, 0.50, 0.70, 100_000, cut_at_clock=0.45)]
    assert paper_d.shifts(early, small) == []  # not even started


def test_the_words_say_how_far_the_sweep_has_gone(sizes):
    big, small = sizes
    manifest = {"sweep": {"through_step": 900_000, "last_step": 3_600_000, "done": False}, "machine": "a CPU",
                "runs": [{"seconds": 7200.0}, {"seconds": 7200.0}]}
    words = paper_d.size_words(big, small, manifest)
    assert words["size_percent"] == "25%" and words["size_state"] == "not done" and words["size_hours"] == "2.0 h"
    assert words["size_moves"].startswith("α = 16: start +0.0")
    assert words["size_moves"].endswith("α = 128: start +0.02, end not yet")
    assert words["size_pending"].startswith("α = 128 (recorded to 0.") and "α = 16 " not in words["size_pending"]
    assert (words["size_d"], words["size_book_d"], words["size_n"]) == ("100,000", "4,000", "256")
    assert float(words["size_grid"]) > 0
    nothing = paper_d.size_words([member(128.0, 0.50, 0.70, 100_000, cut_at_clock=0.45)], small, manifest)
    assert nothing["size_moves"] == "none yet, no member's transition has started by step 900,000"
    assert math.isnan(paper_d.fractions(big[1])[1])
