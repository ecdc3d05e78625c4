"""Write the landing page's generated part, book/_landing.md (results at a glance, figure gallery),
from the claim records and the figure manifest. Run by `make notebooks` after the claims report."""

import sys

from grok_lib.guard import book_writes
from grok_lib.landing import LANDING, write

if __name__ == "__main__":
    with book_writes():  # the build's own page: the one writer of book/_landing.md
        changed = write()
    print(f"{LANDING.relative_to(LANDING.parent.parent)} {'written' if changed else 'unchanged'}")
    sys.exit(0)
