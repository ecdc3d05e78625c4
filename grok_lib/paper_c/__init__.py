"""Paper C: Levi, Beck & Bar-Sinai, "Grokking in Linear Estimators: A Solvable Model that
Groks without Understanding" (ICLR 2024).

Part C keeps the paper's letters: lambda = d_in / N_tr (not a weight decay), gamma = the
weight decay, eta = the learning rate, eps = the accuracy threshold, D = S - T.

- :mod:`grok_lib.paper_c.config`    the frozen run config, its validation, the profiles and the run sets
- :mod:`grok_lib.paper_c.theory`    every closed form: exact dynamics, Marchenko-Pastur, accuracy laws,
  the grokking-time formula, the weight-decay limits, the learning-rate rescalings
- :mod:`grok_lib.paper_c.samples`   the teacher-student data: teacher, inputs, label noise, initial weights, the
  record steps, and the data in the sample covariance's eigenbasis
- :mod:`grok_lib.paper_c.run_theory` the closed forms on a run's own data: its theory curves and crossing times
- :mod:`grok_lib.paper_c.simulate`  the trainer ``train(config) -> History`` (linear student by exact powers in the
  sample eigenbasis or plain GD; two-layer linear and tanh nets)
- :mod:`grok_lib.paper_c.measure`   grokking times, crossings, relative errors, plateaus, peaks; the windows the claims
  are read in and the levels they are read at, the errors there, the accuracy law's deviations, the formula ratios,
  the small-gamma regime and the seed means over d_out (what every chapter's checks and key numbers read)
- :mod:`grok_lib.paper_c.draws`     the draws the claims are graded over (runs labelled and grouped by seed) and the
  regime checks the chapters share (GD stable, the transition completes), the accuracy law's bound
- :mod:`grok_lib.paper_c.claim_terms` where the paper's words are read from, and the choices and bar two chapters'
  claims share
- :mod:`grok_lib.paper_c.curve_numbers` the numbers every figure reads off its runs' curves (printed losses, steps,
  the curves at fixed steps and every crossing)
- :mod:`grok_lib.paper_c.run_sets`  what the notebook calls share in making their runs (a value left to the profile,
  the linear student's overrides, a claim's runs at further seeds)
- :mod:`grok_lib.paper_c.panels`    the panels, one kind of plot each (take histories and arrays, never train)
- :mod:`grok_lib.paper_c.data_ratio` Paper C's data-ratio question on Part A's modular-addition task: grokking
  time vs the training fraction
- :mod:`grok_lib.paper_c.shape_fits` the three two-parameter shapes fitted to that grokking time
- :mod:`grok_lib.paper_c.chapters`  one module per notebook (``chapters.<stem>`` for ``notebooks/paper_c/<stem>.ipynb``):
  its notebook call and runs, its claims and bars, its checks, key numbers, tables, the numbers its prose quotes and
  its figures, declared at its end as ``CHAPTER``
- :mod:`grok_lib.paper_c.recordings` the recorded sets: the two nets at the paper's 1000-200-5 and the other
  activations (too long for ``make book``; trained once with ``scripts/record_runs.py``)
- :mod:`grok_lib.paper_c.statements` every statement of Paper C in the seeds, with the claims that test it or why
  none does
- :mod:`grok_lib.paper_c.kinds`     Part C's row in the table of run kinds (imported here, so it always exists)
"""

from . import kinds  # noqa: F401 (registers Part C's run kind)
