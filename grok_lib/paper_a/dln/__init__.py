"""Paper A's theory model: deep linear networks A = W_L ... W_1 (numpy, float64, explicit gradients).

- :mod:`.config`      the runs' config, profiles and the sweep over depth, optimiser and λ
- :mod:`.theory`      closed forms: the Schatten identity, Lemma 3.1, Prop. 4.3's drift, exact gradients
- :mod:`.optim`       AdamW on numpy arrays
- :mod:`.train`       the task, the trainer and the L-BFGS polish that gives E(A_*)
- :mod:`.clocks`      the two clocks, margins, the energy gap and their fits; the objective's sharpness
- :mod:`.tables`      which runs each clock reads, and each run's readings as the chapter's table rows
- :mod:`.panels`      plot functions that take runs and their measured numbers, and the chapter's three figures

The chapter that uses them (its claims, checks, key numbers, the prose's numbers and which runs each figure draws) is
:mod:`grok_lib.paper_a.chapters.deep_linear_clocks`.
"""
