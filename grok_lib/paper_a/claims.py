"""Paper A's claims: the registry. Every tolerance sentence of an MLP claim is formatted from the
thresholds its check compares against (:mod:`grok_lib.paper_a.thresholds`); the checks themselves are
in :mod:`grok_lib.paper_a.checks`. The deep-linear chapter's claims are in
:mod:`grok_lib.paper_a.dln.claims`; :data:`REGISTRY` holds both, in the book's order.
"""

from __future__ import annotations

from ..claims import Claim, registry
from .clocks import T_REP_FRACTION
from .dln.claims import CLAIMS as DLN_CLAIMS
from .relu_reduction import FROZEN_CHURN
from .robustness import FIT_EPS_GRID, FROZEN_CHURN_GRID, GROK_ACC_GRID, RATIO_EPS_GRID, T_REP_FRACTION_GRID
from .thresholds import (CLOCK_RATIO, FIT_EPOCH, FIT_EPS, FIT_RANGE, FIT_RANGE_PARTLY, FOURIER_SHARE, FOURIER_TOP,
                         GROK_ACC, GROK_WINDOW, HEAD_SHARE, HEAD_SHARE_PARTLY, POLYGON_ANGLE, POLYGON_CV, RATIO_EPS,
                         SRANK_FALL, SRANK_FINAL, SRANK_PEAK)

CLAIMS = [
    Claim(
        "A.fig1.train_fit",
        "A",
        "Train loss falls to about 1e-6 by about 1.5k epochs (Fig. 1b).",
        f"Train cross-entropy (float64) at epoch {FIT_EPOCH}, for every weight decay.",
        f"reproduced: all within [{FIT_RANGE[0]:g}, {FIT_RANGE[1]:g}]; "
        f"partly: all within [{FIT_RANGE_PARTLY[0]:g}, {FIT_RANGE_PARTLY[1]:g}].",
    ),
    Claim(
        "A.fig1.grok_window",
        "A",
        "Test loss drops in a window of about 4k-8.5k epochs (Fig. 1b).",
        f"Grokking epoch = first epoch with test accuracy >= {GROK_ACC:.0%} (and >= "
        f"{', '.join(f'{a:.0%}' for a in GROK_ACC_GRID if a != GROK_ACC)}), for every weight decay.",
        f"reproduced: all within [{GROK_WINDOW[0]}, {GROK_WINDOW[1]}] (the window +-25%) at every accuracy level; "
        "partly: all grok, some outside.",
    ),
    Claim(
        "A.fig1.wd_order",
        "A",
        "The test-loss drop comes earlier for larger weight decay (Fig. 1b).",
        f"Order of the grokking epochs over weight decays 0.6 ... 1.0, at test accuracy "
        f"{', '.join(f'{a:.0%}' for a in GROK_ACC_GRID)}.",
        "reproduced: strictly decreasing in weight decay at every accuracy level; partly: at most one inversion at each.",
    ),
    Claim(
        "A.fig2.fourier",
        "A",
        "After grokking the token embeddings are built from a few Fourier frequencies (Fig. 2).",
        f"Fraction of E's non-constant energy in its {FOURIER_TOP} strongest frequencies, end of training vs. init.",
        f"reproduced: >= {FOURIER_SHARE} for every weight decay; partly: at least doubled from init for every weight decay.",
    ),
    Claim(
        "A.fig2.polygon",
        "A",
        "After generator-based reordering, embedding rows lie on a regular polygon (Fig. 2).",
        "E projected on its dominant frequency's plane, tokens relabelled j = k i mod p: radius CV and angle RMS error.",
        f"reproduced: radius CV <= {POLYGON_CV} and angle error <= {POLYGON_ANGLE} polygon steps for every weight decay; "
        "partly: for some.",
    ),
    Claim(
        "A.fig3.srank_range",
        "A",
        "The stable rank falls from about 36 to about 10-12 in the grokking window (Fig. 3).",
        "Peak and final stable rank of E (the matrix that best matches, see the Figure 3 notebook).",
        f"reproduced: peak in [{SRANK_PEAK[0]}, {SRANK_PEAK[1]}] and final <= {SRANK_FINAL}; "
        f"partly: peak in [{SRANK_PEAK[0]}, {SRANK_PEAK[1]}] and a fall of >= {1 - SRANK_FALL:.0%}.",
    ),
    Claim(
        "A.fig3.after_fit",
        "A",
        "The stable rank starts falling only after the train loss has saturated (Fig. 3).",
        f"Epoch of the stable-rank peak of E against T_cls(ε), ε = "
        f"{', '.join(f'{e:.0e}' for e in FIT_EPS_GRID)} (the book's: {FIT_EPS:.0e}).",
        "reproduced: peak after T_cls(ε) for every weight decay at every ε; partly: for most weight decays at every ε.",
    ),
    Claim(
        "A.fig3.clock_ratio",
        "A",
        "The representation clock runs several times slower than the loss clock. The paper states no ratio; "
        r"$T_{\mathrm{rep}}/T_{\mathrm{cls}}$ of about 3-6 is our reading of its Figs 1b and 3 (train loss ~1e-6 by "
        "~1.5k epochs, the stable-rank fall at ~4k-8.5k).",
        f"T_rep(f) = first recorded epoch after the stable rank's peak with srank(E) <= f x peak; ratio to "
        f"T_cls(ε), over f = {', '.join(f'{f:g}' for f in T_REP_FRACTION_GRID)} and "
        f"ε = {', '.join(f'{e:.0e}' for e in RATIO_EPS_GRID)} (the book's: f = {T_REP_FRACTION}, ε = {RATIO_EPS:.0e}).",
        f"reproduced: ratio in [{CLOCK_RATIO[0]}, {CLOCK_RATIO[1]}] for every weight decay at every (f, ε); "
        "partly: at some; else not reproduced.",
    ),
    Claim(
        "A.prop42.head_dominated",
        "A",
        "The classifier head receives larger effective gradients than the embedding block, so the classifier "
        "fits first (Prop. 4.2).",
        "||grad_U|| / ||grad_E|| of the full-batch loss, as a share of the epochs (not of the records) of each phase: "
        f"fitting (before T_cls(ε), ε = {', '.join(f'{e:.0e}' for e in FIT_EPS_GRID)}), plateau (to T_grok), late.",
        f"reproduced: ratio > 1 on >= {HEAD_SHARE:.0%} of the fitting phase's epochs for every weight decay and ε; "
        f"partly: >= {HEAD_SHARE_PARTLY:.0%}. The later phases are reported, not judged: the proposition is about fitting.",
    ),
    Claim(
        "A.relu.frozen_patterns",
        "A",
        "In the slow phase the training set's ReLU activation patterns stay fixed (Sec. 5 premise).",
        f"Fraction of on/off bits flipping per 50 epochs after T_cls({FIT_EPS:.0e}); frozen from the epoch after which "
        f"it stays below a threshold c = {', '.join(f'{c:g}' for c in FROZEN_CHURN_GRID)} (the book's: {FROZEN_CHURN:g}).",
        "reproduced: frozen before T_rep for every weight decay at every c; partly: frozen at some point at some c; "
        "else not reproduced.",
    ),
]

#: Paper A's claims, MLP then deep linear, by id.
REGISTRY = registry(CLAIMS + DLN_CLAIMS)
