"""Write the committed list of every claim record's verdict (book/verdicts.json) after a deliberate change:

    .venv/bin/python scripts/list_verdicts.py           # prints what moved, then writes the list
    .venv/bin/python scripts/list_verdicts.py --check   # prints what moved; exit 1 if anything did

Review `git diff book/verdicts.json` before committing: every line that moves is a verdict the book now states
differently, and the page of each should say why.
"""

from __future__ import annotations

import argparse
import sys

import grok_lib  # noqa: F401  first: the pinned arithmetic
from grok_lib import verdict_list
from grok_lib.guard import book_writes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only print the differences; exit 1 if there are any")
    args = ap.parse_args()
    moved = verdict_list.differences(verdict_list.current(), verdict_list.committed())
    print("\n".join(moved) if moved else "every verdict is the listed one")
    if args.check:
        return 1 if moved else 0
    with book_writes():  # a deliberate change of the committed list
        verdict_list.write()
    print(f"wrote {verdict_list.paths.VERDICT_LIST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
