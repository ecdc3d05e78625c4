"""Paper A's deep-linear-network claims: the registry, each declared before any run (:mod:`grok_lib.grading`), with
the bars and levels of :mod:`grok_lib.paper_a.dln.thresholds`; the check is
:func:`grok_lib.paper_a.dln.checks.evaluate_deep_linear`. The deep-linear runs are deterministic (one draw per run);
the theory is for gradient flow, so the runs keep GD's steps small against the curvature (the chapter's regime)."""

from __future__ import annotations

from ...claims import registry
from ...grading import Choice, Claim, moved
from .thresholds import (BETTER_FIT, CONTRACTION, DRIFT_ERROR, ETA_GRID, FAST_FLOOR_GRID, LEMMA_BOUND, LINE_R2,
                         LINE_R2_GRID, SCHATTEN_EXCESS, SEPARATION, SLOW_FLOOR_GRID)

ABSTRACT = "the paper's abstract"

CLAIMS = [
    Claim(
        "A.dln.schatten", "A", "claim", "text", f"eq. 2.7 and {ABSTRACT}",
        "when layerwise weight decay is present, the induced regularization on the end-to-end map can be expressed "
        "as a Schatten-type penalty",
        r"Trained with layerwise weight decay, the factors' penalty $\frac{1}{L}\sum_l \Vert W_l\Vert_F^2$ equals the "
        r"Schatten power $\Vert A\Vert_{S_{2/L}}^{2/L}$ of $A = W_L \cdots W_1$.",
        "relative excess of the factors' penalty over the Schatten power at the end, per GD run with λ > 0",
        SCHATTEN_EXCESS, bars=moved(SCHATTEN_EXCESS), fmt=".1e",
        why="eq. 2.7 is an identity at the balanced minimum (unit-tested exactly); trained factors approach it"),
    Claim(
        "A.dln.lemma31", "A", "claim", "text", "Lemma 3.1",
        r"if every logit margin is at least γ then $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$",
        r"Wherever every logit margin is at least $\gamma > 0$, $L_{\mathrm{CE}} \le (K-1)\,e^{-\gamma}$.",
        "largest L_CE / ((K−1) e^{−Γ(t)}) over the recorded steps with a positive margin, per run",
        LEMMA_BOUND, fmt=".3f"),
    Claim(
        "A.dln.margin_linear", "A", "premise", "text", f"Assumption 3.4 and {ABSTRACT}",
        r"post-margin gap growth: $\Gamma(t) \ge \gamma_0 + \nu (t - t_0)$",
        "After it turns positive the margin grows at least linearly in time.",
        "R² of a line in t through the margin over the fast clock's window, per run without weight decay",
        LINE_R2, bars=LINE_R2_GRID, fmt=".2f",
        why="a margin that grows like ln t (sub-linear) is fitted better by a line in ln t: reported beside"),
    Claim(
        "A.dln.fast_log", "A", "claim", "text", f"Theorem 3.5 and {ABSTRACT}",
        "a post-margin gap-growth or one-step tail-contraction condition reduces the cross-entropy loss to level "
        "epsilon on a logarithmic time scale",
        r"Where the margin grows linearly (Assumption 3.4), $T_{\mathrm{cls}}(\varepsilon)$ grows like "
        r"$\log 1/\varepsilon$: a line in $\ln(1/\varepsilon)$ fits it at least as well as a power law.",
        "R² of a line of T_cls(ε) in ln(1/ε) minus R² of a power law in 1/ε, per run whose margin grows linearly "
        "(Assumption 3.4 holding: its line in t has R² ≥ 0.95)",
        BETTER_FIT, choices=(Choice("smallest level ε of the fit (from 1e-1)", 1e-8, FAST_FLOOR_GRID,
                                    "how deep the fast clock is read", ".0e"),), fmt="+.3f",
        why="the theorem is conditional: it is graded only on the runs where its premise holds"),
    Claim(
        "A.dln.contraction", "A", "premise", "text", f"Proposition 3.6 and {ABSTRACT}",
        r"one-step tail contraction: $L_{t+1} \le (1-\mu) L_t$",
        r"After the margin turns positive the loss contracts by one factor every step: $L_{t+1} \le (1-\mu) L_t$ "
        r"with one $\mu > 0$ up to the fast clock's end.",
        "the slowest per-step contraction rate μ_k = 1 − (L(t_(k+1)) / L(t_k))^(1/(t_(k+1) − t_k)) between recorded "
        "steps of the fast clock's window over their median (1 where one μ holds for every step; a loss falling "
        "like 1/t gives t0 / t_end), per run without weight decay",
        CONTRACTION, bars=moved(CONTRACTION, 1.5), fmt=".2f",
        why="Proposition 3.6's second route to the logarithmic clock (Theorem 3.5's is Assumption 3.4): a finite "
            "run always has some μ > 0, so the premise is read as one rate for the whole window, within a factor "
            "the book chose, moved either way; the recorded steps are the intervals (a rise between them is seen "
            "only as a slower rate)"),
    Claim(
        "A.dln.slow_poly", "A", "premise", "text", f"Assumption 4.5, Theorems 4.8–4.9 and {ABSTRACT}",
        "under a sharp late-time Kurdyka-Lojasiewicz tail, this structural energy closes on a polynomial time scale",
        r"The gap of the structural energy has a sharp Kurdyka–Łojasiewicz tail ($\theta \in (1/2, 1)$), so "
        r"$T_{\mathrm{rep}}(\eta)$ grows like a power of $1/\eta$, not like $\ln(1/\eta)$.",
        "R² of a power law of T_rep(η) in 1/η minus R² of a line in ln(1/η), per GD run with λ > 0",
        BETTER_FIT, choices=(Choice("smallest gap level η of the fit (from 1e-3)", 1e-9, SLOW_FLOOR_GRID,
                                    "how deep the slow clock is read", ".0e"),), fmt="+.3f",
        why="θ is never measured in the paper; the theorems assume the tail. An exponential tail (θ = 1/2) gives "
            "the line in ln(1/η)"),
    Claim(
        "A.dln.prop43", "A", "claim", "text", "Prop. 4.3",
        r"singular values drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$",
        r"The singular values of $A$ drift as $ds_i/dt = g_i - \lambda p\, s_i^{p-1}$, at every depth.",
        "median relative error of the predicted drift against the measured (s_i(t+1) − s_i(t)) / lr over the steps, "
        "the K−1 singular values the loss sees, per GD run with λ > 0",
        DRIFT_ERROR, bars=moved(DRIFT_ERROR), fmt=".2g",
        why="the drift of the flow on A; a depth-L net's factored flow multiplies it by L s^(2−2/L) (reported)"),
    Claim(
        "A.dln.separation", "A", "claim", "text", ABSTRACT,
        "the two clocks, therefore, separate fitting from representation simplification",
        "With weight decay the representation clock stops well after the loss clock: at least twice as late.",
        "T_rep(η) / T_cls(floor) per GD run with λ > 0 (T_cls(floor): the loss within 10% of its final value; where "
        "the gap has not stayed below η by the end of the run, the run's length stands for T_rep: a lower bound)",
        SEPARATION, choices=(Choice("gap level η of T_rep", 1e-6, ETA_GRID, "the paper names none", ".0e"),),
        bars=moved(SEPARATION, 1.5), fmt=".1f"),
]
REGISTRY = registry(CLAIMS)
