"""The runs several of Paper A's chapters read: the one call every MLP notebook makes (:func:`mlp`: its parameters
in, the weight-decay sweep's configs and histories out, served by the run store), the recorded sets (the paper's
settings at both splits, more seeds, the default runs as recorded) and the seeds a verdict is judged on.

The positional parameters of :func:`mlp` are exactly the parameters of the notebooks that call it (their parameters
cells assign these names; anything else is an unknown parameter, see :func:`grok_lib.notebook.parameters`);
``output_path`` is the output notebook, where a run with other than the committed settings writes its figures and
claims (see :func:`grok_lib.notebook.start`)."""

from __future__ import annotations

from .. import recorded as recorded_runs
from ..history import History
from ..notebook import Run, start
from . import config, recordings


def mlp(profile: str = "default", weight_decays=None, p=None, train_frac=None, split=None, init=None, width=None,
        epochs=None, data_seed=None, init_seed=None, device=None, *, output_path=None) -> Run:
    """The weight-decay sweep of every MLP notebook (None: the profile's value / the paper's λs),
    served by the run store, trained on a miss."""
    overrides = {"p": p, "train_frac": train_frac, "split": split, "init": init, "width": width, "epochs": epochs,
                 "data_seed": data_seed, "init_seed": init_seed, "device": device}
    configs = config.sweep(profile, weight_decays, **overrides)
    parameters = {"profile": profile, "weight_decays": weight_decays, **overrides}
    return start(profile, parameters, configs, config.sweep("default"), output_path)


def recorded(name: str) -> list[History]:
    """The histories of Paper A's recorded set ``name`` (``paper_unordered``, ``paper_ordered``,
    ``init_scaled``, ``seeds``; see :mod:`grok_lib.paper_a.recordings`), checked against its definition."""
    return recorded_runs.part_set("paper_a", name)


#: The two recorded splits at the paper's settings, as the figures and tables label them: label -> recorded set.
PAPER_SPLITS = {"0.5 of the unordered pairs (the book's split)": "paper_unordered",
                "0.3 of the ordered pairs (the usual recipe)": "paper_ordered"}


def paper_splits() -> dict[str, list[History]]:
    """The recorded runs at the paper's settings, one sweep per split: label -> histories (:data:`PAPER_SPLITS`)."""
    return {label: recorded(name) for label, name in PAPER_SPLITS.items()}


def seed_sweeps() -> list[list[History]]:
    """The default profile's weight-decay sweep at seeds 0 (the book's own runs), 1 and 2, from the
    recorded ``seeds`` set: one sweep per seed, each in λ order."""
    runs = recorded("seeds")
    n = len(config.WEIGHT_DECAYS)
    return [runs[i:i + n] for i in range(0, len(runs), n)]


def judged_seeds(run: Run) -> list[list[History]]:
    """The sweeps ``run``'s verdicts are judged on: its own runs and, where its configs are the default
    profile's, the recorded seeds 1 and 2 of the same sweep. A grokking epoch moves with the seed (and
    with the last bits of the arithmetic), so a verdict holds only if it holds for every seed."""
    if [c.to_dict() for c in run.configs] == [c.to_dict() for c in config.sweep("default")]:
        return [list(run.histories), *seed_sweeps()[1:]]
    return [list(run.histories)]


def default_runs() -> list[History]:
    """The default profile's sweep at seed 0, whatever the notebook's own parameters (recorded: the
    same runs ``make book`` trains): what the recorded default-profile sets are compared with."""
    return seed_sweeps()[0]


def describe(run: Run) -> str:
    """The line an MLP notebook prints after its setup call: its runs, their shared settings and the weight decays."""
    c0 = run.configs[0]
    return (f"profile {run.profile!r}: {len(run.histories)} runs, p={c0.p}, width={c0.width}, "
            f"train_frac={c0.train_frac}, epochs={c0.epochs}; weight decays {[c.weight_decay for c in run.configs]}")


def paper_configs() -> dict:
    """The first config of each recorded split at the paper's settings: split -> config."""
    return {"unordered": recordings.paper_unordered()[0], "ordered": recordings.paper_ordered()[0]}


def paper_settings_reading() -> dict[str, str]:
    """The settings of the recorded runs at the paper's scale: width, epochs and both splits' training fractions."""
    unordered, ordered = paper_configs().values()
    return dict(paper_width=f"{unordered.width}", paper_epochs=f"{unordered.epochs:,}",
                unordered_frac=f"{unordered.train_frac:g}", ordered_frac=f"{ordered.train_frac:g}")
