"""Paper A's deep-linear-network claims: the registry. Every tolerance sentence is formatted from the
thresholds its check compares against (:mod:`grok_lib.paper_a.dln.thresholds`); the check is
:func:`grok_lib.paper_a.dln.checks.evaluate_deep_linear`."""

from __future__ import annotations

from ...claims import Claim, registry
from .thresholds import DRIFT_ERROR, LINE_R2, SCHATTEN_EXCESS, SEPARATION

CLAIMS = [
    Claim(
        "A.dln.schatten",
        "A",
        r"Layerwise weight decay on a depth-$L$ linear net is the Schatten-$2/L$ penalty on $A = W_L \cdots W_1$ (eq. 2.7).",
        "At the end of every GD run with lambda > 0: (1/L) sum ||W_l||_F^2 against ||A||_{S_2/L}^{2/L} (the identity itself is unit-tested).",
        f"reproduced: relative excess <= {SCHATTEN_EXCESS:g} on every run (trained factors balanced); partly: on some.",
    ),
    Claim(
        "A.dln.lemma31",
        "A",
        r"If every logit margin is $\ge \gamma$ then $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$ (Lemma 3.1).",
        "Largest L_CE / ((K-1) exp(-Gamma(t))) over every recorded step with a positive margin, every run.",
        "reproduced: <= 1 everywhere; not reproduced otherwise.",
    ),
    Claim(
        "A.dln.margin_linear",
        "A",
        r"After it turns positive the margin grows at least linearly, $\Gamma(t) \ge \gamma_0 + \nu (t - t_0)$ (Assumption 3.4).",
        "Margin over the fast clock's window, lambda = 0: R^2 of a line in t against R^2 of a line in ln t; fitted nu.",
        f"reproduced: the line in t fits with R^2 >= {LINE_R2} for every run; partly: for one optimiser's runs.",
    ),
    Claim(
        "A.dln.fast_log",
        "A",
        r"The loss clock is logarithmic: $T_{\mathrm{cls}}(\varepsilon) = O(\log 1/\varepsilon)$ (Theorem 3.5).",
        "T_cls(eps) for eps = 1e-1 ... 1e-8, lambda = 0; a line in ln(1/eps) against a power law in 1/eps.",
        f"reproduced: the line in ln(1/eps) fits with R^2 >= {LINE_R2} and better than the power law for every run; "
        "partly: for some.",
    ),
    Claim(
        "A.dln.slow_poly",
        "A",
        r"The representation clock is polynomial: $T_{\mathrm{rep}}(\eta) - T_{\mathrm{KL}} = \Theta(\eta^{-(2\theta - 1)})$, $\theta \in (1/2, 1)$ (Theorems 4.8-4.9).",
        "T_rep(eta) (the gap Delta stays <= eta) for eta = 1e-3 ... 1e-9, GD with lambda > 0: power law against a line in ln(1/eta).",
        "reproduced: the power law fits better, theta in (1/2, 1), for every run; partly: for some; else not reproduced.",
    ),
    Claim(
        "A.dln.prop43",
        "A",
        r"Singular values of $A$ drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$ (Prop. 4.3).",
        "Measured (s_i(t+1) - s_i(t)) / lr on GD runs against the prediction, median relative error over steps, the K-1 singular values the loss sees.",
        f"reproduced: median error <= {DRIFT_ERROR:.0%} at every depth; partly: at some depths.",
    ),
    Claim(
        "A.dln.separation",
        "A",
        "With weight decay the representation clock runs well after the loss clock.",
        "T_rep(1e-6) / T_cls(floor) on GD runs with lambda > 0 (T_cls(floor): loss within 10% of its final value).",
        f"reproduced: ratio >= {SEPARATION} on every run; partly: on some.",
    ),
]
REGISTRY = registry(CLAIMS)
