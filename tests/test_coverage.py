"""The coverage table (grok_lib/coverage.py, grok_lib/<part>/statements.py): every statement of the seeds is tested by
registered claims or says why not, every claim of a paper tests one of its statements, and the report's table
reads the verdicts from the records."""

from grok_lib import chapters, claims, coverage, landing, paths
from grok_lib.seed_statements import statements

STATEMENTS = statements()


def test_every_part_lists_its_papers_statements_under_its_caption_in_the_book():
    assert list(STATEMENTS) == [paths.letter(p) for p in paths.parts()]
    assert list(STATEMENTS) == list(landing.parts()), "each part's caption in _toc.yml reads 'Paper X: ...'"


def test_every_statement_is_tested_or_says_why():
    for letter, rows in STATEMENTS.items():
        assert rows, letter
        for s in rows:
            assert s.text and s.where, s
            assert bool(s.claims) != bool(s.why), f"tested xor a reason: {s}"
            assert "|" not in s.text + s.where + s.why, f"a table cell cannot hold '|': {s}"


def test_every_id_is_registered_under_its_paper_and_every_claim_is_covered():
    registry = chapters.registry()
    for letter, rows in STATEMENTS.items():
        for s in rows:
            for cid in s.claims:
                assert cid in registry, cid
                assert registry[cid].paper == letter, cid
    covered = {cid for rows in STATEMENTS.values() for s in rows for cid in s.claims}
    papers_claims = {cid for cid, c in registry.items() if c.kind == "claim"}
    assert papers_claims <= covered, sorted(papers_claims - covered)


def test_the_table_shows_each_claims_headline_and_the_counts():
    registry = chapters.registry()
    some = next(s for s in STATEMENTS["A"] if s.claims)
    cid = some.claims[0]
    records = [{"id": cid, "source": "paper_a/x"}]
    heads = {cid: {"verdict": "not reproduced", "kind": registry[cid].kind}}
    text = coverage.sections(records, heads, {"A": "Paper A: Two clocks"})
    n, tested, open_work = coverage.counts(STATEMENTS["A"])
    assert text.startswith("````{container} claims-coverage claims-coverage-a\n### Paper A: Two clocks\n")
    assert f"{n} statements: {tested} tested, {n - tested} not ({open_work} of them open work)." in text
    assert f'<a href="paper_a/x.html#{claims.claim_anchor(cid)}"><code>{cid}</code></a>' in text
    assert "verdict-not-reproduced" in text
    untested = next(s for s in STATEMENTS["A"] if not s.claims and "PAPERS.md" not in s.where + s.why)
    assert f"| {untested.text} | {untested.where} | not tested: {untested.why} |" in text
    assert "PAPERS.md" not in text.replace("<code>PAPERS.md</code>", "")
    assert not any(s.why.lower().startswith("not tested") for rows in STATEMENTS.values() for s in rows), \
        "the status cell says 'not tested:' itself"
