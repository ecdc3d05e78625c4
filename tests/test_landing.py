"""The landing page's generated part (book/_landing.md) is what the claim records and the figure
manifest give: regenerating it gives the committed bytes, and it lists every claim once."""

import re

from grok_lib.claims import claim_anchor, headlines, load_records, one_per_claim
from grok_lib.landing import LANDING, not_reproduced, part_doc, parts, render, results_table, thumbnails
from grok_lib.provenance import load_manifest


def test_the_committed_landing_page_is_regenerated_identically():
    assert LANDING.exists(), "book/_landing.md is missing: run scripts/make_landing.py"
    assert render() == LANDING.read_text(), (
        "book/_landing.md is stale: run `.venv/bin/python scripts/make_landing.py` (make notebooks does)")


def test_every_claim_is_in_the_results_table_with_its_headline_verdict_and_its_verdict_anchor():
    text = render()
    heads = headlines(load_records(setting=None))
    for r in one_per_claim(load_records(setting=None)):  # a claim measured only at the paper's settings too
        row = next((line for line in text.splitlines() if line.startswith("| ") and f"<code>{r['id']}</code>" in line), None)
        assert row is not None, f"{r['id']} is missing from the landing page"
        badge = row.split(" | ")[-1]
        assert f'href="../notebooks/{r["source"]}.html#{claim_anchor(r["id"])}"' in row
        assert badge.startswith(f'<span class="verdict verdict-{heads[r["id"]]["verdict"].replace(" ", "-")}"')


def test_the_landing_page_leads_with_findings_then_the_gallery_then_the_grouped_table():
    text = render()
    order = [text.index(h) for h in ("## What the book finds", "## The figures", "## Every claim and its verdict")]
    assert order == sorted(order)
    for letter, caption in parts().items():
        assert f"- **{{doc}}`{caption} <{part_doc(letter)}>`** — " in text and f"::::{{dropdown}} {caption} — " in text
    # the three headlines come straight after the heading: the first screen holds them (tests/test_browser_pages.py)
    assert text.split("## What the book finds\n\n", 1)[1].startswith("- **{doc}`Paper A")
    # a gallery card links to its figure's anchor, and its image is the small thumbnail
    assert ":link-type: url" in text and ".html#fig-paper-a-fig1-loss-curves" in text
    assert ":img-top: figure_files/thumbs/paper_a/fig1_loss_curves.png" in text


def test_the_committed_thumbnails_are_regenerated_identically_and_small():
    made = thumbnails(load_manifest())
    assert made, "no thumbnails"
    for path, data in made.items():
        assert path.exists() and path.read_bytes() == data, f"{path} is stale: run scripts/make_landing.py"
        assert len(data) <= 40_000, (path, len(data))


def test_the_claims_that_did_not_reproduce_are_listed_in_full_under_their_paper():
    from grok_lib.tables import typeset

    records = load_records()
    heads = headlines(load_records(setting=None))
    text = not_reproduced(records, heads, parts())
    failed = [r for r in records if r.get("kind", "claim") == "claim" and heads[r["id"]]["verdict"] == "not reproduced"]
    assert failed, "no claim failed: the test checks nothing"
    for r in failed:
        line = next(x for x in text.splitlines() if f"<code>{r['id']}</code>" in x)
        assert line.endswith(typeset(r["statement"])), line  # the whole statement, not its first clause
    assert "### The papers' claims that did not reproduce" in render()


def _record(cid, setting, verdict):
    return {"id": cid, "paper": "A", "source": "paper_a/x", "statement": "s", "setting": setting, "verdict": verdict}


def test_the_headline_verdict_combines_the_settings_by_the_rule_and_names_the_others():
    every = [_record("A.x", "default", "reproduced"), _record("A.x", "seeds", "inconclusive"),
             _record("A.x", "paper", "reproduced"), _record("A.y", "default", "not tested faithfully"),
             _record("A.y", "paper", "not reproduced"), _record("A.z", "default", "reproduced"),
             _record("A.w", "default", "reproduced"), _record("A.w", "paper", "not reproduced")]
    heads = headlines(every)
    assert {k: v["verdict"] for k, v in heads.items()} == {
        "A.x": "inconclusive", "A.y": "not reproduced", "A.z": "reproduced", "A.w": "inconclusive"}
    rows = results_table([r for r in every if r["setting"] == "default"], heads).splitlines()[2:]
    assert 'verdict-inconclusive">' in rows[0].split(" | ")[-1]
    assert "reproduced at: default profile, paper's settings" in rows[0] and "seeds" not in rows[0]
    # a setting outside the paper's regime does not weaken the verdict of one inside it; it is named
    assert 'verdict-not-reproduced">' in rows[1] and "not tested faithfully at: default profile" in rows[1]
    assert "<br>" not in rows[2]  # one verdict everywhere: no list


def test_a_paper_counts_only_its_own_claims():
    from grok_lib.landing import headline_findings

    every = [_record("A.x", "default", "reproduced") | {"kind": "claim"},
             _record("A.p", "default", "not reproduced") | {"kind": "premise"},
             _record("A.q", "default", "not reproduced") | {"kind": "prediction"}]
    text = headline_findings(every, headlines(every), {"A": "Paper A: x"})
    assert "1 claim of the paper: 1 ✓ reproduced" in text
    assert "1 premise it relies on: 1 ✗ does not hold in these runs" in text
    assert "1 prediction of the book: 1 ✗ not confirmed" in text
    assert "Not reproduced:" not in text  # a premise or a prediction is not the paper's failure


def test_the_bibliography_and_the_three_papers_are_on_the_intro():
    intro = (LANDING.parent / "intro.md").read_text()
    assert "```{include} _landing.md" in intro and "```{bibliography}" in intro
    for arxiv in ("2606.05863", "2311.18817", "2310.16441"):
        assert f"arxiv.org/abs/{arxiv}" in intro


REPR = re.compile(r"\b(None|nan|NaN|inf|True|False)\b")


def test_no_claim_record_shows_a_reader_a_python_repr():
    """A measured text is prose: a crossing that never happened reads "never", not None, and a ratio
    that cannot be formed is left out, not printed as nan."""
    found = [f"{r['id']} ({r.get('setting', 'default')}): ...{r['measured'][max(0, m.start() - 40):m.end() + 20]}..."
             for r in load_records(setting=None) for m in REPR.finditer(r["measured"])]
    assert not found, "\n".join(found)


def test_the_repr_check_finds_one():
    assert REPR.search("t_test None vs 841 (ratios 0.37, nan)") and not REPR.search("t_test never vs 841")


def test_one_record_per_claim_prefers_the_default_profile_and_keeps_a_claim_measured_elsewhere_only():
    records = [{"id": "X.a", "setting": "paper"}, {"id": "X.a", "setting": "default"}, {"id": "X.b", "setting": "paper"},
               {"id": "X.b", "setting": "seeds"}, {"id": "X.c", "setting": "default"}]
    assert one_per_claim(records) == [records[1], records[2], records[4]]
