"""Paper B's recorded sets (see :mod:`grok_lib.recorded`): runs at the paper's own scale, too long for
``make book``, trained once with ``scripts/record_runs.py`` (``sparse_paper_d``: over several sessions with
``scripts/train_stacked_sweep.py``) and committed under ``recorded/paper_b/``.

- ``mc_paper``: matrix completion at the paper's settings (Sec. 3.3.3: d = 97, 5% of the entries observed,
  alpha = 10, lambda = 1e-4, step 0.1, full-batch GD, no init noise: the ``paper`` profile's config) for
  :data:`MC_STEPS` steps. The paper says the test loss falls at "about 1e6 steps" but not how long it ran;
  the profile's length (4 ln(alpha) / lambda, 921,035 steps, clock 4.0) would stop before the paper's own
  step count (clock 4.3), so the recorded run goes 20% past it: 1.2e6 steps, clock 5.2.
- ``misgrokking_paper``: misgrokking at the paper's d = 1e5, gamma = 25, n = 32 (Sec. 3.2.3), at data seeds
  0, 1 and 2, each run stopped on the clock at lambda t / ln(alpha) = :data:`MISGROKKING_STOP_CLOCK`
  (``MisgrokkingConfig.stop_clock``; ``steps`` is only an upper bound). The paper does not state the
  misgrokking run's alpha, lambda, step size, length or test set; the choices and their reasons are in
  :func:`misgrokking_paper` and on the kernel-vs-rich page.

- ``mc_init_noise``: the default profile's matrix completion with Gaussian noise on U = V = alpha I (Remark 3.13), at
  three noise levels and three init seeds, for ``B.mc.noisy_init`` (compared with the chapter's noise-free run).
- ``sparse_paper_lambda``: Fig. 1a's sparse classification at the paper's lambda = 1e-3 and step 0.01 (its
  ``paper`` profile), at the default profile's d = 4000, n = 128 (the book's figures' data): the alpha sweep
  16 ... 16384 at data seed 0 and the focus run alpha = 128 at data seeds 1 and 2 (one by one: at this d the stacked
  step of :mod:`.diagonal_sweep` saves little, and its longest member would set every member's length), each to 2 ln(alpha) / lambda (0.55-1.9 million steps). Only lambda and the step differ
  from the chapter's figures, so the page can say what lambda moves on the clock lambda t / ln(alpha).

- ``sparse_paper_d``: the alpha sweep of ``sparse_paper_lambda`` at the paper's d = 1e5 and n = 256 (data seed 0), one
  stacked sweep of 1.94 million steps trained over several sessions (``scripts/train_stacked_sweep.py``) and recorded
  from its folder as far as it has gone (:data:`RECORD_COMMANDS`; :data:`PREFIX_TRAINERS` retrains its first steps as
  that sweep).

Each set keeps the metric traces only (no weight snapshots: a d = 1e5 vector per recorded step would be
megabytes per run, and no claim or table reads them).
"""

from __future__ import annotations

from dataclasses import replace

from . import config

#: Matrix completion: the paper's "about 1e6 steps" plus 20% (clock 5.2 at lambda = 1e-4, step 0.1, alpha = 10).
MC_STEPS = 1_200_000
#: Misgrokking: the data seeds (w*, train and test data) of the three runs.
MISGROKKING_SEEDS = (0, 1, 2)
#: Misgrokking: each run stops when its clock lambda t / ln(alpha) reaches this.
MISGROKKING_STOP_CLOCK = 4.0


def mc_paper() -> list:
    """The ``paper`` profile's matrix-completion config, run for :data:`MC_STEPS` steps."""
    return [replace(config.PROFILES["paper"]["matrix_completion"], steps=MC_STEPS)]


def misgrokking_paper() -> list:
    """Misgrokking at the paper's d, gamma and n, one run per data seed, each stopped at clock 4.

    Choices where the paper is silent (each also on the kernel-vs-rich page):

    - alpha = 128, as Fig. 1a (the ``paper`` profile's choice);
    - lambda = 0.02 and the step min(0.2, 1 / H_t), the default profile's: the clock lambda t / ln(alpha) is
      the same at any lambda, and at the paper profile's lambda = 1e-3 and step 0.01 a run to clock 4 is
      1.9e6 steps, hours at d = 1e5; here about 27,000 steps;
    - 2,000 test points: test accuracy to about +-1%; 10,000 Gaussian test points at d = 1e5 would be 4 GB
      of float32 per run, read at every recorded step;
    - steps = 60,000 is only an upper bound (about twice what an exploratory run at seed 0 needed to reach
      clock 4); 300 recorded steps planned on it, of which about 190 come before the stop;
    - no beta snapshots.
    """
    base = config.MisgrokkingConfig(d=100_000, n_train=32, n_test=2000, gamma=25.0, alpha=128.0, weight_decay=0.02,
                                    lr=0.2, lr_rule="stable", steps=60_000, stop_clock=MISGROKKING_STOP_CLOCK,
                                    n_log=300, n_snapshots=0)
    return [replace(base, data_seed=s) for s in MISGROKKING_SEEDS]


#: Sparse classification at the paper's lambda: the data seeds of the focus run (alpha = 128; the sweep's is the first).
SPARSE_LAMBDA_SEEDS = (0, 1, 2)


def sparse_paper_lambda() -> list:
    """The default profile's sparse runs with the paper profile's lambda and step: the alpha sweep at the first of
    :data:`SPARSE_LAMBDA_SEEDS`, the focus alpha at the others; steps to the sparse horizon, 200 recorded steps,
    no beta snapshots (the page reads the traces)."""
    paper, default = config.PROFILES["paper"]["sparse"], config.PROFILES["default"]["sparse"]
    base = replace(default, weight_decay=paper.weight_decay, lr=paper.lr, n_snapshots=0)
    sweep = [replace(base, alpha=a) for a in config.SWEEPS["default"]["sparse"]["alpha"]]
    focus = [replace(base, data_seed=s) for s in SPARSE_LAMBDA_SEEDS[1:]]
    return [replace(c, steps=config.steps_for(c, config.HORIZON["sparse"])) for c in sweep + focus]


def sparse_paper_lambda_sweep(d: int, n_train: int, n_test: int, data_seed: int = 0,
                              horizon: float = config.HORIZON["sparse"], margins: bool = True) -> list:
    """The alpha sweep of :func:`sparse_paper_lambda` (the default profile's alphas at the paper's lambda and step) at
    any ``d``, ``n_train``, ``n_test`` and ``data_seed``, each to ``horizon`` ln(alpha) / lambda, no beta snapshots:
    the sweep ``scripts/train_stacked_sweep.py`` and the GPU check train as one stacked computation (at the paper's
    d = 1e5 and n = 256 it is 1.94 million steps for alpha = 16,384). ``margins``: record the cosines to the margin
    classifiers (their linear program needs scipy, and at d = 1e5 minutes and 7.5 GB)."""
    paper, default = config.PROFILES["paper"]["sparse"], config.PROFILES["default"]["sparse"]
    base = replace(default, d=d, n_train=n_train, n_test=n_test, data_seed=data_seed, weight_decay=paper.weight_decay,
                   lr=paper.lr, n_snapshots=0, margins=margins)
    sweep = [replace(base, alpha=a) for a in config.SWEEPS["default"]["sparse"]["alpha"]]
    return [replace(c, steps=config.steps_for(c, horizon)) for c in sweep]


#: The stacked sweep at the paper's own size: its d and n (Sec. 3.2.1, Fig. 1a), and the sweep's dtype.
PAPER_D, PAPER_N, SWEEP_DTYPE = 100_000, 256, "float64"
#: The command that trains (over several sessions) and records ``paper_b/sparse_paper_d``.
SWEEP_COMMAND = ".venv/bin/python scripts/train_stacked_sweep.py --out DIR [--hours H] then --out DIR --record"


def sparse_paper_d() -> list:
    """:func:`sparse_paper_lambda`'s alpha sweep at the paper's d = 1e5 and n = 256 (data seed 0, the default
    profile's 2,000 test points, the margin cosines kept): :func:`sparse_paper_lambda_sweep` with the defaults of
    ``scripts/train_stacked_sweep.py``, which trains it as one stacked computation over several sessions (1.94 million
    steps; its pace on the book's CPU is in ``benchmarks/README.md``) and records it from its folder, before it is done too: the set then holds
    every member's rows up to the step the sweep stands at (its manifest's ``sweep``)."""
    return sparse_paper_lambda_sweep(PAPER_D, PAPER_N, config.PROFILES["default"]["sparse"].n_test)


def stacked_prefix(configs: list, steps: int) -> dict[int, dict[str, float]]:
    """The rows the stacked sweep of ``configs`` records for its last member at the steps <= ``steps`` (trained on the
    CPU with one torch and one OpenBLAS thread, as the sweep was), what ``tests/test_recorded.py`` holds against ``paper_b/sparse_paper_d``.
    Without the margin cosines: their linear program takes minutes and 7.5 GB at d = 1e5, and no other number of
    the sweep reads them; and the other members record only their first steps (n_log = 2): each record reads the
    2,000 test points, most of the prefix's time at d = 1e5, and no member's steps depend on another's records
    (``tests/paper_b/test_train_stacked_sweep.py``)."""
    from .. import blas
    from ..arithmetic import one_thread
    from ..recorded import prefix_rows
    from . import diagonal_sweep

    quiet = [replace(c, margins=False, n_log=2) for c in configs[:-1]]

    def train(callbacks: tuple) -> None:
        with one_thread(), blas.one_thread():
            diagonal_sweep.train_sweep(quiet + [replace(configs[-1], margins=False)], SWEEP_DTYPE, progress=False,
                                       callbacks=callbacks)

    return prefix_rows(train, steps, member=len(configs) - 1)


#: Matrix completion with initialisation noise (Remark 3.13): the init seeds of the noise, at every level.
MC_NOISE_SEEDS = (0, 1, 2)
#: Remark 3.13's "small" initialisation noise (std of each entry of U and V, against alpha = 10): the paper names none.
MC_NOISE_LEVELS = (1e-4, 1e-3, 1e-2)


def mc_init_noise() -> list:
    """The default profile's matrix-completion run (the chapter's observed set, data seed 0) with Gaussian noise of
    std sigma added to U = V = alpha I, at every sigma of :data:`MC_NOISE_LEVELS` and init seed of
    :data:`MC_NOISE_SEEDS` (seeds outermost). Recorded, not trained by ``make book``: nine runs of about 20 s would
    push a cold build past its budget for one claim."""

    base = config.PROFILES["default"]["matrix_completion"]
    return [replace(base, init_noise=s, init_seed=k) for k in MC_NOISE_SEEDS for s in MC_NOISE_LEVELS]


#: name -> (description, the function returning its configs, the weight blocks kept: none)
RECORDINGS = {
    "paper_b/mc_paper": ("Paper B's matrix completion at the paper's settings (lambda 1e-4, step 0.1), 1.2e6 steps",
                         mc_paper, ()),
    "paper_b/misgrokking_paper": ("Paper B's misgrokking at the paper's d = 1e5, gamma = 25, n = 32, data seeds 0-2, "
                                  "each run to clock 4", misgrokking_paper, ()),
    "paper_b/sparse_paper_lambda": ("Paper B's sparse classification at the paper's lambda 1e-3 and step 0.01, d = 4000: "
                                    "the alpha sweep 16-16384 (data seed 0) and alpha = 128 at data seeds 1, 2",
                                    sparse_paper_lambda, ()),
    "paper_b/sparse_paper_d": ("Paper B's sparse classification at the paper's d = 1e5, n = 256, lambda 1e-3 and step "
                               "0.01: the alpha sweep 16-16384 (data seed 0) as one stacked sweep, recorded as far as it "
                               "has gone", sparse_paper_d, ()),
    "paper_b/mc_init_noise": ("Paper B's matrix completion (default profile) with initialisation noise sigma 1e-4, "
                              "1e-3, 1e-2 at init seeds 0-2 (Remark 3.13)", mc_init_noise, ()),
}

#: Sets recorded from a stacked sweep's folder, not by ``scripts/record_runs.py``: how to (re)record them.
RECORD_COMMANDS = {"paper_b/sparse_paper_d": SWEEP_COMMAND}
#: Their first steps, retrained as the sweep they were trained in.
PREFIX_TRAINERS = {"paper_b/sparse_paper_d": stacked_prefix}
