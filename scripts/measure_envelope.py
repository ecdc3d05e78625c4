"""Measure the envelope: how far the book's numbers move across the arithmetic variants of one machine.

The book is recorded in the pinned arithmetic (grok_lib/arithmetic.py). A machine that cannot
compute in it (another CPU family, ARM, a GPU, another BLAS) gets other last bits, and a grokking
run turns them into other epochs. Such a machine's numbers are compared with the book's within an
envelope that is measured, not guessed: this script trains every run of the book, computes every
figure's numbers, the first steps of every recorded set and every notebook's verdicts under each
variant below (in fresh processes, ``GROK_ARITHMETIC=native`` plus the variant's variables; the
run keys name the arithmetic, so the variants share the run store without mixing), and writes
``book/envelope.json``:

- ``figures``: per figure and number, ``[lo, hi]`` over the book and the variants;
- ``prefix``: per recorded set, the largest relative difference (as ``tests/test_recorded.py``
  measures it) between the recording and its first steps retrained in the book's arithmetic or in
  any variant, rounded up to two digits: the tolerance in other arithmetic;
- ``verdicts``: every claim's verdict in each variant (the book's verdicts must not differ).

    .venv/bin/python scripts/measure_envelope.py              # every variant (about 10 min each)
    .venv/bin/python scripts/measure_envelope.py --variants native
    .venv/bin/python scripts/measure_envelope.py --here       # on a machine outside the book's arithmetic
    .venv/bin/python scripts/measure_envelope.py --regrade    # after a claim's measure or tolerance changed
    .venv/bin/python scripts/measure_envelope.py --regrade --sets-only   # a new recorded set's tolerance only

After the book is re-recorded in a new pin set of its own vendor (``grok_lib/arithmetic.py``'s ``PIN_SETS``),
two steps carry the envelope over instead of measuring every variant again:

    .venv/bin/python scripts/measure_envelope.py --retire-book   # before: the old book becomes a variant
    make baselines && make book                                   # the re-recording
    .venv/bin/python scripts/measure_envelope.py --add-book      # after: widen by the new book

``--here`` runs on another machine (another CPU vendor: the pinned arithmetic is one per vendor) and
widens the committed envelope by that machine's two arithmetics, its pinned one and its native one:
the ranges grow to cover them, the prefix tolerances to the largest difference seen, and their
verdicts are added beside the others. The book's own numbers are not recomputed there (they are
the committed ones).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grok_lib  # noqa: F401  first: the pinned arithmetic (for the book's own numbers)
from grok_lib import paths

ROOT = Path(__file__).resolve().parent.parent
OUT = paths.ENVELOPE

#: The arithmetic variants this machine offers besides the pinned one: the libraries' own choices,
#: and another branch of MKL, ATen and OpenBLAS. Measured on an AVX-512 AMD EPYC (Zen 4): OpenBLAS's
#: SkylakeX kernels need AVX-512, and on an AVX2-only CPU "native" is the pinned kernels under another id.
VARIANTS = {
    "native": {},  # MKL AUTO, ATen's best capability (AVX512 here), OpenBLAS's detected core (SkylakeX here)
    "aten_avx2_mkl_auto_openblas_skylakex": {"ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "SkylakeX"},
    # slower (no vectorised ATen kernels); OpenBLAS's "Zen" is an alias of Haswell, so Sandybridge (AVX)
    "aten_default_mkl_compatible_openblas_sandybridge": {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE",
                                                         "OPENBLAS_CORETYPE": "Sandybridge"},
}
#: Each variant's measurements, kept so that a failure later (or a rerun) does not lose them.
SAMPLES = ROOT / ".cache" / "envelope"
#: Steps of each recorded set's prefix (as tests/test_recorded.py retrains).
PREFIX_STEPS = 200
#: The least relative tolerance of a recorded set whose first steps were measured on the book's vendor only
#: (--regrade, before --here ran on another): the variants of one machine may agree to the last bit where
#: another vendor's rounding differs; 1e-12 is far below what any change of a setting moves (a 1% larger
#: learning rate moves the first steps by 1e-4 and more).
ONE_VENDOR_FLOOR = 1e-12


def write_envelope(envelope: dict) -> None:
    OUT.write_text(json.dumps(envelope, indent=1, sort_keys=True) + "\n")


def differing_verdicts(envelope: dict, samples: dict) -> dict:
    """Per sample: the claims whose verdict differs from the book's."""
    book = envelope["verdicts"]["book"]
    return {n: sorted(k for k, v in s["verdicts"].items() if book.get(k) != v) for n, s in samples.items()}


def variant_env(variables: dict) -> dict:
    """This process's environment with the arithmetic's variables replaced by ``variables`` (native,
    unless they choose the mode themselves)."""
    from grok_lib import arithmetic

    env = {k: v for k, v in os.environ.items() if k not in arithmetic.VARIABLES}
    return env | {"GROK_ARITHMETIC": "native"} | variables


def of_the_book_vendor(envelope: dict, variant: dict) -> bool:
    """Whether ``variant`` was measured on a CPU of the book's vendor (the book's machine, or another CPU of its vendor
    whose kernels it lacks): what --regrade may measure."""
    return variant.get("machine", envelope["book"]["vendor"]) == envelope["book"]["vendor"]


#: How a variant that --regrade found this CPU cannot compute in is noted (a CPU that can takes it back).
ANOTHER_CPU = "measured on another"


def kernels_here(variables: dict) -> tuple:
    """The kernels (:func:`kernels`) this CPU computes with under a variant's ``variables``, asked of a fresh
    process (seconds): a variant measured on another CPU of the vendor (AVX-512 ATen on a Zen 4, say) cannot
    be measured again on one without them."""
    code = "import json, grok_lib; from grok_lib import arithmetic; print(json.dumps(arithmetic.describe()))"
    out = subprocess.run([sys.executable, "-c", code], env=variant_env(variables), check=True,
                         capture_output=True, text=True).stdout
    return kernels(json.loads(out.strip().splitlines()[-1]))


def here_variants() -> dict:
    """This machine's two arithmetics, named by its CPU vendor: pinned, and the libraries' own choices."""
    from grok_lib import arithmetic

    vendor = arithmetic.cpu_vendor()
    return {f"{vendor}_pinned": {"GROK_ARITHMETIC": "pinned", **arithmetic.PINS}, f"{vendor}_native": {}}


def measure(variants: dict) -> dict:
    """Each variant's sample (``SAMPLES/<name>.json``, measured in a fresh process unless already there)."""
    from grok_lib import arithmetic

    samples = {}
    SAMPLES.mkdir(parents=True, exist_ok=True)
    for name, variables in variants.items():
        t0 = time.perf_counter()
        # kept: a rerun measures only the variants not yet measured (named by their variables too, so a
        # variant whose variables changed, e.g. a new pin set, is measured again)
        tag = hashlib.sha256(json.dumps(variables, sort_keys=True).encode()).hexdigest()[:8]
        out = SAMPLES / f"{name}-{tag}.json"
        if not out.exists():
            subprocess.run([sys.executable, __file__, "--worker", str(out)], env=variant_env(variables), check=True)
        samples[name] = json.loads(out.read_text())
        print(f"variant {name}: {arithmetic.summary(samples[name]['arithmetic'])} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return samples


def figure_values() -> dict:
    from grok_lib.chapters import figure_numbers

    return {name: compute() for name, compute in figure_numbers().items()}


def prefixes(names: list[str] | None = None) -> dict:
    """Each recorded set's (or only those ``names``') first steps retrained in this process's arithmetic."""
    import torch

    from grok_lib import recorded

    torch.set_num_threads(1)  # as the recordings were made
    out = {}
    for name, (_, configs, _) in recorded.definitions().items():
        if names is not None and name not in names:
            continue
        rows = recorded.retrain_set_prefix(name, configs(), PREFIX_STEPS)
        out[name] = {str(s): r for s, r in rows.items()}
    return out


def notebook_verdicts(folder: Path, notebooks: list[Path] | None = None) -> dict:
    """``notebooks`` (every figure notebook by default) executed in this arithmetic (two at a time) into
    ``folder``; the verdicts of the claim records they wrote there (a run outside the book's arithmetic never
    writes book/claims)."""
    notebooks = notebooks or sorted((ROOT / "notebooks").glob("paper_*/*.ipynb"))
    done, t0 = [], time.perf_counter()

    def execute(nb: Path) -> None:
        out = folder / nb.parent.name / nb.name
        out.parent.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "rerun.py"), str(nb), str(out)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{nb.relative_to(ROOT)} failed in this arithmetic:\n{(proc.stdout + proc.stderr)[-2000:]}")
        done.append(nb)  # a notebook trains its runs on a miss: minutes each, so say where the variant is
        print(f"  [{len(done)}/{len(notebooks)}] {nb.relative_to(ROOT)} in {time.perf_counter() - t:.0f} s "
              f"({time.perf_counter() - t0:.0f} s in)", flush=True)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(execute, notebooks))
    from grok_lib import claims

    return {f"{r['id']}|{r['setting']}": r.get("verdict_here") or r["verdict"]  # this arithmetic's own verdict
            for d in sorted(folder.rglob("claims")) if d.is_dir() for r in claims.load_records(d, setting=None)}


def worker(out: Path, notebooks: list[str] | None = None, sets: list[str] | None = None) -> None:
    """In one variant's process: train the book's runs, then measure everything; with ``notebooks`` or ``sets``
    (a re-grade: sources such as ``paper_c/weight_decay``, recorded sets new since the envelope was measured),
    only those notebooks' verdicts (each trains the runs it needs on a miss) and those sets' first steps."""
    from grok_lib import arithmetic

    if notebooks is not None or sets is not None:
        verdicts = {}
        if notebooks:
            with tempfile.TemporaryDirectory() as tmp:
                verdicts = notebook_verdicts(Path(tmp), [ROOT / "notebooks" / f"{n}.ipynb" for n in notebooks])
        out.write_text(json.dumps({"arithmetic": arithmetic.describe(), "verdicts": verdicts,
                                   "prefix": prefixes(sets) if sets else {}}, sort_keys=True))
        return
    subprocess.run([sys.executable, str(ROOT / "scripts" / "train_book_runs.py")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        verdicts = notebook_verdicts(Path(tmp))
    missing = sorted(set(book_verdicts()) - set(verdicts))
    if missing:
        raise RuntimeError(f"the notebooks recorded no verdict for {', '.join(missing[:5])}")
    result = {"arithmetic": arithmetic.describe(), "figures": figure_values(), "prefix": prefixes(),
              "verdicts": verdicts}
    out.write_text(json.dumps(result, sort_keys=True))


def book_verdicts() -> dict:
    from grok_lib import claims

    return {f"{r['id']}|{r['setting']}": r.get("verdict_here") or r["verdict"] for r in claims.load_records(setting=None)}


def book_gradings() -> dict:
    """Each claim's grading as the committed records hold it (``id|setting`` -> :func:`grok_lib.envelope_verdicts.grading`):
    what the verdicts measured now are measured under."""
    from grok_lib import claims, envelope_verdicts

    return {f"{r['id']}|{r['setting']}": envelope_verdicts.grading(r) for r in claims.load_records(setting=None)}


def kernels(facts: dict) -> tuple:
    """What names an arithmetic variant's kernels: the CPU vendor and the MKL, ATen and OpenBLAS branches (a
    re-measured variant must compute with its recorded ones; its id also names library versions and, for a
    retired book, a pin set the id scheme of today spells differently)."""
    return facts["vendor"], facts["mkl_cbwr"], facts["aten"], facts["openblas_core"]


def stale_sources(envelope: dict, name: str, records: list[dict] | None = None) -> list[str]:
    """The notebooks (sources such as ``paper_c/weight_decay``) holding a claim whose verdict in variant ``name``
    was measured under another grading than the records' (or not at all); ``records``: the committed claim
    records, read here if not given."""
    from grok_lib import claims, envelope_verdicts

    graded = envelope.get("grading", {}).get(name, {})
    return sorted({r["source"] for r in (claims.load_records(setting=None) if records is None else records)
                   if graded.get(f"{r['id']}|{r['setting']}") != envelope_verdicts.grading(r)})


def regrade(only: list[str] | None = None, variants: list[str] | None = None, notebooks: bool = True) -> int:
    """``--regrade``: after claims were re-graded (their measure or tolerance changed, no run's numbers did) or
    added, the verdicts of this machine's variants measured again under the new grading: for each variant, the
    notebooks holding a claim whose verdict it measured under another grading (or never) are executed in its
    arithmetic, and all their claims' verdicts and gradings replace the old ones; the book's verdicts are read
    from the records. A recorded set new since the envelope was measured gets its first steps retrained in each
    variant, and its tolerance in other arithmetic is their largest spread.
    Variants measured on another machine keep theirs, with the grading they were measured under: until --here
    runs there again, tests there compare only the claims whose grading they measured
    (:func:`grok_lib.envelope_verdicts.measured_here`). Then `make notebooks` (a variant that disagrees makes a verdict
    inconclusive). ``variants``: only these of the book machine's variants are measured (the others keep theirs,
    as variants measured elsewhere do). ``notebooks`` False (``--sets-only``): no notebook is executed, only the new
    recorded sets' first steps are measured (a variant's stale verdicts stay stale, as the claims report says)."""
    from grok_lib import arithmetic

    if arithmetic.tier() != "exact":
        sys.exit("measure_envelope.py: --regrade runs in the arithmetic the book is recorded in "
                 f"(book/arithmetic.json): this process computes in {arithmetic.summary()}")
    from grok_lib import recorded

    from grok_lib import claims

    envelope = json.loads(OUT.read_text())
    gradings = book_gradings()
    records = claims.load_records(setting=None)  # once: every variant's stale notebooks are read off them
    new_sets = sorted(n for n in set(recorded.definitions()) - set(envelope["prefix"])  # recorded since the envelope
                      if (recorded.set_dir(n) / "manifest.json").exists())
    samples = []
    SAMPLES.mkdir(parents=True, exist_ok=True)
    for name, variant in envelope["variants"].items():
        if not of_the_book_vendor(envelope, variant):
            continue  # another vendor's: --here measures it there
        if variants and name not in variants:
            print(f"variant {name}: not measured this time (--regrade-variants)", flush=True)
            continue
        sources = [s for s in stale_sources(envelope, name, records) if not only or s in only] if notebooks else []
        sets = new_sets
        if not sources and not sets:
            print(f"variant {name}: every verdict measured under the current grading", flush=True)
            continue
        computes = kernels_here(variant["env"])
        if computes != kernels(variant["arithmetic"]):
            # measured on another CPU of the vendor (AVX-512 ATen on a Zen 4, say): a variant measured elsewhere,
            # whose verdicts stay those of the grading it measured until --regrade runs on a CPU with its kernels
            variant["machine"] = variant["arithmetic"]["vendor"]
            variant["note"] = f"{ANOTHER_CPU} {variant['machine']} CPU: this one computes its variables with {computes}"
            print(f"variant {name}: this CPU computes its variables with {computes}, not with its recorded "
                  f"{kernels(variant['arithmetic'])}: kept as a variant measured elsewhere", flush=True)
            continue
        if variant.get("note", "").startswith(ANOTHER_CPU):  # this CPU has its kernels: the book machine's again
            del variant["machine"], variant["note"]
        t0 = time.perf_counter()
        tag = hashlib.sha256(json.dumps([variant["env"], sources, sets, gradings], sort_keys=True).encode()).hexdigest()[:8]
        out = SAMPLES / f"regrade-{name}-{tag}.json"  # kept: a rerun after a failure skips what is measured
        if not out.exists():
            subprocess.run([sys.executable, __file__, "--worker", str(out), "--notebooks", *sources,
                            "--sets", *sets], env=variant_env(variant["env"]), check=True)
        sample = json.loads(out.read_text())
        if kernels(sample["arithmetic"]) != kernels(variant["arithmetic"]):
            sys.exit(f"measure_envelope.py: variant {name} computed with {kernels(sample['arithmetic'])}, not with "
                     f"its recorded {kernels(variant['arithmetic'])} (another machine?)")
        if sample.get("prefix"):
            samples.append(sample["prefix"])
        keys = [k for k in gradings if k in sample["verdicts"]]
        envelope["verdicts"][name].update({k: sample["verdicts"][k] for k in keys})
        envelope["grading"].setdefault(name, {}).update({k: gradings[k] for k in keys})
        print(f"variant {name}: {len(keys)} verdicts of {', '.join(sources)} measured again "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    if new_sets:  # their tolerance in other arithmetic: the largest spread of their first steps measured here
        for set_name, tol in prefix_tolerance([prefixes(new_sets)] + samples, new_sets).items():
            tol["rtol"] = {m: max(r, ONE_VENDOR_FLOOR) for m, r in tol["rtol"].items()}
            envelope["prefix"][set_name] = tol | {"measured_on": envelope["book"]["vendor"]}
        print(f"first steps of the new recorded sets {', '.join(new_sets)} measured in {len(samples)} variants")
    envelope["verdicts"]["book"] = book_verdicts()
    for name in envelope["grading"]:  # a claim no record holds any more (split or renamed) is dropped everywhere
        envelope["verdicts"][name] = {k: v for k, v in envelope["verdicts"][name].items() if k in gradings}
        envelope["grading"][name] = {k: v for k, v in envelope["grading"][name].items() if k in gradings}
    write_envelope(envelope)
    mine = {n: {"verdicts": {k: x for k, x in v.items() if envelope["grading"][n].get(k) == gradings.get(k)}}
            for n, v in envelope["verdicts"].items() if n != "book" and "machine" not in envelope["variants"][n]}
    elsewhere = sorted(n for n, v in envelope["variants"].items() if "machine" in v)
    print(f"wrote {OUT.relative_to(ROOT)}; verdicts (of the current grading) that differ from the book's: "
          f"{differing_verdicts(envelope, mine)}")
    if elsewhere:
        print(f"the variants measured on other machines ({', '.join(elsewhere)}) keep the verdicts of the grading "
              f"they were measured under: run --here on another vendor's machine, --regrade on a CPU of this vendor "
              f"with the kernels a variant needs")
    return 0


def round_up(x: float) -> float:
    """``x`` rounded up to two significant digits."""
    if not 0 < x < math.inf:
        return x
    unit = 10.0 ** (math.floor(math.log10(x)) - 1)
    return float(f"{math.ceil(x / unit) * unit:.2g}")


def prefix_tolerance(samples: list[dict], names: list[str] | None = None) -> dict:
    """Per recorded set and metric: the largest relative difference between the recording and its retrained
    first steps in any of the ``samples`` (as tests/test_recorded.py measures it), rounded up to two
    significant digits. Per metric, since they differ by orders of magnitude (a bias's gradient norm, a
    small difference of large terms, moves by percents where the losses move by 1e-4). Every set, or only
    those ``names``."""
    histories = recorded_histories(names=names)
    moves = [prefix_moves(histories, sample) for sample in samples]
    out = {}
    for name in histories:
        worst: dict[str, float] = {}
        for move in moves:
            for metric, w in move[name].items():
                worst[metric] = max(worst.get(metric, 0.0), w)
        out[name] = {"rtol": {m: round_up(w) for m, w in sorted(worst.items())}, "steps": PREFIX_STEPS}
    return out


def recorded_histories(root: Path | None = None, names: list[str] | None = None) -> dict:
    """Each recorded set's (or only those ``names``') last history, as recorded (under ``root``, the
    repository's by default)."""
    from grok_lib import recorded

    return {name: recorded.load(name, configs(), root or recorded.RECORDED).histories[-1]
            for name, (_, configs, _) in recorded.definitions().items() if names is None or name in names}


def prefix_moves(histories: dict, sample: dict) -> dict:
    """Per recorded set and metric: the largest relative difference between the recording (``histories``) and
    ``sample``'s first steps, as tests/test_recorded.py measures it."""
    from grok_lib import recorded

    return {name: {m: w for m, (w, _) in recorded.prefix_errors(
                history, {int(step): row for step, row in sample[name].items()}, 1e-6).items()}
            for name, history in histories.items()}


def lr_check(figures_envelope: dict) -> dict:
    """Does the envelope still catch a real change? Figure 1's numbers with the lambda = 1 run trained at a 1% larger
    learning rate (in the book's arithmetic), against the envelope: how many values fall outside."""
    from dataclasses import replace

    from grok_lib import figure_numbers
    from grok_lib.paper_a import config
    from grok_lib.paper_a.chapters import fig1_loss_curves as fig1_chapter
    from grok_lib.runs import run_all

    configs = config.sweep("default")
    changed = [replace(c, lr=c.lr * 1.01) if c.weight_decay == 1.0 else c for c in configs]
    problems = figure_numbers.compare_envelope(figures_envelope["paper_a/fig1_loss_curves"],
                                               fig1_chapter.fig1_numbers(run_all(changed, workers=2)))
    return {"figure": "paper_a/fig1_loss_curves", "change": "lr x 1.01 for the lambda = 1 run",
            "outside": len(problems), "examples": problems[:5]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS), help=f"some of {', '.join(VARIANTS)}")
    ap.add_argument("--here", action="store_true",
                    help="widen the committed envelope by this machine's pinned and native arithmetic")
    ap.add_argument("--retire-book", action="store_true",
                    help="before re-recording the book in a new pin set: keep the committed book's arithmetic and "
                         "verdicts as a variant of this machine")
    ap.add_argument("--other-vendor", action="store_true",
                    help="with --retire-book: the book moves to this machine, of another CPU vendor than the old book's")
    ap.add_argument("--add-book", action="store_true",
                    help="after re-recording the book: widen the committed envelope by the new book's numbers")
    ap.add_argument("--regrade", nargs="*", metavar="SOURCE",
                    help="after a claim's grading changed: measure this machine's variants' verdicts of the "
                         "re-graded claims again (only those of the notebooks SOURCE, e.g. paper_b/modular_addition, "
                         "where given)")
    ap.add_argument("--regrade-variants", nargs="+", metavar="VARIANT",
                    help="with --regrade: measure only these variants of the book's machine (the others keep what "
                         "they measured, and the claims report lists what they have not measured yet)")
    ap.add_argument("--sets-only", action="store_true",
                    help="with --regrade: execute no notebook, only measure the first steps of the recorded sets new "
                         "since the envelope was measured")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--notebooks", nargs="*", help=argparse.SUPPRESS)
    ap.add_argument("--sets", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(Path(args.worker), args.notebooks, args.sets)
        return 0
    if args.sets_only and args.regrade is None:
        ap.error("--sets-only goes with --regrade")
    if args.regrade is not None:
        from grok_lib import claims

        sources = {r["source"] for r in claims.load_records(setting=None)}
        unknown = [s for s in args.regrade if s not in sources]
        if unknown:
            ap.error(f"--regrade takes notebooks that record claims ({', '.join(sorted(sources))}); got {', '.join(unknown)}")
        envelope = json.loads(OUT.read_text())
        mine = sorted(n for n, v in envelope["variants"].items() if of_the_book_vendor(envelope, v))
        unknown = [v for v in args.regrade_variants or [] if v not in mine]
        if unknown:
            ap.error(f"--regrade-variants takes variants of the book's machine ({', '.join(mine)}); got {', '.join(unknown)}")
        return regrade(args.regrade, args.regrade_variants, notebooks=not args.sets_only)
    if args.here:
        return widen_here()
    if args.retire_book:
        return retire_book(args.other_vendor)
    if args.add_book:
        return add_book()
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        ap.error(f"--variants must be some of {', '.join(VARIANTS)}, got {', '.join(unknown)}")
    from grok_lib import arithmetic, figure_numbers

    if arithmetic.tier() != "exact":
        ap.error("run this in the arithmetic the book is recorded in (book/arithmetic.json): "
                 f"this process computes in {arithmetic.summary()}")
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    elsewhere = sorted(n for n, v in previous.get("variants", {}).items() if "machine" in v)
    samples = measure({name: VARIANTS[name] for name in args.variants})
    ids = [s["arithmetic"]["id"] for s in samples.values()] + [arithmetic.arithmetic_id()]
    if len(set(ids)) < len(ids):
        ap.error(f"two variants computed in the same arithmetic: {ids}")
    book = figure_values()
    gradings = book_gradings()
    envelope = {
        "about": "The spread of the book's numbers across the arithmetic variants of one machine "
                 "(scripts/measure_envelope.py); what tests compare with in other arithmetic.",
        "book": arithmetic.describe(),
        "variants": {n: {"env": VARIANTS[n], "arithmetic": s["arithmetic"]} for n, s in samples.items()},
        "figures": {fig: figure_numbers.envelope([book[fig]] + [s["figures"][fig] for s in samples.values()])
                    for fig in book},
        "prefix": prefix_tolerance([prefixes()] + [s["prefix"] for s in samples.values()]),
        "verdicts": {"book": book_verdicts()} | {n: s["verdicts"] for n, s in samples.items()},
        "grading": {n: dict(gradings) for n in samples},
    }
    write_envelope(envelope)
    envelope["lr_1pct"] = lr_check(envelope["figures"])
    write_envelope(envelope)
    moved = differing_verdicts(envelope, samples)
    print(f"wrote {OUT.relative_to(ROOT)}; verdicts that differ from the book's: {moved}")
    if elsewhere:
        print(f"the variants measured on other machines ({', '.join(elsewhere)}) are gone with the old envelope: "
              f"run this script with --here there again")
    return 0


def widen_here() -> int:
    """``--here``: widen book/envelope.json by this machine's pinned and native arithmetic."""
    from grok_lib import arithmetic, figure_numbers

    if arithmetic.tier() == "exact":
        sys.exit("measure_envelope.py: --here is for a machine outside the book's arithmetic; this one computes "
                 "in it (run without --here to measure its variants)")
    envelope = json.loads(OUT.read_text())
    variants = here_variants()
    samples = measure(variants)
    for fig, bounds in envelope["figures"].items():
        envelope["figures"][fig] = widen(bounds, figure_numbers.envelope([s["figures"][fig] for s in samples.values()]))
    seen = prefix_tolerance([s["prefix"] for s in samples.values()])
    for name, tol in seen.items():
        old = envelope["prefix"][name]["rtol"]
        old.update({m: max(old.get(m, 0.0), r) for m, r in tol["rtol"].items()})
    for name, s in samples.items():
        envelope["variants"][name] = {"env": variants[name], "arithmetic": s["arithmetic"],
                                      "machine": arithmetic.cpu_vendor()}  # measured away from the book's machine
        envelope["verdicts"][name] = s["verdicts"]
        envelope.setdefault("grading", {})[name] = book_gradings()
    envelope["about"] = ("The spread of the book's numbers across the arithmetic variants of the machines measured "
                         "(scripts/measure_envelope.py, --here on a second CPU vendor); what tests compare with "
                         "in other arithmetic.")
    envelope["lr_1pct"].setdefault("against", "the envelope of the book's machine alone, before --here widened it")
    write_envelope(envelope)
    envelope[f"lr_1pct_{arithmetic.cpu_vendor()}"] = lr_check(envelope["figures"]) | {
        "arithmetic": arithmetic.summary(), "against": "the envelope widened by this machine's two arithmetics"}
    write_envelope(envelope)
    moved = differing_verdicts(envelope, samples)
    print(f"widened {OUT.relative_to(ROOT)}; verdicts that differ from the book's: {moved}")
    return 0


def retired_name(book: dict) -> str:
    """The variant name of a retired book's arithmetic, e.g. ``AuthenticAMD_pinned_v1_mkl_compatible``."""
    version = book["id"].split("/")[0].removeprefix("pinned-")
    return f"{book['vendor']}_pinned_v{version}_mkl_{book['mkl_cbwr'].lower()}"


def retired_env(book: dict) -> dict:
    """The variables that compute in a retired book's arithmetic (its pins, with the pins switched off)."""
    return dict(book.get("pins") or {"MKL_CBWR": book["mkl_cbwr"], "ATEN_CPU_CAPABILITY": book["aten"].lower(),
                                     "OPENBLAS_CORETYPE": book["openblas_core"]})  # before the facts named their pins


def retired_rows(name: str) -> Path:
    """Where --retire-book keeps the first steps of each recorded set as the retired book recorded them."""
    return SAMPLES / f"retired-{name}.json"


def recorded_prefixes(root: Path | None = None) -> dict:
    """Each recorded set's first PREFIX_STEPS rows as recorded (under ``root``, the repository's by default)."""
    return {name: {str(int(s)): {m: float(history.metrics[m][i]) for m in history.metrics}
                   for i, s in enumerate(history.steps) if s <= PREFIX_STEPS}
            for name, history in recorded_histories(root).items()}


def retire_book(other_vendor: bool = False) -> int:
    """``--retire-book``: the committed book's arithmetic (about to be replaced by a new pin set of the same
    vendor) becomes a variant of this machine, with its verdicts: the new book's verdicts are held against it,
    and its numbers are already inside every range. Run before the re-recording (make baselines, make book).
    ``other_vendor``: the book moves to a machine of another CPU vendor (this one): the old book's machine's
    variants become variants measured elsewhere, and those measured here (``--here``) the book machine's."""
    from grok_lib import arithmetic

    envelope = json.loads(OUT.read_text())
    old = envelope["book"]
    if old["id"] == arithmetic.arithmetic_id():
        sys.exit("measure_envelope.py: --retire-book: the envelope's book is already in this arithmetic "
                 f"({old['id']}); change the pin set first")
    here = arithmetic.cpu_vendor()
    if old["vendor"] != here and not other_vendor:
        sys.exit(f"measure_envelope.py: --retire-book runs on the book's vendor ({old['vendor']}), not {here}; "
                 f"to move the book to this machine's vendor, add --other-vendor")
    name = retired_name(old)
    if name in envelope["variants"]:
        sys.exit(f"measure_envelope.py: --retire-book: the envelope already has a variant {name}")
    SAMPLES.mkdir(parents=True, exist_ok=True)
    # the recorded sets' first steps as the old book recorded them: --add-book measures how far the sets
    # re-recorded in the new arithmetic moved from them (retraining in the old pins on this machine would
    # assume this CPU computes what the recording's CPU did)
    retired_rows(name).write_text(json.dumps(recorded_prefixes(), sort_keys=True))
    envelope["variants"][name] = {"env": retired_env(old), "arithmetic": old, "retired_book": True}
    # a variant in this machine's arithmetic (an older book of this vendor, recorded in today's pins) is the book
    # about to be recorded: its numbers are in the ranges already, and measuring it again would measure the book
    same = [n for n, v in envelope["variants"].items() if v["arithmetic"]["id"] == arithmetic.arithmetic_id()]
    for n in same:
        del envelope["variants"][n]
        envelope["verdicts"].pop(n, None)
        envelope.get("grading", {}).pop(n, None)
        print(f"variant {n} computes in this machine's arithmetic, the new book's: it is the book now")
    if old["vendor"] != here:
        # the book moves to this vendor's machine: the old book's machine's variants (and the old book) were
        # measured elsewhere now, and those measured here with --here are variants of the book's machine
        for variant in envelope["variants"].values():
            if variant.get("machine") == here:
                del variant["machine"]
            elif "machine" not in variant:
                variant["machine"] = old["vendor"]
    envelope["verdicts"][name] = envelope["verdicts"]["book"]
    envelope.setdefault("grading", {})[name] = book_gradings()
    write_envelope(envelope)
    print(f"{OUT.relative_to(ROOT)}: the book of {old['id']} is now the variant {name}; re-record the book "
          f"(make baselines, make book), then run --add-book")
    return 0


def add_book() -> int:
    """``--add-book``: after the re-recording, widen the envelope by the new book: its figure numbers join every
    range, its verdicts become the book's, and each recorded set's prefix tolerance covers the new arithmetic.
    A set still recorded in older arithmetic: the largest of the old tolerance and the new book's difference. A
    set re-recorded in the new arithmetic: the old tolerance ``t`` held any variant within ``t`` of the old
    recording, which is within ``d`` of the new one (as --retire-book kept it), so within ``t + d + t d`` of
    the new recording (the differences are relative to the recorded value)."""
    from grok_lib import arithmetic, figure_numbers, recorded

    if arithmetic.tier() != "exact":
        sys.exit("measure_envelope.py: --add-book runs in the arithmetic the book is recorded in "
                 f"(book/arithmetic.json; make baselines writes it): this process computes in {arithmetic.summary()}")
    envelope = json.loads(OUT.read_text())
    retired = [n for n, v in envelope["variants"].items() if v.get("retired_book")
               and v["arithmetic"]["id"] == envelope["book"]["id"]]
    if not retired or not retired_rows(retired[0]).exists():
        sys.exit("measure_envelope.py: --add-book: run --retire-book before the re-recording")
    book = figure_values()
    for fig, bounds in envelope["figures"].items():
        envelope["figures"][fig] = widen(bounds, figure_numbers.envelope([book[fig]]))
    here = prefix_tolerance([prefixes()])
    moved_by = prefix_moves(recorded_histories(), json.loads(retired_rows(retired[0]).read_text()))
    for name, tol in envelope["prefix"].items():
        rerecorded = recorded.read_manifest(name)["arithmetic"]["id"] == arithmetic.arithmetic_id()
        old = tol["rtol"]
        if rerecorded:
            tol["rtol"] = {m: round_up(t + d + t * d) for m, t in sorted(old.items())
                           for d in [moved_by[name].get(m, 0.0)]}
        else:
            tol["rtol"] = {m: max(old.get(m, 0.0), here[name]["rtol"].get(m, 0.0))
                           for m in sorted(old.keys() | here[name]["rtol"].keys())}
    envelope["book"] = arithmetic.describe()
    envelope["verdicts"]["book"] = book_verdicts()
    envelope["lr_1pct"] = lr_check(envelope["figures"]) | {
        "against": "the envelope of every measured arithmetic, after --add-book widened it by the new book"}
    write_envelope(envelope)  # once: a failure above changes nothing
    moved = differing_verdicts(envelope, {n: {"verdicts": v} for n, v in envelope["verdicts"].items() if n != "book"})
    print(f"widened {OUT.relative_to(ROOT)} by the book of {envelope['book']['id']}; verdicts that differ from "
          f"the book's: {moved}")
    return 0


def widen(old: dict, new: dict) -> dict:
    """Per value, the union of two envelopes."""
    out = {}
    for k in sorted(old.keys() | new.keys()):
        a, b = old.get(k), new.get(k)
        if a is None or b is None:
            raise RuntimeError(f"{k}: measured in one envelope but not the other")
        numbers = [x for x in (a["lo"], a["hi"], b["lo"], b["hi"]) if x is not None]
        out[k] = {"lo": min(numbers) if numbers else None, "hi": max(numbers) if numbers else None,
                  "none": a["none"] or b["none"]}
    return out


if __name__ == "__main__":
    sys.exit(main())
