"""Paper A, "Two Training Clocks in Grokking": the MLP on modular addition and the deep-linear theory.

- :mod:`.config`          the MLP's config, profiles and the weight-decay sweep
- :mod:`.task`            the modular-addition task and its train/test split
- :mod:`.model`           the MLP, z = E[a] + E[b], h = ReLU(W z + b), logits = U h
- :mod:`.stacked`         sweeps as one model with a leading member axis, and its AdamW
- :mod:`.train`           the full-batch AdamW trainer (solo runs are stacks of one)
- :mod:`.metrics`         losses in float64, accuracy, stable rank (torch)
- :mod:`.clocks`          the slow clock: the stable rank's fall after its peak
- :mod:`.geometry`        Fourier spectra and the polygon of Figure 2
- :mod:`.relu_reduction`  activation-pattern churn and the reduced (pattern-frozen) model
- :mod:`.recordings`      the recorded sets: the paper's settings, both splits, a second init, more seeds
- :mod:`.claim_terms`     what several chapters' claims share: the fit level and its grid, the regimes' levels, the
  paper's width and axis
- :mod:`.run_sets`        the runs several chapters read: the MLP chapters' one call (the weight-decay sweep), the
  recorded sets, the seeds a verdict is judged on
- :mod:`.draws`           what several chapters' checks share: a sweep's members and seed, the regimes, inversions
- :mod:`.curve_numbers`   what several chapters' tables, key numbers and the GPU check read off a run
- :mod:`.robustness`      seed spreads and each seed graded alone, runs by weight decay
- :mod:`.words`           graded results in the prose's words (for glue)
- :mod:`.embedding_init`  PyTorch's N(0, 1) embeddings against N(0, 1/d): the table, numbers and words of Figure 3's
  page on it
- :mod:`.panels`          the colours and the paper's window every MLP figure shares; Figures 1-3's plots
- :mod:`.chapters`        one module per notebook (``chapters/<stem>.py``): its call ``run``, bars and claims, checks,
  key numbers and tables, the numbers its prose quotes and its figures' drawing
- :mod:`.statements`      every statement of Paper A in the seeds, with the claims that test it or why none does
- :mod:`.kinds`           Paper A's rows in the table of run kinds (imported here, so they always exist)
- :mod:`.dln`             the deep-linear networks of the theory chapter (numpy, float64)
"""

from . import kinds  # noqa: F401 (registers Paper A's run kinds)
