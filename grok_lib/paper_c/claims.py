"""Paper C's claims: the registry, each declared before any run (:mod:`grok_lib.grading`): what kind of statement it
is, where the paper (or its authors' rebuttal) says it, the one statement, the quantity, the bar and the grid of the
book's choices. The bars and levels are the constants of :mod:`grok_lib.paper_c.thresholds`; the checks are in
:mod:`grok_lib.paper_c.checks` (the linear student), :mod:`grok_lib.paper_c.checks_wd_dout` (weight decay, several
outputs) and :mod:`grok_lib.paper_c.checks_beyond` (the nets, label noise, Part A's task).

Paper C's own words are not among the book's sources: its results are known from the book's notes on the paper
(``shared/PAPERS.md``), whose formulas the quotes of the paper's claims give, and from the authors' rebuttal
(``shared/seeds/linear_estimators_rebuttal.txt``), quoted word for word where a claim rests on it.
"""

from __future__ import annotations

import math

from ..claims import registry
from ..grading import Bar, Choice, Claim, moved
from .theory import GROK_ACC
from .thresholds import (ACC_BOUND, ACC_LEVEL, ACC_LEVELS, DYN_ERROR, LOO_RATIO, MP_ERROR,
                         NEAR_LINEAR, NET_BAND, NET_DEVIATION, NET_DEVIATION_BARS, NO_DECREASE, NOISE_ERROR, PAPER_EPS, PEAK_OVER_ENDS, PEAK_RANGE,
                         PLATEAU_RATIO, R2_GRID, R2_OK, RATIO_BAND, TUNED_GAP, WD_BAND, WD_SEEDS, WD_SMALL,
                         WINDOW_LEVEL, WINDOW_LEVELS)

#: Where the paper's own results are read from.
NOTES = "the paper's text, as the book's notes on it record it (shared/PAPERS.md)"
REBUTTAL = "the authors' rebuttal (OpenReview)"

#: The range a loss curve is compared with its theory over: the book's choice.
WINDOW = Choice("level ℓ", WINDOW_LEVEL, WINDOW_LEVELS,
                f"the paper's figures show the losses while its accuracies move; the book reads the curves until the "
                f"reference losses have fallen to ℓ = ε/2, ε/4 or ε/8 (ε = {PAPER_EPS:g}: the accuracy law at 84%, "
                "95.4% and 99.5%); deeper down GD's factor (1 − 2ηs)^t and the flow's e^{−2ηst} drift apart like "
                "t (ηs)², so any fixed tolerance fails somewhere in the tail", ".3g")
ACC_FAMILY = Choice("family-wise level", ACC_LEVEL, ACC_LEVELS,
                    "the level of the binomial test over all the comparisons: the paper states no test; the usual "
                    "levels", ".2g")

CLAIMS = [
    Claim(
        "C.dyn.exact", "C", "claim", "review", f"{REBUTTAL}, reviewer's question 2",
        "We show a weaker analytical claim, but a stronger empirical verification: our model give effectively perfect "
        "predictions for the dynamics of individual trajectories, and not average predicitons on ensembles",
        r"The exact gradient-flow solution on a run's own training covariance, $D(t) = e^{-2\eta\Sigma t} D_0$, "
        r"predicts that run's $\mathcal{L}_{\mathrm{tr}}$ and $\mathcal{L}_{\mathrm{gen}}$.",
        "largest relative error of the simulated L_tr and L_gen against the exact gradient-flow theory on the run's "
        "own spectrum and D_0, over the record steps until the theory's losses have fallen to ℓ (where the reference "
        "is also ≥ 1e-10), per λ ∈ {0.1, 0.9, 1.5} (the paper's settings: d_in = 1000, η = 0.01)",
        DYN_ERROR, choices=(WINDOW,), bars=moved(DYN_ERROR), fmt=".2%",
        why="'effectively perfect' has no number: the book's 5%, moved either way; the error in the tail (down to "
            "losses of 1e-10) and the simulation against GD's exact discrete powers are reported, not graded"),
    Claim(
        "C.dyn.mp", "C", "claim", "text", NOTES,
        "with the Marchenko–Pastur spectrum (λ± = (1 ± √λ)², an atom 1 − 1/λ at 0 when λ > 1): "
        "L_tr ≈ E_MP[ν e^{−4ηνt}], L_gen ≈ E_MP[e^{−4ηνt}]",
        r"With the Marchenko–Pastur spectrum, $\mathcal{L}_{\mathrm{tr}} \approx \mathbb{E}_{\mathrm{MP}}[\nu e^{-4\eta\nu t}]$"
        r" and $\mathcal{L}_{\mathrm{gen}} \approx \mathbb{E}_{\mathrm{MP}}[e^{-4\eta\nu t}]$ (with the atom at $\nu = 0$ "
        r"for $\lambda > 1$).",
        "largest relative error of the MP integrals (scaled by the run's L_gen(0)) against the exact theory averaged "
        "over the direction of D_0 on the run's sample spectrum (l0 mean_i[s_i e^{−4ηs_i t}], l0 mean_i[e^{−4ηs_i t}]), "
        "over the record steps until those losses have fallen to ℓ, per λ ∈ {0.1, 0.9, 1.5}",
        MP_ERROR, choices=(WINDOW,), bars=moved(MP_ERROR), fmt=".1%",
        why="the MP form assumes an isotropic D_0, so that the loss is a trace over the spectrum: one draw of D_0 "
            "puts a random weight on each of the few softest modes that carry the late loss (its error is reported); "
            "the tolerance is the book's, moved either way"),
    Claim(
        "C.acc.law", "C", "claim", "text", NOTES,
        "for d_out = 1, A = erf( sqrt(ε / (2 L)) )",
        r"The threshold accuracy is a function of the loss alone: $A = \operatorname{erf}\sqrt{\varepsilon / "
        r"(2\mathcal{L})}$ for $d_{\mathrm{out}} = 1$.",
        "largest |counted accuracy − erf law at the simulated loss| in binomial standard deviations √(A(1−A)/n) of a "
        "count over n samples (N_tr for train, 10⁴ for test; L_tr for the training samples, L_gen = ‖D‖² for fresh "
        "test samples), over every record step, over the Bonferroni bound of all the (curve, step) comparisons at the "
        "family-wise level; per λ ∈ {0.1, 0.9, 1.5}, ε = 1e-3",
        ACC_BOUND, choices=(ACC_FAMILY,), fmt=".2f",
        why="a finite sample's accuracy scatters around the law by the binomial error, several times more on the few "
            "hundred training samples than on the test set: the test's own bound (1) is the bar"),
    Claim(
        "C.plateau.level", "C", "claim", "text", NOTES,
        "with the Marchenko–Pastur spectrum (… an atom 1 − 1/λ at 0 when λ > 1) … For λ > 1 L_gen plateaus",
        r"For $\lambda > 1$ the generalisation loss plateaus at the MP atom: "
        r"$\mathcal{L}_{\mathrm{gen}} \to \mathcal{L}_{\mathrm{gen}}(0)\,(1 - 1/\lambda)$.",
        "final L_gen over L_gen(0) (1 − 1/λ_eff), the run with λ > 1 (λ = 1.5)",
        PLATEAU_RATIO, bars=moved(PLATEAU_RATIO), fmt=".3f",
        why="the paper gives the atom, not a tolerance: the book's 10% either way, moved"),
    Claim(
        "C.plateau.no_test_crossing", "C", "claim", "text", NOTES,
        "For λ > 1 L_gen plateaus",
        r"For $\lambda > 1$ the test accuracy never saturates: it never reaches $\operatorname{erf}\sqrt 2$.",
        f"the largest test accuracy over the run (10⁶ steps), the run with λ > 1 (λ = 1.5), ε = {PAPER_EPS:g}",
        Bar(hi=math.nextafter(GROK_ACC, 0)), fmt=".4f",
        why="the model groks without learning features because the accuracy is a step in the loss: on a plateau above "
            "ε/4 the test accuracy stays below the paper's saturation level erf(√2), which is the bar"),
    Claim(
        "C.grok.formula", "C", "claim", "text", NOTES,
        "Grokking time (both accuracies reach erf(√2) ≈ 95% when L = ε/4), λ < 1: "
        "Δt_grok ≈ ln(1/(1 − √λ)) / (2η (1 − √λ)²)",
        r"At the paper's $\varepsilon = 10^{-3}$, $\Delta t_{\mathrm{grok}} \approx \ln\frac{1}{1-\sqrt\lambda} \big/ "
        r"\big(2\eta\,(1-\sqrt\lambda)^2\big)$ for $\lambda < 1$.",
        "simulated Δt_grok = t_test − t_train (first steps with accuracy ≥ erf(√2)) over the formula at the run's "
        "realised λ, per λ = 0.1 … 0.9, at ε = 1e-3 (the ratios at ε = 1e-5 and 1e-8 are reported, not graded)",
        RATIO_BAND, bars=moved(RATIO_BAND), fmt=".2f",
        why="the formula has no free parameter; '≈' is the book's band of 25% either way, moved. It keeps the leading "
            "term in ln(1/ε), so it is asymptotic: the smaller ε are context"),
    Claim(
        "C.grok.divergence", "C", "claim", "text", NOTES,
        "Δt_grok ≈ ln(1/(1 − √λ)) / (2η (1 − √λ)²), diverging as λ → 1",
        r"The grokking time grows with $\lambda$ towards its divergence at $\lambda \to 1$.",
        "decreases of the simulated Δt_grok over λ = 0.1, 0.2, …, 0.9, at every ε measured (1e-3 … 1e-8)",
        NO_DECREASE, fmt=".0f",
        why="'grows' is strict: no decrease, at any ε"),
    Claim(
        "C.wd.train_limit", "C", "claim", "text", NOTES,
        "Weight decay (small γ, λ < 1): L_tr → γ²/(4(1−λ))",
        r"With a small weight decay $\gamma$ ($\lambda < 1$) the training loss settles at "
        r"$\mathcal{L}_{\mathrm{tr}} \to \gamma^2/(4(1-\lambda))$ (in the book's conventions, times "
        r"$d_{\mathrm{out}}\Vert T\Vert^2$).",
        f"final L_tr over γ² d_out‖T‖² / (4(1 − λ)), per small-γ run (γ d_out / (2λ₋) ≤ {WD_SMALL:g}: "
        f"(λ, γ) ∈ {{0.3, 0.5}} × {{1e-3, 1e-2}} and (0.7, 1e-3)), on each of {WD_SEEDS} seeds (data and "
        "initialisation)",
        WD_BAND, bars=moved(WD_BAND, 1.5), fmt=".3f",
        why="the paper's number is the formula at d_out‖T‖² = 1 (a unit-norm teacher with one output); its "
            "initialisation gives E‖T‖² = 1/2, so the book grades the formula with the run's own teacher norm "
            "(the ratio to the paper's number is reported). The band is the book's, 25% either way, moved by 1.5 "
            "(a band halved would be as narrow as the seeds' own spread)"),
    Claim(
        "C.wd.gen_limit", "C", "claim", "text", NOTES,
        "Weight decay (small γ, λ < 1): … L_gen → γ²/(4(1−λ)³)",
        r"With a small weight decay $\gamma$ ($\lambda < 1$) the generalisation loss settles at "
        r"$\mathcal{L}_{\mathrm{gen}} \to \gamma^2/(4(1-\lambda)^3)$ (in the book's conventions, times "
        r"$d_{\mathrm{out}}\Vert T\Vert^2$).",
        f"final L_gen over γ² d_out‖T‖² / (4(1 − λ)³), per small-γ run (as C.wd.train_limit), on each of {WD_SEEDS} "
        "seeds",
        WD_BAND, bars=moved(WD_BAND, 1.5), fmt=".3f",
        why="as C.wd.train_limit: the formula with the run's own teacher norm, the book's band moved by 1.5"),
    Claim(
        "C.dout.peak", "C", "claim", "text", NOTES,
        "d_out: η → η/d_out; Δt peaks near d_out ≈ 50 at λ = 0.9",
        r"At $\lambda = 0.9$ the grokking time against $d_{\mathrm{out}}$ has a peak near $d_{\mathrm{out}} \approx 50$.",
        f"the largest seed-mean Δt_grok (steps, ε = 1e-3) at an interior d_out in [{PEAK_RANGE[0]}, {PEAK_RANGE[1]}] "
        "over the larger of the values at the sweep's ends (d_out = 1 and 100), the mean over the seeds' runs "
        "(d_out ∈ {1, 2, 5, 10, 20, 50, 100}, 3 seeds); runs go until both accuracies have crossed",
        PEAK_OVER_ENDS, fmt=".2f",
        why="a peak is a maximum: at least 1. 'Near 50' read as the interior d_out of the sweep in [20, 100]; "
            "Δt / d_out (which removes the trivial η → η/d_out slow-down) and a step-cap hypothesis are reported"),
    Claim(
        "C.acc.gamma_law", "C", "claim", "text", NOTES,
        "d_out > 1: accuracy is a regularized incomplete gamma function",
        r"For $d_{\mathrm{out}} > 1$ the threshold accuracy is the regularised incomplete $\Gamma$ function of the loss: "
        r"$A = P(d_{\mathrm{out}}/2,\ \varepsilon / (2\mathcal{L}))$.",
        "as C.acc.law, with the gamma law at the simulated loss per output (L_tr, L_gen = ‖D‖² / d_out): largest "
        "binomial z over every record step, over the Bonferroni bound of all the (curve, step) comparisons at the "
        "family-wise level; per run of the d_out chapter with d_out > 1 (λ = 0.9; 2,000 test samples), per seed",
        ACC_BOUND, choices=(ACC_FAMILY,), fmt=".2f",
        why="the rule of C.acc.law, declared before these runs were graded"),
    Claim(
        "C.nets.two_layer", "C", "claim", "text", NOTES,
        "Two-layer linear: η → η/(2 d_out²)",
        r"A two-layer linear net follows the linear theory with $\eta \to \eta / (2 d_{\mathrm{out}}^2)$.",
        "the net's train and test crossing steps (ε = 1e-3, first record step with accuracy ≥ erf(√2)) over those "
        "of the exact gradient-flow theory on the same data at the rescaled rate; setting default: the default "
        "profile's 200-40-5 scale-down; setting paper: the paper's 1000-200-5 (recorded runs)",
        NET_BAND, bars=moved(NET_BAND), fmt=".2f",
        why="the book's band, 25% either way, moved"),
    Claim(
        "C.nets.tanh", "C", "claim", "review", f"{REBUTTAL}, reply to the question on the tanh gain",
        r"we believe that the near linear behavior of $\tanh$ is the reason for the matching results",
        "A tanh net behaves as the two-layer linear net on the same data (near-linear tanh): its accuracies cross "
        "at the linear net's steps.",
        "the tanh net's train and test crossing steps (ε = 1e-3) over the two-layer linear net's (same data, "
        "initialisation and rate), so that the rescaled theory's rate constant (C.nets.two_layer) is not counted "
        "again; setting default: the 200-40-5 scale-down; setting paper: the paper's 1000-200-5 (recorded runs)",
        NET_BAND, bars=moved(NET_BAND), fmt=".2f",
        why="the rebuttal's reason is near-linearity: graded only where the net is measured near-linear "
            f"(the nonlinear part of its output below the accuracy level's loss, ratio < {NEAR_LINEAR:g}); the band "
            "is the book's, moved"),
    Claim(
        "C.nets.relu", "C", "claim", "review", f"{REBUTTAL}, reply to the question on the tanh gain",
        r"we find empirically, that using ReLU activations completely deviates from the simple prediction of "
        r"$h_t\simeq h_0$",
        "A ReLU net leaves the linear prediction: its accuracies do not cross at the two-layer linear net's steps.",
        "the factor between the ReLU net's crossing step (ε = 1e-3) and the two-layer linear net's on the same data, "
        "initialisation and rate, the larger of train and test (≥ 1; a net that never crosses counted at the run's "
        "end, a lower bound), per seed 0-2; the paper's 1000-200-5 (recorded runs, paper_c/nets_activation)",
        NET_DEVIATION, bars=NET_DEVIATION_BARS, fmt=".2f",
        why="'completely deviates' has no number: leaving C.nets.tanh's band (factor 1.25) is the least a deviation "
            "must do, moved as that band is; graded where the linear net crosses both accuracies in every run"),
    Claim(
        "C.nets.tanh_gain", "C", "claim", "review", f"{REBUTTAL}, reply to the question on the tanh gain",
        r"Extending $g>1$ does break the predictions as well, above a certain threshold.",
        "A tanh net with a gain well above 1 leaves the linear prediction: its accuracies do not cross at the "
        "two-layer linear net's steps.",
        "as C.nets.relu, for the tanh net of gain g = 20 (activation tanh(g z)/g, slope 1 at 0, so the linear net "
        "stays the prediction; g = 20 puts the initial pre-activations, RMS 0.05, at tanh's unit scale), per seed "
        "0-2, the paper's 1000-200-5 (recorded runs); g = 2 is reported beside it, not graded",
        NET_DEVIATION, bars=NET_DEVIATION_BARS, fmt=".2f",
        why="the rebuttal names neither the gain's form nor the threshold: the book's tanh(g z)/g and a gain at which "
            "the initial curvature is no longer small, both chosen before any run; the bar as C.nets.relu's"),
    Claim(
        "C.noise.train_shift", "C", "claim", "review", f"{REBUTTAL}, reply on self-correction and label noise",
        r"Training with label noise in our model can be shown to give the average training loss "
        r"$\mathcal{L}_{tr} =Tr(D_0 D_0^T e^{-4\eta_0 \Sigma_t } \Sigma_t )+\sigma^2_n$",
        r"With Gaussian label noise $\sigma_n$ the training loss is the noiseless one plus $\sigma_n^2$.",
        "largest relative error of the simulated L_tr against the noiseless exact L_tr + σ_n², over the record steps "
        "until the noiseless L_gen has fallen to ℓ, per run with σ_n > 0 (λ = 0.5 at σ*/2 and σ*, λ = 0.3), per seed",
        NOISE_ERROR, choices=(WINDOW,), bars=moved(NOISE_ERROR), fmt=".1%",
        why="the rebuttal gives no tolerance: the book's 10%, moved"),
    Claim(
        "C.noise.gen_unchanged", "C", "claim", "review", f"{REBUTTAL}, reply on self-correction and label noise",
        "while the generalization loss (w/o noise) is unchanged",
        r"With Gaussian label noise the generalisation loss is the noiseless one.",
        "largest relative error of the simulated L_gen against the noiseless exact L_gen, over the record steps "
        "until the noiseless L_gen has fallen to ℓ, per run with σ_n > 0 (as C.noise.train_shift), per seed",
        NOISE_ERROR, choices=(WINDOW,), bars=moved(NOISE_ERROR), fmt=".1%",
        why="as C.noise.train_shift"),
    Claim(
        "C.noise.tuned", "C", "claim", "review", f"{REBUTTAL}, reply on self-correction and label noise",
        r"It is then possible to tune $n$ and the threshold parameter $\epsilon$, such that the noise can cause induce "
        "grokking precisely when test accuracy saturates",
        r"$\sigma_n$ can be tuned so that the training accuracy saturates when the test accuracy does.",
        "|t_train − t_test| / t_test at λ = 0.3 and σ_n = σ* of the book's full noise theory (where that theory says "
        "the tuning is possible: λ < 0.382), on each of 4 seeds (data and initialisation; an accuracy that never "
        "crosses has no value); the λ = 0.5 runs at the rebuttal's own σ* are reported, not graded",
        TUNED_GAP, bars=moved(TUNED_GAP), fmt=".3f",
        why="graded where the book's own theory says the tuning can hold: with the noise the student fits, the "
            "training crossing can meet the test one only for λ < (3 − √5)/2; 'precisely' is the book's 10%, moved"),
    Claim(
        "C.noise.theory", "C", "prediction", "review", "the book's completion of the rebuttal's label-noise argument",
        "Training with label noise in our model can be shown to give the average training loss … while the "
        "generalization loss (w/o noise) is unchanged",
        "With the part of the noise the student fits kept in the theory (`theory.mp_noise_losses`), the MP theory "
        "describes the losses of a run with label noise.",
        "largest relative error of the simulated L_tr and L_gen against theory.mp_noise_losses, over the record steps "
        "until the noiseless L_gen has fallen to ℓ, per run with σ_n > 0, per seed",
        NOISE_ERROR, choices=(WINDOW,), bars=moved(NOISE_ERROR), fmt=".1%",
        why="an MP theory against one sample's spectrum and D_0 (as C.dyn.mp's single realisation): the book's 10%, "
            "moved"),
    Claim(
        "C.noise.test_shift", "C", "claim", "review", f"{REBUTTAL}, reply on self-correction and label noise",
        "thus adding noise to test labels will add a similar additive term",
        r"With the same Gaussian noise on the test labels, the test loss is the generalisation loss plus "
        r"$\sigma_n^2$.",
        "largest relative error of the test loss on noisy test labels (the run's fresh test samples) against the same run's "
        "exact L_gen + σ_n², over the record steps until the noiseless L_gen has fallen to ℓ, per run with noisy "
        "training and test labels (λ = 0.5 at σ*/2 and σ*, λ = 0.3), per seed",
        NOISE_ERROR, choices=(WINDOW,), bars=moved(NOISE_ERROR), fmt=".1%",
        why="as C.noise.train_shift; against the run's own L_gen, so that the noise the student fits (graded by "
            "C.noise.gen_unchanged) is not counted twice"),
    Claim(
        "C.modadd.data_ratio", "C", "claim", "review", f"{REBUTTAL}, reply on the scope of the model",
        "We have added experimental evidence in the revised manuscript that indicate that the grokking time scaling "
        "behavior extends for deeper nonlinear networks, for the task of learning modular arithmetic",
        r"On Part A's modular-addition MLP (the book's test of the rebuttal's statement: the paper's Appendix G is "
        r"not public) the grokking time against the training fraction $f$ has the linear theory's shape "
        r"$\Delta t \propto \ln(1/(1-\sqrt{\lambda}))/(1-\sqrt{\lambda})^2$ with $\lambda_{\mathrm{eff}} = c/f$.",
        f"R² of the fit of ln Δt by the formula's shape (free scale A and critical fraction c), Δt = t_test − t_train at "
        f"accuracy ≥ erf(√2) ≈ {GROK_ACC:.4f} (Paper C's level), over the fractions that grok, per seed (a fit with c "
        "at the edge of its range (0, smallest fitted f) has no value)",
        R2_OK, bars=R2_GRID, fmt=".3f",
        why="'describes' is the book's R² of 0.9, with 0.8 and 0.95 beside it"),
    Claim(
        "C.modadd.data_ratio_specific", "C", "claim", "review", f"{REBUTTAL}, reply on the scope of the model",
        "We have added experimental evidence in the revised manuscript that indicate that the grokking time scaling "
        "behavior extends for deeper nonlinear networks, for the task of learning modular arithmetic",
        r"On Part A's modular-addition MLP the linear theory's formula predicts the grokking time at held-out training "
        r"fractions at least as well as a plain two-parameter curve (a power law in $1/f$ or an exponential in $f$).",
        "the formula's leave-one-fraction-out RMS error of ln Δt over the better rival's (the smaller of the power "
        "law's and the exponential's), per seed",
        LOO_RATIO, fmt=".2f",
        why="'the scaling extends' says more than 'steeply decreasing' only where the theory's shape beats a plain "
            "curve of as many parameters: at least as well (≤ 1)"),
]
#: Paper C's claims by id.
REGISTRY = registry(CLAIMS)
