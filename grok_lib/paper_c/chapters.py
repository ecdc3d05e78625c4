"""Part C's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, call, runs, claim-only runs,
figures.

Each chapter's ``call`` is the :mod:`grok_lib.paper_c.chapter_runs` function its notebook calls (its parameters are
the notebook's parameters):

- ``loss_curves.ipynb``: :func:`.chapter_runs.loss_curves`
- ``grok_time.ipynb``: :func:`.chapter_runs.grok_time`
- ``weight_decay.ipynb``: :func:`.chapter_runs.weight_decay` (claim-only runs: :func:`.chapter_runs.wd_seed_configs`)
- ``d_out.ipynb``: :func:`.chapter_runs.d_out`
- ``nets.ipynb``: :func:`.chapter_runs.nets` (named groups: :func:`.chapter_runs.net_runs`)
- ``label_noise.ipynb``: :func:`.chapter_runs.label_noise` (named groups: :func:`.chapter_runs.noise_runs`;
  claim-only runs: :func:`.chapter_runs.noise_claim_configs`)
- ``modadd_data_ratio.ipynb``: :func:`.chapter_runs.modadd_data_ratio`
"""

from __future__ import annotations

from ..chapters import Chapter, Figure, lazy_import, no_claim_runs
from . import chapter_runs, config as C, data_ratio, key_numbers, numbers_beyond

# How each figure is drawn from its chapter's runs (a list of histories, or named groups): the notebook's figure
# cell and the image tests both draw through these. The plot module loads when a figure is drawn, not when the
# declarations are read (lazy_import: no matplotlib then).
plots = lazy_import("grok_lib.paper_c.plots")


def _loss_curves(hs):
    return plots.figure_loss_curves(hs)


def _agreement(hs):
    return plots.figure_agreement(hs, [key_numbers.agreement_errors(h) for h in hs])


def _grok_time(hs):
    return plots.figure_grok_time(**key_numbers.grok_time_data(hs))


def _weight_decay(hs):
    return plots.figure_weight_decay(hs, **key_numbers.weight_decay_data(hs))


def _d_out(hs):
    return plots.figure_d_out(**key_numbers.d_out_data(hs))


def _nets(groups):
    return plots.figure_nets([*groups["two_layer"], *groups["tanh"]])


def _label_noise(groups):
    return plots.figure_label_noise([*groups["fractions"], *groups["full"]])  # the book's seed


def _data_ratio(hs):
    return plots.figure_data_ratio(hs, data_ratio.measure_data_ratio(hs))


def _chapter(stem: str, call, runs, *figs: Figure, claims: tuple[str, ...], claim_runs=None) -> Chapter:
    return Chapter(f"notebooks/paper_c/{stem}.ipynb", call, runs, figs, claim_runs=claim_runs or no_claim_runs,
                   claims=claims)


CHAPTERS = (
    _chapter("loss_curves", chapter_runs.loss_curves, C.curve_configs,
             Figure("paper_c/loss_curves", "Paper C: losses and accuracies of the linear student for λ = 0.1, 0.9, "
                    "1.5 — simulation, exact theory, Marchenko–Pastur", key_numbers.loss_curves, _loss_curves),
             Figure("paper_c/agreement", "Paper C: relative errors of simulation vs exact theory vs "
                    "Marchenko–Pastur, and the MP density against the sample spectrum", key_numbers.agreement,
                    _agreement),
             claims=("C.dyn.exact", "C.dyn.mp", "C.acc.law", "C.plateau.level", "C.plateau.no_test_crossing")),
    _chapter("grok_time", chapter_runs.grok_time, C.grok_time_configs,
             Figure("paper_c/grok_time", "Paper C: grokking time against λ for ε = 1e-3 … 1e-8, against the "
                    "paper's formula", key_numbers.grok_time, _grok_time, interactive=True),
             claims=("C.grok.formula", "C.grok.divergence")),
    _chapter("weight_decay", chapter_runs.weight_decay, C.weight_decay_configs,
             Figure("paper_c/weight_decay", "Paper C: the loss plateaus under weight decay against the paper's limits",
                    key_numbers.weight_decay, _weight_decay),
             claims=("C.wd.train_limit", "C.wd.gen_limit"), claim_runs=chapter_runs.wd_seed_configs),
    _chapter("d_out", chapter_runs.d_out, C.d_out_configs,
             Figure("paper_c/d_out", "Paper C: grokking time against the output dimension at λ = 0.9",
                    key_numbers.d_out, _d_out),
             claims=("C.dout.peak", "C.acc.gamma_law")),
    _chapter("nets", chapter_runs.nets, chapter_runs.net_runs,
             Figure("paper_c/nets", "Paper C: a two-layer linear net and a tanh net against the rescaled linear theory",
                    numbers_beyond.nets, _nets),
             claims=("C.nets.two_layer", "C.nets.tanh", "C.nets.relu", "C.nets.tanh_gain")),
    _chapter("label_noise", chapter_runs.label_noise, chapter_runs.noise_runs,
             Figure("paper_c/label_noise", "Paper C (rebuttal): label noise, its predicted effect and the tuned "
                    "crossings", numbers_beyond.label_noise, _label_noise),
             claims=("C.noise.train_shift", "C.noise.gen_unchanged", "C.noise.tuned", "C.noise.theory",
                     "C.noise.test_shift"),
             claim_runs=chapter_runs.noise_claim_configs),
    _chapter("modadd_data_ratio", chapter_runs.modadd_data_ratio, data_ratio.data_ratio_configs,
             Figure("paper_c/modadd_data_ratio", "Paper C's question on Part A's task: grokking time against the "
                    "training fraction, with three two-parameter fits", numbers_beyond.data_ratio_numbers, _data_ratio),
             claims=("C.modadd.data_ratio", "C.modadd.data_ratio_specific")),
)

load_set = chapter_runs.recorded
