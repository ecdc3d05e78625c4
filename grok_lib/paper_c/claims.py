"""Paper C's quantitative statements as claims: the registry. Every tolerance sentence is
formatted from the thresholds its check compares against (:mod:`grok_lib.paper_c.thresholds`); the
checks themselves, one per claim, are in :mod:`grok_lib.paper_c.checks`, :mod:`grok_lib.paper_c.checks_wd_dout`
and :mod:`grok_lib.paper_c.checks_beyond`.
"""

from __future__ import annotations

from ..claims import Claim, registry
from .theory import GROK_ACC
from .thresholds import (ACC_LEVEL, ACC_PARTLY, DYN_OK, DYN_PARTLY, EDGE, FORMULA_EPS, GD_OK, LOO_MARGIN,
                         LOSS_FLOOR, MIN_FRACTIONS, MP_OK, MP_PARTLY, NET_BAND, NET_PARTLY, NOISE_OK, NOISE_PARTLY,
                         PAPER_EPS, PEAK_RANGE, PEAK_SE, PLATEAU_OK, PLATEAU_PARTLY, R2_OK, RATIO_BAND, STEP_CAP,
                         TUNED_OK, TUNED_PARTLY, WD_BAND, WD_SEEDS, WD_SMALL, WD_SPREAD)


def _band(band) -> str:
    return f"[{band[0]:g}, {band[1]:g}]"


#: The margin rule shared by the re-graded claims' tolerances.
_CLEAR = (f"clear of the reproduced threshold by {EDGE:.0%} of it (a worst value within that margin is partly at "
          "most: a slightly different threshold would flip it)")
#: The range the paper's figures show: until the accuracies are decided at its eps.
_DECIDED = (f"the record steps until the reference losses have fallen to eps/4 = {PAPER_EPS / 4:g} (the paper's "
            f"eps = {PAPER_EPS:g}: the range where its accuracy figures move; a loss that never gets there, L_gen on "
            f"the lambda > 1 plateau, does not extend it), where the reference is also >= {LOSS_FLOOR:g}")


CLAIMS = [
    Claim(
        "C.dyn.exact",
        "C",
        "The training dynamics are solved exactly by the training covariance, $D(t) = e^{-2\\eta\\Sigma t} D_0$; "
        "the prediction is effectively perfect for individual runs (not only on average).",
        "Largest relative error between the simulated L_tr (on the training samples) and L_gen (||D||^2/d_out) and "
        f"the exact gradient-flow theory on the run's own spectrum, over {_DECIDED}; lambda in {{0.1, 0.9, 1.5}}, "
        "eta = 0.01, d_in = 1000. Why that range: GD's factor (1 - 2 eta s)^t and the flow's e^{-2 eta s t} drift "
        "apart like t (eta s)^2, so any fixed tolerance fails deep enough in the tail, and reading down to losses of "
        f"{LOSS_FLOOR:g} would judge a tail the paper's figures do not show. Reported alongside: the error "
        "down to that floor, the crossing steps against the theory's, and the simulation against discrete GD's exact "
        "powers.",
        f"reproduced: <= {DYN_OK:.0%} on every run, {_CLEAR}; partly: <= {DYN_PARTLY:.0%}; the discrete-GD check "
        f"must be <= {GD_OK:g} (else not reproduced: the simulation itself would be wrong).",
    ),
    Claim(
        "C.dyn.mp",
        "C",
        "With the Marchenko–Pastur spectrum, $\\mathcal{L}_{\\mathrm{tr}} \\sim \\mathbb{E}_{\\mathrm{MP}}[\\nu e^{-4\\eta\\nu t}]$ and "
        "$\\mathcal{L}_{\\mathrm{gen}} \\sim \\mathbb{E}_{\\mathrm{MP}}[e^{-4\\eta\\nu t}]$ (with the atom at $\\nu = 0$ for $\\lambda > 1$).",
        "Largest relative error between the MP integrals (scaled by the run's L_gen(0)) and the exact gradient-flow "
        "theory averaged over the direction of D_0 on the run's sample spectrum (l0 mean_i[s_i e^{-4 eta s_i t}], "
        f"l0 mean_i[e^{{-4 eta s_i t}}]: computed from the eigenvalues, no further runs), over {_DECIDED}; lambda in "
        "{0.1, 0.9, 1.5}, d_in = 1000. Why the average: the paper's MP form assumes D_0 isotropic, so that the loss "
        "is a trace over the spectrum; one realisation of D_0 puts a chi-square-distributed weight on each of the few "
        "softest modes that carry the late loss, an error that shrinks only as d_in grows. The single realisation's "
        "error is reported alongside.",
        f"reproduced: <= {MP_OK:.0%} on every run, {_CLEAR}; partly: <= {MP_PARTLY:.0%}.",
    ),
    Claim(
        "C.acc.law",
        "C",
        "The threshold accuracy is a function of the loss alone: $A = \\operatorname{erf}\\sqrt{\\varepsilon / (2\\mathcal{L})}$ for $d_{\\mathrm{out}} = 1$.",
        "At every record step, |simulated accuracy - erf law at the simulated loss the claim names| (L_tr of the "
        "training samples for the training accuracy, L_gen = ||D||^2 for the fresh test samples), in binomial standard "
        "deviations sqrt(A (1 - A) / n) of an accuracy counted on n samples (N_tr for train, 10^4 for test; A kept in "
        "[1/n, 1 - 1/n]); lambda in {0.1, 0.9, 1.5}, eps = 1e-3. Why: a finite sample's accuracy scatters around "
        "the law by that binomial error (up to 0.5 / sqrt(n) at A = 1/2, so several times larger on the few hundred "
        "to thousand training samples than on the test set), which a fixed absolute tolerance ignores.",
        f"reproduced: every z within the two-sided normal quantile at family-wise level {ACC_LEVEL:g} over all "
        f"comparisons (Bonferroni), {_CLEAR}; partly: every absolute deviation <= {ACC_PARTLY:g}.",
    ),
    Claim(
        "C.grok.formula",
        "C",
        "Grokking time $\\Delta t_{\\mathrm{grok}} \\sim \\ln\\frac{1}{1-\\sqrt\\lambda} \\big/ \\big(2\\eta\\,(1-\\sqrt\\lambda)^2\\big)$ for $\\lambda < 1$.",
        "Simulated Delta t_grok = t_test - t_train (first steps with accuracy >= erf(sqrt 2)) over the formula, "
        f"lambda = 0.1 ... 0.9, eps in {{{', '.join(f'{e:g}' for e in FORMULA_EPS)}}}. The formula is derived "
        "for the late, edge-dominated decay, so it can only hold as eps -> 0.",
        f"reproduced: every ratio in {_band(RATIO_BAND)}; partly (asymptotic agreement): for every lambda the "
        f"ratio at eps = {FORMULA_EPS[-1]:g} is closer to 1 than at eps = {FORMULA_EPS[0]:g}; not reproduced "
        "otherwise.",
    ),
    Claim(
        "C.grok.divergence",
        "C",
        "The grokking time grows with $\\lambda$ and diverges as $\\lambda \\to 1$.",
        "Simulated Delta t_grok over lambda = 0.1 ... 0.9 at every eps measured.",
        "reproduced: strictly increasing in lambda at every eps; partly: at most one decrease per eps; "
        "not reproduced otherwise.",
    ),
    Claim(
        "C.plateau",
        "C",
        "For $\\lambda > 1$ the generalisation loss plateaus at the MP atom, $\\mathcal{L}_{\\mathrm{gen}} \\to 1 - 1/\\lambda$, and the test "
        "accuracy never saturates.",
        "lambda = 1.5: the final L_gen over l0 (1 - 1/lambda_eff), l0 = the run's L_gen(0); whether the test "
        "accuracy crosses erf(sqrt 2).",
        f"reproduced: within {PLATEAU_OK:.0%} and no test crossing; partly: within {PLATEAU_PARTLY:.0%}.",
    ),
    Claim(
        "C.wd.limits",
        "C",
        "With small weight decay ($\\lambda < 1$) the losses plateau at $\\mathcal{L}_{\\mathrm{tr}} \\to \\gamma^2/(4(1-\\lambda))$ and "
        "$\\mathcal{L}_{\\mathrm{gen}} \\to \\gamma^2/(4(1-\\lambda)^3)$.",
        "Final L_tr and L_gen of the weight-decay runs over the plateau formula with the teacher's norm kept, "
        "L_tr -> gamma^2 d_out ||T||^2 / (4 (1 - lambda)), L_gen -> gamma^2 d_out ||T||^2 / (4 (1 - lambda)^3) "
        "(theory.wd_limits_mp: the fixed point D_inf = -gamma (2 Sigma / d_out + gamma)^{-1} T to first order in "
        "gamma, with E_MP[1/nu] = 1/(1 - lambda), E_MP[1/nu^2] = 1/(1 - lambda)^3), runs with gamma d_out / "
        f"(2 lambda_-) <= {WD_SMALL:g} (the small-gamma regime), on each of {WD_SEEDS} seeds (data and initialisation: "
        f"the book's seed and claim-only runs at {WD_SEEDS - 1} further seeds; why seeds: the plateaus weigh the spectrum "
        "by 1/nu and 1/nu^2, so they are carried by the few softest modes of one finite-d_in sample, and one seed's "
        "ratios can sit on the band's margin). The book's conventions: L = (1/d_out) Tr[D^T Sigma "
        "D] (no factor 1/2) and the decay step S <- S - eta (grad L + gamma S) (the penalty (gamma/2) ||S||^2); "
        "the paper's formula is this one at d_out ||T||^2 = 1, i.e. a unit-norm teacher with one output, while its "
        "initialisation N(0, 1/(2 d_in d_out)) gives E||T||^2 = 1/2 and so half the paper's number (the ratio to "
        "the paper's number and to the MP plateau without the small-gamma expansion are reported alongside).",
        f"reproduced: every ratio in {_band(WD_BAND)} (the first-order formula against finite-d spectra and "
        f"gamma d_out / (2 lambda_-) up to {WD_SMALL:g}), clear of both ends by {EDGE:.0%} of them (a ratio within "
        f"that margin is partly at most); partly: max/min of the ratios <= "
        f"{WD_SPREAD:g} (the lambda and gamma dependence holds up to one common prefactor); not reproduced otherwise; "
        "judged per seed, and over the seeds: their common verdict, partly where they differ.",
    ),
    Claim(
        "C.dout.peak",
        "C",
        "At $\\lambda = 0.9$ the grokking time against $d_{\\mathrm{out}}$ has a peak near $d_{\\mathrm{out}} \\approx 50$ (with $\\eta \\to \\eta/d_{\\mathrm{out}}$).",
        "Seed-mean Delta t_grok (eps = 1e-3) over d_out, both in steps and in the single-output clock "
        "Delta t / d_out (which removes the trivial eta -> eta/d_out slow-down); runs go until both accuracies "
        f"have crossed. Reported, not graded (a hypothesis for the paper's peak): Delta t as a run stopped at "
        f"{STEP_CAP:.0e} steps would record it, min(t_test, cap) - t_train (the paper's step cap is not stated).",
        f"reproduced: either curve has its maximum at an interior d_out in [{PEAK_RANGE[0]}, {PEAK_RANGE[1]}] that "
        f"exceeds both end values by > {PEAK_SE:g} standard errors; partly: such a maximum without that margin; "
        "not reproduced otherwise.",
    ),
    Claim(
        "C.nets.two_layer",
        "C",
        "A two-layer linear net follows the linear theory with $\\eta \\to \\eta / (2 d_{\\mathrm{out}}^2)$.",
        "The net's train and test crossing times (eps = 1e-3, record grid) over those of the exact gradient-flow "
        "theory on the same data with the rescaled rate. Setting default: the default profile's 200-40-5 "
        "scale-down; setting paper: the paper's 1000-200-5 (recorded runs, paper_c/nets_paper).",
        f"reproduced: both ratios in {_band(NET_BAND)}; partly: in {_band(NET_PARTLY)}.",
    ),
    Claim(
        "C.nets.tanh",
        "C",
        "A tanh net (1000-200-5 in the paper) behaves close to the linear theory (near-linear tanh).",
        "As C.nets.two_layer, for the tanh net. Setting default: the default profile's scale-down 200-40-5 (the "
        "paper's 1000-200-5 takes minutes of per-sample GD, too long for the book's default runs; see NET_SETTINGS); "
        "setting paper: the paper's 1000-200-5 (recorded runs, paper_c/nets_paper).",
        f"reproduced: both ratios in {_band(NET_BAND)}; partly: in {_band(NET_PARTLY)}; a test accuracy that "
        "never crosses is not reproduced.",
    ),
    Claim(
        "C.noise.additive",
        "C",
        "With Gaussian label noise $\\sigma_n$ the training loss gains $+\\sigma_n^2$ while the generalisation loss is "
        "unchanged (rebuttal).",
        "Largest relative error of the simulated L_tr against the noiseless exact L_tr + sigma_n^2, and of L_gen "
        "against the noiseless exact L_gen, over the record steps until the noiseless L_gen reaches eps/4 "
        "(lambda = 0.5, eps = 1e-3), every sigma_n > 0.",
        f"reproduced: <= {NOISE_OK:.0%}; partly: <= {NOISE_PARTLY:.0%}.",
    ),
    Claim(
        "C.noise.tuned",
        "C",
        "$\\sigma_n$ and $\\varepsilon$ can be tuned so that the training accuracy saturates exactly when the test accuracy does "
        "(rebuttal).",
        "At sigma_n = sigma* from the MP losses and the rebuttal's prediction "
        "(theory.noise_for_simultaneous_crossing), lambda = 0.5: |t_train - t_test| / t_test, on each of several "
        "seeds (data and initialisation; the book's seed and claim-only runs at further seeds). Why seeds: the "
        "fitted noise floors L_gen near eps/4 at this sigma_n, so whether and when one seed's test accuracy crosses "
        "is decided by that seed's spectrum.",
        f"per seed, reproduced: <= {TUNED_OK:g}; partly: <= {TUNED_PARTLY:g}; a seed whose accuracy never crosses is "
        "not reproduced; over the seeds: their common verdict, partly where they differ.",
    ),
    Claim(
        "C.noise.tuned_full",
        "C",
        "(The book's completion of the rebuttal.) With the noise the student fits kept in the theory "
        "(`theory.mp_noise_losses`), $\\sigma_n$ can be tuned so that the two accuracies saturate together, "
        "for $\\lambda < 0.382$.",
        "At lambda = 0.3 and sigma_n = sigma* of theory.noise_for_simultaneous_crossing(model='mp'): "
        "|t_train - t_test| / t_test; and the largest relative error of the simulated losses against "
        "theory.mp_noise_losses until the noiseless L_gen reaches eps/4.",
        f"reproduced: gap <= {TUNED_OK:g} and loss error <= {NOISE_OK:.0%}; partly: gap <= {TUNED_PARTLY:g} and "
        f"loss error <= {NOISE_PARTLY:.0%}.",
    ),
    # Paper C's question asked of Part A's task (measured in :mod:`.data_ratio`)
    Claim(
        "C.modadd.data_ratio",
        "C",
        "Paper C's question asked of Part A's modular-addition MLP (the paper's Appendix G on modular arithmetic "
        "is not public; this is the book's own test, not a reproduction of it): the grokking time vs the training "
        "fraction $f$ has the linear theory's shape $\\Delta t \\propto \\ln(1/(1-\\sqrt{\\lambda}))/(1-\\sqrt{\\lambda})^2$ "
        "with $\\lambda_{\\mathrm{eff}} = c/f$.",
        f"Δt = t_test - t_train, the first recorded steps with test and train accuracy ≥ erf(√2) ≈ {GROK_ACC:.4f} "
        "(Paper C's level), per training fraction and seed; ln of the per-fraction geometric mean over seeds "
        "(fractions where every seed groks) fitted by the formula's shape (free scale A and critical fraction c), "
        "a power law in 1/f and an exponential in f (two parameters each); R² and the leave-one-fraction-out RMS "
        "error of ln Δt.",
        f"reproduced: at least {MIN_FRACTIONS} fractions grok for every seed, the formula fit has R² ≥ {R2_OK:g} "
        f"with c inside (0, smallest fitted f), and its leave-one-out RMS error is at most {LOO_MARGIN:g}x the "
        f"better rival's; partly: the R² condition only (the "
        "shape describes the points but a plain two-parameter curve predicts held-out fractions as well or "
        "better, so the theory adds nothing beyond 'steeply decreasing'); not reproduced otherwise.",
    ),
]
#: Part C's claims by id.
REGISTRY = registry(CLAIMS)
