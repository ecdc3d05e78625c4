"""The key numbers of each Paper A MLP figure, computed once.

For every figure two kinds of function live here:

- ``<figure>_table(histories)``: the rows the notebook prints (nbval compares them) and
  the checks (:mod:`grok_lib.paper_a.checks`) read;
- ``<figure>(histories)``: the figure's numbers reduced for figure regression (the book's run writes them
  into the figure's data file, ``book/figure_files/paper_a/<figure>.json``; compared by
  :func:`grok_lib.figure_numbers.compare`), built from the same tables where they overlap.

Each figure's chapter declaration (:mod:`grok_lib.paper_a.chapters`) names its reduction. The tables
of how the verdicts move with their thresholds are in :mod:`grok_lib.paper_a.sensitivity`; the
figures of the recorded sets (the paper's settings, the splits, the second init) in
:mod:`grok_lib.paper_a.recorded_numbers`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..clocks import grokking_epoch, t_cls
from ..figure_numbers import at_epochs, none_if_nan
from ..history import History
from . import geometry, robustness
from .clocks import t_rep_srank
from .relu_reduction import CHURN_WINDOW, churn_rate, frozen_epoch, reduction_error
from .thresholds import FIT_EPS

#: The epochs at which Figure 1's curves are guarded.
FIG1_EPOCHS = (0, 100, 500, 1000, 1500, 2000, 3000, 4000)
#: Figure 2: a kept checkpoint after the train set is fitted, long before test accuracy rises.
MEMORISING_EPOCH = 500
#: Figure 3 and the clocks: the matrix whose stable rank is the slow clock, and the others shown.
SLOW_MATRIX, OTHER_MATRICES = "E", ("W", "U", "EW")
#: The reduced model of the activation chapter: the pattern of this epoch held to the end.
PATTERN_EPOCH = 1000


def _tag(h: History) -> str:
    return f"wd={h.cfg.weight_decay:g}"


# --- Figure 1 ---------------------------------------------------------------------------------------
def fig1_key_numbers(history: History) -> dict:
    """The key numbers of one Figure 1 run."""
    return {
        "weight_decay": history.cfg.weight_decay,
        "T_cls(1e-3)": t_cls(history, 1e-3),
        "T_cls(1e-6)": t_cls(history, 1e-6),
        "T_grok(95%)": grokking_epoch(history, 0.95),
        "final_train_loss": history.final("train_loss"),
        "final_test_loss": history.final("test_loss"),
        "final_test_acc": history.final("test_acc"),
    }


def fig1_table(histories: Sequence[History]) -> list[dict]:
    return [fig1_key_numbers(h) for h in histories]


def fig1_loss_curves(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 1: train/test loss and test accuracy at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h in robustness.by_weight_decay(histories):
        values |= at_epochs(h, ("train_loss", "test_loss", "test_acc"), _tag(h), FIG1_EPOCHS)
        for name, value in fig1_key_numbers(h).items():
            if name.startswith("T_"):
                values[f"{_tag(h)}/{name}"] = none_if_nan(value)
    return values


# --- Figure 2 ---------------------------------------------------------------------------------------
def polygon_reading(x: np.ndarray) -> dict:
    """A matrix's dominant frequency k, its top-5 energy share, and how far its rows, relabelled
    j = k i mod p and projected on frequency k's plane, are from a regular polygon."""
    k = geometry.dominant_frequency(x)
    dev = geometry.polygon_deviation(geometry.circle_projection(x, k), k)
    return {"k": k, "share_top5": geometry.energy_fraction(x, 5), **dev}


def fig2_table(histories: Sequence[History], focus: History, memorising: int | None = MEMORISING_EPOCH) -> list[dict]:
    """E's reading at init and while memorising (``focus`` run; None: no such row, for recorded runs
    that keep only their first and last weights), and at the end of every run."""
    stages = [(focus, "epoch 0", 0)] + ([] if memorising is None else [(focus, f"epoch {memorising}", memorising)])
    stages += [(h, "end", int(h.steps[-1])) for h in histories]
    rows = []
    for h, label, step in stages:
        r = polygon_reading(h.snapshot("E", step))
        rows.append({"weight_decay": h.cfg.weight_decay, "stage": label, "k(E)": r["k"],
                     "top-5 share": round(r["share_top5"], 3), "radius CV": round(r["radius_cv"], 3),
                     "angle error (steps)": round(r["angle_rms"], 2)})
    return rows


def fig2_embedding_geometry(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 2: E's and U's top-5 energy share and polygon deviation, per weight decay."""
    values: dict[str, float | None] = {}
    for h in histories:
        for step in (0, MEMORISING_EPOCH, int(h.steps[-1])):
            for block in ("E", "U"):
                r = polygon_reading(h.snapshot(block, step))
                for name in ("share_top5", "radius_cv", "angle_rms"):
                    values[f"{_tag(h)}/{block}@{step}/{name}"] = r[name]
    return values


# --- Figure 3 ---------------------------------------------------------------------------------------
def fig3_srank_table(histories: Sequence[History]) -> list[dict]:
    """Every matrix's stable rank at the start, its peak, and the end, for the smallest and largest λ."""
    ordered = robustness.by_weight_decay(histories)
    ends = ordered[:: max(len(ordered) - 1, 1)]  # the smallest and the largest weight decay
    rows = []
    for name in (SLOW_MATRIX, *OTHER_MATRICES):
        for h in ends:
            s = h[f"srank_{name}"]
            rows.append({"matrix": name, "weight_decay": h.cfg.weight_decay, "start": round(float(s[0]), 1),
                         "peak": round(float(s.max()), 1), "peak epoch": int(h.steps[s.argmax()]),
                         "end": round(float(s[-1]), 1)})
    return rows


def clock_table_row(history: History, matrix: str = SLOW_MATRIX) -> dict:
    """T_cls at three levels, T_rep, the grokking epoch and the clock ratio, for one run."""
    row = {"weight_decay": history.cfg.weight_decay}
    for eps in (1e-2, 1e-4, 1e-6):
        row[f"T_cls({eps:.0e})"] = t_cls(history, eps)
    row["T_rep"] = t_rep_srank(history, matrix)
    row["T_grok(95%)"] = grokking_epoch(history)
    row["T_rep/T_cls(1e-04)"] = row["T_rep"] / row["T_cls(1e-04)"]
    return row


def fig3_clock_table(histories: Sequence[History], matrix: str = SLOW_MATRIX) -> list[dict]:
    return [clock_table_row(h, matrix) for h in histories]


def fig3_stable_rank(histories: Sequence[History]) -> dict[str, float | None]:
    """Figure 3: the stable ranks and test loss at fixed epochs, and the clocks, per weight decay."""
    values: dict[str, float | None] = {}
    for h, row in zip(histories, fig3_clock_table(histories)):
        values |= at_epochs(h, ("test_loss", "srank_E", "srank_W", "srank_U", "srank_EW"), _tag(h), FIG1_EPOCHS)
        for name, v in row.items():
            if name.startswith("T_") and "/" not in name:
                values[f"{_tag(h)}/{name}"] = none_if_nan(v)
    return values


# --- the gradient hierarchy --------------------------------------------------------------------------
def gradient_ratios(history: History) -> dict[str, np.ndarray]:
    """Head-to-embedding ratios per recorded epoch: raw gradient norms and AdamW's relative updates."""
    return {
        "grad_U/grad_E": history["grad_U"] / history["grad_E"],
        "grad_W/grad_E": history["grad_W"] / history["grad_E"],
        "update_U/update_E": history["update_U"] / history["update_E"],
    }


def gradient_table(histories: Sequence[History]) -> list[dict]:
    """Median gradient and update ratios while fitting (before T_cls(1e-3)) and after, and the norms."""
    rows = []
    for h in histories:
        r = gradient_ratios(h)
        t_fit = t_cls(h, FIT_EPS)
        early, late = h.steps < t_fit, h.steps >= t_fit
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": t_fit,
                     "grad U/E fit": round(float(np.median(r["grad_U/grad_E"][early])), 2),
                     "grad U/E after": round(float(np.median(r["grad_U/grad_E"][late])), 2),
                     "update U/E fit": round(float(np.nanmedian(r["update_U/update_E"][early])), 2),
                     "update U/E after": round(float(np.nanmedian(r["update_U/update_E"][late])), 2),
                     "|U|2 at fit": round(h.at("spec_U", t_fit), 2), "|W|2 at fit": round(h.at("spec_W", t_fit), 2),
                     "|U|2 end": round(h.final("spec_U"), 2)})
    return rows


def gradient_hierarchy(histories: Sequence[History]) -> dict[str, float | None]:
    """Gradient-hierarchy figure: gradient norms, bound factors and update sizes at fixed epochs."""
    names = ("grad_E", "grad_W", "grad_U", "spec_U", "spec_W", "mean_delta_h", "mean_delta_z", "mean_delta_B",
             "update_E", "update_U")
    values: dict[str, float | None] = {}
    for h in histories:
        values |= at_epochs(h, names, _tag(h), FIG1_EPOCHS[:-1])
    return values


# --- activation patterns --------------------------------------------------------------------------
def activation_marks(histories: Sequence[History]) -> dict[float, tuple[float, float]]:
    """λ -> (T_cls(1e-3), T_rep): the two clocks marked on the churn plot."""
    return {h.cfg.weight_decay: (t_cls(h, FIT_EPS), t_rep_srank(h)) for h in histories}


def reduction_to_end(history: History) -> dict[str, float]:
    """The reduced model with the pattern of :data:`PATTERN_EPOCH` held to the last step."""
    return reduction_error(history, PATTERN_EPOCH, int(history.steps[-1]))


def activation_table(histories: Sequence[History]) -> list[dict]:
    """Per run: both clocks, the frozen epoch, and the reduced model's error over two spans."""
    marks = activation_marks(histories)
    rows = []
    for h in histories:
        end = int(h.steps[-1])
        err, near = reduction_to_end(h), reduction_error(h, end - 500, end)
        t_fit, t_rep = marks[h.cfg.weight_decay]
        rows.append({"weight_decay": h.cfg.weight_decay, "T_cls(1e-3)": t_fit, "T_rep": t_rep,
                     "frozen epoch": frozen_epoch(h),
                     "bits 1000->end": round(err["bits_changed"], 3), "logit err 1000->end": round(err["rel_logit_error"], 3),
                     "same pred": round(err["same_prediction"], 3),
                     "bits last 500": round(near["bits_changed"], 3), "logit err last 500": round(near["rel_logit_error"], 3)})
    return rows


def activation_rates(histories: Sequence[History]) -> dict[float, np.ndarray]:
    """λ -> the churn rate per 50 epochs (what the figure plots), at the records at least 50 epochs
    after the previous one: the early records are a few epochs apart, and scaling one epoch's flips
    up to 50 epochs drew spikes that were the scaling's, not the run's."""
    out = {}
    for h in histories:
        gaps = np.diff(h.steps, prepend=h.steps[0])
        out[h.cfg.weight_decay] = np.where(gaps >= CHURN_WINDOW, churn_rate(h), np.nan)
    return out


def activation_patterns(histories: Sequence[History]) -> dict[str, float | None]:
    """Activation-pattern figure: churn at fixed epochs and the reduced model's error, per weight decay."""
    values: dict[str, float | None] = {}
    for h in histories:
        values |= at_epochs(h, ("churn",), _tag(h), FIG1_EPOCHS)
        for name, v in reduction_to_end(h).items():
            values[f"{_tag(h)}/reduction_1000_end/{name}"] = v
    return values

