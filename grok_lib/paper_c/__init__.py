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
  are read in and the errors there, the accuracy law's deviations, the formula ratios, the small-gamma regime and
  the seed means over d_out (what the checks and the key numbers both read; it imports neither)
- :mod:`grok_lib.paper_c.panels`    the panels, one kind of plot each (take histories and arrays, never train)
- :mod:`grok_lib.paper_c.plots`     the figures, one per notebook, composed of those panels
- :mod:`grok_lib.paper_c.thresholds` the bars and levels each claim is graded by
- :mod:`grok_lib.paper_c.claims`    the claims, each declared before any run (kind, where the paper or its rebuttal
  says it, quantity, bar, the book's choices)
- :mod:`grok_lib.paper_c.checks`    one evaluator per figure's claims, histories in and graded Results out (draws per
  seed and choice, the one rule of :mod:`grok_lib.grading`, a measured regime check): the shared helpers and the
  linear student's dynamics, accuracy law, plateau and grokking time (C.dyn, C.acc, C.plateau, C.grok)
- :mod:`grok_lib.paper_c.checks_wd_dout` the checks of weight decay and several outputs (C.wd, C.dout)
- :mod:`grok_lib.paper_c.checks_beyond` the checks beyond the linear student: the two nets, label noise and Part A's task
  (C.nets, C.noise, C.modadd)
- :mod:`grok_lib.paper_c.key_numbers` each figure's key numbers (printed, regression-tested) and the data the
  figures draw: the shared helpers and the linear student's loss curves, grokking time, weight decay and d_out
  (the key-number modules read the measurements, never a checks module)
- :mod:`grok_lib.paper_c.numbers_beyond` the same for the two nets, label noise and Part A's task
- :mod:`grok_lib.paper_c.readings`  the numbers each page's prose quotes (glued), from the tables and the results,
  and the weight-decay page's table of each seed's ratios and verdict
- :mod:`grok_lib.paper_c.data_ratio` Paper C's data-ratio question on Part A's modular-addition task: grokking
  time vs the training fraction
- :mod:`grok_lib.paper_c.shape_fits` the three two-parameter shapes fitted to that grokking time
- :mod:`grok_lib.paper_c.chapters`  each notebook declared once: its call, runs, claim-only runs and figures
- :mod:`grok_lib.paper_c.chapter_runs` the one call each Part C notebook makes: its runs, as a list or as named
  groups (the nets' ``two_layer`` and ``tanh``, label noise's ``fractions`` and ``full``), and the recorded sets'
  histories in those groups
- :mod:`grok_lib.paper_c.recordings` the recorded sets: the two nets at the paper's 1000-200-5 (too long for
  ``make book``; trained once with ``scripts/record_runs.py``)
- :mod:`grok_lib.paper_c.kinds`     Part C's row in the table of run kinds (imported here, so it always exists)
"""

from . import kinds  # noqa: F401 (registers Part C's run kind)
