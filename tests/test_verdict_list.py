"""No verdict moves silently: every claim record's verdict is the one in the committed list (book/verdicts.json,
written by scripts/list_verdicts.py after a deliberate change), and each re-graded claim of the old grading says
what it became and why (book/regrade/)."""

from grok_lib import chapters, claims, verdict_list


def test_every_record_has_its_listed_verdict():
    moved = verdict_list.differences(verdict_list.current(), verdict_list.committed())
    assert not moved, ("verdicts differ from book/verdicts.json (a deliberate change: run scripts/list_verdicts.py "
                       "and say why on the claim's page):\n  " + "\n  ".join(moved))


def test_the_list_names_every_difference():
    listed = {"A.x|default": "reproduced", "A.y|default": "inconclusive", "A.z|paper": "not reproduced"}
    now = {"A.x|default": "reproduced", "A.y|default": "not reproduced", "A.w|default": "reproduced"}
    assert verdict_list.differences(now, listed) == [
        "A.y|default: listed 'inconclusive', now 'not reproduced'", "A.w|default: new, 'reproduced' (not listed)",
        "A.z|paper: listed 'not reproduced', no record now"]


def test_the_regrade_accounts_for_every_old_claim_and_names_only_registered_ones():
    entries = verdict_list.regrade_entries()
    registered = chapters.registry()
    assert len({e["was"] for e in entries}) == len(entries) == 49, "one entry per claim of the old grading (49)"
    for e in entries:
        assert e["now"] and all(i in registered for i in e["now"]), e
        assert e["was_verdict"] in ("reproduced", "partly", "not reproduced") and e["because"], e
    # every registered claim is either new or the successor of an old one: none is orphaned from the list
    assert {i for e in entries for i in e["now"]} <= set(registered)


def test_no_record_keeps_a_verdict_of_the_old_grading():
    for r in claims.load_records(setting=None):
        assert r["verdict"] in claims.VERDICTS and "partly" not in r["measured"], r["id"]
        assert {"kind", "basis", "where", "quote", "quantity", "threshold", "grid", "grading"} <= r.keys(), r["id"]
        assert not r.get("too_tight"), f"{r['id']}: its bar asks for a spread tighter than its runs' own"
