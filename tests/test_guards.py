"""Guarded where files are written, every value bounded before training, papermill's name check not switched off.

Three classes of the README's guarantees table:

- *The book's folders*: a write whose resolved path lies in ``book/``, ``notebooks/``, ``recorded/`` or
  ``figures/`` is refused by grok_lib itself (``grok_lib.guard``, asked by every atomic write), whatever the
  entry point: the setup call, an injected ``PAPERMILL_OUTPUT_PATH``, a symlinked ``_outputs`` folder,
  ``scripts/rerun.py``, a run store placed in the book, a relative ``GROK_STORE`` read from a kernel in
  ``notebooks/paper_c``.
- *Bounds*: integers within int64, seeds within 32 bits, floats within the range each chapter's numerics
  hold, and a run's time on this CPU (its kind's cost per step x its steps) within a day unless
  ``GROK_MAX_RUN_HOURS`` says otherwise: one line naming the parameter as the notebook spells it (or the
  environment variable), before anything is trained or written.
- *Names*: papermill's ``-p In 5``, ``-p open 1`` and ``-p _epochs 5`` are unknown parameters, not
  silently ignored.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grok_lib import guard, paths
from grok_lib.atomic import atomic_write
from grok_lib.config import ConfigError
from grok_lib.notebook import parameters
from grok_lib.paper_a import run_sets
from grok_lib.paper_a.chapters import deep_linear_clocks as dln_chapter
from grok_lib.paper_b.chapters import init_scale_adamw as init_chapter
from grok_lib.paper_b.chapters import kernel_vs_rich as kernel_chapter
from grok_lib.paper_b.chapters import matrix_completion as matrix_chapter
from grok_lib.paper_b.chapters import modular_addition as modular_chapter
from grok_lib.paper_b.chapters import sparse_classification as sparse_chapter
from grok_lib.paper_c.chapters import d_out as ch_d_out
from grok_lib.paper_c.chapters import grok_time as ch_grok_time
from grok_lib.paper_c.chapters import label_noise as ch_label_noise
from grok_lib.paper_c.chapters import loss_curves as ch_loss_curves
from grok_lib.paper_c.chapters import nets as ch_nets
from grok_lib.paper_c.chapters import weight_decay as ch_weight_decay
from grok_lib.store import RunStore, StoreError

ROOT = paths.ROOT
PY = sys.executable
BIG = 2**64


# --- the book's folders ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("folder", guard.PROTECTED)
def test_a_write_into_a_book_folder_is_refused_and_allowed_only_to_the_build(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "ROOT", tmp_path)  # a scratch repository: the real book is never written
    target = tmp_path / folder / "part" / "x.json"
    with pytest.raises(guard.ProtectedPathError, match=f"^refusing to write a file at {target}: it lies inside "
                                                       f"the book's {folder}/ folder") as err:
        atomic_write(target, b"{}")
    assert "\n" not in str(err.value) and not target.exists()
    with guard.book_writes():
        atomic_write(target, b"{}")
    assert target.read_bytes() == b"{}"


def test_a_symlink_into_the_book_is_followed(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "ROOT", tmp_path / "repo")
    (tmp_path / "repo" / "book").mkdir(parents=True)
    (tmp_path / "out").symlink_to(tmp_path / "repo" / "book")
    with pytest.raises(guard.ProtectedPathError, match=r"book/ folder \(through a symlink\)"):
        atomic_write(tmp_path / "out" / "claims.json", b"[]")
    assert list((tmp_path / "repo" / "book").iterdir()) == []


SETUPS = [(run_sets.mlp, {}), (dln_chapter.run, {}), (sparse_chapter.run, {}), (modular_chapter.run, {}),
          (ch_loss_curves.run, {}), (ch_nets.run, {})]
IDS = [f"{s.__module__.removeprefix('grok_lib.')}.{s.__name__}" for s, _ in SETUPS]


@pytest.mark.parametrize("setup,given", SETUPS, ids=IDS)
def test_a_rerun_whose_outputs_folder_is_a_symlink_into_the_book_is_refused_before_training(setup, given, tmp_path,
                                                                                        monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    (tmp_path / "out_outputs").symlink_to(ROOT / "book" / "claims")
    with pytest.raises(guard.ProtectedPathError, match=r"book/ folder \(through a symlink\)") as err:
        setup(profile="ci", **given, output_path=str(tmp_path / "out.ipynb"))
    assert "\n" not in str(err.value)
    assert not (tmp_path / "runs").exists()  # nothing trained


@pytest.mark.parametrize("folder", ["notebooks/paper_c", "book/claims", "recorded", "figures"])
@pytest.mark.parametrize("setup,given", SETUPS[::2], ids=IDS[::2])
def test_an_injected_output_path_inside_the_book_is_refused_before_training(folder, setup, given, tmp_path,
                                                                           monkeypatch):
    """``papermill --inject-output-path`` with an output in the book, or ``-p PAPERMILL_OUTPUT_PATH ...``."""
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    namespace = {"profile": "ci", "PAPERMILL_OUTPUT_PATH": str(ROOT / folder / "mine.ipynb")}
    with pytest.raises(guard.ProtectedPathError, match=f"inside the book's {folder.split('/')[0]}/ folder"):
        setup(**parameters(namespace, setup))
    assert not (ROOT / folder / "mine_outputs").exists() and not (tmp_path / "runs").exists()


def test_a_run_store_inside_the_book_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(ROOT / "notebooks" / "paper_c" / "my-store"))
    with pytest.raises(StoreError, match=r"^GROK_STORE=.*my-store lies inside the book's notebooks/ folder"):
        RunStore().check(writable=True)
    assert not (ROOT / "notebooks" / "paper_c" / "my-store").exists()


def test_a_relative_grok_store_is_resolved_where_it_was_given_not_in_the_kernels_folder(tmp_path):
    """papermill's ``--cwd notebooks/paper_c`` starts the kernel there; the shell's PWD (the user's folder) stays."""
    code = "from grok_lib import paths; print(paths.store_dir())"
    env = dict(os.environ, GROK_STORE="rel-store", PWD=str(tmp_path), PYTHONPATH=str(ROOT))
    out = subprocess.run([PY, "-c", code], cwd=ROOT / "notebooks" / "paper_c", env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == str(tmp_path / "rel-store")


@pytest.mark.parametrize("output", ["figures/mine.ipynb", "book/mine.ipynb", "notebooks/paper_a/mine.ipynb"])
def test_rerun_refuses_an_output_in_the_book(output, tmp_path):
    notebook = ROOT / "notebooks" / "paper_c" / "nets.ipynb"
    out = subprocess.run([PY, str(ROOT / "scripts" / "rerun.py"), str(notebook), str(ROOT / output)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "(the committed book)" in out.stderr
    assert not (ROOT / output).exists()


def test_rerun_refuses_an_output_whose_outputs_folder_leads_into_the_book(tmp_path):
    (tmp_path / "mine_outputs").symlink_to(ROOT / "book" / "claims")
    notebook = ROOT / "notebooks" / "paper_c" / "nets.ipynb"
    out = subprocess.run([PY, str(ROOT / "scripts" / "rerun.py"), str(notebook), str(tmp_path / "mine.ipynb")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "is inside book/ (the committed book)" in out.stderr


# --- bounds: one line naming the parameter, before anything is trained or written ----------------------------------
BOUNDS = [
    # integers within int64, seeds within 32 bits
    (run_sets.mlp, {"data_seed": BIG}, r"^data_seed must be an integer from 0 to 2\*\*63 - 1 \(int64\), got 18446744073709551616$"),
    (run_sets.mlp, {"epochs": BIG}, r"^epochs must be an integer from 1 to 2\*\*63 - 1 \(int64\)"),
    (dln_chapter.run, {"seed": BIG}, r"^seed must be an integer from 0 to 2\*\*63 - 1"),
    (modular_chapter.run, {"seeds": [BIG]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\]"),
    (init_chapter.run, {"seeds": [2**32]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\]"),
    (sparse_chapter.run, {"k": BIG}, r"^k must be an integer from 1 to 2\*\*63 - 1"),
    (ch_d_out.run, {"seeds": [BIG]}, r"^seeds must be a non-empty list of integers in \[0, 4294967295\]"),
    (ch_grok_time.run, {"steps": BIG}, r"^steps must be an integer from 1 to 2\*\*63 - 1"),
    (ch_d_out.run, {"d_outs": [BIG]}, r"^d_outs must be a non-empty list of integers in \[1, 9223372036854775807\]"),
    # a run's time on this CPU: the kind's cost per step x its steps
    (dln_chapter.run, {"steps": 10**13}, r"^steps=10000000000000 would take about .* h on this machine's CPU .*"
                                            r"at most 24 h \(GROK_MAX_RUN_HOURS; .*\): steps <= \d+ fits"),
    (modular_chapter.run, {"steps": 10**13}, r"^steps=10000000000000 would take about .* h .*: steps <= \d+ fits"),
    (init_chapter.run, {"steps": 10**10}, r"^steps=10000000000 (needs about .* GiB|would take about .* h)"),
    (ch_nets.run, {"steps": 10**13}, r"^steps=10000000000000 would take about .* h .*: steps <= \d+ fits"),
    # floats within the range the chapter's numerics hold
    (modular_chapter.run, {"alphas": [1e300]}, r"^alphas must be a number in \(0.0, 1e\+150\), got 1e\+300$"),
    (init_chapter.run, {"alphas": [1e300]}, r"^alphas must be a number in \(0.0, 1e\+150\), got 1e\+300$"),
    (init_chapter.run, {"weight_decays": [1e300]}, r"^weight_decays must be < 1 / lr = 50 \(AdamW"),
    (modular_chapter.run, {"weight_decays": [1e300]}, r"^weight_decays must be < 1 / lr = "),
    (sparse_chapter.run, {"lr": 1e300}, r"weight_decay must be < 1 / lr = "),
    (kernel_chapter.run, {"gamma": 1e300}, r"gamma must be a number in \[0.0, 1000000.0\], got 1e\+300$"),
    (matrix_chapter.run, {"weight_decay": 1e300}, r"^weight_decay must be < 1 / lr = "),
    (matrix_chapter.run, {"init_noise": 1e300}, r"^init_noise must be a number in \(0.0, 1e\+150\)"),
    (modular_chapter.run, {"profile": "nope"}, r"^profile must be one of paper, default, ci; got 'nope'$"),
    (ch_label_noise.run, {"eps": 1e300}, r"eps must be a number in \[1e-12, 1.0\), got 1e\+300$"),
    (ch_loss_curves.run, {"eps": 1e-300}, r"eps must be a number in \[1e-12, 1.0\), got 1e-300$"),
    (ch_loss_curves.run, {"lams": [1e-300]}, r"^lams must be >= d_in / 1e\+07 so that N_tr"),
    (ch_weight_decay.run, {"gammas": [1e300]}, r"^gammas value 1e\+300: eta must be < "),
    (run_sets.mlp, {"weight_decays": [float("inf")]}, r"^weight_decays must be a non-empty list of numbers in \[0.0, inf\)"),
]


@pytest.mark.parametrize("setup,given,message", BOUNDS,
                         ids=[f"{s.__name__}-{'-'.join(g)}-{i}" for i, (s, g, _) in enumerate(BOUNDS)])
def test_a_value_outside_its_bounds_is_one_line_before_anything_is_written(setup, given, message, tmp_path,
                                                                          monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    given = dict(given)
    with pytest.raises(ConfigError, match=message) as err:
        setup(profile=given.pop("profile", "ci"), **given, output_path=str(tmp_path / "out.ipynb"))
    assert "\n" not in str(err.value)
    assert not (tmp_path / "runs").exists() and not (tmp_path / "out_outputs").exists()


def test_the_time_limit_is_an_explicit_override(monkeypatch):
    from grok_lib.paper_b import config as config_b
    from grok_lib.plans import plan

    long = config_b.profile_config("modadd", "ci", steps=10**13, device="cpu")
    with pytest.raises(ConfigError, match="would take about"):
        plan(long)
    monkeypatch.setenv("GROK_MAX_RUN_HOURS", "1e9")
    assert plan(long).config is long
    monkeypatch.setenv("GROK_MAX_RUN_HOURS", "soon")
    with pytest.raises(ConfigError, match="^GROK_MAX_RUN_HOURS must be a positive number of hours, got 'soon'$"):
        plan(long)


def test_every_run_kind_states_a_cost_per_step_of_a_field_it_has():
    from dataclasses import fields

    from grok_lib import kinds

    for kind in kinds.KINDS.values():
        assert kind.steps in {f.name for f in fields(kind.config_type)}, kind.name


def test_a_bad_grok_device_names_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("GROK_STORE", str(tmp_path / "runs"))
    monkeypatch.setenv("GROK_DEVICE", "tpu")
    with pytest.raises(ConfigError, match="^GROK_DEVICE must be one of auto, cpu, cuda; got 'tpu'$"):
        modular_chapter.run(profile="ci", output_path=str(tmp_path / "out.ipynb"))
    assert not (tmp_path / "runs").exists()


def test_every_profile_of_every_chapter_is_inside_the_bounds():
    """The bounds refuse nothing the book runs: every chapter's configs of the ci and default profiles plan; of the
    paper profile only runs longer than a day on this CPU are refused (by time, with the override named)."""
    from grok_lib import chapters
    from grok_lib.plans import plan

    refused = set()
    for chapter in chapters.chapters():
        for profile in ("ci", "default", "paper"):
            runs = chapter.runs(profile)
            for config in chapters.flat(runs) + list(chapter.claim_runs(runs)):
                try:
                    plan(config)
                except ConfigError as err:
                    assert profile == "paper" and "would take about" in str(err), (chapter.stem, profile, str(err))
                    refused.add(chapter.stem)
    assert refused <= {"sparse_classification", "kernel_vs_rich", "modular_addition"}


# --- papermill's names ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["In", "open", "_epochs", "get_ipython", "print"])
def test_a_cell_assigned_name_is_a_parameter_whatever_it_shadows(name):
    """Outside a kernel the cells' sources come from ``In``; papermill's injected cell is one of them."""
    namespace = {"profile": "ci", name: 5, "In": ["profile = 'ci'", f"{name} = 5", "setup()"]}
    if name == "In":
        namespace["In"] = ["profile = 'ci'", "In = 5", "setup()"]
    with pytest.raises(ConfigError, match=f"^unknown parameter\\(s\\) {name}: this notebook's parameters are"):
        parameters(namespace, ch_nets.run)


@pytest.mark.notebook
@pytest.mark.parametrize("name,value", [("In", 5), ("open", 1), ("_epochs", 5)])
def test_papermill_cannot_switch_the_name_check_off(name, value, tmp_path):
    """Through a real kernel: ``-p In 5`` rebinds the kernel's ``In``; the history the check reads is IPython's."""
    import papermill as pm

    with pytest.raises(pm.PapermillExecutionError, match=f"unknown parameter\\(s\\) {name}"):
        pm.execute_notebook(str(ROOT / "notebooks" / "paper_c" / "nets.ipynb"), str(tmp_path / "out.ipynb"),
                            parameters={"profile": "ci", name: value}, kernel_name="python3", progress_bar=False,
                            cwd=str(ROOT / "notebooks" / "paper_c"))
    executed = json.loads((tmp_path / "out.ipynb").read_text())
    assert executed["metadata"]["papermill"]["exception"]
