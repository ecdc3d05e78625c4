"""Regenerate the figure-regression references after a deliberate change (`make baselines`).

1. the baseline images of every plot test (tests/test_figures.py), into the folder named
   after this matplotlib and FreeType version;
2. the numbers behind every figure (tests/figure_numbers/*.json), from the default-profile
   runs in the run store (trained if missing).

Review the result with `git diff --stat tests/` (and an image viewer) before committing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import test_figure_numbers  # noqa: E402
import test_figures  # noqa: E402


def main() -> int:
    out = test_figures.BASELINE_DIR
    out.mkdir(parents=True, exist_ok=True)
    code = pytest.main([str(ROOT / "tests" / "test_figures.py"), "-q", "-k", "not guard", f"--mpl-generate-path={out}"])
    if code != 0:
        return int(code)
    print(f"baseline images written to {out.relative_to(ROOT)}")
    for name, compute in test_figure_numbers.FIGURES.items():
        path = test_figure_numbers.REFERENCE / f"{name}.json"
        record = {"figure": name, "profile": "default", "values": compute()}
        path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"figure numbers written to {path.relative_to(ROOT)} ({len(record['values'])} values)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
