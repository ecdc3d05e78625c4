"""Typed histories: a history the store or a recorded set hands out knows its config's dataclass
(``h.cfg.weight_decay``), rebuilt from the plain dict the history file keeps."""

import json

import numpy as np
import pytest

from grok_lib.config import ConfigError, to_dict
from grok_lib.history import History, stamped, typed
from grok_lib import chapters
from grok_lib.paper_b.config import SparseConfig


def _book_configs():
    return [c for profile in ("ci", "default") for c in chapters.book_configs(profile)]


def test_every_book_config_comes_back_as_itself_from_its_stored_dict():
    configs = _book_configs()
    assert len({type(c) for c in configs}) >= 6  # every part's config types, not one
    for c in configs:
        stored = json.loads(json.dumps(to_dict(c)))  # what a history file holds (tuples become lists)
        assert typed(type(c), stored) == c


def _history(config_dict):
    return History(steps=np.arange(3), metrics={"loss": np.ones(3)}, config=config_dict)


def test_a_stamped_history_reads_its_config_by_attribute():
    config = SparseConfig(alpha=10.0)
    (h,) = stamped([_history(to_dict(config))], [config])
    assert h.cfg == config and h.cfg.alpha == 10.0 and type(h.cfg) is SparseConfig
    with pytest.raises(AttributeError):
        h.cfg.weight_decy  # a misspelt field fails where it is read, not as a silent KeyError elsewhere


def test_a_stamped_history_whose_dict_is_no_longer_a_valid_config_says_which_field():
    (h,) = stamped([_history(to_dict(SparseConfig()) | {"alpha": -1.0})], [SparseConfig()])
    with pytest.raises(ConfigError, match="alpha"):
        h.cfg


def test_a_hand_built_history_reads_its_plain_dict_by_attribute():
    h = _history({"alpha": 3.0, "weight_decay": 0.1})
    assert h.cfg.alpha == 3.0 and not isinstance(h.cfg, SparseConfig)


def test_stamping_needs_one_config_per_history():
    with pytest.raises(ValueError):
        stamped([_history({})], [])


def test_the_type_is_not_in_the_saved_bytes():
    config = SparseConfig()
    plain = _history(to_dict(config))
    (typed_h,) = stamped([_history(to_dict(config))], [config])
    assert plain.to_bytes() == typed_h.to_bytes()
