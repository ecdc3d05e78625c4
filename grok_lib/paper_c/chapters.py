"""Part C's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, runs, claim-only runs, figures."""

from __future__ import annotations

from ..chapters import Chapter, Figure, no_claim_runs
from . import config as C, figures, figures_beyond, modadd, setup


def _chapter(stem: str, runs, *figs: Figure, claim_runs=None) -> Chapter:
    return Chapter(f"notebooks/paper_c/{stem}.ipynb", runs, figs, claim_runs=claim_runs or no_claim_runs)


CHAPTERS = (
    _chapter("loss_curves", C.curve_configs,
             Figure("paper_c/loss_curves", "Paper C: losses and accuracies of the linear student for λ = 0.1, 0.9, "
                    "1.5 — simulation, exact theory, Marchenko–Pastur", figures.loss_curves),
             Figure("paper_c/agreement", "Paper C: relative errors of simulation vs exact theory vs Marchenko–Pastur, "
                    "and the MP density against the sample spectrum", figures.agreement)),
    _chapter("grok_time", C.grok_time_configs,
             Figure("paper_c/grok_time", "Paper C: grokking time against λ for ε = 1e-3 … 1e-8, against the paper's "
                    "formula", figures.grok_time)),
    _chapter("weight_decay", C.weight_decay_configs,
             Figure("paper_c/weight_decay", "Paper C: the loss plateaus under weight decay against the paper's limits",
                    figures.weight_decay), claim_runs=setup.wd_seed_configs),
    _chapter("d_out", C.d_out_configs,
             Figure("paper_c/d_out", "Paper C: grokking time against the output dimension at λ = 0.9", figures.d_out)),
    _chapter("nets", C.net_configs,
             Figure("paper_c/nets", "Paper C: a two-layer linear net and a tanh net against the rescaled linear theory",
                    figures_beyond.nets)),
    _chapter("label_noise", setup.noise_configs,
             Figure("paper_c/label_noise", "Paper C (rebuttal): label noise, its predicted effect and the tuned "
                    "crossings", figures_beyond.label_noise),
             claim_runs=setup.tuned_noise_seed_configs),
    _chapter("modadd_data_ratio", modadd.data_ratio_configs,
             Figure("paper_c/modadd_data_ratio", "Paper C's question on Part A's task: grokking time against the "
                    "training fraction, with three two-parameter fits", figures_beyond.data_ratio_numbers)),
)

load_set = setup.recorded
