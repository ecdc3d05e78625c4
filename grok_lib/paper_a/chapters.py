"""Paper A's chapters, each declared once (see :mod:`grok_lib.chapters`): notebook, the call it makes, runs, figures."""

from __future__ import annotations

from ..chapters import Chapter, Figure
from . import chapter_runs, config, key_numbers, recorded_numbers
from .dln import config as dln_config
from .dln import key_numbers as dln_numbers


def _mlp(stem: str, *figs: Figure) -> Chapter:
    """An MLP chapter: the weight-decay sweep of :func:`chapter_runs.mlp`."""
    return Chapter(f"notebooks/paper_a/{stem}.ipynb", chapter_runs.mlp, config.sweep, figs)


_PAPER_SPLITS = ("paper_unordered", "paper_ordered")

CHAPTERS = (
    _mlp("fig1_loss_curves",
         Figure("paper_a/fig1_loss_curves", "Paper A, Figure 1: train/test loss and accuracy over weight decays 0.6-1.0",
                key_numbers.fig1_loss_curves),
         Figure("paper_a/fig1_paper_settings", "Paper A, Figure 1 at the paper's settings (recorded runs; the caption "
                "gives their settings), both splits", recorded_numbers.fig1_paper_settings, _PAPER_SPLITS)),
    _mlp("fig2_embedding_geometry",
         Figure("paper_a/fig2_embedding_geometry", "Paper A, Figure 2: Fourier spectra and the embeddings after "
                "generator reordering", key_numbers.fig2_embedding_geometry)),
    _mlp("fig3_stable_rank",
         Figure("paper_a/fig3_stable_rank", "Paper A, Figure 3: test loss and the stable-rank clock, with both clocks "
                "marked", key_numbers.fig3_stable_rank),
         Figure("paper_a/fig3_paper_settings", "Paper A, Figure 3 at the paper's settings (recorded runs; the caption "
                "gives their settings), both splits", recorded_numbers.fig3_paper_settings, _PAPER_SPLITS),
         Figure("paper_a/init_comparison", "Paper A: PyTorch's N(0, 1) embeddings against N(0, 1/d) (default profile; "
                "recorded runs)", recorded_numbers.init_comparison, ("default", "init_scaled"))),
    _mlp("gradient_hierarchy",
         Figure("paper_a/gradient_hierarchy", "Paper A, Prop. 4.2: per-block gradient norms, their bounds, and "
                "AdamW's updates", key_numbers.gradient_hierarchy)),
    _mlp("activation_patterns",
         Figure("paper_a/activation_patterns", "Paper A, Sec. 5: churn of the training set's ReLU activation patterns",
                key_numbers.activation_patterns)),
    Chapter("notebooks/paper_a/deep_linear_clocks.ipynb", chapter_runs.deep_linear, dln_config.sweep, (
        Figure("paper_a/dln_fast_clock", "Paper A, deep linear networks: the fast clock (margins, Lemma 3.1 / "
               "Theorem 3.5, T_cls(ε))", dln_numbers.dln_fast_clock),
        Figure("paper_a/dln_slow_clock", "Paper A, deep linear networks: the slow clock (energy gap, T_rep(η), "
               "Prop. 4.3 drift)", dln_numbers.dln_slow_clock),
        Figure("paper_a/dln_separation", "Paper A, deep linear networks: loss and energy gap with both clocks, "
               "per depth", dln_numbers.dln_separation))),
)


def load_set(name: str):
    """A recorded set's histories; ``default``: the default profile's sweep at seed 0, as recorded."""
    return chapter_runs.default_runs() if name == "default" else chapter_runs.recorded(name)


def recorded_profiles() -> dict[str, list]:
    """The profiles' sweeps a recorded figure's caption compares the recordings with, the default profile
    first: the caption (:func:`grok_lib.provenance.recorded_source`) names the settings in which the recorded
    runs differ from the default profile's, and the profile they are closest to."""
    return {name: config.sweep(name) for name in ("default", *sorted(set(config.PROFILES) - {"default", "ci"}))}
