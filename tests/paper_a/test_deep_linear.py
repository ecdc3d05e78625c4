"""Deep linear networks: the identities of Paper A, the explicit gradients, the trainer."""

import dataclasses
import math

import numpy as np
import pytest
import torch

from grok_lib.paper_a.chapters import deep_linear_clocks as dln_chapter
from grok_lib.paper_a.dln import config as dl_config, optim as dl_optim, theory as dl, train as dl_train
from grok_lib.config import ConfigError
from grok_lib.plans import run_key
from grok_lib.store import RunStore

CI = dl_config.sweep("ci", depths=(2,), runs=(("gd", 1e-2),))[0]


def random_matrix(rng, shape=(5, 7)):
    return rng.standard_normal(shape)


# --- eq. 2.7, the Schatten identity ------------------------------------------------------------
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_balanced_factorisation_attains_the_schatten_quasi_norm(depth):
    rng = np.random.default_rng(depth)
    a = random_matrix(rng)
    factors = dl.balanced_factors(a, depth)
    assert np.allclose(dl.end_to_end(factors), a, atol=1e-12)
    assert dl.factor_penalty(factors) == pytest.approx(dl.schatten_power(a, 2.0 / depth), rel=1e-12)


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_random_factorisations_are_never_below_the_quasi_norm(depth):
    """W_l = G_l B_l G_{l-1}^{-1} keeps the product A for any invertible G_l; the penalty only grows."""
    rng = np.random.default_rng(10 + depth)
    a = random_matrix(rng)
    balanced = dl.balanced_factors(a, depth)
    target = dl.schatten_power(a, 2.0 / depth)
    r = balanced[0].shape[0]
    for _ in range(50):
        gs = [np.eye(r) + 0.7 * rng.standard_normal((r, r)) for _ in range(depth - 1)]
        factors = []
        for i, b in enumerate(balanced):
            left = gs[i] if i < depth - 1 else np.eye(b.shape[0])
            right = np.linalg.inv(gs[i - 1]) if i > 0 else np.eye(b.shape[1])
            factors.append(left @ b @ right)
        assert np.allclose(dl.end_to_end(factors), a, atol=1e-8)
        assert dl.factor_penalty(factors) >= target * (1 - 1e-12)


def test_schatten_power_of_a_diagonal_matrix():
    assert dl.schatten_power(np.diag([4.0, 1.0, 0.0]), 0.5) == pytest.approx(3.0)


# --- Lemma 3.1 and the loss --------------------------------------------------------------------
def test_lemma31_bound_holds_on_random_logits():
    rng = np.random.default_rng(0)
    for k in (2, 5, 10):
        logits = rng.standard_normal((200, k)) * 3
        y = rng.integers(0, k, 200)
        logits[np.arange(200), y] += 8  # mostly positive margins
        m = dl.margins(logits, y)
        pos = m > 0
        per_sample = np.array([dl.cross_entropy(logits[i:i + 1], y[i:i + 1]) for i in np.flatnonzero(pos)])
        bounds = np.array([dl.lemma31_bound(g, k) for g in m[pos]])
        assert np.all(per_sample <= bounds)
        assert dl.cross_entropy(logits[pos], y[pos]) <= dl.lemma31_bound(m[pos].min(), k)


def test_margins_of_a_known_example():
    logits = np.array([[3.0, 1.0, 0.5], [0.0, 2.0, 2.5]])
    assert np.allclose(dl.margins(logits, np.array([0, 1])), [2.0, -0.5])


def test_cross_entropy_matches_torch_and_keeps_tiny_losses():
    rng = np.random.default_rng(1)
    logits, y = rng.standard_normal((50, 4)), rng.integers(0, 4, 50)
    ref = torch.nn.functional.cross_entropy(torch.from_numpy(logits), torch.from_numpy(y)).item()
    assert dl.cross_entropy(logits, y) == pytest.approx(ref, rel=1e-12)
    big = np.array([[40.0, 0.0, 0.0]])  # loss = log(1 + 2 e^-40) ~ 2 e^-40, far below float64's eps
    assert dl.cross_entropy(big, np.array([0])) == pytest.approx(2 * math.exp(-40), rel=1e-12)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_explicit_gradients_match_torch_autograd(depth):
    cfg = dataclasses.replace(CI, depth=depth)
    x, y = dl_train.make_task(cfg)
    factors = dl_train.init_factors(cfg)
    onehot = np.eye(cfg.n_classes)[y]
    grad_a = dl.cross_entropy_grad(x @ dl.end_to_end(factors).T, onehot).T @ x
    ours = dl.factor_gradients(factors, grad_a)
    ws = [torch.tensor(w, requires_grad=True) for w in factors]
    a = ws[0]
    for w in ws[1:]:
        a = w @ a
    torch.nn.functional.cross_entropy(torch.from_numpy(x) @ a.T, torch.from_numpy(y)).backward()
    for mine, w in zip(ours, ws):
        assert np.allclose(mine, w.grad.numpy(), rtol=1e-10, atol=1e-14)


# --- Prop. 4.3 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_factored_drift_predicts_a_small_gd_step_on_balanced_factors(depth):
    rng = np.random.default_rng(depth)
    cfg = dataclasses.replace(CI, depth=depth, n_classes=3, d_in=8)
    x, y = dl_train.make_task(cfg)
    a = rng.standard_normal((3, 8))
    factors = dl.balanced_factors(a, depth)
    lam, lr = 0.05, 1e-7
    onehot = np.eye(3)[y]
    grad_a = dl.cross_entropy_grad(x @ a.T, onehot).T @ x
    s, prop43, factored = dl.singular_value_drift(a, grad_a, lam, depth)
    grads = dl.factor_gradients(factors, grad_a)
    stepped = [w - lr * (g + 2 * lam / depth * w) for w, g in zip(factors, grads)]
    measured = (np.linalg.svd(dl.end_to_end(stepped), compute_uv=False) - s) / lr
    assert np.allclose(measured, factored, rtol=1e-4)
    if depth == 1:
        assert np.allclose(prop43, factored)
    else:
        assert not np.allclose(measured, prop43, rtol=0.1)


# --- the optimiser and the trainer ---------------------------------------------------------------
def test_adamw_matches_torch():
    rng = np.random.default_rng(3)
    w0 = [rng.standard_normal((3, 4)), rng.standard_normal(5)]
    grads = [[rng.standard_normal(w.shape) for w in w0] for _ in range(5)]
    ours = [w.copy() for w in w0]
    opt = dl_optim.AdamW(ours, lr=1e-2, weight_decay=0.1)
    ts = [torch.tensor(w, requires_grad=True) for w in w0]
    topt = torch.optim.AdamW(ts, lr=1e-2, betas=dl_optim.ADAM_BETAS, eps=dl_optim.ADAM_EPS, weight_decay=0.1)
    for g in grads:
        opt.step(ours, g)
        for t, gi in zip(ts, g):
            t.grad = torch.from_numpy(gi)
        topt.step()
    for mine, t in zip(ours, ts):
        assert np.allclose(mine, t.detach().numpy(), rtol=1e-12, atol=1e-15)


def test_training_is_deterministic_and_records_every_metric():
    first, second = dl_train.train_deep_linear(CI, progress=False), dl_train.train_deep_linear(CI, progress=False)
    assert first.steps.tolist() == dl_train.record_steps(CI).tolist()
    for name, values in first.metrics.items():
        assert np.array_equal(values, second.metrics[name], equal_nan=True), name
    for name in ("train_loss", "margin", "srank_A", "schatten", "energy", "objective", "sv_0", "drift_measured_0",
                 "drift_prop43_0", "drift_factored_0"):
        assert name in first.metrics
    assert first.meta["energy_min"] <= first.final("objective") + 1e-12
    assert first.meta["energy_min_grad_norm"] < 1e-6
    # E(A) <= F(W): the penalty of any factorisation is at least the Schatten quasi-norm
    assert np.all(first["energy"] <= first["objective"] + 1e-12)
    assert first["train_loss"][-1] < first["train_loss"][0]


def test_gd_decreases_the_objective_with_a_small_step():
    h = dl_train.train_deep_linear(dataclasses.replace(CI, lr=0.05, steps=500), progress=False)
    assert np.all(np.diff(h["objective"]) <= 1e-12)


@pytest.mark.parametrize("bad, message", [
    (dict(depth=5), "depth must be one of"),
    (dict(optimizer="sgd"), "optimizer must be one of gd, adamw"),
    (dict(lr=0.0), "lr must be a number in (0.0, inf)"),
    (dict(weight_decay=-1e-3), "weight_decay must be a number in [0.0, inf)"),
    (dict(width=2), "width must be >= min(n_classes, d_in)"),
])
def test_bad_config_is_one_clear_error(bad, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        dataclasses.replace(CI, **bad)


def test_sweep_rejects_unknown_parameters_and_bad_profiles():
    with pytest.raises(ConfigError, match="unknown parameter"):
        dl_config.sweep("default", epochs=10)
    with pytest.raises(ConfigError, match="profile must be one of"):
        dl_config.sweep("huge")
    with pytest.raises(ConfigError, match=r"depths must be a non-empty list of numbers, got '\[2\]'"):
        dl_config.sweep("default", "[2]")  # what papermill's -p passes for a list
    with pytest.raises(ConfigError, match=r"depths must be a non-empty list of 1, 2, 3, 4, got \[2.5\]"):
        dl_config.sweep("default", [2.5])
    configs = dl_config.sweep("default")
    assert len(configs) == 4 * len(dl_config.SWEEP_RUNS)
    assert {c.lr for c in configs if c.optimizer == "adamw"} == {dl_config.ADAMW_LR}


def test_store_caches_deep_linear_runs(tmp_path):
    store = RunStore(tmp_path)
    first = store.get_or_run(CI, progress=False)
    again = store.get_or_run(CI, progress=False)
    assert again.meta["key"] == first.meta["key"] == run_key(CI, "cpu")
    assert np.array_equal(first["energy"], again["energy"])
    assert run_key(dataclasses.replace(CI, weight_decay=2e-2), "cpu") != run_key(CI, "cpu")


@pytest.mark.train
def test_run_all_trains_in_worker_processes_with_the_same_numbers(tmp_path):
    from grok_lib.paper_a.config import profile_config
    from grok_lib.runs import run_all

    mlp = [profile_config("ci", epochs=60, device="cpu", weight_decay=wd) for wd in (0.5, 1.0)]
    configs = dl_config.sweep("ci", depths=(1, 3), runs=(("gd", 1e-2), ("adamw", 0.0)))
    histories = run_all(configs + mlp, RunStore(tmp_path), progress=False, workers=2)
    in_process = run_all(mlp, RunStore(tmp_path / "in-process"), progress=False)
    for a, b in zip(histories[len(configs):], in_process):
        for name, values in b.metrics.items():
            assert np.array_equal(a[name], values, equal_nan=True), name
    for c, h in zip(configs, histories):
        again = dl_train.train_deep_linear(c, progress=False)
        for name, values in again.metrics.items():
            assert np.array_equal(h[name], values, equal_nan=True), name
        assert h.meta["energy_min"] == again.meta["energy_min"]
    with pytest.raises(ConfigError, match="workers must be a positive integer"):
        run_all(configs, RunStore(tmp_path), progress=False, workers=0)


# --- the chapter's regime: GD follows the gradient flow of the theory (lr x sharpness < 2) -----------------------
def test_sharpness_is_the_top_eigenvalue_of_the_objectives_hessian():
    from grok_lib.paper_a.dln.clocks import sharpness
    from grok_lib.paper_a.dln.train import init_factors, make_task

    config = dataclasses.replace(CI, depth=2, weight_decay=1e-2)  # 88 parameters: the Lanczos path
    x, y = (torch.from_numpy(v) for v in make_task(config))
    shapes = [w.shape for w in init_factors(config)]
    sizes = [math.prod(s) for s in shapes]

    def objective(flat):
        w1, w2 = (p.reshape(s) for p, s in zip(torch.split(flat, sizes), shapes))
        f = torch.nn.functional.cross_entropy(x @ (w2 @ w1).T, y)
        return f + config.weight_decay / config.depth * (flat**2).sum()

    point = torch.cat([torch.from_numpy(w).reshape(-1) for w in init_factors(config)])
    hessian = torch.autograd.functional.hessian(objective, point).numpy()
    assert sharpness(config) == pytest.approx(np.linalg.eigvalsh(hessian)[-1], rel=1e-8)
    small = dataclasses.replace(CI, depth=1, d_in=2, n_classes=2)  # 4 parameters: the whole Hessian
    assert sharpness(small) > 0


def test_the_regime_is_measured_on_every_gd_run(tmp_path):
    from grok_lib.paper_a.dln.clocks import sharpness

    runs = [dl_train.train_deep_linear(c, progress=False) for c in dl_config.sweep("ci", depths=(2,), steps=50)]
    regime = dln_chapter.regime(runs)
    gd = [h for h in runs if h.cfg.optimizer == "gd"]
    assert regime.ok and f"over the {len(gd)} GD runs" in regime.measured
    assert all(h.cfg.lr * sharpness(h.cfg) < 2 for h in gd)
    results = dln_chapter.evaluate_deep_linear(runs)
    assert all(r.regime is not None and r.regime.ok for r in results)
    assert all(r.verdict != "not tested faithfully" for r in results if r.claim.id != "A.dln.fast_log")
    # the same runs, read as if GD had taken steps 100 times larger: outside the regime, whatever they measure
    steep = [dataclasses.replace(h, config=h.config | {"lr": h.cfg.lr * 100}) for h in runs]
    assert not dln_chapter.regime(steep).ok
    assert {r.verdict for r in dln_chapter.evaluate_deep_linear(steep)} == {"not tested faithfully"}


def test_contraction_reads_one_rate_for_a_geometric_loss_and_t0_over_t_end_for_a_1_over_t_loss():
    """Proposition 3.6's reading (A.dln.contraction): L_t = 0.99^t contracts at mu = 0.01 on every interval
    (slowest / median = 1); L_t = 1/t has mu_k ~ 1/t, so the slowest over the median is about the window's
    start over its middle; a rise between records is a negative rate."""
    from grok_lib.history import History
    from grok_lib.paper_a.dln.clocks import contraction_rates

    steps = np.unique(np.geomspace(10, 10_000, 60).astype(np.int64))
    margin = np.ones(steps.size)

    def rates(loss):
        return contraction_rates(History(steps=steps, metrics={"train_loss": loss, "margin": margin}, config={}),
                                 t_end=float(steps[-1]))

    geometric = rates(0.99 ** steps.astype(float))
    assert np.allclose(geometric["mu"], 0.01) and geometric["slowest"] == pytest.approx(1.0)
    harmonic = rates(1.0 / steps)
    assert harmonic["start"] > 50 * harmonic["end"]
    assert 0.005 < harmonic["slowest"] < 0.05  # t0 / t_end = 1e-3 against the median's ~1/300
    rising = 0.99 ** steps.astype(float)
    rising[30] *= 2
    assert rates(rising)["slowest"] < 0
    never = contraction_rates(History(steps=steps, metrics={"train_loss": 1.0 / steps, "margin": -margin}, config={}))
    assert never["mu"].size == 0 and math.isnan(never["slowest"])  # the margin never turns positive: no window
