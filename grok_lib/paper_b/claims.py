"""Paper B's claims: the registry, each declared before any run (:mod:`grok_lib.grading`): what kind of statement it
is, where the paper says it, the one statement, the quantity, the bar and the grid of the book's choices. The bars
and levels are the constants of :mod:`grok_lib.paper_b.thresholds`; the checks are in :mod:`grok_lib.paper_b.checks`
(the diagonal nets' in :mod:`grok_lib.paper_b.checks_diagonal`, the MLPs' in :mod:`grok_lib.paper_b.checks_mlp`);
the regime every check grades in is :mod:`grok_lib.paper_b.regimes`.

Paper B is known to this book through its summary (``shared/PAPERS.md``) and the authors' rebuttal (quoted: basis
"review"); a number the book reads off one of its figures is labelled as the book's reading (basis "figure"). A bar
that is the paper's own number at the precision it is read at is one bar; a bar the book chose where the paper gives
no number is graded over a grid of bars moved either way. The book's own predictions (the bridge to Part A) are
recorded under Paper B's chapters but counted apart: they are not the paper's claims.
"""

from __future__ import annotations

from ..claims import registry
from ..grading import Choice, Claim, moved
from .thresholds import (MC_NOISE_CLOCK, MC_NOISE_LEVELS, ACC_MATCH, BRIDGE_ACC, BRIDGE_SLOPE, COS_GAP, END_FRACTION, FINAL_ACC, FIT_CLOCKS,
                         KERNEL_ACC, KERNEL_ENDS, LIMIT, MC_CLOCK, MC_DROP_LEVELS, MC_FIT_LEVELS, MC_FIT_T,
                         MC_PAPER_CLOCK, MC_PLATEAU, MC_PLATEAU_CLOCKS, MC_PLATEAU_GRID, MC_RANK_EXCESS, MC_RECOVERY,
                         MISGROK_FALLS, MISGROK_HIGH, MISGROK_HIGH_GRID, NORM_DEV, ORDER_INVERSIONS, PAPER_FIG1A_FRACTIONS,
                         SAMPLE_GAP, SAMPLE_LEVELS,
                         SAME_LAMBDA_T, SLOPE, SLOPE_GRID, START_FRACTION, TRAIN_FIT, TRANSITION_LEVELS, WINDOW_SHRINK)

#: The rebuttal's words (``shared/seeds/dichotomy_implicit_biases_rebuttal.txt``).
REBUTTAL = "the authors' rebuttal"
WINDOW_QUOTE = (r"our main results for both classification (Thm. 3.4 and 3.5) and regression (Thm. 3.9 and 3.10) "
                r"settings highlight a sharp kernel-to-rich transition from $T=\frac{1-c}{\lambda}\log\alpha$ to "
                r"$T=\frac{1+c}{\lambda}\log\alpha$")
PREDICTORS_QUOTE = (r"$\frac{1-c}{\lambda} \log \alpha$ leads to the kernel predictor, but increasing it slightly to "
                    r"$\frac{1+c}{\lambda} \log \alpha$ leads to a KKT solution of min-norm/max-margin problems "
                    r"associated with the neural net")
MC_QUOTE = ("We can prove that initially gradient flow can fit the observed entries but make no progress on the "
            "remaining ones, but eventually it can generalize to unobserved entries and recover the ground truth.")
ORDER_QUOTE = ("we conducted experiments on modular addition and showed that enlarging the initialization scale or "
               "reducing the weight decay indeed delays the sharp transition in test accuracy")
CLOCK_QUOTE = (r"This is consistent with our theory, which predicts the grokking time to be scaled with "
               r"$\frac{1}{\lambda}$ and $\log(\text{init scale})$")

#: The choices the claims share.
LEVEL = Choice("test-accuracy level", TRANSITION_LEVELS[1], TRANSITION_LEVELS,
               "the paper marks no level: its onset (0.6) and its end (0.9)")
#: Modular addition: the same levels, the onset central: the MLPs' test accuracy ends at 0.89-0.99, so their 0.9 is
#: read where the curve flattens (the seeds' slopes there spread over a factor 5), the onset where it is steep.
MODADD_LEVEL = Choice("test-accuracy level", TRANSITION_LEVELS[0], TRANSITION_LEVELS,
                      "the paper marks no level: the onset (0.6, where the curve is steep) and the end (0.9, near "
                      "where these runs' test accuracy flattens)")
KERNEL_WINDOW_END = Choice("kernel window's end (λt / ln α; from 0.02)", KERNEL_ENDS[-1], KERNEL_ENDS,
                           "where the kernel phase is read: the paper gives no window")

CLAIMS = [
    # --- Fig. 1a (sparse classification) --------------------------------------------------------------------------
    Claim(
        "B.fig1a.fit_at_once", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the train accuracy is 100% at once",
        "The training set is fitted at once: train accuracy 100% from the first moments of training on.",
        "lowest train accuracy over the recorded steps from λt / ln α = c to the end of the kernel window (0.2), "
        "per run of the α sweep",
        TRAIN_FIT, choices=(Choice("'at once' from λt / ln α", FIT_CLOCKS[1], FIT_CLOCKS, "'at once' names no time"),),
        fmt=".3f"),
    Claim(
        "B.fig1a.kernel_acc", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the test accuracy stays at about 52% for a long time",
        "Through the kernel phase the test accuracy stays near chance, at about 52%.",
        "median test accuracy over the kernel window, per run of the α sweep",
        KERNEL_ACC, choices=(KERNEL_WINDOW_END,), fmt=".3f",
        why="the paper's 52% as read off a 0–100% axis: five points either side"),
    Claim(
        "B.fig1a.final_acc", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: the test accuracy then jumps to 100%",
        "After the transition the test accuracy is 100%.",
        "final test accuracy, per run of the α sweep", FINAL_ACC, fmt=".3f",
        why="the paper's 100% as read off a 0–100% axis: five points"),
    Claim(
        "B.fig1a.start_fraction", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: at α = 128 the test accuracy starts rising at about 1.7·10⁵ steps, where "
        "ln α / λ is 4.85·10⁵ steps",
        rf"At $\alpha = 128$ the transition starts at {PAPER_FIG1A_FRACTIONS[0]:.2f} of $\ln\alpha/\lambda$.",
        "λt / ln α at the first recorded step with test accuracy ≥ 0.6, of the focus run (α = 128) at each data seed",
        START_FRACTION, fmt=".3f",
        why="the steps read off the figure to about half of 10⁵ steps, 0.10 of the clock; the paper's run is one "
            "draw of its data, ours are three"),
    Claim(
        "B.fig1a.end_fraction", "B", "claim", "figure", "Fig. 1a",
        "the book's reading of Fig. 1a: at α = 128 the test accuracy reaches 100% by about 3.6·10⁵ steps, where "
        "ln α / λ is 4.85·10⁵ steps",
        rf"At $\alpha = 128$ the transition ends at {PAPER_FIG1A_FRACTIONS[1]:.2f} of $\ln\alpha/\lambda$.",
        "λt / ln α at the first recorded step with test accuracy ≥ 0.9, of the focus run (α = 128) at each data seed",
        END_FRACTION, fmt=".3f",
        why="as the start: the steps read to about half of 10⁵ steps, 0.10 of the clock"),
    Claim(
        "B.fig1a.norm", "B", "claim", "figure", "Fig. 1a",
        r"the book's reading of Fig. 1a: the parameter norm follows $128\, e^{-\lambda\,\mathrm{lr}\,\mathrm{step}}$",
        r"In the kernel phase the parameter norm decays as $\alpha e^{-\lambda t}$.",
        "largest relative deviation of ‖θ‖ from α e^{−λt} over λt / ln α ≤ min(0.5, the run's start fraction), per "
        "run of the α sweep",
        NORM_DEV, bars=moved(NORM_DEV), fmt=".3f",
        why="the paper states no tolerance"),
    # --- Theorems 3.4, 3.5 ----------------------------------------------------------------------------------------
    Claim(
        "B.thm.window", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"The transition happens in $(1 \pm c)\ln\alpha/\lambda$ for every $c \in (0, 1)$ as $\alpha \to \infty$: "
        r"at finite $\alpha$, the run's $c$ shrinks as $\alpha$ grows.",
        "per pair of consecutive α of the sweep, the smaller α's c less the larger α's, the range the recording grid "
        "allows taken against the claim (c = max(1 − start, end − 1) on λt / ln α)",
        WINDOW_SHRINK, fmt=".3f",
        why="'c < 1' alone says only that the transition ended within the run (the runs end at 2 ln α / λ); the "
            "transition's start and end are the levels 0.6 and 0.9"),
    Claim(
        "B.thm.limit", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        "The window closes on 1 as α → ∞: the transition's fraction of ln α / λ tends to 1.",
        "intercept (1 / ln α → 0) of the least-squares line of the transition's fraction of ln α / λ against 1 / ln α "
        "over the α sweep",
        LIMIT, choices=(LEVEL,), bars=moved(LIMIT), fmt=".3f",
        why="the book's reading λt = ln α − O(1) makes the fraction linear in 1 / ln α; the paper states no tolerance"),
    Claim(
        "B.thm.log_alpha_slope", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"At fixed $\lambda$ the transition time grows like $\ln\alpha/\lambda$: slope $1/\lambda$ against $\ln\alpha$.",
        "least-squares slope of the transition time t against ln α over the α sweep, times λ",
        SLOPE, choices=(LEVEL,), bars=SLOPE_GRID, fmt=".3f",
        why="the paper states no tolerance"),
    Claim(
        "B.thm.inverse_lambda_slope", "B", "claim", "review", f"Thms 3.4, 3.5 and {REBUTTAL}", WINDOW_QUOTE,
        r"At fixed $\alpha$ the transition time scales as $1/\lambda$: $\lambda t$ at the transition is the same for "
        r"every $\lambda$.",
        "max / min − 1 of λt at the transition over the λ sweep (at α = 128)",
        SAME_LAMBDA_T, choices=(LEVEL,), bars=moved(SAME_LAMBDA_T), fmt=".3f",
        why="at finite α the theory's time is (ln α − b) / λ, so 'slope ln α against 1/λ' is the α → ∞ statement; at "
            "fixed α it says λt is the same for every λ (a line in 1/λ through the origin); the slope against 1/λ "
            "is reported"),
    # --- kernel and rich regimes -----------------------------------------------------------------------------------
    Claim(
        "B.regimes.kernel_l2", "B", "claim", "review", f"Thm 3.4 and {REBUTTAL}", PREDICTORS_QUOTE,
        "Early the net is the kernel predictor: β(t) points along the max-L2-margin classifier.",
        "1 − the median cosine of β(t) with the max-L2-margin classifier over the kernel window, per sparse run",
        COS_GAP, choices=(KERNEL_WINDOW_END,), bars=moved(COS_GAP), fmt=".4f",
        why="the classifier is computed from the training data alone; the paper states no tolerance"),
    Claim(
        "B.regimes.rich_l1", "B", "claim", "review", f"Thm 3.5, Cor. 3.7 and {REBUTTAL}", PREDICTORS_QUOTE,
        "Late the net is a max-L1-margin KKT point: β points along the max-L1-margin classifier.",
        "1 − the cosine of β with the max-L1-margin classifier at the end of the run, per sparse run",
        COS_GAP, bars=moved(COS_GAP), fmt=".4f",
        why="the classifier is computed from the training data alone; the paper states no tolerance"),
    Claim(
        "B.regimes.kernel_acc_match", "B", "claim", "review", f"Thm 3.4 and {REBUTTAL}", PREDICTORS_QUOTE,
        "Early the net's test accuracy is the max-L2-margin classifier's.",
        "|median test accuracy over the kernel window − the max-L2-margin classifier's test accuracy|, per sparse run",
        ACC_MATCH, choices=(KERNEL_WINDOW_END,), bars=moved(ACC_MATCH), fmt=".3f",
        why="the predictor's direction fixes its predictions; the paper states no tolerance"),
    Claim(
        "B.regimes.rich_acc_match", "B", "claim", "review", f"Thm 3.5 and {REBUTTAL}", PREDICTORS_QUOTE,
        "Late the net's test accuracy is the max-L1-margin classifier's.",
        "|final test accuracy − the max-L1-margin classifier's test accuracy|, per sparse run",
        ACC_MATCH, bars=moved(ACC_MATCH), fmt=".3f",
        why="the predictor's direction fixes its predictions; the paper states no tolerance"),
    Claim(
        "B.misgrokking.starts_high", "B", "claim", "figure", "Sec. 3.2.3",
        "the book's reading of the paper's misgrokking experiment (γ = 25, n = 32): the test accuracy starts high",
        "With a large L2 margin and no sparse structure, the test accuracy is high in the kernel phase.",
        "median test accuracy over the kernel window, per run",
        MISGROK_HIGH, choices=(KERNEL_WINDOW_END,), bars=MISGROK_HIGH_GRID, fmt=".3f",
        why="'high' is the paper's word, with no number"),
    Claim(
        "B.misgrokking.falls", "B", "claim", "figure", "Sec. 3.2.3",
        "the book's reading of the paper's misgrokking experiment: the test accuracy then falls to about 50%",
        "Later the test accuracy falls to about 50%.",
        "final test accuracy, per run (the run's fall complete: the regime)",
        MISGROK_FALLS, fmt=".3f",
        why="'~50%' is a round number: ten points either side, as '~10⁶ steps' is read to a decade"),
    # --- matrix completion ---------------------------------------------------------------------------------------
    Claim(
        "B.bounds.sample_gap", "B", "claim", "review", f"{REBUTTAL}, reply to reviewer XQUe (R1)",
        r"L2-max margin classifier requires $O(kd)$ samples to achieve good generalization, while L1-max margin "
        r"classifier only requires $\tilde{O}(k^2)$ samples. Here since we are considering sparse vectors, $k$ is "
        r"much smaller than $d$. As a result, L1 max-margin has a much smaller sample complexity.",
        "On sparse data (k ≪ d) the max-L2-margin (kernel) classifier needs many more training samples than the "
        "max-L1-margin (rich) classifier to generalise.",
        "the smallest n of a doubling grid (16 … the first power of 2 ≥ d) at which the max-L2-margin classifier's "
        "test accuracy reaches the level, over the max-L1-margin classifier's; a classifier that never reaches it "
        "counted at twice the grid's last size (a lower bound of the ratio); the sparse chapter's data (d = 4,000, "
        "k = 3), per data seed 0-2; computed from data alone, no run",
        SAMPLE_GAP, choices=(Choice("accuracy level", 0.95, SAMPLE_LEVELS,
                                    "the bounds name no accuracy; the usual levels", ".2f"),),
        bars=moved(SAMPLE_GAP), fmt=".1f",
        why="'much smaller sample complexity' has no number: an order of magnitude, moved by 2 either way; declared "
            "after seed 0's test accuracies at n = 64, 256 and 1,024 had been looked at (the rich classifier 0.85 at "
            "n = 64 and 1.00 at 256, the kernel one 0.66 at 1,024)"),
    Claim(
        "B.mc.train_fit", "B", "claim", "figure", "Sec. 3.3.3",
        "the book's reading of the paper's matrix-completion experiment (d = 97, α = 10, λ = 10⁻⁴, step 0.1): the "
        "train loss is fitted in about 10 steps",
        "The observed entries are fitted in about 10 steps of size 0.1: by continuous time about 1.",
        "continuous time t at the first recorded step with train MSE ≤ ε × its initial value",
        MC_FIT_T, choices=(Choice("train-MSE level ε (of its initial value)", MC_FIT_LEVELS[1], MC_FIT_LEVELS,
                                  "'fitted' names no level", ".0e"),), fmt=".3g",
        why="'~10 steps' is an order of magnitude: a decade either side of t = 1"),
    Claim(
        "B.mc.kernel_plateau", "B", "claim", "review", f"Cor. 3.11 and {REBUTTAL}", MC_QUOTE,
        "Meanwhile there is no progress on the unobserved entries: the test MSE stays at the zero predictor's.",
        "kernel-plateau test MSE (read at λt / ln α = x) over the zero predictor's test MSE",
        MC_PLATEAU, choices=(Choice("clock x the plateau is read at", MC_PLATEAU_CLOCKS[1], MC_PLATEAU_CLOCKS,
                                    "the paper names no time"),), bars=MC_PLATEAU_GRID, fmt=".3f",
        why="the entries of Ωᵀ are fitted with Ω (W is symmetric), so the ratio sits a little below 1; the off-support "
            "RMS of W is reported"),
    Claim(
        "B.mc.recovery", "B", "claim", "review", f"Thm 3.12 and {REBUTTAL}", MC_QUOTE,
        "Later the unobserved entries are recovered: the test MSE falls far below its kernel plateau.",
        "final test MSE over the kernel plateau's (read at λt / ln α = 0.1)",
        MC_RECOVERY, bars=moved(MC_RECOVERY), fmt=".3f",
        why="the paper states no level; λ > 0 keeps the recovered table a little shrunk"),
    Claim(
        "B.mc.rank_one", "B", "claim", "review", f"Thm 3.12 and {REBUTTAL}", MC_QUOTE,
        "The late solution is the minimum-nuclear-norm completion, which for this table is rank one.",
        "final stable rank of W minus 1",
        MC_RANK_EXCESS, bars=moved(MC_RANK_EXCESS), fmt=".3f",
        why="the paper states no tolerance; the table X* has stable rank 1"),
    Claim(
        "B.mc.clock", "B", "claim", "figure", "Sec. 3.3.3",
        "the book's reading of the paper's matrix-completion experiment: the test loss falls at about 10⁶ steps "
        f"(λ = 10⁻⁴, step 0.1, α = 10: λt / ln α ≈ {MC_PAPER_CLOCK:.1f})",
        rf"The test loss falls at about $10^6$ steps of the paper's run: $\lambda t/\ln\alpha \approx$ {MC_PAPER_CLOCK:.1f}.",
        "λt / ln α at the first recorded step after the plateau where the test MSE has dropped by a share q of its "
        "kernel plateau",
        MC_CLOCK, choices=(Choice("drop q marking the fall", MC_DROP_LEVELS[1], MC_DROP_LEVELS,
                                  "the paper does not say which level of the fall its number marks"),), fmt=".2f",
        why="'~10⁶' is an order of magnitude read off a log axis: a decade either side"),
    Claim(
        "B.mc.noisy_init", "B", "claim", "review", f"Remark 3.13 and {REBUTTAL}",
        "if we add sufficiently small noise to the initialization, the trajectory of gradient flow would remain close "
        "to the original one for arbitrarily long time period",
        "With small random noise on the initialisation the run still goes from the kernel plateau to the recovered "
        "table, at the noise-free run's clock.",
        "|x_σ(q) / x_0(q) − 1|, x(q): λt / ln α where the test MSE has first dropped by q of its kernel plateau, for "
        "the run with init noise σ against the noise-free run on the same observed set, per init seed (a run that "
        "never falls has no value)",
        MC_NOISE_CLOCK, choices=(Choice("init noise σ (std of each entry of U and V; α = 10)", MC_NOISE_LEVELS[1],
                                        MC_NOISE_LEVELS, "the remark says 'small', with no number", ".0e"),
                                 Choice("drop q marking the fall", MC_DROP_LEVELS[1], MC_DROP_LEVELS,
                                        "as B.mc.clock")),
        bars=moved(MC_NOISE_CLOCK), fmt=".3f",
        why="'close' has no number: the book's 10% of the clock, moved either way"),
    # --- modular addition ------------------------------------------------------------------------------------------
    Claim(
        "B.modadd.alpha_order", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", ORDER_QUOTE,
        "Modular addition, two-layer ReLU net: a larger initialisation scale α delays the transition.",
        "inversions of 'strictly later for every larger α' in the transition times t over the α sweep (a run that "
        "never gets there counts one), per seed",
        ORDER_INVERSIONS, choices=(MODADD_LEVEL,), fmt=".0f"),
    Claim(
        "B.modadd.lambda_order", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", ORDER_QUOTE,
        "Modular addition: a larger weight decay brings the transition earlier.",
        "inversions of 'strictly earlier for every larger λ' in the transition times t over the λ sweep (a run that "
        "never gets there counts one), per seed",
        ORDER_INVERSIONS, choices=(MODADD_LEVEL,), fmt=".0f"),
    Claim(
        "B.modadd.log_alpha_clock", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", CLOCK_QUOTE,
        r"Modular addition: at fixed $\lambda$ the transition time grows like $\ln\alpha/\lambda$: slope $1/\lambda$ "
        r"against $\ln\alpha$.",
        "least-squares slope of the transition time t against ln α over the α > 1 runs of the α sweep, times λ, "
        "per seed",
        SLOPE, choices=(MODADD_LEVEL,), bars=SLOPE_GRID, fmt=".3f",
        why="α = 1 has ln α = 0 and no kernel phase; the paper states no tolerance"),
    Claim(
        "B.modadd.inverse_lambda_clock", "B", "claim", "review", f"Sec. 2 and {REBUTTAL}", CLOCK_QUOTE,
        r"Modular addition: at fixed $\alpha$ the transition time scales as $1/\lambda$: $\lambda t$ at the transition "
        r"is the same for every $\lambda$.",
        "max / min − 1 of λt at the transition over the λ sweep, per seed",
        SAME_LAMBDA_T, choices=(MODADD_LEVEL,), bars=moved(SAME_LAMBDA_T), fmt=".3f",
        why="as B.thm.inverse_lambda_slope: at fixed α, '∝ 1/λ' says λt is the same for every λ"),
    # --- the bridge to Part A: the book's own predictions ------------------------------------------------------------
    Claim(
        "B.bridge.delay", "B", "prediction", "review",
        f"the book's question: Paper B's clock ({REBUTTAL}) carried over to Part A's model and AdamW", CLOCK_QUOTE,
        "Under AdamW, a larger α delays grokking, at every weight decay.",
        f"inversions of 'strictly later for every larger α' in the grokking step (first test accuracy ≥ {BRIDGE_ACC}) "
        "over α = 1 … 1000 (a run that never groks counts as later), summed over the weight decays, per seed",
        ORDER_INVERSIONS, fmt=".0f"),
    Claim(
        "B.bridge.clock", "B", "prediction", "review",
        f"the book's prediction: Paper B's clock ({REBUTTAL}) carried over to Part A's model and AdamW", CLOCK_QUOTE,
        r"The delay is $T(\alpha) - T(1) = \ln\alpha/(\lambda\,\mathrm{lr})$ steps: the time decoupled weight decay "
        r"needs to shrink the weights back by $\alpha$.",
        "least-squares slope through the origin of the measured delay against ln α / (λ lr), per weight decay, per seed",
        BRIDGE_SLOPE, bars=SLOPE_GRID, fmt=".2f",
        why="the book's own bar"),
]

#: Paper B's claims (and the book's predictions on its pages) by id, in the book's order.
REGISTRY = registry(CLAIMS)
