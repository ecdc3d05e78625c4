"""Part C's recorded sets (see :mod:`grok_lib.recorded`): runs too long for ``make book``, trained once with
``scripts/record_runs.py`` and committed under ``recorded/``.

- ``nets_paper``: the two-layer linear net and the tanh net at the paper's 1000-200-5, in that order (the ``paper``
  profile of :data:`.config.NET_SETTINGS`; the default profile's nets are the 200-40-5 scale-down).
  :func:`grok_lib.paper_c.chapters.nets.recorded` serves them in the nets chapter's named groups ``two_layer`` and
  ``tanh``. The tanh net's per-sample gradient descent costs about 90 ms per step on one core, minutes per run.

- ``nets_activation``: the rebuttal's remarks that a ReLU net leaves the linear prediction and that a tanh gain
  above 1 breaks it beyond a threshold (C.nets.relu, C.nets.tanh_gain): per seed 0-2, the two-layer linear net, the
  ReLU net and the tanh net at gains 2 and 20 (activation tanh(g z) / g, slope 1 at 0, so the linear net stays the
  prediction), every other setting as ``nets_paper``. Twelve runs of 0.5 to 5 minutes each (DEVELOPING.md lists them).

Every setting against the paper (``shared/PAPERS.md``; the rebuttal in ``shared/seeds``):

- stated by the paper: d_in = 1000, hidden 200, d_out = 5 (the tanh net 1000-200-5; the two-layer linear net at
  the same widths), eps = 1e-3, full-batch GD without weight decay, teacher and inputs as for the linear student;
- the learning rate: the paper states eta = 0.01 for the linear student and the rescaling eta -> eta / (2 d_out^2)
  for the two-layer nets, not the nets' own eta; the book takes eta = 0.5, whose rescaled rate is the paper's 0.01;
- choices the paper does not state, the default profile's: lambda = d_in / N_tr = 0.5 (between the paper's fast
  0.1 and slow 0.9), 3,000 steps (both nets' crossings fall well inside), 2,000 test samples (the tanh net's test
  pass at every record step would otherwise cost more than its training), each layer initialised
  N(0, 1/(2 fan_in fan_out)) (the paper's initialisation applied per layer; it gives the paper's rescaling), plain
  tanh (gain 1: the rebuttal says a larger gain breaks the predictions), data and initialisation seed 0 (the
  book's, as every Part C run).
"""

from __future__ import annotations

from . import config


def nets_paper() -> list:
    """The two-layer linear net and the tanh net at the paper's 1000-200-5, in that order (the recorded set's
    order)."""
    return config.net_configs("paper")


def nets_activation() -> list:
    """Per seed of :data:`.config.ACTIVATION_SEEDS`, the two-layer linear net, the ReLU net and the tanh net at each
    gain of :data:`.config.ACTIVATION_GAINS`, at the paper's 1000-200-5 (the named groups of
    :func:`.config.activation_configs`, flattened in their order)."""
    return [c for group in config.activation_configs("paper").values() for c in group]


#: name -> (description, the function returning its configs, the weight blocks kept: none, the nets' claims and
#: page read the metric traces and the crossings only)
RECORDINGS = {
    "paper_c/nets_paper": ("Part C's two-layer linear and tanh nets at the paper's 1000-200-5", nets_paper, ()),
    "paper_c/nets_activation": ("Part C's ReLU net and tanh nets of gain 2 and 20 against the two-layer linear net, "
                                "1000-200-5, seeds 0-2", nets_activation, ()),
}
