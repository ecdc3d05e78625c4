"""What a notebook holds after its one setup call: its parameters, configs and histories.

Each paper's ``setup`` module builds a :class:`Run` from a notebook's parameters cell (one
call, parameters in, configs and histories out), so notebooks define no functions and
repeat no plumbing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .claims import Result, format_results, save_records
from .history import History


@dataclass
class Run:
    profile: str  # the named profile the notebook ran with
    parameters: dict  # the notebook's parameters as given (None: the profile's value), for captions
    configs: list  # the resolved configs, in order
    histories: list[History] = field(default_factory=list)  # one per config, same order

    def settings(self, skip: Sequence[str] = ()) -> list[dict]:
        """The first config's settings as table rows (parameter, value), less ``skip``."""
        return [{"parameter": k, "value": v} for k, v in self.configs[0].to_dict().items() if k not in skip]

    def report(self, results: Sequence[Result], source: str) -> str:
        """Record ``results`` as the claims of notebook ``source`` (only for the default profile)
        and return them as text for the notebook to print."""
        save_records(results, source, profile=self.profile)
        return format_results(results)
