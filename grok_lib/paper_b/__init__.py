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
  products over X for every member at once), float64 or float32, on numpy or (the GPU check) torch tensors on a
  device; measured by ``benchmarks/bench_diagonal_sweep.py``; it trains the recorded sweep at the paper's d.
- :mod:`grok_lib.paper_b.sweep_folder` -- such a sweep kept in a folder and trained over several calls (sessions, device
  leases), each going on from the last checkpoint.
- :mod:`grok_lib.paper_b.transition_window` -- the sparse page's transition window: the window fitted to the alpha
  sweep, the fractions' limit alpha -> infinity and the end time's slopes, as a table and in words.
- :mod:`grok_lib.paper_b.paper_lambda` -- the sparse page's reading of its alpha sweep at the paper's lambda and step
  (recorded at d = 4,000) beside the chapter's runs at the book's lambda.
- :mod:`grok_lib.paper_b.paper_d` -- the sparse page's reading of that sweep (recorded as far as it has gone) beside
  the same sweep at the book's d: each member's transition on the clock, what the size moves.
- :mod:`grok_lib.paper_b.margins` -- max-L2-margin (dual, L-BFGS-B) and max-L1-margin (linprog / HiGHS)
  linear classifiers of a training set.
- :mod:`grok_lib.paper_b.sample_complexity` -- each margin classifier's test accuracy over a doubling grid of
  training-set sizes on the sparse data (the generalisation bounds' sample gap), from data alone.
- :mod:`grok_lib.paper_b.matrix_completion` -- W = U U^T - V V^T on the multiplication table.
- :mod:`grok_lib.paper_b.relu_net` -- the two-layer ReLU net on modular addition (torch, float32, CPU or CUDA).
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
- :mod:`grok_lib.paper_b.regimes` -- whether the runs are in the paper's regime, measured: lr x the sharpness at
  initialisation below 2, the transition complete within the run.
- :mod:`grok_lib.paper_b.claim_terms` -- what several chapters' claims share: the rebuttal quoted, the transition's
  levels, the kernel window, the slope bar and its grid.
- :mod:`grok_lib.paper_b.run_sets` -- the runs several chapters plan: one sweep, one run set from the clock, the sparse
  chapter's named groups, the recorded sets' reader.
- :mod:`grok_lib.paper_b.selection` -- runs several chapters pick out of their histories: both sweeps once, the focus
  run, the MLP chapters' seeds.
- :mod:`grok_lib.paper_b.draws` -- what several chapters' checks measure per draw: members, seed, crossing time,
  lambda t's spread, inversions of an order.
- :mod:`grok_lib.paper_b.curve_numbers` -- what several chapters' tables and key numbers read off runs.
- :mod:`grok_lib.paper_b.words` -- verdicts, regimes and numbers in the prose's words.
- :mod:`grok_lib.paper_b.panels` -- axis-level plot functions (one panel each) that take histories or arrays, and the
  sweeps figure two chapters draw.
- :mod:`grok_lib.paper_b.chapters` -- one module per notebook (``chapters/<stem>.py``): its call ``run``, claim-only
  runs, bars and claims, checks, key numbers and tables, the numbers its prose quotes and its figures' drawing.
- :mod:`grok_lib.paper_b.recordings` -- the recorded sets: matrix completion at the paper's settings,
  misgrokking at the paper's d, gamma and n (three data seeds, each run to clock 4), the sparse sweep at the paper's
  lambda (at the book's d, and at the paper's d as one stacked sweep), matrix completion with init noise.
- :mod:`grok_lib.paper_b.statements` -- every statement of Paper B in the seeds, with the claims that test it or
  why none does
- :mod:`grok_lib.paper_b.kinds` -- Paper B's rows in the table of run kinds (imported here, so they always
  exist).
"""

from . import kinds  # noqa: F401 (registers Paper B's run kinds)
