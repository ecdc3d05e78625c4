"""The stacked sweep of sparse diagonal nets (grok_lib/paper_b/diagonal_sweep.py): a member's numbers are bitwise
those of the same config trained alone, whatever its sweep; they agree with the one-by-one trainer to rounding;
float32 stays close to float64 at small alpha; bad sweeps are refused; the benchmark checks before it times; its
arrays as torch tensors (the GPU's path, here on the CPU) give the numpy path's numbers to rounding, resume bitwise
and only on their own device."""

from dataclasses import replace

import numpy as np
import pytest

from grok_lib.arithmetic import arithmetic_id
from grok_lib.config import ConfigError
from grok_lib.paper_b import diagonal, diagonal_sweep
from grok_lib.paper_b.config import PROFILES, MisgrokkingConfig

BASE = replace(PROFILES["ci"]["sparse"], steps=300, n_log=30, n_snapshots=3)


def member(alpha, **kw):
    return replace(BASE, alpha=alpha, **kw)


def test_a_member_is_bitwise_the_config_trained_alone():
    sweep = [member(a) for a in (4.0, 16.0, 128.0, 1024.0, 2048.0)]
    histories = diagonal_sweep.train_sweep(sweep, progress=False)
    for j in (0, 2, 4):
        alone = diagonal_sweep.train_sweep([sweep[j]], progress=False)[0]
        assert np.array_equal(histories[j].steps, alone.steps)
        for name in alone.metrics:
            assert np.array_equal(histories[j][name], alone[name]), name
        assert np.array_equal(histories[j].snapshots["beta"], alone.snapshots["beta"])


def test_a_sweep_longer_than_a_block_keeps_every_member():
    alphas = [2.0 + k for k in range(diagonal_sweep.BLOCK + 2)]
    sweep = [member(a, steps=40, n_log=6) for a in alphas]
    histories = diagonal_sweep.train_sweep(sweep, progress=False)
    assert [h.cfg.alpha for h in histories] == alphas
    last = diagonal_sweep.train_sweep([sweep[-1]], progress=False)[0]
    assert np.array_equal(histories[-1]["train_loss"], last["train_loss"])


def test_members_agree_with_the_one_by_one_trainer():
    sweep = [member(a, steps=200 + 50 * k) for k, a in enumerate((4.0, 16.0, 128.0))]
    for h, c in zip(diagonal_sweep.train_sweep(sweep, progress=False), sweep):
        ref = diagonal.train(c, progress=False)
        assert np.array_equal(h.steps, ref.steps)
        for name in ("train_loss", "test_loss", "norm", "t", "lr", "cos_l1", "cos_l2", "beta_l1"):
            np.testing.assert_allclose(h[name], ref[name], rtol=1e-9, atol=1e-12, err_msg=name)


def test_float32_stays_near_float64_at_small_alpha():
    sweep = [member(a) for a in (16.0, 128.0)]
    for a, b in zip(diagonal_sweep.train_sweep(sweep, progress=False),
                    diagonal_sweep.train_sweep(sweep, dtype="float32", progress=False)):
        np.testing.assert_allclose(b["norm"], a["norm"], rtol=1e-4)
        assert np.max(np.abs(b["test_acc"] - a["test_acc"])) <= 0.02


def test_members_must_share_their_data():
    with pytest.raises(ConfigError, match="differ only in alpha, weight_decay, lr, steps, n_log; these differ in data_seed"):
        diagonal_sweep.check_stackable([member(4.0), member(16.0, data_seed=1)])
    with pytest.raises(ConfigError, match="at least one config"):
        diagonal_sweep.check_stackable([])
    with pytest.raises(ConfigError, match="trains SparseConfig members, got \\['MisgrokkingConfig'\\]"):
        diagonal_sweep.check_stackable([MisgrokkingConfig()])


def test_dtype_is_checked_before_training():
    with pytest.raises(ConfigError, match="dtype must be one of"):
        diagonal_sweep.train_sweep([member(4.0)], dtype="float16", progress=False)


def test_the_benchmark_checks_agreement_and_reports_ratios(tmp_path):
    from benchmarks import bench_diagonal_sweep

    out = bench_diagonal_sweep.main(["--d", "300", "--n", "40", "--steps", "3", "--json", str(tmp_path / "b.json")])
    assert out["agreement_after_20_steps"] <= 1e-10
    assert out["ratio_f64"] > 0 and out["ratio_f32"] > 0 and out["floor_f64_s"] == 2 * out["floor_f32_s"]
    assert (tmp_path / "b.json").exists()


def _same(a, b):
    assert np.array_equal(a.steps, b.steps)
    assert set(a.metrics) == set(b.metrics)
    for name in a.metrics:
        assert np.array_equal(a[name], b[name]), name
    assert np.array_equal(a.snapshot_steps, b.snapshot_steps)
    assert np.array_equal(a.snapshots["beta"], b.snapshots["beta"])


def test_a_resumed_sweep_is_bitwise_the_sweep_run_straight_through(tmp_path):
    sweep = [member(a, steps=300 - 40 * k) for k, a in enumerate((4.0, 128.0, 2048.0))]
    straight = diagonal_sweep.train_sweep(sweep, progress=False)
    states = []
    again = diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=states.append, checkpoint_every=70)
    # a checkpoint follows the updates of steps 69, 139, ...; the last update is step 299's, the last step 300
    assert [s.step for s in states] == [70, 140, 210, 280]
    for a, b in zip(straight, again):
        _same(a, b)
    path = tmp_path / "sweep.npz"
    for state in states:  # 210 and 280: after the members that end at 220 and 260 have, or have not, finished
        diagonal_sweep.save_state(path, state)
        resumed = diagonal_sweep.train_sweep(sweep, progress=False, resume=diagonal_sweep.load_state(path))
        for a, b in zip(straight, resumed):
            _same(a, b)
            assert b.meta["resumed_from"] == state.step


def test_a_checkpoint_on_the_last_step_resumes_to_the_same_end():
    sweep = [member(a, steps=100) for a in (4.0, 16.0)]
    states = []
    straight = diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=states.append, checkpoint_every=50,
                                          stop_after=0.0)  # stops at 50; never with only the last step left
    assert straight is None and [s.step for s in states] == [50]
    more = []
    end = diagonal_sweep.train_sweep(sweep, progress=False, resume=states[0], on_checkpoint=more.append,
                                     checkpoint_every=50, stop_after=0.0)
    assert [s.step for s in more] == [100] and end is not None  # the checkpoint at the last step did not stop it
    for a, b in zip(diagonal_sweep.train_sweep(sweep, progress=False), end):
        _same(a, b)
    assert end[0].meta["seconds"] >= float(states[0].arrays["seconds"])  # every call's time, added up


def test_stop_after_ends_at_a_checkpoint_and_the_next_session_finishes(tmp_path):
    sweep = [member(a, steps=200) for a in (16.0, 1024.0)]
    path = tmp_path / "sweep.npz"
    save = lambda state: diagonal_sweep.save_state(path, state)  # noqa: E731
    assert diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=save, checkpoint_every=50,
                                      stop_after=0.0) is None  # stopped at its first checkpoint
    assert diagonal_sweep.load_state(path).step == 50
    finished = diagonal_sweep.train_sweep(sweep, progress=False, resume=diagonal_sweep.load_state(path))
    for a, b in zip(diagonal_sweep.train_sweep(sweep, progress=False), finished):
        _same(a, b)


def test_a_checkpoint_resumes_only_its_own_sweep():
    sweep = [member(a, steps=100) for a in (4.0, 16.0)]
    states = []
    diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=states.append, checkpoint_every=50)
    with pytest.raises(ConfigError, match="another sweep"):
        diagonal_sweep.train_sweep([member(4.0, steps=100), member(32.0, steps=100)], progress=False,
                                   resume=states[0])
    with pytest.raises(ConfigError, match="another sweep"):
        diagonal_sweep.train_sweep(sweep, dtype="float32", progress=False, resume=states[0])
    made_elsewhere = replace(states[0], signature=states[0].signature.replace(arithmetic_id(), "another arithmetic"))
    assert made_elsewhere.signature != states[0].signature
    with pytest.raises(ConfigError, match="arithmetic differ"):
        diagonal_sweep.train_sweep(sweep, progress=False, resume=made_elsewhere)
    with pytest.raises(ConfigError, match="at most 8 members"):
        diagonal_sweep.train_sweep([member(2.0 + k, steps=10) for k in range(9)], progress=False,
                                   on_checkpoint=states.append)
    with pytest.raises(ConfigError, match="stop_after and stop_at need on_checkpoint"):
        diagonal_sweep.train_sweep(sweep, progress=False, stop_after=1.0)
    with pytest.raises(ConfigError, match="checkpoint_every"):
        diagonal_sweep.train_sweep(sweep, progress=False, checkpoint_every=0)


def test_its_arrays_as_torch_tensors_give_the_numpy_paths_numbers():
    """The GPU check's path, run on the CPU: another library's products, so not bitwise, but the same numbers to
    rounding, the stable step's tight bound included (alpha = 2048 and 16384 take shortened steps early). The rounding
    of beta = u^2 - v^2 grows as alpha^2: measured, the paths differ by 1e-15 at alpha = 4, 4e-11 at 2048 and 4e-9 at
    16384 (relative), so 1e-7 holds them all and a wrong operation (a difference of order one) fails."""
    sweep = [member(a, steps=300 - 40 * k) for k, a in enumerate((4.0, 2048.0, 16384.0))]
    numpy_path = diagonal_sweep.train_sweep(sweep, progress=False)
    torch_path = diagonal_sweep.train_sweep(sweep, progress=False, array_device="cpu")
    assert min(numpy_path[2]["lr"]) < BASE.lr  # the stable rule did shorten steps
    for a, b in zip(numpy_path, torch_path):
        assert np.array_equal(a.steps, b.steps) and set(a.metrics) == set(b.metrics)
        for name in a.metrics:
            np.testing.assert_allclose(b[name], a[name], rtol=1e-7, atol=1e-12, err_msg=name)
        # beta's entries near 0 carry the rounding of u^2 (alpha^2 / 2d at initialisation, 3.4e5 at alpha = 16384):
        # absolute, measured up to 3e-15 of it
        u2 = a.config["alpha"] ** 2 / (2 * a.config["d"])
        np.testing.assert_allclose(b.snapshots["beta"], a.snapshots["beta"], rtol=1e-7, atol=1e-13 * u2)


def test_a_torch_sweep_resumes_bitwise_and_only_on_its_own_device():
    sweep = [member(a, steps=200) for a in (16.0, 1024.0)]
    straight = diagonal_sweep.train_sweep(sweep, progress=False, array_device="cpu")
    states = []
    assert diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=states.append, checkpoint_every=50,
                                      stop_after=0.0, array_device="cpu") is None
    resumed = diagonal_sweep.train_sweep(sweep, progress=False, resume=states[0], array_device="cpu")
    for a, b in zip(straight, resumed):
        _same(a, b)
    with pytest.raises(ConfigError, match="another sweep"):  # a torch checkpoint on the numpy path
        diagonal_sweep.train_sweep(sweep, progress=False, resume=states[0])
    with pytest.raises(ConfigError, match="array_device must be one of cpu, cuda"):
        diagonal_sweep.train_sweep(sweep, progress=False, array_device="tpu")


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs a CUDA device")
def test_on_a_gpu_the_sweep_gives_the_numpy_paths_numbers():
    sweep = [member(a, steps=300 - 40 * k) for k, a in enumerate((4.0, 2048.0, 16384.0))]
    for a, b in zip(diagonal_sweep.train_sweep(sweep, progress=False),
                    diagonal_sweep.train_sweep(sweep, progress=False, array_device="cuda")):
        for name in a.metrics:  # as on the CPU (test above), another library's rounding
            np.testing.assert_allclose(b[name], a[name], rtol=1e-7, atol=1e-12, err_msg=name)


def test_stop_at_takes_a_checkpoint_at_the_first_step_past_it_and_resumes_to_the_same_end():
    sweep = [member(a, steps=120) for a in (16.0, 1024.0)]
    states = []
    assert diagonal_sweep.train_sweep(sweep, progress=False, on_checkpoint=states.append, checkpoint_every=100,
                                      stop_at=0.0) is None  # long past: a checkpoint after the first update
    assert [s.step for s in states] == [1]
    for a, b in zip(diagonal_sweep.train_sweep(sweep, progress=False),
                    diagonal_sweep.train_sweep(sweep, progress=False, resume=states[0])):
        _same(a, b)
    with pytest.raises(ConfigError, match="stop_after and stop_at need on_checkpoint"):
        diagonal_sweep.train_sweep(sweep, progress=False, stop_at=0.0)


def test_a_sweep_folder_names_what_differs(tmp_path):
    from grok_lib.paper_b import sweep_folder

    sweep = [member(a, steps=50) for a in (16.0, 1024.0)]
    sweep_folder.check(tmp_path, sweep, "float64")
    with pytest.raises(ConfigError, match="holds another sweep \\(its sweep.json names dtype float64\\)"):
        sweep_folder.check(tmp_path, sweep, "float32")
    with pytest.raises(ConfigError, match="was trained with array_device numpy, this call computes with cpu: go on with it"):
        sweep_folder.check(tmp_path, sweep, "float64", array_device="cpu")
    if not __import__("torch").cuda.is_available():
        with pytest.raises(ConfigError, match="array_device 'cuda' was requested but torch.cuda.is_available"):
            sweep_folder.train(tmp_path / "gpu", sweep, array_device="cuda")
        assert not (tmp_path / "gpu").exists()  # refused before the folder was made
