"""Where each figure comes from: the figure manifest and the caption printed under a figure.

The figure manifest (:func:`load_manifest`, derived from the chapters' declarations,
:mod:`grok_lib.chapters`) maps each figure to its notebook, the parameters of the
committed run and the files it writes. A notebook prints :func:`caption` right under the figure, naming
the notebook, the parameters it ran with and the exact library code.
"""

from __future__ import annotations

from . import __version__
from .code_deps import loaded_code


def load_manifest(part: str | None = None) -> dict[str, dict]:
    """The figure manifest: name -> {title, notebook, parameters, outputs}, derived from the chapters'
    declarations (:func:`grok_lib.chapters.manifest`); ``part``: only that part's figures."""
    from .chapters import manifest

    return manifest(part)


def manifest_entry(name: str) -> dict:
    """Figure ``name``'s manifest entry, read from its own part's declarations only (a notebook that draws a
    figure of Part A imports no module of Parts B and C for it), from the chapter module its notebook imported
    (:func:`grok_lib.chapters.declaring`)."""
    from .chapters import declaring, manifest_entry as entry

    return entry(*declaring(name))


def stamp(name: str, parameters: dict, devices=()) -> str:
    """The provenance sentence of a figure's caption (Markdown): the notebook (with a link to its
    executed source in the book), the parameters it ran with (or, for a figure drawn from recorded
    runs, those runs: :func:`recorded_source`), the library version, the hash of the grok_lib modules loaded when
    it was drawn (:func:`grok_lib.code_deps.loaded_code`) and the device.

    No date and no commit: a notebook executed again with nothing changed must be rewritten byte for byte
    (an empty ``git diff`` after ``make book`` is the sign that the book reproduced); the code hash names the
    exact code of the modules it ran, and git's history says when it was committed. Not the whole library's hash:
    a build re-executes only the notebooks whose modules changed, and the others' captions must stay true.
    """
    entry = manifest_entry(name)
    notebook = entry["notebook"]
    source = f"../../_sources/{notebook}"  # where the book keeps the executed notebook
    library = f"grok_lib {__version__}, library code `{loaded_code()}`"  # the modules loaded so far
    recorded = recorded_source(name)
    if recorded is not None:  # the notebook's parameters do not reach these runs: name the runs instead
        return f"Made by `{notebook}` (<a href=\"{source}\">notebook</a>) {recorded}; {library}."
    given = ", ".join(f"`{k}={v!r}`" for k, v in parameters.items() if v is not None)
    device = ", ".join(devices) or "cpu"
    return (f"Made by `{notebook}` (<a href=\"{source}\">notebook</a>) with {given} (every other setting "
            f"from the profile); {library}; run on {device}.")


def _setting(value) -> str:
    """A config value as a caption shows it: 15,000; 0.3; unordered."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def _differences(configs: list[dict], reference: list[dict]) -> dict[str, str]:
    """The fields whose values over ``configs`` differ from those over ``reference`` (a swept field
    compares as the list of values it takes), each with its value or values as a caption shows them."""
    def values(cs, k):
        return list({repr(c.get(k)): c.get(k) for c in cs}.values())

    return {k: ", ".join(_setting(v) for v in values(configs, k)) for k in configs[0]
            if values(configs, k) != values(reference, k)}


def recorded_source(name: str) -> str | None:
    """Where figure ``name`` comes from when it is drawn from recorded runs (None otherwise), in words for
    its caption: the recorded sets and when, where and with which library code they were trained (their
    manifests), the profile whose settings they have, and the settings in which their runs differ from the
    default profile's, read from the recordings' configs (never typed): "from the recorded runs
    `paper_a/paper_unordered` and `paper_a/paper_ordered` (in `recorded/`; trained on ...), at the `paper`
    profile's settings: the default profile's but epochs 15,000, width 512, and for `paper_a/paper_ordered`
    also split ordered, train_frac 0.3"."""
    from .chapters import recorded_sets

    sets = recorded_sets(name)
    if not sets:
        return None
    from . import recorded
    from .config import to_dict

    from .chapters import recorded_profiles

    part = name.split("/", 1)[0]
    profiles = {p: [to_dict(c) for c in cs] for p, cs in recorded_profiles(part).items()}
    names = [f"{part}/{s}" for s in sets if s != "default"]
    manifests = {n: recorded.read_manifest(n) for n in names}
    configs = {n: [r["config"] for r in m["runs"]] for n, m in manifests.items()}
    changed = {n: _differences(cs, profiles["default"]) for n, cs in configs.items()}
    common = {k: v for k, v in next(iter(changed.values())).items() if all(c.get(k) == v for c in changed.values())}
    own = {n: {k: v for k, v in c.items() if k not in common} for n, c in changed.items()}
    # the profile each set is closest to (the fewest differing settings; the default profile on a tie)
    closest = {min(profiles, key=lambda p: (len(_differences(cs, profiles[p])), p != "default"))
               for cs in configs.values()}
    made = sorted({(m.get("recorded", "?"), m.get("machine", "?"), m.get("library_hash", "?"))
                   for m in manifests.values()})
    when = "; ".join(f"trained on {date} on {machine}, library code `{code}`" for date, machine, code in made)
    runs = " and ".join(f"`{n}`" for n in names)
    settings = ", ".join(f"{k} {v}" for k, v in common.items())
    settings += "".join(f"{', and for' if settings else 'for'} `{n}` {'also ' if settings else ''}"
                        + ", ".join(f"{k} {v}" for k, v in c.items()) for n, c in own.items() if c)
    head = ("from the default profile's runs and the recorded runs " if "default" in sets
            else "from the recorded runs ") + runs
    profile = next(iter(closest)) if len(closest) == 1 else "default"
    at = f"at the `{profile}` profile's settings: the default profile's" if profile != "default" else \
        "at the default profile's settings"
    which = "the recorded ones " if "default" in sets else ""
    return f"{head} (in `recorded/`; {when}), {which}{at}" + (f" but {settings}" if settings else "")
