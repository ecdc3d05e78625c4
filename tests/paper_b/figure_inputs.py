"""What Part B's figures are drawn from in the image tests (``tests/test_figure_images.py``): each chapter's runs,
synthetic (no training: the same image on every CPU), in the shape its chapter declares (named groups or a list).
A new figure of an existing chapter needs nothing here; a new chapter needs one entry."""

import numpy as np

from grok_lib.paper_b.bridge import InitScaleConfig
from grok_lib.paper_b.config import MatrixCompletionConfig

from .synthetic import bridge, classification, regression


def typed_as(h, config_type):
    """``h`` with a typed config (the rest of ``config_type``'s defaults filled in): the figures pick these runs
    from a chapter's runs by their config type."""
    h.config = config_type().to_dict() | h.config
    h.config_type = config_type
    return h


def alpha_sweep(lam=0.02):
    return [classification(alpha=a, lam=lam, start=s, end=s + 0.3)
            for a, s in ((16.0, 0.2), (128.0, 0.45), (2048.0, 0.6))]


def lambda_sweep(alpha=128.0):
    return [classification(alpha=alpha, lam=lam, start=0.45, end=0.75, steps=int(160 / lam))
            for lam in (0.01, 0.02, 0.04)]


def misgrokking():
    h = classification(alpha=1024.0, start=0.3, end=0.6)
    ramp = (h["test_acc"] - 0.55) / 0.45
    h.metrics["test_acc"] = 0.99 - 0.43 * ramp  # falls from the kernel's 0.99 to the max-L1 classifier's 0.56
    h.config["gamma"] = 25.0
    h.meta.update(l2_test_acc=0.99, l1_test_acc=0.56)
    return h


def completion():
    h = typed_as(regression(), MatrixCompletionConfig)
    h.metrics["train_mse"] = 0.1 * np.exp(-h["t"] / 200) + 1e-7  # fits to an optimiser's floor, not to 1e-300
    return h


def bridge_runs():
    return [typed_as(bridge(alpha=a, lam=lam, fit_at=100 + 80 * i, grok_at=int(900 / lam) + 400 * i), InitScaleConfig)
            for lam in (0.6, 1.0) for i, a in enumerate((1.0, 10.0, 100.0))]


def sweeps():
    return {"alpha": alpha_sweep(), "weight_decay": lambda_sweep()}


#: chapter (its notebook's stem) -> its runs
RUNS = {
    "sparse_classification": sweeps,
    "kernel_vs_rich": lambda: sweeps() | {"misgrokking": [misgrokking()]},
    "matrix_completion": lambda: [completion()],
    "modular_addition": sweeps,
    "init_scale_adamw": bridge_runs,
}

#: recorded set -> its runs (no Part B figure draws one)
SETS = {}
