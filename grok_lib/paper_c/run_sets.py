"""What the chapters' notebook calls share in making their runs: a parameter left at None takes the profile's value
(:func:`given`), the linear student's common overrides (:func:`linear_overrides`), and a claim's runs at further
seeds (:func:`further_seeds`)."""

from __future__ import annotations

from dataclasses import replace


def given(values, default):
    """``values``, or ``default`` where they are None (the profile's or the paper's sweep values)."""
    return default if values is None else values


def linear_overrides(d_in, eta, eps, steps, data_seed, init_seed) -> dict:
    """The linear student's overrides by name (None: the profile's value)."""
    return {"d_in": d_in, "eta": eta, "eps": eps, "steps": steps, "data_seed": data_seed, "init_seed": init_seed}


def further_seeds(configs: list, count: int) -> list:
    """``configs`` again at data and init seeds + 1 ... + ``count``, seeds outermost: a claim's runs at further
    seeds."""
    return [replace(c, data_seed=c.data_seed + k, init_seed=c.init_seed + k) for k in range(1, count + 1)
            for c in configs]
