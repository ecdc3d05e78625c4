"""Stacked sweeps: every member of a stack trains exactly as its solo run would.

The reference is the straightforward solo implementation: ``ModAddMLP`` with
``torch.optim.AdamW`` and the float64 cross-entropy, stepped one config at a time.
"""

import dataclasses

import numpy as np
import pytest
import torch

from grok_lib.config import ConfigError
from grok_lib.paper_a.config import profile_config
from grok_lib.paper_a.metrics import cross_entropy64
from grok_lib.paper_a.model import ModAddMLP
from grok_lib.paper_a.stacked import check_stackable
from grok_lib.paper_a.task import make_split
from grok_lib.paper_a.train import train, train_sweep


#: trained in one torch thread, as the run store trains (conftest.one_thread)
pytestmark = pytest.mark.usefixtures("one_thread")



def reference_run(config):
    """Train losses at every step and the final weights, the plain way."""
    train_split, _ = make_split(config.p, config.train_frac, config.data_seed)
    model = ModAddMLP(config.p, config.d_embed, config.width, config.init_seed, getattr(torch, config.dtype))
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, betas=(config.beta1, config.beta2),
                            weight_decay=config.weight_decay)
    losses = []
    for step in range(config.epochs + 1):
        loss = cross_entropy64(model(train_split.a, train_split.b), train_split.y, train_split.weight)
        losses.append(float(loss.detach()))
        if step == config.epochs:
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    return np.array(losses), {k: v.detach().numpy() for k, v in model.blocks().items()}


def sweep_configs(dtype):
    base = profile_config("ci", epochs=120, eval_every=20, dtype=dtype, device="cpu")
    return [dataclasses.replace(base, weight_decay=0.5), dataclasses.replace(base, weight_decay=1.0, init_seed=3),
            dataclasses.replace(base, weight_decay=0.0, lr=3e-3)]


@pytest.mark.parametrize("dtype, rtol", [("float64", 1e-10), ("float32", 1e-6)])
def test_each_member_equals_its_solo_run(dtype, rtol):
    """float64: every step to 1e-10 relative (the issue's bound), and the final weights. float32 on the CPU:
    under MKL's AUTO branch this was bitwise; under MKL's COMPATIBLE branch (AMD's pin set 1, DEFAULT_PINS) a
    batched product rounds differently from the solo model's plain one, and a chaotic training run grows
    that difference (measured: 1e-7 relative over the first 30 steps, 3e-4 by step 42). So float32 is held
    to 1e-6 over the first 30 steps only; stacking is used on a GPU, never for the book's CPU runs."""
    configs = sweep_configs(dtype)
    stacked = train_sweep(configs, progress=False)
    steps = slice(None) if dtype == "float64" else slice(0, 31)
    for config, history in zip(configs, stacked):
        losses, weights = reference_run(config)
        np.testing.assert_allclose(history["train_loss"][steps], losses[history.steps][steps], rtol=max(rtol, 1e-15),
                                   atol=0)
        if dtype == "float64":
            for k, w in weights.items():
                np.testing.assert_allclose(history.snapshot(k, config.epochs), w, rtol=rtol, atol=0)
        assert history.meta["stacked_with"] == len(configs)


def test_stacked_history_equals_the_solo_history_metric_by_metric():
    configs = sweep_configs("float32")
    stacked = train_sweep(configs, progress=False)
    solo = train(configs[1], progress=False)
    assert stacked[1].steps.tolist() == solo.steps.tolist()
    for name, values in solo.metrics.items():
        np.testing.assert_allclose(stacked[1][name], values, rtol=1e-12, atol=0, equal_nan=True, err_msg=name)


def test_members_must_share_everything_but_numbers():
    a = profile_config("ci")
    check_stackable([a, dataclasses.replace(a, weight_decay=0.1, init_seed=2, lr=0.5, checkpoint_every=7)])
    with pytest.raises(ConfigError, match="may differ only in weight_decay, init_seed, lr; these differ: width"):
        check_stackable([a, dataclasses.replace(a, width=8)])
    with pytest.raises(ConfigError, match="at least one config"):
        check_stackable([])


def test_run_all_trains_missing_members_as_one_stack_and_stores_each(tmp_path):
    from grok_lib.plans import run_key
    from grok_lib.runs import run_all
    from grok_lib.store import RunStore

    configs = sweep_configs("float32")
    store = RunStore(tmp_path)
    histories = run_all(configs, store, progress=False, stack=3)
    assert [h.meta["stacked_with"] for h in histories] == [3, 3, 3]
    assert all(store.has(run_key(c, "cpu")) for c in configs)
    assert not list(tmp_path.glob("*.ckpt.npz"))
    solo = run_all(configs[:1], RunStore(tmp_path / "solo"), progress=False, stack=1)[0]
    assert solo.meta["stacked_with"] == 1
    np.testing.assert_array_equal(solo["test_loss"], histories[0]["test_loss"])


def test_auto_stacking_on_cpu_is_one_member_per_stack_and_bad_sizes_are_refused(tmp_path):
    from grok_lib.kinds import kind_of
    from grok_lib.runs import missing_groups
    from grok_lib.store import RunStore

    configs = sweep_configs("float32")
    store = RunStore(tmp_path)
    assert [len(g) for g in missing_groups(configs, store)] == [kind_of(configs[0]).max_group["cpu"]] * 3
    assert [len(g) for g in missing_groups(configs, store, stack=2)] == [2, 1]
    with pytest.raises(ConfigError, match="stack must be a positive integer or 'auto'"):
        missing_groups(configs, store, stack=0)


def test_gpu_and_cpu_backward_of_the_pair_sum_agree():
    """The GPU's one-hot product and the CPU's scatter-add compute the same gradient (checked on the CPU)."""
    from grok_lib.paper_a.model import pair_sum_grad_onehot, pair_sum_grad_scatter

    g = torch.Generator().manual_seed(0)
    grad = torch.randn(3, 40, 6, generator=g, dtype=torch.float64)
    a, b = torch.randint(0, 11, (40,), generator=g), torch.randint(0, 11, (40,), generator=g)
    torch.testing.assert_close(pair_sum_grad_onehot(grad, a, b, 11), pair_sum_grad_scatter(grad, a, b, 11),
                               rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(pair_sum_grad_onehot(grad[0], a, b, 11), pair_sum_grad_scatter(grad[0], a, b, 11),
                               rtol=1e-12, atol=1e-12)
