"""The one call each Paper A notebook makes: its parameters in, configs and histories out.

The positional parameters of :func:`mlp` and :func:`deep_linear` are exactly the parameters
of the notebooks that call them (their parameters cells assign these names; anything else
is an unknown parameter, see :func:`grok_lib.notebook.parameters`); ``output_path`` is the
output notebook, where a run with other than the committed settings writes its figures and
claims (see :func:`grok_lib.notebook.start`).
"""

from __future__ import annotations

from .. import recorded as recorded_runs
from ..history import History
from ..notebook import Run, start
from . import config
from .dln import config as dln_config


def mlp(profile: str = "default", weight_decays=None, p=None, train_frac=None, split=None, init=None, width=None,
        epochs=None, data_seed=None, init_seed=None, device=None, *, output_path=None) -> Run:
    """The weight-decay sweep of every MLP notebook (None: the profile's value / the paper's λs),
    served by the run store, trained on a miss."""
    overrides = {"p": p, "train_frac": train_frac, "split": split, "init": init, "width": width, "epochs": epochs,
                 "data_seed": data_seed, "init_seed": init_seed, "device": device}
    configs = config.sweep(profile, weight_decays, **overrides)
    parameters = {"profile": profile, "weight_decays": weight_decays, **overrides}
    return start(profile, parameters, configs, config.sweep("default"), output_path)


def deep_linear(profile: str = "default", depths=None, steps=None, lr=None, seed=None, n_classes=None, d_in=None,
                width=None, n_train=None, *, output_path=None) -> Run:
    """The deep-linear sweep (depths x the (optimiser, λ) runs), served by the run store."""
    overrides = {"steps": steps, "lr": lr, "seed": seed, "n_classes": n_classes, "d_in": d_in, "width": width,
                 "n_train": n_train}
    configs = dln_config.sweep(profile, dln_config.DEPTHS if depths is None else depths, **overrides)
    parameters = {"profile": profile, "depths": depths, **overrides}
    return start(profile, parameters, configs, dln_config.sweep("default"), output_path)


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
