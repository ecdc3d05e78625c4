"""Paper A's claims on the MLP: the registry, each declared before any run (:mod:`grok_lib.grading`): what kind of
statement it is, where the paper says it, the one statement, the quantity, the bar and the grid of the book's
choices. The bars and levels are the constants of :mod:`grok_lib.paper_a.thresholds`; the checks are in
:mod:`grok_lib.paper_a.checks`. The deep-linear chapter's claims are in :mod:`grok_lib.paper_a.dln.claims`;
:data:`REGISTRY` holds both, in the book's order.

A bar that is the paper's own number with the precision it is read at (a window, "about 36") is one bar; a bar the
book chose where the paper gives no number is graded over a grid of bars moved either way
(:func:`grok_lib.grading.moved`). Paper A's experiments are known second-hand (its figures' captions and a review of its appendix, see
``shared/PAPERS.md``): a number the book reads off a figure is labelled as its reading.
"""

from __future__ import annotations

from ..claims import registry
from ..grading import Bar, Choice, Claim, moved
from .dln.claims import CLAIMS as DLN_CLAIMS
from .thresholds import (AFTER_FIT, CIRCLE_CV, CLOCK_RATIO, DROP_LEVELS, FIT_EPOCH, FIT_EPS_GRID, FIT_LOSS,
                         FOURIER_SHARE, FOURIER_TOPS, FROZEN_CHURN_GRID, FROZEN_BEFORE, GROK_WINDOW, HEAD_SHARE,
                         ORDER_INVERSIONS, RATIO_EPS_GRID, SPACING_STEPS, SRANK_FINAL, SRANK_PEAK, T_REP_FRACTIONS)

ABSTRACT = "the paper's abstract (arXiv 2606.05863)"
#: The choices the MLP claims share.
DROP_LEVEL = Choice("test-loss level ℓ", 1e-3, DROP_LEVELS, "the paper's metric is the test loss and names no level "
                    "of its drop: the decades the drop passes through after the train loss has saturated", ".0e")
FIT_LEVEL = Choice("train-loss level ε of T_cls", 1e-3, FIT_EPS_GRID, "the paper's 'fitted' names no level", ".0e")
RATIO_LEVEL = Choice("train-loss level ε of T_cls", 1e-4, RATIO_EPS_GRID, "the paper names no level", ".0e")
REP_FRACTION = Choice("fraction f of the stable rank's peak that T_rep waits for", 0.8, T_REP_FRACTIONS,
                      "the paper's slow clock T_rep(η) has no η for the stable rank: from a tenth to three tenths "
                      "of the fall")

CLAIMS = [
    Claim(
        "A.fig1.train_fit", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b (second-hand): the train loss is about 1e-6 by about 1.5k epochs",
        "The train loss is about $10^{-6}$ at epoch 1,500, for every weight decay 0.6–1.0.",
        f"train cross-entropy (float64) at epoch {FIT_EPOCH}, per weight decay",
        FIT_LOSS, fmt=".1e",
        why="'about 1e-6' read off a log axis: a decade either side"),
    Claim(
        "A.fig1.grok_window", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b (second-hand): the test loss drops in a window of about 4k–8.5k epochs",
        "The test loss drops between about 4k and 8.5k epochs, for every weight decay.",
        "first epoch with test loss ≤ ℓ, per weight decay",
        GROK_WINDOW, choices=(DROP_LEVEL,), fmt=".0f",
        why="the window as read, ±25% for the reading of a figure's axis; the paper's metric, the test loss"),
    Claim(
        "A.fig1.wd_order", "A", "claim", "figure", "Fig. 1b",
        "the book's reading of Fig. 1b: the test-loss drop comes earlier for larger weight decay",
        "The test loss drops earlier for every larger weight decay.",
        "inversions in the order of the drop epochs (test loss ≤ ℓ) over weight decays 0.6 … 1.0 "
        "(a weight decay that never drops counts as one more)",
        ORDER_INVERSIONS, choices=(DROP_LEVEL,), fmt=".0f"),
    Claim(
        "A.fig2.fourier", "A", "claim", "figure", "Fig. 2",
        "the book's reading of Fig. 2, 'qualitative evidence for the cyclic organization': after grokking the "
        "embeddings are built from a few Fourier frequencies",
        "After grokking most of the embeddings' energy is in a few Fourier frequencies.",
        "share of E's non-constant Fourier energy in its k strongest frequencies at the end of training, per weight decay",
        FOURIER_SHARE, choices=(Choice("number of frequencies k", 5, FOURIER_TOPS, "'a few' of the 56"),), fmt=".2f",
        why="the paper states no number: 'most' of the energy (more than half), in a few of the 56 frequencies"),
    Claim(
        "A.fig2.circle", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: 'Token embeddings after generator-based label reordering' (the book's reading: "
        "a regular polygon)",
        "After reordering by the dominant frequency, the embeddings lie on a circle.",
        "radius coefficient of variation of E projected on its dominant frequency's plane, per weight decay",
        CIRCLE_CV, bars=moved(CIRCLE_CV), fmt=".3f",
        why="the paper states no number; a random projection gives about 0.5"),
    Claim(
        "A.fig2.evenly_spaced", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: 'Token embeddings after generator-based label reordering' (the book's reading: "
        "a regular polygon)",
        "After reordering, consecutive tokens sit at evenly spaced angles around the circle.",
        "RMS angle error of the reordered tokens in polygon steps (2π/p), per weight decay",
        SPACING_STEPS, bars=moved(SPACING_STEPS), fmt=".2f",
        why="the paper states no number; tokens in random order are about p/√12 ≈ 33 steps off"),
    Claim(
        "A.fig2.output_fourier", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering', shown as the same "
        "cyclic organization as (A) (the book's reading: as for E, a few Fourier frequencies)",
        "After grokking most of the output weights' energy is in a few Fourier frequencies.",
        "share of U's non-constant Fourier energy (over the output label) in its k strongest frequencies at the end "
        "of training, per weight decay",
        FOURIER_SHARE, choices=(Choice("number of frequencies k", 5, FOURIER_TOPS, "'a few' of the 56"),), fmt=".2f",
        why="the bar and grid of A.fig2.fourier, declared for E before U was graded"),
    Claim(
        "A.fig2.output_circle", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering' (the book's reading: the "
        "polygon of (A))",
        "After the same reordering (E's dominant frequency), the output weights lie on a circle.",
        "radius coefficient of variation of U's rows projected on E's dominant frequency's plane, per weight decay",
        CIRCLE_CV, bars=moved(CIRCLE_CV), fmt=".3f",
        why="the bars of A.fig2.circle; 'the same label reordering' is E's, so U is read on E's frequency"),
    Claim(
        "A.fig2.output_evenly_spaced", "A", "claim", "figure", "Fig. 2",
        "the paper's Fig. 2 caption: '(B) Output weights after the same label reordering' (the book's reading: the "
        "polygon of (A))",
        "After the same reordering, consecutive output labels sit at evenly spaced angles around the circle.",
        "RMS angle error of U's reordered rows on E's dominant frequency, in polygon steps (2π/p), per weight decay",
        SPACING_STEPS, bars=moved(SPACING_STEPS), fmt=".2f",
        why="the bars of A.fig2.evenly_spaced"),
    Claim(
        "A.fig3.srank_peak", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls from about 36",
        "The stable rank of the embeddings peaks at about 36.",
        "peak stable rank of E, per weight decay", SRANK_PEAK, fmt=".1f",
        why="'about 36' as read: ±6; the paper does not say which matrix, the Figure 3 page shows E is the one"),
    Claim(
        "A.fig3.srank_final", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls to about 10–12 in the grokking window",
        "The stable rank of the embeddings falls to about 10–12 by the end of the paper's run.",
        "final stable rank of E, per weight decay", SRANK_FINAL, fmt=".1f",
        why="'about 10–12' as read: ±2 around it"),
    Claim(
        "A.fig3.after_fit", "A", "claim", "figure", "Fig. 3",
        "the book's reading of Fig. 3 (second-hand): the stable rank falls in the grokking window, starting after "
        "the train loss saturates",
        "The stable rank starts falling only after the train loss has saturated.",
        "epochs from T_cls(ε) to the stable rank's peak, per weight decay",
        AFTER_FIT, choices=(FIT_LEVEL,), fmt=".0f"),
    Claim(
        "A.fig3.srank_wd_order", "A", "prediction", "figure", "Fig. 3",
        "the book's prediction from Fig. 3 (stable rank per weight decay; its fall 'in the grokking window') and "
        "Fig. 1b (the drop earlier for larger weight decay): the paper states no order for the stable rank",
        "The stable rank falls earlier for every larger weight decay, as the test loss does.",
        "inversions in the order of T_rep(f) over weight decays 0.6 … 1.0 (T_rep(f): first epoch after the stable "
        "rank's peak at ≤ f × peak; a weight decay whose stable rank never falls that far counts as one more)",
        ORDER_INVERSIONS, choices=(REP_FRACTION,), fmt=".0f",
        why="the rule of A.fig1.wd_order on the representation clock, with its regime (every run's fall reaches "
            "the grid's smallest f within the run); the book's prediction, not the paper's claim"),
    Claim(
        "A.fig3.clock_ratio", "A", "claim", "text", ABSTRACT,
        "we formalize this phenomenon by separating the fast decay of the classification loss from the slower "
        "simplification of the learned representation",
        "The representation clock stops several times later than the loss clock.",
        "T_rep(f) / T_cls(ε), per weight decay (T_rep(f): first epoch after the stable rank's peak at ≤ f × peak; "
        "where the stable rank has not fallen that far by the end of the run, the run's length stands for T_rep: "
        "a lower bound)",
        CLOCK_RATIO, choices=(REP_FRACTION, RATIO_LEVEL), bars=moved(CLOCK_RATIO, 1.5), fmt=".2f",
        why="'slower' with 'several times' as the book's reading: at least twice; the paper states no ratio (our "
            "reading of its Figs 1b and 3 is 3–6, reported, not graded)"),
    Claim(
        "A.prop42.head_dominated", "A", "claim", "text", f"Prop. 4.2 and {ABSTRACT}",
        "the classifier head can receive larger effective gradients than the embedding block under controlled "
        "downstream norms",
        "While the training set is being fitted, the head's gradient is larger than the embeddings'.",
        "share of the fitting phase's epochs (before T_cls(ε)) with ‖∇_U L‖ > ‖∇_E L‖, per weight decay",
        HEAD_SHARE, choices=(FIT_LEVEL,), bars=(Bar(lo=0.5), Bar(lo=0.99)), fmt=".2f",
        why="'larger' over a phase: on most of its epochs; the later phases are reported, not graded"),
    Claim(
        "A.relu.frozen_patterns", "A", "premise", "text", f"Sec. 5 and {ABSTRACT}",
        "in regions where the activation patterns on the training set remain fixed, the network reduces to a linear "
        "model in the active coordinates (the review printed on the paper's page: never checked empirically)",
        "In the slow phase the training set's activation patterns freeze before the representation clock stops.",
        "the epoch from which the patterns' churn (bits flipped per 50 epochs) stays below c, over T_rep "
        "(never frozen: no value), per weight decay",
        FROZEN_BEFORE, choices=(Choice("churn level c", 1e-3, FROZEN_CHURN_GRID, "the paper names none", ".0e"),),
        fmt=".2f"),
]

#: Paper A's claims, MLP then deep linear, by id.
REGISTRY = registry(CLAIMS + DLN_CLAIMS)
