import dataclasses

import pytest

from grok_lib import config as C
from grok_lib.config import ConfigError
from grok_lib.paper_a.config import ModAddConfig, profile_config, weight_decay_sweep
from grok_lib.store import RunStore, run_all

BAD = [
    ("p", 1, "p must be an integer >= 2"),
    ("p", 2.5, "p must be an integer >= 2"),
    ("p", "113", "p must be an integer >= 2"),
    ("train_frac", 0.0, "train_frac must be a number in (0.0, 1.0)"),
    ("train_frac", 1.0, "train_frac must be a number in (0.0, 1.0)"),
    ("train_frac", 1.2, "train_frac must be a number in (0.0, 1.0)"),
    ("weight_decay", -0.1, "weight_decay must be a number in [0.0, inf)"),
    ("lr", -1e-3, "lr must be a number in (0.0, inf)"),
    ("lr", 0.0, "lr must be a number in (0.0, inf)"),
    ("width", 0, "width must be an integer >= 1"),
    ("epochs", 10.5, "epochs must be an integer >= 1"),
    ("device", "gpu", "device must be one of auto, cpu, cuda"),
    ("dtype", "float16", "dtype must be one of float32, float64"),
]


@pytest.mark.parametrize("field,value,message", BAD)
def test_bad_parameter_gives_one_line_error_naming_it(field, value, message):
    with pytest.raises(ConfigError) as err:
        ModAddConfig(**{field: value})
    text = str(err.value)
    assert text.startswith(message) and "\n" not in text
    assert repr(value) in text


def test_unknown_profile():
    with pytest.raises(ConfigError, match=r"^profile must be one of ci, default, paper; got 'fast'$"):
        profile_config("fast")


def test_unknown_parameter():
    with pytest.raises(ConfigError, match="unknown parameter.*widht"):
        profile_config("default", widht=5)


def test_profile_overrides_and_none_means_keep():
    base = profile_config("default")
    assert profile_config("default", width=None) == base
    assert profile_config("default", width=64).width == 64
    assert profile_config("paper").epochs == 15_000


def test_unknown_device_from_environment(monkeypatch):
    monkeypatch.setenv("GROK_DEVICE", "tpu")
    with pytest.raises(ConfigError, match="^device must be one of auto, cpu, cuda; got 'tpu'$"):
        C.resolve_device("auto")


def test_cuda_requested_without_cuda(monkeypatch):
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    with pytest.raises(ConfigError, match="device 'cuda' was requested"):
        C.resolve_device("cuda")
    assert C.resolve_device("auto") == "cpu"


def test_bad_device_fails_before_any_training(tmp_path, monkeypatch, ci_config):
    # The first config is fine, the second asks for a missing GPU: nothing may be trained or written.
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    configs = [ci_config, dataclasses.replace(ci_config, device="cuda")]
    with pytest.raises(ConfigError):
        run_all(configs, RunStore(tmp_path / "runs"), progress=False)
    assert not (tmp_path / "runs").exists()


def test_weight_decay_sweep():
    sweep = weight_decay_sweep(profile_config("ci"))
    assert [c.weight_decay for c in sweep] == [0.6, 0.7, 0.8, 0.9, 1.0]
    with pytest.raises(ConfigError, match="weight_decays"):
        weight_decay_sweep(profile_config("ci"), [])


def test_a_list_parameter_given_as_a_string_is_one_clear_error():
    from grok_lib.config import ConfigError
    from grok_lib.paper_a.config import sweep as paper_a_sweep

    with pytest.raises(ConfigError, match=r"weight_decays must be a non-empty list of numbers, got '\[0.5, 1.5\]'"):
        paper_a_sweep("default", "[0.5, 1.5]")
    with pytest.raises(ConfigError, match="weight_decays must be a non-empty list"):
        paper_a_sweep("default", [])
