"""The landing page's generated part (book/_landing.md) is what the claim records and the figure
manifest give: regenerating it gives the committed bytes, and it lists every claim once."""

from grok_lib.claims import load_records
from grok_lib.landing import LANDING, render


def test_the_committed_landing_page_is_regenerated_identically():
    assert LANDING.exists(), "book/_landing.md is missing: run scripts/make_landing.py"
    assert render() == LANDING.read_text(), (
        "book/_landing.md is stale: run `.venv/bin/python scripts/make_landing.py` (make notebooks does)")


def test_every_claim_is_in_the_results_table_with_its_verdict_and_page():
    text = render()
    for r in load_records():
        row = next((line for line in text.splitlines() if f"[`{r['id']}`]" in line), None)
        assert row is not None, f"{r['id']} is missing from the landing page"
        assert f"(../notebooks/{r['source']}.ipynb)" in row and f"verdict-{r['verdict'].replace(' ', '-')}" in row


def test_the_bibliography_and_the_three_papers_are_on_the_intro():
    intro = (LANDING.parent / "intro.md").read_text()
    assert "```{include} _landing.md" in intro and "```{bibliography}" in intro
    for arxiv in ("2606.05863", "2311.18817", "2310.16441"):
        assert f"arxiv.org/abs/{arxiv}" in intro
