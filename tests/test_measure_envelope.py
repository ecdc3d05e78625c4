"""The envelope script's small pieces: a variant's environment, a retired book's name and pins, rounding."""

import importlib.util
from pathlib import Path

from grok_lib import arithmetic

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "measure_envelope.py"
_spec = importlib.util.spec_from_file_location("measure_envelope", SCRIPT)
me = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(me)


def test_a_variant_starts_from_no_pin_at_all(monkeypatch):
    """Every pinned variable is removed before a variant's own are set (the numpy pin included: a variant
    that kept it would not be the libraries' own choice on an AVX-512 CPU)."""
    for k, v in arithmetic.DEFAULT_PINS[1].items():
        monkeypatch.setenv(k, v)
    env = me.variant_env({"OPENBLAS_CORETYPE": "Sandybridge"})
    assert env["GROK_ARITHMETIC"] == "native" and env["OPENBLAS_CORETYPE"] == "Sandybridge"
    assert not {"MKL_CBWR", "ATEN_CPU_CAPABILITY", "NPY_DISABLE_CPU_FEATURES"} & env.keys()


def test_a_retired_book_is_named_by_vendor_version_and_mkl_branch_and_recomputed_by_its_pins():
    book = {"id": "pinned-2/AuthenticAMD/torch-x", "vendor": "AuthenticAMD", "mkl_cbwr": "AUTO", "aten": "AVX2",
            "openblas_core": "Haswell", "pins": dict(arithmetic.PIN_SETS["AuthenticAMD"][1])}
    assert me.retired_name(book) == "AuthenticAMD_pinned_v2_mkl_auto"
    assert me.retired_env(book) == arithmetic.PIN_SETS["AuthenticAMD"][1]
    older = {k: v for k, v in book.items() if k != "pins"}  # facts written before they named their pins
    assert me.retired_env(older) == {"MKL_CBWR": "AUTO", "ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "Haswell"}


def test_tolerances_round_up_to_two_digits():
    assert me.round_up(0.0953) == 0.096
    assert me.round_up(0.094) == 0.094
    assert me.round_up(4.04e-5) == 4.1e-5
    assert me.round_up(0.0) == 0.0


def test_a_regrade_reruns_the_notebooks_of_claims_graded_otherwise(monkeypatch):
    from grok_lib import claims, envelope_verdicts

    records = [{"id": "X.a", "setting": "default", "source": "paper_x/one", "grading": "g1"},
               {"id": "X.b", "setting": "default", "source": "paper_x/two", "grading": "g2"}]
    monkeypatch.setattr(claims, "load_records", lambda *a, **k: records)
    graded = {"X.a|default": "g1", "X.b|default": "g2-before"}
    envelope = {"grading": {"native": graded}}
    assert me.stale_sources(envelope, "native") == ["paper_x/two"]  # X.b's grading changed since
    assert me.stale_sources(envelope, "never_measured") == ["paper_x/one", "paper_x/two"]
    assert me.book_gradings() == {"X.a|default": envelope_verdicts.grading(records[0]), "X.b|default": envelope_verdicts.grading(records[1])}


def test_a_variant_is_named_by_its_kernels_not_by_its_id_spelling():
    facts = {"vendor": "AuthenticAMD", "mkl_cbwr": "COMPATIBLE", "aten": "AVX2", "openblas_core": "Haswell",
             "id": "pinned-1/AuthenticAMD/torch"}
    assert me.kernels(facts) == me.kernels(facts | {"id": "other/torch/0123"})
    assert me.kernels(facts) != me.kernels(facts | {"aten": "AVX512"})


def test_kernels_here_are_what_a_fresh_process_computes_with_under_a_variants_variables():
    """--regrade asks before executing anything: the Sandybridge variant computes with OpenBLAS's Sandybridge
    kernels and ATen's default ones on any x86 CPU, so it can always be measured again."""
    got = me.kernels_here({"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE", "OPENBLAS_CORETYPE": "Sandybridge"})
    assert got == (arithmetic.cpu_vendor(), "COMPATIBLE", "DEFAULT", "Sandybridge")


def test_retiring_the_book_for_another_vendor_drops_the_variant_that_computes_in_the_new_books_arithmetic(
        monkeypatch, tmp_path):
    """Moving the book back to a vendor it was recorded on before: the old book of that vendor, recorded in
    today's pins, is the new book, not a variant of it; the old book's machine's variants become variants measured
    elsewhere, and this vendor's the book machine's."""
    import json

    here = {"id": "pinned-2/AuthenticAMD/t", "vendor": "AuthenticAMD", "mkl_cbwr": "AUTO", "aten": "AVX2",
            "openblas_core": "Haswell"}
    old = {"id": "pinned-3/GenuineIntel/t", "vendor": "GenuineIntel", "mkl_cbwr": "AVX2", "aten": "AVX2",
           "openblas_core": "Haswell"}
    envelope = {"book": old, "verdicts": {"book": {"X.a|default": "reproduced"}, "amd_v2": {}, "intel_native": {}},
                "grading": {"amd_v2": {}, "intel_native": {}},
                "variants": {"amd_v2": {"env": {}, "arithmetic": here, "machine": "AuthenticAMD", "retired_book": True},
                             "amd_native": {"env": {}, "arithmetic": here | {"id": "other/x"}, "machine": "AuthenticAMD"},
                             "intel_native": {"env": {}, "arithmetic": old | {"id": "other/y"}}}}
    out = tmp_path / "envelope.json"
    out.write_text(json.dumps(envelope))
    monkeypatch.setattr(me, "OUT", out)
    monkeypatch.setattr(me, "ROOT", tmp_path)
    monkeypatch.setattr(me, "SAMPLES", tmp_path / "samples")
    monkeypatch.setattr(me, "recorded_prefixes", lambda: {})
    monkeypatch.setattr(me, "book_gradings", lambda: {"X.a|default": "g"})
    monkeypatch.setattr(me, "write_envelope", lambda e: out.write_text(json.dumps(e)))
    monkeypatch.setattr(arithmetic, "arithmetic_id", lambda: here["id"])
    monkeypatch.setattr(arithmetic, "cpu_vendor", lambda: "AuthenticAMD")
    assert me.retire_book(other_vendor=True) == 0
    after = json.loads(out.read_text())
    assert set(after["variants"]) == {"amd_native", "intel_native", "GenuineIntel_pinned_v3_mkl_avx2"}
    assert "amd_v2" not in after["verdicts"] and "amd_v2" not in after["grading"]
    assert "machine" not in after["variants"]["amd_native"]
    assert after["variants"]["intel_native"]["machine"] == "GenuineIntel"
    assert after["variants"]["GenuineIntel_pinned_v3_mkl_avx2"]["machine"] == "GenuineIntel"
    assert after["verdicts"]["GenuineIntel_pinned_v3_mkl_avx2"] == {"X.a|default": "reproduced"}


#: A variant's kernels as a Zen 4 computes them natively (AVX-512 ATen), which a Zen 3 lacks.
ZEN4 = {"id": "other/x", "vendor": "AuthenticAMD", "mkl_cbwr": "unset (AUTO)", "aten": "AVX512",
        "openblas_core": "SkylakeX"}


def _regrade_in(monkeypatch, tmp_path, envelope: dict):
    """--regrade's world in ``tmp_path``: ``envelope`` as the committed one, one claim record (X.a of
    paper_x/one, graded g1), no recorded set, the book's arithmetic; returns the envelope's path."""
    import json

    from grok_lib import claims, recorded

    out = tmp_path / "envelope.json"
    out.write_text(json.dumps(envelope))
    records = [{"id": "X.a", "setting": "default", "source": "paper_x/one", "grading": "g1", "verdict": "reproduced"}]
    monkeypatch.setattr(me, "OUT", out)
    monkeypatch.setattr(me, "ROOT", tmp_path)
    monkeypatch.setattr(me, "SAMPLES", tmp_path / "samples")
    monkeypatch.setattr(me, "write_envelope", lambda e: out.write_text(json.dumps(e)))
    monkeypatch.setattr(arithmetic, "tier", lambda: "exact")
    monkeypatch.setattr(claims, "load_records", lambda *a, **k: records)
    monkeypatch.setattr(recorded, "definitions", lambda: {})
    return out


def test_a_regrade_keeps_a_variant_whose_kernels_this_cpu_lacks_as_measured_elsewhere(monkeypatch, tmp_path):
    """A variant measured on another CPU of the vendor (AVX-512 ATen on a Zen 4) is not executed on one without
    those kernels (it would compute another arithmetic under the variant's name): it becomes a variant measured
    elsewhere, with a note, and nothing is executed."""
    import json

    envelope = {"book": {"vendor": "AuthenticAMD"}, "prefix": {}, "variants": {"native": {"env": {}, "arithmetic": ZEN4}},
                "verdicts": {"book": {}, "native": {}}, "grading": {"native": {}}}
    out = _regrade_in(monkeypatch, tmp_path, envelope)
    monkeypatch.setattr(me, "kernels_here", lambda env: ("AuthenticAMD", "unset (AUTO)", "AVX2", "Haswell"))
    monkeypatch.setattr(me.subprocess, "run", lambda *a, **k: (_ for _ in ()).throw(AssertionError("executed")))
    assert me.regrade() == 0
    native = json.loads(out.read_text())["variants"]["native"]
    assert native["machine"] == "AuthenticAMD" and "AVX2" in native["note"]


def test_a_regrade_on_a_cpu_with_the_kernels_takes_such_a_variant_back(monkeypatch, tmp_path):
    """The same variant, on a CPU of the vendor that has its kernels: measured again, and the book machine's
    variant once more."""
    import json

    native = {"env": {}, "arithmetic": ZEN4, "machine": "AuthenticAMD", "note": me.ANOTHER_CPU + " AuthenticAMD CPU"}
    envelope = {"book": {"vendor": "AuthenticAMD"}, "prefix": {}, "variants": {"native": native},
                "verdicts": {"book": {}, "native": {}}, "grading": {"native": {}}}
    out = _regrade_in(monkeypatch, tmp_path, envelope)
    monkeypatch.setattr(me, "book_verdicts", lambda: {"X.a|default": "reproduced"})
    monkeypatch.setattr(me, "kernels_here", lambda env: me.kernels(ZEN4))

    def worker(cmd, **kwargs):  # the variant's process: its sample, as --worker writes it
        Path(cmd[3]).write_text(json.dumps({"arithmetic": ZEN4, "verdicts": {"X.a|default": "reproduced"}}))

    monkeypatch.setattr(me.subprocess, "run", worker)
    assert me.regrade() == 0
    after = json.loads(out.read_text())
    assert "machine" not in after["variants"]["native"] and "note" not in after["variants"]["native"]
    assert after["verdicts"]["native"] == {"X.a|default": "reproduced"} and after["grading"]["native"] == {"X.a|default": "g1"}
