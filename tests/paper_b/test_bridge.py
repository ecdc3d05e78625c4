"""The bridge to Part A: its config, sweep and trainer (Paper A's model and split, AdamW, init times alpha)."""

import math

import numpy as np
import pytest
import torch

from grok_lib import kinds
from grok_lib.config import ConfigError

from grok_lib.paper_a.model import ModAddMLP
from grok_lib.paper_b import bridge, bridge_train, measure
from grok_lib.paper_a import model as paper_a_model, task as paper_a_task
from grok_lib.paper_b.kinds import INIT_SCALE


@pytest.mark.parametrize("kwargs, name", [({"alpha": 0.0}, "alpha"), ({"weight_decay": -1.0}, "weight_decay"),
                                          ({"p": 1}, "p"), ({"train_frac": 1.0}, "train_frac"),
                                          ({"beta2": 1.0}, "beta2"), ({"device": "tpu"}, "device"),
                                          ({"steps": 0}, "steps")])
def test_bad_parameter_is_one_line_error_naming_it(kwargs, name):
    with pytest.raises(ConfigError) as err:
        bridge.InitScaleConfig(**kwargs)
    assert str(err.value).startswith(name) and "\n" not in str(err.value)


def test_profiles_sweep_and_round_trip():
    paper = bridge.profile_config("paper")
    assert (paper.p, paper.d_embed, paper.width, paper.lr, paper.beta1, paper.beta2) == (113, 128, 512, 1e-3, 0.9, 0.98)
    configs = bridge.sweep("default")
    assert len(configs) == 24 and {c.weight_decay for c in configs} == {0.6, 1.0}
    assert [c.data_seed for c in configs] == [0] * 8 + [1] * 8 + [2] * 8 and all(c.init_seed == c.data_seed for c in configs)
    assert sorted({c.alpha for c in configs}) == [1.0, 10.0, 100.0, 1000.0]
    assert all(bridge.InitScaleConfig.from_dict(c.to_dict()) == c for c in configs)
    with pytest.raises(ConfigError, match="alphas"):
        bridge.sweep("ci", alphas=[1.0, 1.0])
    for bad in ([0, 0], [0.5], [-1], []):
        with pytest.raises(ConfigError, match="seeds"):
            bridge.sweep("ci", seeds=bad)
    with pytest.raises(ConfigError, match="unknown"):
        bridge.profile_config("ci", beta3=0.5)
    assert bridge.predicted_delay(bridge.profile_config("default", alpha=math.e, weight_decay=0.5)) == pytest.approx(100)


def test_the_run_kind_hashes_paper_as_model_and_task():
    assert kinds.kind_of(bridge.profile_config("ci")) is INIT_SCALE
    assert {paper_a_model, paper_a_task} <= set(INIT_SCALE.code) and INIT_SCALE.name.startswith("paper_b.")


def test_the_initial_weights_are_paper_as_times_alpha():
    c = bridge.profile_config("ci", alpha=7.0)
    model = bridge_train.scaled_model(c, "cpu")
    ref = ModAddMLP(c.p, c.d_embed, c.width, c.init_seed)
    for (name, w), w0 in zip(model.blocks().items(), ref.blocks().values()):
        torch.testing.assert_close(w, 7.0 * w0, msg=name)


@pytest.mark.train
def test_training_is_deterministic_and_records_what_the_figures_read():
    c = bridge.profile_config("ci", alpha=10.0, steps=40, eval_every=10)
    h1, h2 = bridge_train.train(c, progress=False), bridge_train.train(c, progress=False)
    assert list(h1.steps) == [0, 10, 20, 30, 40]
    for name in ("train_loss", "test_loss", "train_acc", "test_acc", "norm", "adam_step", "t", "norm_E"):
        assert np.array_equal(h1[name], h2[name]), name
    standard = bridge_train.scaled_model(bridge.profile_config("ci"), "cpu")
    norm1 = math.sqrt(sum(float(w.detach().double().pow(2).sum()) for w in standard.parameters()))
    assert h1["norm"][0] == pytest.approx(10.0 * norm1, rel=1e-6)
    assert np.allclose(h1["t"], h1.steps * c.lr)
    # early on, the weights shrink by (1 - lr lambda) per step and Adam's own move is tiny against them
    assert h1["norm"][1] == pytest.approx(h1["norm"][0] * (1 - c.lr * c.weight_decay) ** 10, rel=0.02)


def test_delays_are_read_against_alpha_one_per_lambda():
    from .test_claims import bridge_run

    runs = [bridge_run(a, lam, g, 40) for lam, a, g in ((1.0, 1.0, 300), (1.0, 10.0, 500), (0.6, 1.0, 400), (0.6, 10.0, 900))]
    ds = {(d.alpha, d.weight_decay): d for d in measure.delays(runs)}
    assert ds[(10.0, 1.0)].delay == 200 and ds[(10.0, 0.6)].delay == 500
    assert ds[(10.0, 1.0)].predicted == pytest.approx(math.log(10) / (1.0 * 0.02))
