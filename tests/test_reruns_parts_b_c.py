"""Every Part B and Part C notebook runs to the end for drawn combinations of its parameters (tiny sizes at the
ci profile), an invalid combination stops in the setup cell with one line, and no rerun writes into the book.
(Part A's notebooks and the claims report: tests/test_reruns.py.)

Whether a combination is valid is decided by the notebook's own setup function with training replaced by
planning (every ConfigError, the memory estimate included, comes before anything runs).
"""

import importlib
import inspect
from pathlib import Path

import pytest

from grok_lib import notebook
from grok_lib.chapters import chapter, flat
from grok_lib.config import ConfigError
from grok_lib.plans import plan

from notebook_exec import draw, execute

ROOT = Path(__file__).resolve().parent.parent

#: Each notebook's candidates (None: the ci profile's value): lists with one or more values, the smallest sizes.
SPACES = {
    "paper_b/sparse_classification": {"alphas": [[4.0], None, [4.0, 16.0]], "weight_decays": [[0.1], None],
                                      "d": [None, 40], "n_train": [None, 10], "k": [None, 1], "lr": [None, 0.1],
                                      "horizon": [0.3, None], "data_seed": [None, 1]},
    "paper_b/kernel_vs_rich": {"alphas": [[4.0], None], "weight_decays": [[0.1], None], "gamma": [None, 2.0],
                               "misgrokking_alpha": [None, 4.0], "misgrokking_n_train": [8, None]},
    "paper_b/matrix_completion": {"alpha": [None, 2.0], "weight_decay": [None, 0.05], "lr": [None, 0.1],
                                  "d": [8, None], "observed_frac": [None, 0.5], "init_noise": [None, 0.01],
                                  "horizon": [0.5, None], "data_seed": [None, 1]},
    "paper_b/modular_addition": {"alphas": [[1.0], [1.0, 10.0]], "weight_decays": [[2e-3], None],
                                 "seeds": [None, [1]], "p": [5, None], "train_frac": [None, 0.5], "width": [8, None],
                                 "lr": [None, 0.5], "steps": [10, 20], "device": [None, "cpu"]},
    "paper_b/init_scale_adamw": {"alphas": [[1.0], None], "weight_decays": [None, [0.6, 1.0]], "seeds": [None, [1]],
                                 "p": [5, 7], "train_frac": [None, 0.5], "width": [8, None], "lr": [None, 2e-3],
                                 "beta2": [None, 0.99], "steps": [10, 20], "device": [None, "cpu"]},
    "paper_c/d_out": {"d_outs": [[1], [1, 2]], "seeds": [[0], [1, 2]], "d_in": [None, 20], "eta": [None, 0.02]},
    "paper_c/grok_time": {"lams": [[0.5], [0.3, 0.7]], "d_in": [None, 20], "eta": [None, 0.02],
                          "data_seed": [None, 1], "init_seed": [None, 1], "steps": [None, 200]},
    "paper_c/label_noise": {"fractions": [[0.0], [0.0, 1.0]], "d_in": [None, 20], "eta": [None, 0.02],
                            "eps": [None, 1e-2], "data_seed": [None, 1], "init_seed": [None, 1]},
    "paper_c/loss_curves": {"lams": [[0.5], [0.3, 1.5]], "d_in": [None, 20], "eta": [None, 0.02], "eps": [None, 1e-2],
                            "data_seed": [None, 1], "init_seed": [None, 1], "steps": [None, 200]},
    "paper_c/modadd_data_ratio": {"fractions": [None, [0.6]], "seeds": [[0], [1]], "epochs": [5, 10],
                                  "device": [None, "cpu"]},
    "paper_c/nets": {"steps": [20, 50], "eta": [None, 0.1], "data_seed": [None, 1], "init_seed": [None, 1]},
    "paper_c/weight_decay": {"lams": [[0.5], None], "gammas": [[1e-3], [0.0, 1e-2]], "d_in": [None, 20],
                             "eta": [None, 0.02], "data_seed": [None, 1], "init_seed": [None, 1]},
}
COMBOS = {name: draw(space, max(map(len, space.values())), seed=i) for i, (name, space) in enumerate(sorted(SPACES.items()))}


def notebook_path(name: str) -> Path:
    return ROOT / "notebooks" / f"{name}.ipynb"


def chapter_call(name: str):
    """The module of the function the notebook's chapter declares it calls, and that function."""
    part, stem = name.split("/")
    call = chapter(part, stem).call
    return importlib.import_module(call.__module__), call


def valid(name: str, combo: dict, monkeypatch) -> bool:
    """Whether the notebook's setup call accepts ``combo``: planned, not trained."""
    module, fn = chapter_call(name)
    with monkeypatch.context() as m:
        m.setattr(module, "start", lambda profile, given, configs, committed, output_path=None: [plan(c) for c in flat(configs)])
        if hasattr(module, "with_claim_runs"):  # the claim-only runs are trained, not planned: not asked here
            m.setattr(module, "with_claim_runs", lambda notebook, run: run)
        try:
            fn(**combo)
        except ConfigError:
            return False
    return True


def test_the_spaces_name_every_parameter_of_their_notebooks():
    for name, space in SPACES.items():
        _, fn = chapter_call(name)
        params = [n for n, p in inspect.signature(fn).parameters.items()
                  if p.kind is p.POSITIONAL_OR_KEYWORD and n != "profile"]
        assert sorted(space) == sorted(params), name


def test_the_draw_covers_every_candidate_and_each_notebook_has_a_valid_combination(monkeypatch):
    for name, space in SPACES.items():
        for param, values in space.items():
            for v in values:
                assert any(c.get(param) == v for c in COMBOS[name]), (name, param, v)
        assert sum(valid(name, c, monkeypatch) for c in COMBOS[name]) >= 1, name


@pytest.mark.notebook
@pytest.mark.parametrize("name,combo", [(n, c) for n in sorted(COMBOS) for c in COMBOS[n]],
                         ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={x}" for k, x in v.items()
                                                                             if k != "profile").replace(" ", ""))
def test_every_part_b_and_c_notebook_runs_to_the_end_for_drawn_combinations(name, combo, tmp_path, scratch_store,
                                                                          book_unchanged, monkeypatch):
    nb = notebook_path(name)
    if valid(name, combo, monkeypatch):
        ns, _ = execute(nb, combo, output_path=str(tmp_path / "out.ipynb"))
        run = ns["run"]
        assert isinstance(run, notebook.Run) and run.output == tmp_path / "out_outputs" and not run.committed
        assert (tmp_path / "out_outputs" / "figures").is_dir()
    else:  # an invalid combination stops in the setup cell with one line
        with pytest.raises(ConfigError) as err:
            execute(nb, combo)
        assert "\n" not in str(err.value) and "code cell 1 " in err.value.__notes__[0]
