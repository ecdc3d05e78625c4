"""Every Paper A notebook runs to the end for drawn combinations of its parameters at the ci sizes (invalid
ones stop in the setup cell with one line), and the deep-linear notebook for its depths; no rerun writes
into the book. The notebooks' code is executed in this process against a scratch run store
(``tests/notebook_exec.py``); the mechanics every notebook shares are tested in ``tests/test_reruns.py``.
"""

from pathlib import Path

import pytest

from grok_lib import chapters
from grok_lib.config import ConfigError
from grok_lib.paper_a import config as mlp_config, run_sets
from grok_lib.paper_a.dln import config as dln_config

from notebook_exec import draw, execute

ROOT = Path(__file__).resolve().parent.parent.parent
PAPER_A = sorted((ROOT / "notebooks" / "paper_a").glob("*.ipynb"))
MLP_NOTEBOOKS = [nb for nb in PAPER_A if chapters.chapter("paper_a", nb.stem).call is run_sets.mlp]
DLN = ROOT / "notebooks" / "paper_a" / "deep_linear_clocks.ipynb"


@pytest.fixture(scope="module", autouse=True)
def _use_scratch_store(scratch_store):  # every test here: a scratch run store (tests/conftest.py)
    yield scratch_store


# --- case 3: the deep-linear notebook runs to the end on valid input -----------------------------------------------
@pytest.mark.parametrize("given", [{"depths": [1]}, {"depths": [2], "steps": 50}, {"depths": [4], "steps": 1}],
                         ids=["depth-1", "depth-2-50-steps", "depth-4-1-step"])
def test_the_deep_linear_notebook_runs_to_the_end(given, tmp_path, book_unchanged):
    ns, printed = execute(DLN, {"profile": "ci", **given}, output_path=str(tmp_path / "dln.ipynb"))
    for name in ("dln_fast_clock", "dln_slow_clock", "dln_separation"):
        assert (tmp_path / "dln_outputs" / "figures" / "paper_a" / f"{name}.png").exists()
    assert "A.dln.separation" in printed


# --- every notebook, drawn combinations of its parameters within the ci sizes ----------------------------------------
#: Each parameter's candidates (None: the ci profile's value); lists with one, two or all of their values, the
#: smallest step counts, the smallest sizes the validation allows.
MLP_SPACE = {
    "weight_decays": [[0.6], [0.6, 1.0], None, [0.0], [0.0, 2.0]],
    "epochs": [1, 2, 30, None],
    "p": [2, 3, None],
    "train_frac": [None, 0.2, 0.9],
    "split": [None, "ordered"],
    "init": [None, "scaled_embed"],
    "width": [1, None],
    "data_seed": [None, 1],
    "init_seed": [None, 2],
    "device": [None, "cpu"],
}
DLN_SPACE = {
    "depths": [[2], [1, 3], None, [4], [1, 2, 3, 4]],
    "steps": [1, 2, 50, None],
    "n_classes": [None, 2],
    "d_in": [None, 1, 2],
    "width": [None, 3],
    "n_train": [1, None, 5],
    "seed": [None, 1],
    "lr": [None, 0.05],
}


def valid(build, combo: dict) -> bool:
    try:
        build(combo)
    except ConfigError:
        return False
    return True


MLP_COMBOS = draw(MLP_SPACE, 6, seed=1)
DLN_COMBOS = draw(DLN_SPACE, 6, seed=2)
QUICK = {"fig": {"profile": "ci", "weight_decays": [0.6], "epochs": 1, "p": 2, "width": 1},
         "dln": {"profile": "ci", "depths": [1, 3], "steps": 2, "d_in": 1, "n_train": 1}}


def build_mlp(c):
    return mlp_config.sweep(c["profile"], c.get("weight_decays"), **{k: v for k, v in c.items()
                                                                     if k not in ("profile", "weight_decays")})


def build_dln(c):
    return dln_config.sweep(c["profile"], c.get("depths") or dln_config.DEPTHS,
                            **{k: v for k, v in c.items() if k not in ("profile", "depths")})


def run_combination(nb: Path, combo: dict, build, tmp_path):
    if valid(build, combo):
        ns, _ = execute(nb, combo, output_path=str(tmp_path / "out.ipynb"))
        assert ns["run"].output == tmp_path / "out_outputs" or ns["run"].committed
    else:  # an invalid combination stops in the setup cell with one line
        with pytest.raises(ConfigError) as err:
            execute(nb, combo)
        assert "\n" not in str(err.value) and "code cell 1 " in err.value.__notes__[0]


@pytest.mark.parametrize("nb", PAPER_A, ids=lambda p: p.name)
def test_every_notebook_runs_to_the_end_with_the_smallest_settings(nb, tmp_path, book_unchanged):
    combo, build = (QUICK["dln"], build_dln) if nb == DLN else (QUICK["fig"], build_mlp)
    assert valid(build, combo)
    run_combination(nb, combo, build, tmp_path)


def combo_id(value) -> str:
    if isinstance(value, Path):
        return value.stem
    return "-".join(f"{k}={v}" for k, v in value.items() if k != "profile").replace(" ", "")


@pytest.mark.notebook
@pytest.mark.parametrize("nb,combo", [(nb, c) for nb in MLP_NOTEBOOKS for c in MLP_COMBOS]
                         + [(DLN, c) for c in DLN_COMBOS], ids=combo_id)
def test_every_notebook_runs_to_the_end_for_drawn_combinations(nb, combo, tmp_path, book_unchanged):
    run_combination(nb, combo, build_dln if nb == DLN else build_mlp, tmp_path)


def test_the_draw_covers_every_candidate_and_has_valid_combinations():
    for space, combos, build in ((MLP_SPACE, MLP_COMBOS, build_mlp), (DLN_SPACE, DLN_COMBOS, build_dln)):
        for name, values in space.items():
            for v in values:
                assert any(c.get(name) == v for c in combos), (name, v)
        assert sum(valid(build, c) for c in combos) >= len(combos) - 2
