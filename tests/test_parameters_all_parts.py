"""Bad input in Parts B and C (and the deep-linear chapter): one line naming the parameter as the notebook
spells it and what is allowed, before anything is trained or written; and one memory estimate per run kind.

Each case goes through the notebook's own setup call (what papermill and scripts/rerun.py reach), with
GROK_STORE pointing at a folder that must not exist afterwards.
"""

import dataclasses
import tracemalloc

import pytest

from grok_lib import kinds
from grok_lib.config import ConfigError
from grok_lib.paper_a import run_sets
from grok_lib.paper_b import config as config_b
from grok_lib.paper_b.chapters import init_scale_adamw as init_chapter
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter
from grok_lib.paper_c import config as config_c
from grok_lib.paper_c.chapters import d_out as ch_d_out
from grok_lib.paper_c.chapters import grok_time as ch_grok_time
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import loss_curves as ch_loss_curves
from grok_lib.paper_c.chapters import modadd_data_ratio as ch_modadd_data_ratio
from grok_lib.paper_c.chapters import weight_decay as ch_weight_decay
from grok_lib.plans import plan

CASES = [
    # lists: duplicates, non-integers where integers, ranges -- named as the notebook's list
    (sparse_chapter.run, {"alphas": [16, 16]}, r"^alphas must not repeat a value, got \[16, 16\]"),
    (sparse_chapter.run, {"alphas": [-1]}, r"^alphas must be a non-empty list of numbers in \(0.0, inf\), got \[-1\]$"),
    (sparse_chapter.run, {"alphas": [1e300]}, r"^alphas must be a number in \(0.0, 1e\+150\), got 1e\+300$"),
    (sparse_chapter.run, {"weight_decays": [-1]}, r"^weight_decays must be a non-empty list of numbers in \[0.0, inf\)"),
    (sparse_chapter.run, {"alphas": "[16]"}, r'^alphas must be a non-empty list of numbers, got .* -y "alphas: \[...\]"'),
    (kernel_chapter.run, {"misgrokking_n_train": 0}, r"^misgrokking_n_train must be an integer >= 1, got 0$"),
    (kernel_chapter.run, {"misgrokking_alpha": -1}, r"^misgrokking_alpha must be a number in \(0.0, 1e\+150\)"),
    (matrix_chapter.run, {"alpha": -1}, r"^alpha must be a number in \(0.0, 1e\+150\), got -1$"),
    (modular_chapter.run, {"seeds": [-1]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\], got \[-1\]$"),
    (modular_chapter.run, {"seeds": [0, 0]}, r"^seeds must not repeat a value"),
    (init_chapter.run, {"alphas": [1, 1]}, r"^alphas must not repeat a value"),
    (init_chapter.run, {"seeds": [0.5]}, r"^seeds must be a non-empty list of integers"),
    (ch_loss_curves.run, {"lams": [0.5, 0.5]}, r"^lams must not repeat a value"),
    (ch_d_out.run, {"d_outs": [1.5]}, r"^d_outs must be a non-empty list of integers in \[1, 9223372036854775807\], got \[1.5\]$"),
    (ch_d_out.run, {"seeds": [0, 0.4]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\], got \[0, 0.4\]$"),
    (ch_d_out.run, {"seeds": [-1]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\]"),
    (ch_label_noise.run, {"fractions": [-1]}, r"^fractions must be a non-empty list of numbers in \[0.0, inf\)"),
    (ch_label_noise.run, {"fractions": [1e300]}, r"^fractions value 1e\+300 \(sigma_n = .*\): label_noise must be"),
    (ch_weight_decay.run, {"gammas": [1e10]}, r"^gammas value 10000000000.0: eta must be < "),
    (ch_modadd_data_ratio.run, {"seeds": [1, 1]}, r"^seeds must not repeat a value"),
    (ch_weight_decay.run, {"lams": [1.0]}, r"^lams must be a non-empty list of numbers in \(0.0, 1.0\), got \[1.0\]$"),
    (ch_grok_time.run, {"lams": [1.5]}, r"^lams must be a non-empty list of numbers in \(0.0, 1.0\)"),
    (modular_chapter.run, {"seeds": [0], "alphas": [1, 1]}, r"^alphas must not repeat a value"),  # not blamed on a seed
    (matrix_chapter.run, {"horizon": -1}, r"^horizon must be a number in \(0.0, inf\), got -1$"),
    (matrix_chapter.run, {"weight_decay": 1e-300}, r"^weight_decay=1e-300 with lr=.* needs .* steps"),
    # sizes past the memory budget: named, with what fits, before anything is allocated
    (sparse_chapter.run, {"d": 10**9}, r"^d=1000000000 needs about .* GiB for one run .* d <= \d+ fits"),
    (matrix_chapter.run, {"d": 10**6}, r"^d=1000000 needs about .* d <= \d+ fits"),
    (modular_chapter.run, {"width": 10**8}, r"^width=100000000 needs about .* width <= \d+ fits"),
    (ch_loss_curves.run, {"d_in": 10**5}, r"^d_in=100000 needs about .* d_in <= \d+ fits"),
    (ch_d_out.run, {"d_outs": [10**9]}, r"^d_outs=1000000000 needs about .* GiB .*: d_outs <= \d+ fits"),
    (run_sets.mlp, {"width": 10**7}, r"^width=10000000 needs about .* width <= \d+ fits"),
]


@pytest.mark.parametrize("setup,given,message", CASES,
                         ids=[f"{s.__module__.removeprefix('grok_lib.')}.{s.__name__}-{'-'.join(g)}" for s, g, _ in CASES])
def test_bad_input_is_one_line_naming_the_notebooks_parameter_before_anything_is_written(setup, given, message,
                                                                                       tmp_path, monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    with pytest.raises(ConfigError, match=message) as err:
        setup(profile="ci", **given, output_path=str(tmp_path / "out.ipynb"))
    assert "\n" not in str(err.value)
    assert not (tmp_path / "runs").exists() and not (tmp_path / "out_outputs").exists()


def test_every_run_kind_has_a_memory_estimate_over_sizes_it_has():
    for kind in kinds.KINDS.values():
        names = {f.name for f in dataclasses.fields(kind.config_type)}
        assert kind.sizes and set(kind.sizes) <= names, kind.name
        assert callable(kind.memory), kind.name


#: numpy runs of each numpy kind, large enough that their arrays, not the process, dominate.
NUMPY_RUNS = {
    "sparse": lambda: dataclasses.replace(config_b.profile_config("sparse", "ci"), d=8000, n_train=60, n_test=400,
                                          steps=20),
    "sparse_compact_test": lambda: dataclasses.replace(config_b.profile_config("sparse", "ci"), d=12000, n_train=30,
                                                       n_test=800, steps=10),
    "misgrokking": lambda: dataclasses.replace(config_b.profile_config("misgrokking", "ci"), d=12000, n_train=20,
                                               n_test=800, steps=10),
    "matrix_completion": lambda: dataclasses.replace(config_b.profile_config("matrix_completion", "ci"), d=300,
                                                     steps=20),
    "linear": lambda: dataclasses.replace(config_c.profile_config("ci"), d_in=500, n_test=1500, steps=500),
    "many_outputs": lambda: dataclasses.replace(config_c.profile_config("ci"), d_in=200, d_out=40, lam=0.9, eta=0.01,
                                                n_test=1500, steps=10**6),
}


@pytest.mark.train
@pytest.mark.parametrize("name", sorted(NUMPY_RUNS))
def test_the_memory_estimate_is_above_what_a_numpy_run_allocates(name):
    """tracemalloc sees numpy's allocations: the estimate less its process allowance must cover their peak."""
    config = NUMPY_RUNS[name]()
    kind = kinds.kind_of(config)
    plan(config)  # within the budget
    tracemalloc.start()
    try:
        kind.train([config], device="cpu", resume=None, on_checkpoint=None, progress=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert kind.memory(config.to_dict()) - 2**28 >= peak, f"{name}: estimate below the measured peak {peak / 2**20:.1f} MiB"
