"""Paper C's config: one-line errors naming the parameter, profiles, overrides, the run sets."""

import json

import pytest

from grok_lib.config import ConfigError
from grok_lib.paper_c import config as cc
from grok_lib.paper_c.config import LinearEstimatorConfig, profile_config


@pytest.mark.parametrize("name,value", [
    ("lam", 0.0), ("lam", -0.5), ("lam", float("nan")), ("lam", 5000.0), ("d_in", 0), ("d_in", 2.5), ("d_out", 0),
    ("eps", 0.0), ("eps", -1e-3), ("eta", 0.0), ("eta", -0.01), ("eta", 5.0), ("gamma", -1e-3), ("steps", 0),
    ("n_test", 0), ("label_noise", -0.1), ("model", "gelu"), ("gain", 0.0), ("gain", -2.0), ("hidden", 0), ("solver", "exact"),
    ("data_seed", -1), ("init_seed", 1.5), ("n_log", 0), ("grok_eps", (1e-3, 0.0)), ("grok_eps", [1e-3]),
    ("test_label_noise", "yes"), ("eta", True),
])
def test_bad_parameters_are_one_line_errors_naming_the_parameter(name, value):
    with pytest.raises(ConfigError) as err:
        LinearEstimatorConfig(**{name: value})
    message = str(err.value)
    assert name in message and "\n" not in message


def test_direct_solver_is_for_the_linear_student_only():
    with pytest.raises(ConfigError, match="solver"):
        LinearEstimatorConfig(model="tanh", solver="direct")


def test_gain_is_the_tanh_nets_and_absent_from_old_keys():
    """gain (tanh(g z) / g) is set on tanh nets only; at its default it is left out of the dict the run store hashes
    and the recorded sets hold, so every run recorded before it existed keeps its key."""
    with pytest.raises(ConfigError, match="gain") as err:
        LinearEstimatorConfig(model="relu", gain=2.0)
    assert "\n" not in str(err.value)
    plain = LinearEstimatorConfig(model="tanh")
    assert "gain" not in plain.to_dict()
    assert LinearEstimatorConfig.from_dict(plain.to_dict()) == plain
    gained = LinearEstimatorConfig(model="tanh", gain=20.0)
    assert gained.to_dict()["gain"] == 20.0
    assert LinearEstimatorConfig.from_dict(json.loads(json.dumps(gained.to_dict()))) == gained


def test_aligned_dicts_fill_a_field_left_out_at_its_default():
    """Tables and progress labels compare configs field by field: where one config leaves gain out (its default)
    and another sets it, both get the field (grok_lib.config.aligned_dicts)."""
    from grok_lib.config import aligned_dicts

    plain, gained = LinearEstimatorConfig(model="tanh"), LinearEstimatorConfig(model="tanh", gain=2.0)
    a, b = aligned_dicts([plain, gained])
    assert a["gain"] == 1.0 and b["gain"] == 2.0 and list(a) == list(b)
    assert aligned_dicts([plain]) == [plain.to_dict()]  # nothing to fill: as to_dict


def test_activation_runs_share_data_and_init_per_seed():
    groups = cc.activation_configs("ci", gains=(2.0, 20.0), seeds=(0, 1))
    assert list(groups) == ["two_layer", "relu", "tanh_g2", "tanh_g20"]
    for group in groups.values():
        assert [(c.data_seed, c.init_seed) for c in group] == [(0, 0), (1, 1)]
    assert {c.model for c in groups["relu"]} == {"relu"} and {c.gain for c in groups["tanh_g20"]} == {20.0}
    base = {k: v for k, v in groups["two_layer"][0].to_dict().items() if k != "model"}
    assert all({k: v for k, v in g[0].to_dict().items() if k not in ("model", "gain")} == base for g in groups.values())


def test_unknown_overrides_and_profiles():
    with pytest.raises(ConfigError) as err:
        profile_config("default", lr=0.1)
    assert "lr" in str(err.value) and "eta" in str(err.value)  # lists the allowed names
    with pytest.raises(ConfigError, match="profile"):
        profile_config("huge")


def test_profiles():
    default = profile_config("default")
    assert (default.eta, default.d_in, default.eps, default.d_out, default.gamma) == (0.01, 1000, 1e-3, 1, 0.0)
    assert profile_config("paper") == default  # the paper's settings are already cheap
    assert 1e-8 in default.all_eps and default.all_eps[0] == 1e-3
    ci = profile_config("ci")
    assert ci.d_in < 100
    assert profile_config("default", lam=0.9, eta=None).lam == 0.9  # None keeps the profile's value
    assert profile_config("default", grok_eps=[1e-4]).grok_eps == (1e-4,)


def test_to_dict_from_dict_round_trip_through_json():
    c = profile_config("default", lam=0.3, gamma=1e-3, model="tanh")
    back = LinearEstimatorConfig.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back == c
    with pytest.raises(ConfigError):
        LinearEstimatorConfig.from_dict(c.to_dict() | {"extra": 1})


def test_derived_sizes():
    c = profile_config("default", lam=0.9)
    assert c.n_train == 1111 and c.lam_eff == pytest.approx(1000 / 1111)


def test_run_sets_are_valid_and_distinct():
    runs = cc.part_c_configs("default")
    assert len(runs) == len(set(runs))
    lams = {c.lam for c in runs if c.model == "linear" and c.d_out == 1 and c.gamma == 0 and c.label_noise == 0}
    assert {0.1, 0.9, 1.5} <= lams and set(cc.GROK_LAMS) <= lams
    d_outs = {c.d_out for c in runs if c.lam == cc.D_OUT_LAM}
    assert set(cc.D_OUTS) <= d_outs
    assert {c.model for c in runs} == set(cc.MODELS) - {"relu"}  # the ReLU net is a recorded run only
    noise = [c.label_noise for c in cc.noise_configs("default")]
    assert noise[0] == 0.0 and 0 < noise[1] < noise[2] < (1e-3 / 4) ** 0.5
    with pytest.raises(ConfigError, match="lams"):
        cc.curve_configs("default", lams="[0.1, 0.9]")
