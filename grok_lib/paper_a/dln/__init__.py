"""Paper A's theory model: deep linear networks A = W_L ... W_1 (numpy, float64, explicit gradients).

- :mod:`.config`      the runs' config, profiles and the sweep over depth, optimiser and λ
- :mod:`.theory`      closed forms: the Schatten identity, Lemma 3.1, Prop. 4.3's drift, exact gradients
- :mod:`.optim`       AdamW on numpy arrays
- :mod:`.train`       the task, the trainer and the L-BFGS polish that gives E(A_*)
- :mod:`.clocks`      the two clocks, margins, the energy gap and their fits; the objective's sharpness
- :mod:`.runs`        which runs each figure and claim uses
- :mod:`.key_numbers` each figure's key numbers
- :mod:`.plots`       the chapter's figures
- :mod:`.thresholds`  each claim's bar and grid, and the regime's bound
- :mod:`.claims`      the chapter's claims: the registry
- :mod:`.checks`      the chapter's regime and the claims' grading
"""
