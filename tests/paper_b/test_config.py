"""Paper B configs: one clear error per bad parameter, round trips, profiles and sweeps."""

import math
from dataclasses import replace

import pytest

from grok_lib.config import ConfigError
from grok_lib.paper_b import config as C

BAD = [
    (C.SparseConfig, {"alpha": 0.0}, "alpha"),
    (C.SparseConfig, {"alpha": -3.0}, "alpha"),
    (C.SparseConfig, {"weight_decay": -1e-3}, "weight_decay"),
    (C.SparseConfig, {"d": 10, "k": 11}, "k"),
    (C.SparseConfig, {"k": 0}, "k"),
    (C.SparseConfig, {"n_train": 0}, "n_train"),
    (C.SparseConfig, {"lr": 0.0}, "lr"),
    (C.SparseConfig, {"lr_rule": "adam"}, "lr_rule"),
    (C.SparseConfig, {"steps": 1.5}, "steps"),
    (C.SparseConfig, {"margins": 1}, "margins"),
    (C.MisgrokkingConfig, {"gamma": -1.0}, "gamma"),
    (C.MisgrokkingConfig, {"n_test": 0}, "n_test"),
    (C.MatrixCompletionConfig, {"observed_frac": 0.0}, "observed_frac"),
    (C.MatrixCompletionConfig, {"observed_frac": 1.0}, "observed_frac"),
    (C.MatrixCompletionConfig, {"d": 1}, "d"),
    (C.MatrixCompletionConfig, {"alpha": float("nan")}, "alpha"),
    (C.MatrixCompletionConfig, {"init_noise": -0.1}, "init_noise"),
    (C.ModAddConfig, {"p": 1}, "p"),
    (C.ModAddConfig, {"train_frac": 1.2}, "train_frac"),
    (C.ModAddConfig, {"width": 0}, "width"),
    (C.ModAddConfig, {"zero_last": "yes"}, "zero_last"),
    (C.ModAddConfig, {"device": "tpu"}, "device"),
    (C.ModAddConfig, {"weight_decay": -1.0}, "weight_decay"),
]


@pytest.mark.parametrize("cls, kwargs, name", BAD, ids=[f"{c.__name__}-{n}" for c, _, n in BAD])
def test_bad_parameter_is_one_line_error_naming_it(cls, kwargs, name):
    with pytest.raises(ConfigError) as err:
        cls(**kwargs)
    msg = str(err.value)
    assert msg.startswith(name) and "\n" not in msg


@pytest.mark.parametrize("experiment", C.EXPERIMENTS)
@pytest.mark.parametrize("profile", ["ci", "default", "paper"])
def test_round_trip_and_profiles(experiment, profile):
    config = C.profile_config(experiment, profile)
    assert isinstance(config, C.CONFIG_TYPES[experiment])
    assert type(config).from_dict(config.to_dict()) == config
    horizon = C.HORIZON[experiment]
    if horizon is not None:  # every profile's run ends at the horizon on the theory's clock
        assert config.steps == C.steps_for(config, horizon)


def test_overrides_unknown_names_profiles_and_experiments():
    assert C.profile_config("sparse", "ci", alpha=64.0).alpha == 64.0
    assert C.profile_config("sparse", "ci", alpha=None) == C.profile_config("sparse", "ci")
    for bad in (lambda: C.profile_config("sparse", "ci", alpah=3.0), lambda: C.profile_config("sparse", "gpu"),
                lambda: C.profile_config("xor", "ci"), lambda: C.profile_config("sparse", "ci", k=10_000)):
        with pytest.raises(ConfigError):
            bad()
    with pytest.raises(ConfigError, match="unknown parameter"):
        C.SparseConfig.from_dict({**C.SparseConfig().to_dict(), "gamma": 3.0})


def test_paper_profile_is_the_papers_text():
    s = C.profile_config("sparse", "paper")
    assert (s.d, s.n_train, s.k, s.alpha, s.weight_decay, s.lr, s.n_test) == (100_000, 256, 3, 128.0, 1e-3, 0.01, 10_000)
    assert 9e5 < s.steps <= 1e6
    m = C.profile_config("misgrokking", "paper")
    assert (m.gamma, m.n_train) == (25.0, 32)
    mc = C.profile_config("matrix_completion", "paper")
    assert (mc.d, mc.observed_frac, mc.alpha, mc.weight_decay, mc.lr) == (97, 0.05, 10.0, 1e-4, 0.1)
    ma = C.profile_config("modadd", "paper")
    assert (ma.p, ma.train_frac, ma.width, ma.lr, ma.weight_decay, ma.zero_last) == (97, 0.4, 1024, 0.002, 1e-4, True)


def test_default_keeps_the_l2_l1_sample_gap():
    s = C.profile_config("sparse", "default")
    assert s.k**2 * math.log(s.d) < s.n_train < s.k * s.d / 10


def test_sweeps_fit_steps_to_the_clock():
    runs = C.sweep("sparse", "default", "alpha")
    assert len(runs) >= 4 and max(r.alpha for r in runs) / min(r.alpha for r in runs) >= 100
    assert len(C.sweep("sparse", "default", "weight_decay")) >= 3
    for r in runs:
        assert r.steps == C.steps_for(r, C.HORIZON["sparse"])
        assert r == replace(C.profile_config("sparse", "default"), alpha=r.alpha, steps=r.steps)
    mlp = C.sweep("modadd", "default", "alpha")
    assert [r.alpha for r in mlp] == [1.0, 10.0, 100.0] and len({r.steps for r in mlp}) == 1
    with pytest.raises(ConfigError, match="axis"):
        C.sweep("sparse", "ci", "lr")
    with pytest.raises(ConfigError, match="alpha"):
        C.sweep("sparse", "ci", "alpha", values=[])


def test_steps_for_needs_a_clock():
    with pytest.raises(ConfigError, match="weight_decay"):
        C.steps_for(C.SparseConfig(weight_decay=0.0), 2.0)
    assert C.steps_for(C.SparseConfig(alpha=math.e, weight_decay=0.5, lr=0.1), 1.0) == 20
