"""The committed list of every claim record's verdict (``book/verdicts.json``), and the re-grade's list of what
changed (``book/regrade/<part>.json``).

A change of a claim's declaration, of the rule or of a run can move a verdict; the list makes every such move
visible: ``tests/test_verdict_list.py`` fails naming each record whose verdict differs from the list, and
``scripts/list_verdicts.py`` writes the list anew after a deliberate change (review ``git diff book/verdicts.json``).
The re-grade files say, for each claim of the grading before the one rule, what it was, what it became and why;
the claims report renders them with the new verdicts read from the records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from . import paths
from .atomic import atomic_write
from .claims import DEFAULT_SETTING, badge, headlines, load_records, table_cell


def key(record: dict) -> str:
    return f"{record['id']}|{record.get('setting', DEFAULT_SETTING)}"


def current(records: Sequence[dict] | None = None) -> dict[str, str]:
    """Every record's verdict, ``id|setting`` -> verdict, sorted."""
    records = load_records(setting=None) if records is None else records
    return {k: v for k, v in sorted((key(r), r["verdict"]) for r in records)}


def committed(path: Path = paths.VERDICT_LIST) -> dict[str, str]:
    return json.loads(path.read_text()) if path.exists() else {}


def differences(now: dict[str, str], listed: dict[str, str]) -> list[str]:
    """Each record whose verdict is not the listed one, in words (a record not listed, a listed one gone)."""
    out = [f"{k}: listed {listed[k]!r}, now {v!r}" for k, v in now.items() if k in listed and listed[k] != v]
    out += [f"{k}: new, {v!r} (not listed)" for k, v in now.items() if k not in listed]
    out += [f"{k}: listed {listed[k]!r}, no record now" for k in listed if k not in now]
    return out


def write(path: Path = paths.VERDICT_LIST) -> dict[str, str]:
    now = current()
    atomic_write(path, (json.dumps(now, indent=1, ensure_ascii=False) + "\n").encode())
    return now


def regrade_entries(folder: Path = paths.REGRADE) -> list[dict]:
    """The re-grade's entries of every part, in part order."""
    return [e for f in sorted(folder.glob("*.json")) for e in json.loads(f.read_text())]


def changes_table(records: Sequence[dict], entries: Sequence[dict]) -> str:
    """The re-grade as a table: each old claim, its old headline verdict, the claims it became with their headline
    verdicts now (read from ``records``, every setting), and why the grading changed."""
    heads = headlines(records)
    kinds = {r["id"]: r.get("kind", "claim") for r in records}
    lines = ["| was | now | because |", "|---|---|---|"]
    for e in entries:
        now = "<br>".join(f"<code>{i}</code> {badge(heads[i]['verdict'], kinds[i])}" if i in heads else f"<code>{i}</code> (no record)"
                          for i in e["now"])
        lines.append(f"| <code>{e['was']}</code> {badge(e['was_verdict']) if e['was_verdict'] != 'partly' else '◐ partly'} "
                     f"| {now} | {table_cell(e['because'])} |")
    return "\n".join(lines)
