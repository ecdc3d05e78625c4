import math

import numpy as np
import pytest
import torch

from grok_lib.clocks import first_crossing, grokking_epoch, t_cls
from grok_lib.history import History
from grok_lib.paper_a.metrics import accuracy, cross_entropy64, stable_rank


def test_stable_rank_known_answers():
    q, _ = torch.linalg.qr(torch.randn(7, 7, dtype=torch.float64))
    assert stable_rank(q) == pytest.approx(7.0)
    u, v = torch.randn(9, 1), torch.randn(1, 4)
    assert stable_rank(u @ v) == pytest.approx(1.0, rel=1e-6)
    assert stable_rank(torch.diag(torch.tensor([2.0, 1.0]))) == pytest.approx(1.25)
    assert stable_rank(torch.zeros(3, 3)) == 0.0


def test_cross_entropy_is_accurate_far_below_float32_resolution():
    # Logit margin m: the loss is log(1 + (K-1) e^-m) ~ (K-1) e^-m, here ~1e-9.
    k, m = 5, 24.0
    logits = torch.zeros(1, k, dtype=torch.float32)
    logits[0, 0] = m
    loss = cross_entropy64(logits, torch.tensor([0]), torch.tensor([1.0], dtype=torch.float64))
    assert float(loss) == pytest.approx(math.log1p((k - 1) * math.exp(-m)), rel=1e-6)


def test_accuracy_weighted():
    logits = torch.tensor([[2.0, 0.0], [0.0, 1.0], [3.0, 0.0]])
    y = torch.tensor([0, 0, 0])
    w = torch.tensor([0.5, 0.25, 0.25], dtype=torch.float64)
    assert float(accuracy(logits, y, w)) == pytest.approx(0.75)


def test_first_crossing():
    steps = np.array([0, 10, 20, 30])
    assert first_crossing(steps, [5, 3, 1, 0.5], 1.0) == 20
    assert math.isnan(first_crossing(steps, [5, 3, 2, 2], 1.0))
    assert first_crossing(steps, [0, 0.2, 0.96, 1.0], 0.95, below=False) == 20


def test_clocks_of_a_synthetic_history():
    steps = np.arange(0, 1001, 10)
    train = 10.0 ** (-steps / 100.0)  # 1e-3 at step 300, 1e-6 at step 600
    test_acc = np.clip((steps - 500) / 400, 0, 1)  # 95% at step 880
    h = History(steps=steps, metrics={"train_loss": train, "test_acc": test_acc}, config={})
    assert t_cls(h, 1e-3) == 300
    assert t_cls(h, 1e-6) == 600
    assert grokking_epoch(h) == 880
    assert math.isnan(t_cls(h, 1e-12))


def test_singular_values_do_not_depend_on_the_thread_count():
    import torch

    from grok_lib.paper_a.metrics import svdvals

    a = torch.randn(200, 120, generator=torch.Generator().manual_seed(1))
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = svdvals(a)
        torch.set_num_threads(2)
        two = svdvals(a)
    finally:
        torch.set_num_threads(threads)
    assert torch.equal(one, two)
    assert torch.get_num_threads() == threads
