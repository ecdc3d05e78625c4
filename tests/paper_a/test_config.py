import dataclasses

import pytest

from grok_lib.plans import plan

from grok_lib import config as C
from grok_lib.config import ConfigError
from grok_lib.paper_a import run_sets
from grok_lib.paper_a.config import ModAddConfig, profile_config, weight_decay_sweep
from grok_lib.runs import run_all
from grok_lib.store import RunStore

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
    with pytest.raises(ConfigError, match="^GROK_DEVICE must be one of auto, cpu, cuda; got 'tpu'$"):
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


# --- sizes have a bound, found before anything runs (issue: reruns, case 6) -------------------------------------
# The estimate is the run kind's (grok_lib/kinds.py: a row's ``memory``); plan() checks it, before any training.
def test_a_size_past_the_memory_budget_is_one_line_naming_it():
    import time

    t0 = time.perf_counter()
    with pytest.raises(ConfigError) as err:
        plan(profile_config("default", p=10007))
    text = str(err.value)
    assert time.perf_counter() - t0 < 1.0
    assert text.startswith("p=10007 needs about") and "\n" not in text
    assert "a run may use at most 16 GiB (GROK_MAX_RUN_GIB): p <= " in text


@pytest.mark.parametrize("field,value", [("width", 10**7), ("d_embed", 10**6), ("epochs", 10**12)])
def test_every_size_of_the_mlp_is_bounded(field, value):
    with pytest.raises(ConfigError, match=f"^{field}={value} needs about .* {field} <= \\d+ fits"):
        plan(profile_config("default", **{field: value}))


def test_the_memory_budget_can_be_raised_and_is_checked(monkeypatch):
    monkeypatch.setenv("GROK_MAX_RUN_GIB", "40000")
    assert plan(profile_config("default", p=2003)).config.p == 2003  # allowed on a machine declared large enough
    monkeypatch.setenv("GROK_MAX_RUN_GIB", "lots")
    with pytest.raises(ConfigError, match="^GROK_MAX_RUN_GIB must be a positive number of GiB, got 'lots'$"):
        plan(profile_config("default"))


def test_the_deep_linear_sizes_are_bounded():
    from grok_lib.paper_a.dln.config import sweep as dln_sweep

    with pytest.raises(ConfigError, match="^width=1000000 needs about .* width <= \\d+ fits"):
        plan(dln_sweep("ci", depths=[3], width=10**6)[0])


def test_the_whole_sweep_is_validated_before_the_store_is_touched(tmp_path, monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    with pytest.raises(ConfigError, match="^p=10007 needs"):
        run_sets.mlp(profile="ci", p=10007)
    assert not (tmp_path / "runs").exists()


# --- errors name the parameter as the notebook spells it (case 10) ----------------------------------------------
def test_a_train_frac_that_leaves_a_side_empty_is_a_config_error():
    with pytest.raises(ConfigError, match=r"^train_frac must be a number in \(0.001812, 0.9982\) for p=23 "
                                          r"\(276 unordered pairs, at least one on each side\), got 0.001$"):
        profile_config("ci", train_frac=0.001)
    assert profile_config("ci", train_frac=0.002).train_frac == 0.002  # one pair: allowed


@pytest.mark.parametrize("values,message", [
    ([-1], r"^weight_decays must be a non-empty list of numbers in \[0.0, inf\), got \[-1\]$"),
    ([0.5, float("nan")], r"^weight_decays must be a non-empty list of numbers in \[0.0, inf\), got \[0.5, nan\]$"),
    ([0.5, 0.5], r"^weight_decays must not repeat a value, got \[0.5, 0.5\] \(0.5 twice\)$"),
])
def test_a_bad_weight_decay_list_names_weight_decays(values, message):
    from grok_lib.paper_a.config import sweep as paper_a_sweep

    with pytest.raises(ConfigError, match=message):
        paper_a_sweep("ci", values)


@pytest.mark.parametrize("depths,message", [
    ([5], r"^depths must be a non-empty list of 1, 2, 3, 4, got \[5\]$"),
    ([1.5], r"^depths must be a non-empty list of 1, 2, 3, 4, got \[1.5\]$"),
    ([2.0], r"^depths must be a non-empty list of 1, 2, 3, 4, got \[2.0\]$"),
    ([2, 2], r"^depths must not repeat a value"),
])
def test_a_bad_depth_list_names_depths(depths, message):
    from grok_lib.paper_a.dln.config import sweep as dln_sweep

    with pytest.raises(ConfigError, match=message):
        dln_sweep("ci", depths=depths)


def test_cuda_on_a_cpu_machine_fails_in_the_setup_call_before_the_store(tmp_path, monkeypatch):
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    with pytest.raises(ConfigError, match="^device 'cuda' was requested"):
        run_sets.mlp(profile="ci", device="cuda")
    assert not (tmp_path / "runs").exists()


def test_the_memory_error_names_the_size_the_user_raised_not_the_profiles():
    """At the ci profile p = 23 (below its default 113): raising width alone must blame width, not p."""
    with pytest.raises(ConfigError, match=r"^width=10000000 needs about .* width <= \d+ fits"):
        plan(profile_config("ci", width=10**7))
