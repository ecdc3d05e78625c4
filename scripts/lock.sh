#!/usr/bin/env bash
# Regenerate requirements.lock, requirements-cluster.lock, requirements-test.lock and environment.yml
# from the loose ranges in pyproject.toml, resolved in a scratch venv (Python 3.11, CPU torch).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3.11 -m venv "$scratch/venv"
pip="$scratch/venv/bin/pip"
$pip install --quiet ".[book]"
$pip freeze --exclude grok-lib | sed 's/^torch==\(.*\)+cpu$/torch==\1/' > "$scratch/runtime.txt"
$pip install --quiet ".[cluster]"
$pip freeze --exclude grok-lib | sed 's/^torch==\(.*\)+cpu$/torch==\1/' > "$scratch/cluster.txt"
$pip install --quiet ".[test]"
$pip freeze --exclude grok-lib | sed 's/^torch==\(.*\)+cpu$/torch==\1/' > "$scratch/all.txt"
{
  echo "# Exact versions for pip (Python 3.11, CPU). Regenerate: make lock"
  echo "# torch is pinned: an unpinned torch pulls a multi-GB CUDA build."
  cat "$scratch/runtime.txt"
} > requirements.lock
{
  echo "# The cluster extra (Dask distributed, dask-jobqueue) on top of requirements.lock (exact versions;"
  echo "# the same as requirements-test.lock's). Regenerate: make lock"
  comm -13 <(sort "$scratch/runtime.txt") <(sort "$scratch/cluster.txt")
} > requirements-cluster.lock
{
  echo "# Test tools on top of requirements.lock (exact versions)."
  comm -13 <(sort "$scratch/runtime.txt") <(sort "$scratch/all.txt")
} > requirements-test.lock
python3 scripts/write_environment_yml.py
echo "wrote requirements.lock, requirements-cluster.lock, requirements-test.lock, environment.yml"
