# Two commands do everything on a fresh machine with Python 3.11 and make:
#   make book   - create .venv from the lock, execute the notebooks (papermill), build the HTML book
#   make test   - the same environment plus test tools, then the whole test suite
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# The claims report reads the records the other notebooks write, so it runs last.
REPORT := notebooks/claims_report.ipynb
# Every process make starts (training workers, notebook kernels, pytest, Dask workers) computes in
# the pinned arithmetic: MKL, ATen, OpenBLAS and numpy read these variables when they load, and the
# values are defined once, in grok_lib/arithmetic.py (GROK_ARITHMETIC=native switches them off).
ARITHMETIC_PINS := $(shell $(PYTHON) grok_lib/arithmetic.py --env)
$(foreach pin,$(ARITHMETIC_PINS),$(eval export $(pin)))
# One folder per part; the claims report (at the top) reads the records the others write.
# PART=a (one of the folders notebooks/paper_<part>, so a new paper needs no line here): make book builds one
# part's notebooks (the claims report, landing page and HTML as always).
PART ?=
PARTS := $(sort $(patsubst notebooks/paper_%/,%,$(wildcard notebooks/paper_*/)))
empty :=
space := $(empty) $(empty)
comma := ,
PARTS_LISTED := $(subst $(space),$(comma)$(space),$(PARTS))
# PART_OK: PART is one word and one of PARTS (empty otherwise)
PART_OK := $(and $(filter 1,$(words $(PART))),$(filter $(PART),$(PARTS)))
FIGURE_NOTEBOOKS := $(sort $(wildcard notebooks/paper_$(if $(PART),$(PART),*)/*.ipynb))

.PHONY: book notebooks html test test-quick test-part env test-env lock clean baselines

book: notebooks html
	@echo
	@echo "The book is built. Serve it with: $(PY) -m http.server --bind 127.0.0.1 --directory _build/html 8000  and open http://127.0.0.1:8000/ (opened as a file, its search shows page titles only)"

env: $(VENV)/.book-installed
test-env: $(VENV)/.test-installed

$(VENV)/.book-installed: requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.test-installed: $(VENV)/.book-installed requirements-test.lock
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-test.lock
	touch $@

notebooks: env
	@$(if $(PART),$(if $(PART_OK),true,echo "make book: PART must be one of $(PARTS_LISTED) (or unset for every part), got '$(PART)'"; exit 2),true)
	$(PY) scripts/train_book_runs.py $(if $(PART),--part paper_$(PART))
	$(PY) scripts/run_notebooks.py $(FIGURE_NOTEBOOKS) --then $(REPORT)
	$(PY) scripts/make_landing.py

html: env
	rm -rf _build/html
	$(VENV)/bin/jupyter-book build . --all -W --keep-going

# --durations: the slowest tests, printed at the end (where make test's time goes).
# -n auto --dist loadfile: one pytest worker per core (pytest-xdist), each test file whole on one worker (a
# notebook's nbval cells run in order in one kernel; a module's fixtures are built once; the files that read the
# built book are one unit, tests/conftest.py BOOK_FILES, so it is built once). The tests and nbval
# run one after the other, as two sessions: nbval re-executes the notebooks in the committed settings, which
# write figures/, while tests on the other worker check that no rerun writes there (conftest.book_unchanged).
PYTEST_ARGS := --durations=40 -n auto --dist loadfile
TEST_ARGS := --mpl --mpl-results-path=test-artifacts/mpl --mpl-generate-summary=html,json $(PYTEST_ARGS)
NBVAL_ARGS := --nbval-lax --nbval-cell-timeout=1800 $(PYTEST_ARGS)

# Everything CI runs: train the book's runs, then every lane (tests/conftest.py: unit, train, notebook, book),
# then nbval over every notebook; both run, and make test fails if either does.
test: test-env
	$(PY) scripts/train_book_runs.py
	$(PY) -m pytest tests $(TEST_ARGS); tests=$$?; \
	$(PY) -m pytest notebooks $(NBVAL_ARGS); notebooks=$$?; \
	test $$tests -eq 0 -a $$notebooks -eq 0

# After each edit: the unit lane, no training, no notebook kernel, no book build (under a minute).
test-quick: test-env
	$(PY) -m pytest tests -m unit -q --mpl --mpl-results-path=test-artifacts/mpl

# One part's tests, every lane unless LANE is given: make test-part PART=b [LANE=unit]: tests/paper_b/, the
# cross-part tests whose ids name the part (its notebooks, figures, parameters) and nbval over its notebooks.
# The part's tests that read the book's runs train them on a miss.
test-part:
	@$(if $(PART_OK),true,echo "make test-part: PART must be one of $(PARTS_LISTED), got '$(PART)'"; exit 2)
	@case "$(LANE)" in ""|unit|train|notebook|book) ;; *) echo "make test-part: LANE must be unit, train, notebook or book (or unset for all), got '$(LANE)'"; exit 2;; esac
	@$(MAKE) --no-print-directory test-env
	$(PY) -m pytest tests -k paper_$(PART) $(if $(LANE),-m $(LANE)) $(TEST_ARGS); tests=$$?; \
	notebooks=0; if [ -z "$(LANE)" ] || [ "$(LANE)" = notebook ]; then \
	  $(PY) -m pytest notebooks/paper_$(PART) $(NBVAL_ARGS); notebooks=$$?; fi; \
	test $$tests -eq 0 -o $$tests -eq 5 && test $$notebooks -eq 0  # 5: a lane with none of the part's tests

# After a deliberate change to a plot: regenerate the baseline images (and the book's arithmetic record), then
# review `git diff --stat tests/` and commit. The figures' numbers are written by `make notebooks`.
baselines: test-env
	$(PY) scripts/make_baselines.py

# Sweeps on a Dask cluster (DEVELOPING.md, "On a cluster (Dask)"): cluster-env adds the cluster extra (Dask
# distributed, dask-jobqueue), pinned in requirements-cluster.lock, to the book's environment; sweep-on-dask then
# trains a chapter's runs on a cluster with scripts/sweep_on_dask.py, SWEEP_ARGS its options, e.g.
#   make sweep-on-dask SWEEP_ARGS="--profile ci --workers 2"                 (a LocalCluster on this machine)
#   make sweep-on-dask SWEEP_ARGS="--scheduler tcp://host:8786 --store /shared/grok-store"   (a running cluster)
.PHONY: cluster-env sweep-on-dask
SWEEP_ARGS ?=

cluster-env: $(VENV)/.cluster-installed

$(VENV)/.cluster-installed: $(VENV)/.book-installed requirements-cluster.lock
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-cluster.lock
	touch $@

sweep-on-dask: cluster-env
	$(PY) scripts/sweep_on_dask.py $(SWEEP_ARGS)

# Regenerate the lock files and environment.yml from the loose ranges in pyproject.toml.
lock:
	bash scripts/lock.sh

clean:
	rm -rf _build figures .pytest_cache
