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
- :mod:`.key_numbers`     each figure's key numbers (printed, regression-tested, read by the checks)
- :mod:`.sensitivity`     each claim's quantity at every point of its grid (the tables), and the phase tables
- :mod:`.recorded_numbers` the recorded sets' key numbers: the splits, the paper's settings, the second init
- :mod:`.plots`           the loss and clock figures (1, 3, at the paper's settings, the inits); shared colours
- :mod:`.mechanism_plots` the figures of embedding geometry, the gradient hierarchy and activation patterns
- :mod:`.robustness`      threshold grids, phases in epochs, seed spreads and each seed graded alone
- :mod:`.thresholds`      each MLP claim's bar and grid, and the regimes' levels
- :mod:`.claims`          the registry of Paper A's claims (MLP and deep linear), each declared before any run
- :mod:`.readings`        the pages' graded results in words (for glue)
- :mod:`.checks`          the MLP claims' evaluators and regimes: sweeps (one per seed) in, graded results out
- :mod:`.recordings`      the recorded sets: the paper's settings, both splits, a second init, more seeds
- :mod:`.chapter_runs`    the one call each notebook makes: parameters in, configs and histories out
- :mod:`.chapters`        each notebook declared once: its call, its runs and its figures (title, key numbers)
- :mod:`.kinds`           Paper A's rows in the table of run kinds (imported here, so they always exist)
- :mod:`.dln`             the deep-linear-network theory chapter (numpy, float64)
"""

from . import kinds  # noqa: F401 (registers Paper A's run kinds)
