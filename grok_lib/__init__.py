"""grok_lib: the small library behind the grokking companion book.

One module per concern:

- :mod:`grok_lib.config`   frozen experiment configs, validation, named profiles
- :mod:`grok_lib.task`     the modular-addition task and its train/test split
- :mod:`grok_lib.model`    the Paper A model, z = E[a] + E[b], h = ReLU(W z + b), logits = U h
- :mod:`grok_lib.metrics`  losses in float64, accuracy, stable rank, clocks
- :mod:`grok_lib.history`  a training history: plain arrays, saved as npz
- :mod:`grok_lib.stacked`  sweeps as one model with a leading member axis, and its AdamW
- :mod:`grok_lib.train`    the full-batch AdamW trainer (solo runs are stacks of one)
- :mod:`grok_lib.store`    the run store: cache, checksums, checkpoints, resume, parallel sweeps
- :mod:`grok_lib.distributed`  sweeps trained by the workers of a Dask cluster
- :mod:`grok_lib.book_runs`    every run the book needs (trained up front by make)
- :mod:`grok_lib.deep_linear`  Paper A's theory model: deep linear networks (numpy, float64)
- :mod:`grok_lib.dln_clocks`   their two clocks, margins, energy gap, Prop. 4.3 drift
- :mod:`grok_lib.fits`     least-squares line and power-law fits with uncertainties
- :mod:`grok_lib.plots`    the house style and the plot functions (they take histories)
- :mod:`grok_lib.plots_linear`  plot functions of the deep-linear chapter
- :mod:`grok_lib.paths`    every path the project writes to
"""

__version__ = "0.1.0"
