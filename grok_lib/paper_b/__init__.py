"""Paper B: Lyu, Jin, Li, Du, Lee, Hu, "Dichotomy of Early and Late Phase Implicit Biases Can
Provably Induce Grokking" (ICLR 2024).

Large initialisation (scale alpha) and small weight decay lambda: gradient flow first sits
in the kernel regime, then switches sharply to the rich regime near continuous time
t = ln(alpha) / lambda (t = sum of the step sizes).

Modules:

- :mod:`grok_lib.paper_b.config` -- frozen configs of the four experiments, the profiles ci / default /
  paper and the alpha / lambda sweeps.
- :mod:`grok_lib.paper_b.diagonal` -- the diagonal linear net <u*u - v*v, x> on sparse classification and
  on the misgrokking data (numpy float64, explicit gradients).
- :mod:`grok_lib.paper_b.diagonal_sweep` -- a sparse sweep sharing one data set trained as one computation (both
  products over X for every member at once), float64 or float32; measured by ``benchmarks/bench_diagonal_sweep.py``,
  not yet used by a chapter.
- :mod:`grok_lib.paper_b.margins` -- max-L2-margin (dual, L-BFGS-B) and max-L1-margin (linprog / HiGHS)
  linear classifiers of a training set.
- :mod:`grok_lib.paper_b.sample_complexity` -- each margin classifier's test accuracy over a doubling grid of
  training-set sizes on the sparse data (the generalisation bounds' sample gap), from data alone.
- :mod:`grok_lib.paper_b.matrix_completion` -- W = U U^T - V V^T on the multiplication table.
- :mod:`grok_lib.paper_b.relu_net` -- the two-layer ReLU net on modular addition (torch, float32, CPU).
- :mod:`grok_lib.paper_b.stable_gd` -- the same net trained with GD's step held inside its stable range
  (min(lr, c / the sharpness)), in the theory's continuous time: the modular-addition claims' in-regime runs.
- :mod:`grok_lib.paper_b.sharpness` -- the sharpness of each experiment's objective: the MLP's Gauss-Newton top
  eigenvalue (power iteration; its closed form at W2 = 0), the diagonal nets' and matrix completion's Hessian at
  initialisation.
- :mod:`grok_lib.paper_b.bridge` -- the bridge to Part A: its config, profiles and alpha x lambda sweep
  (Paper A's MLP and AdamW from alpha times the standard initialisation).
- :mod:`grok_lib.paper_b.bridge_train` -- the bridge's trainer (Paper A's model and split, plain AdamW).
- :mod:`grok_lib.paper_b.measure` -- transition steps, fractions of ln(alpha) / lambda, window, limit and
  slope fits, the bridge's delays.
- :mod:`grok_lib.paper_b.selection` -- picking a notebook's runs out of its histories: the sweeps of its named
  groups, the focus run, one seed's sweeps, runs in alpha order.
- :mod:`grok_lib.paper_b.key_numbers` -- the diagonal-net chapters' key numbers per figure (printed,
  regression-tested), and the small readers the figure modules share.
- :mod:`grok_lib.paper_b.mlp_numbers` -- the MLP chapters' key numbers per figure (modular addition, the bridge).
- :mod:`grok_lib.paper_b.readings` -- the numbers the MLP chapters' prose quotes, and every page's verdicts and
  regime checks in words, measured and glued into the pages (never typed).
- :mod:`grok_lib.paper_b.panels` -- axis-level plot functions (one panel each) that take histories or arrays.
- :mod:`grok_lib.paper_b.plots` -- the book's figures, one function each, composed of those panels.
- :mod:`grok_lib.paper_b.thresholds` -- the bars and levels each claim is graded by (and the regime checks' levels).
- :mod:`grok_lib.paper_b.claims` -- the registry of Paper B's claims (and the book's predictions on its pages), each
  declared before any run: kind, where the paper says it, quantity, bar, the grid of the book's choices.
- :mod:`grok_lib.paper_b.regimes` -- whether the runs are in the paper's regime, measured: lr x the sharpness at
  initialisation below 2, the transition complete within the run.
- :mod:`grok_lib.paper_b.checks` -- the claims each notebook records, graded on its runs (``evaluate_*``).
- :mod:`grok_lib.paper_b.checks_diagonal` -- the diagonal-net chapters' and matrix completion's checks: the quantities
  measured per draw, graded by the one rule.
- :mod:`grok_lib.paper_b.checks_mlp` -- the MLP chapters' checks (modular addition, the bridge).
- :mod:`grok_lib.paper_b.chapter_runs` -- the one call each Part B notebook makes: parameters in, configs (named groups
  where a chapter has sweeps) and histories out (and the reader of the recorded sets).
- :mod:`grok_lib.paper_b.chapters` -- each notebook declared once: the call it makes (its ``chapter_runs`` function),
  its runs, claim-only runs and figures.
- :mod:`grok_lib.paper_b.recordings` -- the recorded sets: matrix completion at the paper's settings,
  misgrokking at the paper's d, gamma and n (three data seeds, each run to clock 4).
- :mod:`grok_lib.paper_b.kinds` -- Paper B's rows in the table of run kinds (imported here, so they always
  exist).
"""

from . import kinds  # noqa: F401 (registers Paper B's run kinds)
