"""The floating-point arithmetic every number of the book is computed in: pinned, recorded, keyed.

Four kernel choices are made by CPU, and each changes the last bits of a result: MKL's GEMM
(torch's matrix products), ATen's vector kernels, numpy's OpenBLAS, and numpy's own SIMD loops
(exp, log, tanh, power...). A grokking run amplifies a last-bit difference into tens of epochs, so a
book recorded on one CPU would not reproduce on another. We therefore pin all four to one code path
each, one pin set per CPU vendor (:data:`PIN_SETS`):

- MKL's conditional numerical reproducibility (``MKL_CBWR``): on Intel CPUs its ``AVX2`` branch
  (every CPU that runs the other pins has it); on AMD CPUs MKL honours no branch but ``AUTO`` and
  ``COMPATIBLE``, so ``AUTO`` there (what MKL chooses for AMD's CPUs);
- ``ATEN_CPU_CAPABILITY=avx2``: ATen's AVX2 kernels, which both vendors' CPUs run;
- ``OPENBLAS_CORETYPE=Haswell``: OpenBLAS's AVX2 kernels (auto-detection picks SkylakeX or Zen);
- ``NPY_DISABLE_CPU_FEATURES=X86_V4,AVX512_ICL,AVX512_SPR``: numpy's x86-64-v3 (AVX2) loops, not its
  AVX-512 ones. Found when the book was re-recorded on an AVX2-only AMD EPYC (Zen 3): every deep-linear
  and linear-estimator number had moved from the AVX-512 (Zen 4) recording under unchanged OpenBLAS and
  ATen pins (numpy's dispatch does change float64 results: its tanh differs between its x86-64-v2 and
  v3 loops here). Added to every pin set then; on an AVX-512 AMD EPYC (family 25 model 17, Zen 4) the book
  recorded on the Zen 3 then reproduced exactly (``make test`` in the exact tier from a fresh clone).

What the pins buy was measured with ``shared/tools/arith_probe.py`` (a torch MLP and a numpy deep
linear net, each digested). On AMD EPYC, MKL's AUTO with the other two pins gave the same digests
(mlp ef433555c1d18760, dln 856e14890291488d) on family 25 model 1 (Zen 3, AVX2 only) and family 25
model 17 (Zen 4, AVX-512), and MKL's AUTO also agreed between families 25 and 26 with ATen and
OpenBLAS at their own choices; without the ATen and OpenBLAS pins the digests differ. On an Intel Xeon
(family 6, model 207) the pinned numpy digest is AMD's but no MKL branch gives AMD's torch digest. So
the pinned arithmetic is one per CPU vendor: :func:`arithmetic_id` names the vendor and its pin set's
version, and a machine of the other vendor compares with the book within the measured envelope
(``book/envelope.json``).

Why these branches, measured with benchmarks/bench_train_step.py (grok_lib's step): AMD's set was
version 1 with ``COMPATIBLE`` (its digest, 174dbc43579db815, agreed across the same AMD CPUs); on Zen 4
that cost 1.6 times AUTO's step (39 against 25 ms) and put a cold ``make book`` over its budget, on
Zen 3 nothing (16.4 against 17.5 ms), so version 2 takes AUTO. Intel's set was version 1 with
``COMPATIBLE`` too; it bought no agreement with AMD and cost 2.1 times the AVX2 branch's step time
on the Xeon (28.8 against 13.5 ms), so version 2 takes the AVX2 branch.

The libraries read these variables when they load, so :func:`pin` runs in ``grok_lib/__init__``
before anything imports numpy or torch (and ``make`` exports the same values to every process
it starts: ``python -m grok_lib.arithmetic --env``). ``GROK_ARITHMETIC=native`` switches the pins
off (the machine's own kernels); that, or a process where the pins could not take effect
(torch or numpy loaded first, no AVX2, no MKL, another architecture), computes in *other
arithmetic*: :func:`arithmetic_id` then names the libraries and the CPU, run keys differ, and
the tests compare that machine's numbers within the measured envelope instead of exactly.

This module imports neither numpy nor torch at import time (it must run before them).
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import hashlib
import json
import os
import platform
import sys
import warnings

#: The pinned arithmetic of each CPU vendor: (version, environment variable -> value), read by MKL,
#: ATen, OpenBLAS and numpy when they load. A vendor not named here gets DEFAULT_PINS (MKL's COMPATIBLE
#: branch is the one MKL honours on any x86-64 CPU). A change of a vendor's pins bumps its version,
#: which is part of the arithmetic id, so it changes every key computed on that vendor.
#: numpy's own SIMD dispatch (its exp, log, power... loops) takes AVX-512 code on a CPU that has it: the
#: deep-linear and linear-estimator numbers moved between an AVX-512 and an AVX2-only AMD EPYC under the
#: same OpenBLAS and ATen pins. Disabling numpy's AVX-512 targets leaves its x86-64-v3 (AVX2, FMA) loops.
NUMPY_AVX2 = {"NPY_DISABLE_CPU_FEATURES": "X86_V4,AVX512_ICL,AVX512_SPR"}
# each set's earlier versions: the same without the numpy pin (and AMD's version 1 with MKL_CBWR=COMPATIBLE)
DEFAULT_PINS = (2, {"MKL_CBWR": "COMPATIBLE", "ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "Haswell",
                    **NUMPY_AVX2})
PIN_SETS = {
    "AuthenticAMD": (2, {"MKL_CBWR": "AUTO", "ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "Haswell",
                         **NUMPY_AVX2}),
    "GenuineIntel": (3, {"MKL_CBWR": "AVX2", "ATEN_CPU_CAPABILITY": "avx2", "OPENBLAS_CORETYPE": "Haswell",
                         **NUMPY_AVX2}),
}

#: Every variable some pin set sets (what a process drops to compute in other arithmetic).
VARIABLES = frozenset(k for _, pins in (DEFAULT_PINS, *PIN_SETS.values()) for k in pins)


def _numpy_level(disabled: str) -> str | None:
    """The highest SIMD target numpy dispatches to with ``disabled`` switched off (x86-64-v3 once its AVX-512
    targets are; None for a value this module does not pin)."""
    return "X86_V3" if disabled == NUMPY_AVX2["NPY_DISABLE_CPU_FEATURES"] else None


#: How each library reports a pinned value (MKL by its branch name; ATen in capitals; numpy by the
#: highest SIMD target it dispatches to).
_REPORTED = {"MKL_CBWR": ("mkl_cbwr", str), "ATEN_CPU_CAPABILITY": ("aten", str.upper),
             "OPENBLAS_CORETYPE": ("openblas_core", str), "NPY_DISABLE_CPU_FEATURES": ("numpy_simd", _numpy_level)}

#: The environment variable that chooses the arithmetic: ``pinned`` (the default) or ``native``.
SWITCH = "GROK_ARITHMETIC"
MODES = ("pinned", "native")

# MKL's CNR codes (mkl_cbwr.h), as mkl_cbwr_get(MKL_CBWR_BRANCH) reports them.
_MKL_BRANCHES = {0: "OFF", 1: "unset (AUTO)", 2: "AUTO", 3: "COMPATIBLE", 4: "SSE2", 6: "SSSE3", 7: "SSE4_1",
                 8: "SSE4_2", 9: "AVX", 10: "AVX2", 11: "AVX512_MIC", 12: "AVX512", 13: "AVX512_MIC_E1",
                 14: "AVX512_E1", 15: "AVX512_E2", 16: "AVX512_E3", 17: "AVX512_E4", 18: "AVX2_E1",
                 19: "AVX512_E5"}

_late: list[str] = []  # the numeric libraries already loaded when pin() ran
_warned = False
_described: dict | None = None


class ArithmeticModeError(ValueError):
    """GROK_ARITHMETIC has a value that is not one of MODES."""


def mode() -> str:
    """The arithmetic asked for: ``pinned`` (default) or ``native`` (``GROK_ARITHMETIC``)."""
    value = os.environ.get(SWITCH, "pinned") or "pinned"
    if value not in MODES:
        raise ArithmeticModeError(f"{SWITCH} must be one of {', '.join(MODES)}, got {value!r}")
    return value


def can_pin() -> bool:
    """Whether this machine runs the pinned kernels: an x86-64 CPU with AVX2 and FMA (the libraries do not
    check a forced kernel against the CPU; elsewhere forcing one would crash, so nothing is pinned there)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return False
    return "avx2" in flags and "fma" in flags


def pin() -> None:
    """Set the pins in this process's environment (before numpy and torch load; a no-op under
    ``GROK_ARITHMETIC=native`` and on a machine that cannot run them). Child processes inherit them."""
    if mode() == "native" or not can_pin():
        return
    wrong = {k: v for k, v in PINS.items() if os.environ.get(k) != v}
    if wrong:
        _late.extend(m for m in ("numpy", "torch") if m in sys.modules and m not in _late)
        os.environ.update(wrong)


def _cpuinfo(field: str):
    """The first ``field`` line of /proc/cpuinfo (None where there is none)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith(field)), None)
    except OSError:
        return None


def cpu_vendor() -> str:
    """The CPU's vendor as the CPU reports it (``GenuineIntel``, ``AuthenticAMD``; else the architecture):
    the pinned kernels give the same floats within a vendor, not across (see the module's docstring)."""
    return _cpuinfo("vendor_id") or platform.machine()


def cpu_model() -> str:
    return _cpuinfo("model name") or platform.processor() or platform.machine()


def pin_set(vendor: str | None = None) -> tuple[int, dict]:
    """The (version, pins) of ``vendor`` (this machine's CPU vendor by default)."""
    return PIN_SETS.get(vendor or cpu_vendor(), DEFAULT_PINS)


def pinned_state(pins: dict) -> dict:
    """What MKL, ATen, OpenBLAS and numpy report when ``pins`` are in force (the fields of :func:`describe`)."""
    return {_REPORTED[k][0]: _REPORTED[k][1](v) for k, v in pins.items()}


#: This machine's pin set (the CPU does not change under a running process).
PIN_VERSION, PINS = pin_set()
PINNED_STATE = pinned_state(PINS)


def _mkl_branch(torch) -> str | None:
    """MKL's CNR branch as MKL itself reports it (None: this torch has no MKL we can ask)."""
    try:
        lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
        get = lib.mkl_serv_cbwr_get
    except (OSError, AttributeError):
        return None
    get.restype, get.argtypes = ctypes.c_int, [ctypes.c_int]
    code = get(1)  # MKL_CBWR_BRANCH
    return _MKL_BRANCHES.get(code, f"code {code}")


def _mkl_version(torch) -> str | None:
    try:
        lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
        buf = ctypes.create_string_buffer(256)
        lib.MKL_Get_Version_String(buf, 256)
    except (OSError, AttributeError):
        return None
    words = buf.value.decode(errors="replace").split()
    return words[words.index("Version") + 1] if "Version" in words else buf.value.decode(errors="replace")


def _openblas(numpy) -> tuple[str | None, str | None, int | None]:
    """numpy's OpenBLAS: (version, core type in use, threads); Nones if numpy uses another BLAS."""
    libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs", "*openblas*"))
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for suffix in ("64_", ""):
            core = getattr(lib, f"scipy_openblas_get_corename{suffix}", None) or getattr(lib, f"openblas_get_corename{suffix}", None)
            config = getattr(lib, f"scipy_openblas_get_config{suffix}", None) or getattr(lib, f"openblas_get_config{suffix}", None)
            threads = getattr(lib, f"scipy_openblas_get_num_threads{suffix}", None)
            if core is not None and config is not None:
                core.restype = config.restype = ctypes.c_char_p
                words = (config() or b"").decode(errors="replace").split()
                version = words[1] if len(words) > 1 else None
                name = (core() or b"").decode(errors="replace") or None
                return version, name, int(threads()) if threads is not None else None
    return None, None, None


def _numpy_simd(numpy) -> str | None:
    """The highest SIMD target numpy's dispatched loops use here (its dispatch list, ascending)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:
        return None
    enabled = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    return enabled[-1] if enabled else "baseline"


def describe() -> dict:
    """The arithmetic in force in this process, as the libraries report it (computed once):
    the CPU, MKL's CNR branch, ATen's capability, numpy's BLAS and core type, threads, versions,
    whether the pins are in force, and the :func:`arithmetic_id` that goes into run keys."""
    global _described
    if _described is None:
        import numpy
        import torch

        version, core, blas_threads = _openblas(numpy)
        facts = {
            "mode": mode(), "cpu": cpu_model(), "vendor": cpu_vendor(), "machine": platform.machine(),
            "torch": torch.__version__, "numpy": numpy.__version__,
            "mkl": _mkl_version(torch), "mkl_cbwr": _mkl_branch(torch),
            "aten": torch.backends.cpu.get_cpu_capability(),
            "openblas": version, "openblas_core": core, "numpy_simd": _numpy_simd(numpy),
            "torch_threads": torch.get_num_threads(), "openblas_threads": blas_threads,
        }
        state = {k: facts[k] for k in PINNED_STATE}
        facts["pinned"] = facts["mode"] == "pinned" and state == PINNED_STATE and not _late
        facts["pins"] = dict(PINS) if facts["pinned"] else {}  # the variables that recompute in this arithmetic
        facts["id"] = _id(facts)
        _described = facts
    out = dict(_described)
    out["torch_threads"] = __import__("torch").get_num_threads()  # may change after the first call
    return out


def _id(facts: dict) -> str:
    """``pinned-<version>/<CPU vendor>/<library versions>`` where the vendor's pins are in force (the same
    floats on any CPU of that vendor measured so far); ``other/<versions>/<hash>`` elsewhere, hashing what chose the
    kernels (CPU included)."""
    versions = f"torch{facts['torch']}-mkl{facts['mkl']}-numpy{facts['numpy']}-openblas{facts['openblas']}"
    if facts["pinned"]:
        return f"pinned-{PIN_VERSION}/{facts['vendor']}/{versions}"
    chosen = {k: facts[k] for k in ("cpu", "machine", "mkl_cbwr", "aten", "openblas_core", "numpy_simd")}
    return f"other/{versions}/" + hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:12]


def arithmetic_id() -> str:
    """The id of the arithmetic in force (part of every run key); warns once if the pins were asked
    for but could not take effect."""
    facts = describe()
    _warn_once(facts)
    return facts["id"]


def _warn_once(facts: dict) -> None:
    global _warned
    if _warned or facts["pinned"] or facts["mode"] == "native":
        return
    _warned = True
    why = (f"{' and '.join(_late)} loaded before grok_lib" if _late else
           "this CPU has no AVX2 and FMA" if not can_pin() else
           "; ".join(f"{k} is {facts[k]!r}, not {v!r}" for k, v in PINNED_STATE.items() if facts[k] != v))
    warnings.warn(f"grok_lib: the pinned arithmetic is not in force ({why}): this process computes in other "
                  f"arithmetic, so its numbers are compared with the book's within the measured envelope",
                  stacklevel=3)


def summary(facts: dict | None = None) -> str:
    """One line for captions and logs: e.g. ``pinned (MKL AUTO, ATen AVX2, OpenBLAS Haswell) on AMD EPYC``."""
    f = facts or describe()
    what = "pinned" if f["pinned"] else "other arithmetic"
    return (f"{what} (MKL {f['mkl_cbwr']}, ATen {f['aten']}, OpenBLAS {f['openblas_core']}) on {f['cpu']}")


@contextlib.contextmanager
def one_thread():
    """Train in one torch thread. MKL's COMPATIBLE sgemm (DEFAULT_PINS, and AMD's pin set 1) gives other last bits with another
    thread count (measured: a 3220x256 @ 256x113 product differs between one and two threads; under MKL's
    AUTO and, on the Intel Xeon, its AVX2 branch it did not), so a run's numbers would depend on the
    process that trains it. The
    book's training workers run one thread each anyway; a run trained in a notebook, a test or a script
    now gets the same numbers as theirs."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def book_recording(path=None) -> dict:
    """The arithmetic the committed book was recorded in (``book/arithmetic.json``, written by
    ``make baselines``); an empty dict if there is none."""
    from .paths import BOOK_ARITHMETIC

    try:
        with open(path or BOOK_ARITHMETIC) as f:
            return json.loads(f.read())
    except FileNotFoundError:
        return {}


def tier() -> str:
    """How this process's numbers compare with the committed book's: ``exact`` where its
    arithmetic is the recording's (the same floats), ``envelope`` elsewhere (within the spread
    measured across the arithmetic variants of the machines in ``book/envelope.json``)."""
    return "exact" if arithmetic_id() == book_recording().get("id") else "envelope"


def shell_exports() -> str:
    """The pins as ``VAR=value`` words, for make's ``export`` (empty under GROK_ARITHMETIC=native)."""
    return "" if mode() == "native" or not can_pin() else " ".join(f"{k}={v}" for k, v in PINS.items())


if __name__ == "__main__":
    if sys.argv[1:] == ["--env"]:
        print(shell_exports())
    else:
        print(json.dumps(describe(), indent=1))
