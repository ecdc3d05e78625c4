"""The book's verdicts in other arithmetic: each claim's verdict held against the same claim measured in the
arithmetic variants of the envelope (``book/envelope.json``, ``scripts/measure_envelope.py``).

A verdict holds only where every measured arithmetic gives it (:func:`across_arithmetic`); a verdict measured
under another grading (:func:`grading`: the claim's measure and tolerance) says nothing of the current one, so
only verdicts of the current grading are compared, and on a machine of another vendor only the claims its
variants measured under that grading (:func:`measured_here`). The claims report says which are not yet
compared where (:func:`arithmetic_coverage`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from . import claims, paths
from .claims import Claim, Result
from .grading import combine


def grading(claim: Claim | dict) -> str:
    """A fingerprint of how ``claim`` (a :class:`Claim` or a record) is graded (:meth:`Claim.grading`: its
    quantity, bar and grid, and the rule's version). A verdict measured in other arithmetic under another grading
    says nothing of this one: :func:`across_arithmetic` compares only verdicts measured under the claim's current
    grading (``book/envelope.json`` keeps, per variant, the grading each verdict was measured under;
    ``scripts/measure_envelope.py --regrade`` measures the variants again after a re-grade). A record of the old
    shape (no ``grading``) has none that any variant measured."""
    if isinstance(claim, dict):
        return claim.get("grading", "")
    return claim.grading()


def current_verdicts(variants: dict[str, dict], key: str, fingerprint: str) -> dict[str, str]:
    """Of ``variants`` (name -> {"verdicts", "grading"}), the verdicts of claim ``key`` (``id|setting``) that
    were measured under the grading ``fingerprint`` (:func:`grading`), by variant name."""
    return {name: v["verdicts"][key] for name, v in variants.items()
            if key in v["verdicts"] and v.get("grading", {}).get(key) == fingerprint}


def measured_variants(measured: dict) -> dict[str, dict]:
    """Every variant of the envelope, the book machine's and those measured on another (``--here``), name ->
    {"arithmetic", "verdicts", "grading"}."""
    return {name: {"arithmetic": v["arithmetic"], "verdicts": measured["verdicts"].get(name, {}),
                   "grading": measured.get("grading", {}).get(name, {})}
            for name, v in measured.get("variants", {}).items()}


def across_arithmetic(results: Sequence[Result], setting: str = "default", envelope: Path | None = None) -> list[Result]:
    """``results`` of the book's own settings held against the same claims in every arithmetic variant of the
    envelope (:data:`grok_lib.paths.ENVELOPE`) by the one rule (:func:`grok_lib.grading.combine`): a verdict
    holds only where every arithmetic measured under the claim's current grading gives it too (a run that groks
    turns last-bit differences into other epochs); where one does not, the verdict is inconclusive, the measured
    text says which arithmetic gave what, and this arithmetic's own verdict is kept as ``verdict_here``. A
    variant whose verdict was measured under an older grading does not count; the measured text says how many
    are not yet measured under this one."""
    try:
        measured = json.loads((envelope or paths.ENVELOPE).read_text())
    except FileNotFoundError:
        return list(results)
    variants = measured_variants(measured)
    kernels = {name: "{cpu}: MKL {mkl_cbwr}, ATen {aten}, OpenBLAS {openblas_core}".format(**v["arithmetic"])
               for name, v in variants.items()}
    out = []
    for r in results:
        key = f"{r.claim.id}|{setting}"
        seen = current_verdicts(variants, key, grading(r.claim))
        measured_text = r.measured
        if len(seen) < len(variants):
            measured_text += (f" ({len(variants) - len(seen)} of the envelope's {len(variants)} other arithmetic "
                              f"variants have not measured this grading yet)")
        combined = combine([r.verdict, *seen.values()])
        if combined == r.verdict:
            out.append(replace(r, measured=measured_text))
            continue
        said = "; ".join(f"{v} in {kernels.get(name, name)}" for name, v in seen.items() if v != r.verdict)
        out.append(replace(r, measured=f"{measured_text}. In other arithmetic the verdict is {said} "
                                        f"(book/envelope.json): it does not survive the last bits of the arithmetic",
                           verdict=combined, verdict_here=r.verdict))
    return out


def variants_by_vendor(measured: dict) -> dict[str, list[str]]:
    """The envelope's (``book/envelope.json``'s) arithmetic variants by the CPU vendor they were measured on
    (a variant without a ``machine`` was measured on the book's)."""
    vendors: dict[str, list[str]] = {}
    for name, v in measured["variants"].items():
        vendors.setdefault(v.get("machine", measured["book"]["vendor"]), []).append(name)
    return vendors


def measured_here(ids: Sequence[str], setting: str = "default", envelope: Path | None = None) -> set[str]:
    """Of the claim ``ids`` (at ``setting``), those whose verdict under the grading the committed records hold
    has been measured in the arithmetic of this machine's CPU vendor: all of them in the book's own arithmetic
    (the exact tier); elsewhere, those that one of the envelope's variants of this vendor measured under that
    grading. A claim re-graded since ``measure_envelope.py --here`` last ran on this vendor is not yet compared
    here: its verdict in this arithmetic is unknown until it runs there again."""
    from . import arithmetic

    if arithmetic.tier() == "exact":
        return set(ids)
    measured = json.loads((envelope or paths.ENVELOPE).read_text())
    vendor = arithmetic.cpu_vendor()
    ours = variants_by_vendor(measured).get(vendor, [])
    records = {r["id"]: r for r in claims.load_records(setting=setting)}
    graded = measured.get("grading", {})
    return {i for i in ids if i in records
            and any(graded.get(n, {}).get(f"{i}|{setting}") == grading(records[i]) for n in ours)}


def arithmetic_coverage(records: Sequence[dict], envelope: Path | None = None) -> str:
    """Markdown: in which arithmetic the recorded verdicts were also measured (``book/envelope.json``), and, per
    machine, the claims re-graded since their verdicts there were measured (compared there again only after the
    envelope script measures them: ``--regrade`` on the book's machine, ``--here`` on another)."""
    try:
        measured = json.loads((envelope or paths.ENVELOPE).read_text())
    except FileNotFoundError:
        return "No other arithmetic is measured (`book/envelope.json` is missing)."
    lines = []
    graded = measured.get("grading", {})
    book = measured["book"]["vendor"]
    groups: dict[tuple[str, str], list[str]] = {}
    for name, v in measured["variants"].items():
        machine = v.get("machine")
        where = ("the book's machine" if machine is None else
                 f"another {book} CPU, with kernels the book's machine lacks" if machine == book else "a second machine")
        groups.setdefault((machine or book, where), []).append(name)
    for (vendor, where), names in groups.items():
        stale = {n: {r["id"] for r in records if graded.get(n, {}).get(f"{r['id']}|{r['setting']}") != grading(r)}
                 for n in names}
        current, behind = [n for n in names if not stale[n]], [n for n in names if stale[n]]
        line = f"- **{vendor}** ({where}): {len(names)} arithmetic variants; "
        if not behind:
            line += "every verdict measured under its current grading."
        else:
            if current:
                line += f"{', '.join(f'`{n}`' for n in current)} measured every verdict under its current grading; "
            ids = sorted(set().union(*(stale[n] for n in behind)))
            line += (f"re-graded or newly recorded (a new setting) since {', '.join(f'`{n}`' for n in behind)} "
                     f"measured them, so not yet compared there: {', '.join(f'`{i}`' for i in ids)}.")
        lines.append(line)
    return "\n".join(lines)
