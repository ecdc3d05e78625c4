"""The pinned arithmetic (grok_lib/arithmetic.py): in force in the processes that compute the book,
recorded with every run, part of every key; and the envelope that compares other arithmetic."""

import ast
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grok_lib import arithmetic, chapters, claims, envelope_verdicts, figure_numbers, paths, recorded
from grok_lib.grading import Bar, Claim, Result, combine
from grok_lib.plans import run_key

ROOT = Path(__file__).resolve().parent.parent
ENVELOPE = paths.ENVELOPE
NUMERIC = {"numpy", "torch", "matplotlib", "papermill", "scipy", "dask", "distributed", "dask_jobqueue"}  # Dask loads numpy
#: Where the pinned kernels cannot run (no AVX2, ARM) nothing is pinned and this machine is in the envelope tier.
needs_pins = pytest.mark.skipif(not arithmetic.can_pin(), reason="this CPU cannot run the pinned kernels (AVX2 and FMA)")


def _python(code: str, **env) -> subprocess.CompletedProcess:
    import os

    clean = {k: v for k, v in os.environ.items() if k not in (*arithmetic.PINS, arithmetic.SWITCH)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=clean | env, cwd=ROOT)


@needs_pins
@pytest.mark.skipif(arithmetic.mode() == "native", reason="GROK_ARITHMETIC=native: this process is unpinned on purpose")
def test_this_test_process_computes_in_the_pinned_arithmetic():
    facts = arithmetic.describe()
    assert facts["pinned"], arithmetic.summary(facts)
    assert {k: facts[k] for k in arithmetic.PINNED_STATE} == arithmetic.PINNED_STATE
    assert facts["id"].startswith(f"pinned-{arithmetic.PIN_VERSION}/")


def test_the_book_was_recorded_under_its_vendors_current_pin_set():
    """Changing a vendor's pins without bumping its version (or without re-recording the book) would keep
    the book's id while computing other floats: the recording must name its vendor's version and report
    exactly that pin set's state."""
    book = arithmetic.book_recording()
    version, pins = arithmetic.pin_set(book["vendor"])
    assert book["id"].startswith(f"pinned-{version}/{book['vendor']}/"), book["id"]
    assert {k: book[k] for k in arithmetic.pinned_state(pins)} == arithmetic.pinned_state(pins)


def test_each_vendors_pin_set_pins_the_same_four_kernel_choices():
    """MKL's branch, ATen's capability, OpenBLAS's core and numpy's SIMD loops, each reported back by its library."""
    sets = [arithmetic.DEFAULT_PINS, *arithmetic.PIN_SETS.values()]
    assert all(set(pins) == set(arithmetic.DEFAULT_PINS[1]) for _, pins in sets)
    assert set(arithmetic.DEFAULT_PINS[1]) == {"MKL_CBWR", "ATEN_CPU_CAPABILITY", "OPENBLAS_CORETYPE",
                                               "NPY_DISABLE_CPU_FEATURES"}
    assert "numpy_simd" in arithmetic.pinned_state(arithmetic.DEFAULT_PINS[1])
    assert arithmetic.pin_set("SomeOtherVendor") == arithmetic.DEFAULT_PINS


@pytest.mark.train
@needs_pins
def test_importing_grok_lib_pins_a_fresh_process_before_numpy_loads():
    out = _python("import grok_lib, json; from grok_lib import arithmetic; print(json.dumps(arithmetic.describe()))")
    facts = json.loads(out.stdout)
    assert facts["pinned"] and facts["id"].startswith(f"pinned-{arithmetic.PIN_VERSION}/"), out.stderr
    if arithmetic.mode() == "pinned":
        assert facts["id"] == arithmetic.arithmetic_id()


@pytest.mark.train
@needs_pins
def test_native_arithmetic_has_another_id_and_so_other_keys():
    code = ("import grok_lib\nfrom grok_lib import arithmetic\nfrom grok_lib.plans import run_key\n"
            "from grok_lib.paper_a.config import profile_config\n"
            "print(arithmetic.arithmetic_id()); print(run_key(profile_config('ci', device='cpu'), 'cpu'))")
    native = _python(code, GROK_ARITHMETIC="native")
    pinned = _python(code)
    (native_id, native_key), (pinned_id, pinned_key) = native.stdout.split(), pinned.stdout.split()
    assert native_id.startswith("other/") and pinned_id.startswith("pinned-") and native_key != pinned_key
    assert "pinned arithmetic is not in force" not in native.stderr  # asked for: no warning


@pytest.mark.train
def test_numpy_loaded_before_grok_lib_is_other_arithmetic_and_says_so_once():
    out = _python("import numpy\nimport grok_lib\nfrom grok_lib import arithmetic\n"
                  "print(arithmetic.arithmetic_id()); arithmetic.arithmetic_id()")
    assert out.stdout.startswith("other/"), out.stdout
    assert out.stderr.count("the pinned arithmetic is not in force (numpy loaded before grok_lib)") == 1, out.stderr


def test_a_bad_switch_is_a_one_line_error():
    out = _python("import grok_lib", GROK_ARITHMETIC="fast")
    assert out.returncode != 0
    assert "GROK_ARITHMETIC must be one of pinned, native, got 'fast'" in out.stderr.strip().splitlines()[-1]


def test_the_key_includes_the_arithmetic(ci_config, monkeypatch):
    before = run_key(ci_config, "cpu")
    monkeypatch.setattr("grok_lib.plans.arithmetic_id", lambda: "other/x")
    assert run_key(ci_config, "cpu") != before


@needs_pins
def test_make_exports_the_same_pins():
    out = subprocess.run([sys.executable, str(ROOT / "grok_lib" / "arithmetic.py"), "--env"], capture_output=True,
                         text=True, env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == [f"{k}={v}" for k, v in arithmetic.PINS.items()]
    assert "ARITHMETIC_PINS := $(shell $(PYTHON) grok_lib/arithmetic.py --env)" in (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("script", sorted([*ROOT.glob("scripts/*.py"), *ROOT.glob("benchmarks/*.py")]),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_scripts_import_grok_lib_before_numeric_libraries(script):
    """A script run directly must pin the arithmetic before numpy or torch loads (top-level imports, in order)."""
    names = []
    for node in ast.parse(script.read_text()).body:
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module.split(".")[0])
    numeric = [i for i, n in enumerate(names) if n in NUMERIC]
    if numeric:
        assert "grok_lib" in names[:numeric[0]], f"{script.name} imports {names[numeric[0]]} before grok_lib"


def test_the_book_and_its_recordings_name_their_arithmetic():
    book = arithmetic.book_recording()
    assert book["pinned"] and book["id"].startswith("pinned-")
    for name in recorded.definitions():
        facts = recorded.read_manifest(name)["arithmetic"]
        assert facts["id"] and "pinned" in facts


def test_the_envelope_covers_every_figure_and_every_verdict_agrees():
    envelope = json.loads(ENVELOPE.read_text())
    assert set(envelope["figures"]) == set(chapters.figures())
    assert len(envelope["variants"]) >= 2
    book = envelope["verdicts"]["book"]
    variants = {name: {"verdicts": v, "grading": envelope["grading"][name]}
                for name, v in envelope["verdicts"].items() if name != "book"}
    elsewhere = {name for name, v in envelope["variants"].items() if "machine" in v}  # measured on another machine
    assert all(v["verdicts"].keys() == v["grading"].keys() for v in variants.values())
    assert all(v["verdicts"].keys() <= book.keys() for v in variants.values())
    records = {f"{r['id']}|{r['setting']}": r for r in claims.load_records(setting=None)}
    assert records.keys() == book.keys()
    # every claim is held against at least one other arithmetic of the book's machine under its current grading
    # (--regrade measures a re-graded or new claim there; a variant it has not reached yet, e.g. one whose every
    # notebook takes an hour, is named in the claims report: envelope_verdicts.arithmetic_coverage)
    current = {k: envelope_verdicts.grading(r) for k, r in records.items()}
    complete = [n for n, v in variants.items() if n not in elsewhere
                and all(v["grading"].get(k) == g for k, g in current.items())]
    assert complete, "no variant of the book's machine has measured every claim under its current grading: --regrade"
    # the book's verdict is the one rule over this arithmetic's verdict and every variant's measured under the
    # claim's current grading (envelope_verdicts.across_arithmetic): their common verdict, else inconclusive
    for key, here in book.items():
        seen = envelope_verdicts.current_verdicts(variants, key, envelope_verdicts.grading(records[key]))
        assert records[key]["verdict"] == combine([here, *seen.values()]), (key, here, seen)
        assert records[key].get("verdict_here", records[key]["verdict"]) == here, key


def _claim(bar: float) -> Claim:
    return Claim("X.y.z", "A", "claim", "text", "Sec. 1", "words", "statement", "quantity", Bar(lo=bar))


def test_a_variant_verdict_counts_only_under_the_grading_it_was_measured_under():
    claim, regraded = _claim(1.0), _claim(2.0)
    assert envelope_verdicts.grading(claim) != envelope_verdicts.grading(regraded)
    assert envelope_verdicts.grading(claim) == envelope_verdicts.grading({"grading": claim.grading()})
    variants = {"v": {"verdicts": {"X.y.z|default": "inconclusive"}, "grading": {"X.y.z|default": envelope_verdicts.grading(claim)}}}
    assert envelope_verdicts.current_verdicts(variants, "X.y.z|default", envelope_verdicts.grading(claim)) == {"v": "inconclusive"}
    assert envelope_verdicts.current_verdicts(variants, "X.y.z|default", envelope_verdicts.grading(regraded)) == {}


def test_across_arithmetic_makes_a_verdict_inconclusive_where_a_variant_of_the_same_grading_differs(tmp_path):
    claim, regraded = _claim(1.0), _claim(2.0)
    arith = {"cpu": "x", "mkl_cbwr": "AUTO", "aten": "AVX512", "openblas_core": "SkylakeX"}
    envelope = tmp_path / "envelope.json"
    envelope.write_text(json.dumps({
        "variants": {"native": {"arithmetic": arith, "env": {}}},
        "verdicts": {"native": {"X.y.z|default": "not reproduced"}},
        "grading": {"native": {"X.y.z|default": envelope_verdicts.grading(claim)}}}))
    [same] = envelope_verdicts.across_arithmetic([Result(claim, "m", "reproduced")], envelope=envelope)
    assert same.verdict == "inconclusive" and same.verdict_here == "reproduced" and "not reproduced in x" in same.measured
    [later] = envelope_verdicts.across_arithmetic([Result(regraded, "m", "reproduced")], envelope=envelope)
    assert later.verdict == "reproduced" and "have not measured this grading yet" in later.measured


def test_the_measured_envelope_catches_a_one_percent_change_of_the_learning_rate():
    """Measured once with the envelope (scripts/measure_envelope.py): Figure 1's numbers with one run trained at a
    1% larger learning rate fall outside the envelope: on the book's machine (``lr_1pct``) and, trained in its own
    pinned arithmetic, on each machine that widened it (``lr_1pct_<vendor>``: ``measure_envelope.py --here``)."""
    envelope = json.loads(ENVELOPE.read_text())
    checks = {k: v for k, v in envelope.items() if k.startswith("lr_1pct")}
    assert "lr_1pct" in checks and len(checks) == 1 + sum(n.endswith("_pinned") for n in envelope["variants"]), checks
    for name, check in checks.items():
        assert check["outside"] > 0, (name, check)


def test_compare_envelope_passes_inside_and_fails_outside():
    bounds = figure_numbers.envelope([{"a/T_grok(95%)": 3384.0, "a/test_loss@100": 1.0, "a/T_cls": None},
                                      {"a/T_grok(95%)": 3450.0, "a/test_loss@100": 1.01, "a/T_cls": 2000.0}])
    assert bounds["a/T_grok(95%)"] == {"lo": 3384.0, "hi": 3450.0, "none": False}
    inside = {"a/T_grok(95%)": 3490.0, "a/test_loss@100": 1.0105, "a/T_cls": None}
    assert figure_numbers.compare_envelope(bounds, inside) == []
    outside = {"a/T_grok(95%)": 3550.0, "a/test_loss@100": 1.02, "a/T_cls": 2000.0}
    problems = figure_numbers.compare_envelope(bounds, outside)
    assert len(problems) == 2 and all("outside the envelope" in p for p in problems)


@pytest.mark.train
@pytest.mark.parametrize("name", sorted(recorded.definitions()))
def test_a_one_percent_change_of_the_learning_rate_leaves_the_prefix_envelope(name):
    """The envelope tier still fails on a real change: the first steps of a recorded run retrained with a 1%
    larger learning rate differ from the recording by more than the envelope's tolerance."""
    configs = recorded.definitions()[name][1]()
    history = recorded.load(name, configs).histories[-1]
    rtol = json.loads(ENVELOPE.read_text())["prefix"][name]["rtol"]
    rate = "lr" if hasattr(configs[-1], "lr") else "eta"  # Part C's configs name the learning rate eta
    rows = recorded.retrain_set_prefix(name, [replace(c, **{rate: getattr(c, rate) * 1.01}) for c in configs], 200)
    assert recorded.compare_prefix(history, rows, rtol), f"a 1% change of lr stayed within rtol {rtol:g}"


def test_another_vendor_compares_only_the_claims_it_measured_as_graded_now(tmp_path, monkeypatch):
    record = {"id": "X.a", "setting": "default", "grading": "g-a"}
    regraded = {"id": "X.b", "setting": "default", "grading": "g-b-now"}
    monkeypatch.setattr(claims, "load_records", lambda *a, **k: [record, regraded])
    envelope = tmp_path / "envelope.json"
    envelope.write_text(json.dumps({
        "book": {"vendor": "AuthenticAMD"},
        "variants": {"native": {}, "GenuineIntel_pinned": {"machine": "GenuineIntel"}},
        "grading": {"native": {"X.a|default": envelope_verdicts.grading(record), "X.b|default": envelope_verdicts.grading(regraded)},
                    "GenuineIntel_pinned": {"X.a|default": envelope_verdicts.grading(record),
                                            "X.b|default": "g-b-before"}}}))
    monkeypatch.setattr(arithmetic, "tier", lambda: "envelope")
    monkeypatch.setattr(arithmetic, "cpu_vendor", lambda: "GenuineIntel")
    assert envelope_verdicts.measured_here(["X.a", "X.b"], envelope=envelope) == {"X.a"}  # X.b re-graded since --here ran
    monkeypatch.setattr(arithmetic, "cpu_vendor", lambda: "AuthenticAMD")
    assert envelope_verdicts.measured_here(["X.a", "X.b"], envelope=envelope) == {"X.a", "X.b"}
    monkeypatch.setattr(arithmetic, "tier", lambda: "exact")
    assert envelope_verdicts.measured_here(["X.a", "X.b"], envelope=envelope) == {"X.a", "X.b"}


def test_the_coverage_line_names_the_variants_that_measured_the_current_grading_and_those_behind(tmp_path):
    """A machine whose variants are partly re-measured: the report says which variant is current and which are
    not, and lists only the claims the ones behind have not measured."""
    import json

    records = [{"id": "X.a", "setting": "default", "grading": "g1"}, {"id": "X.b", "setting": "default", "grading": "g2"}]
    measured = {"book": {"vendor": "AuthenticAMD"},
                "variants": {"v_new": {}, "v_old": {}, "intel": {"machine": "GenuineIntel"}},
                "grading": {"v_new": {"X.a|default": "g1", "X.b|default": "g2"}, "v_old": {"X.a|default": "g1"},
                            "intel": {"X.a|default": "g1", "X.b|default": "g2"}}}
    path = tmp_path / "envelope.json"
    path.write_text(json.dumps(measured))
    amd, intel = envelope_verdicts.arithmetic_coverage(records, path).splitlines()
    assert "`v_new` measured every verdict under its current grading" in amd
    assert "since `v_old` measured them, so not yet compared there: `X.b`." in amd
    assert intel == "- **GenuineIntel** (a second machine): 1 arithmetic variants; every verdict measured under its current grading."
