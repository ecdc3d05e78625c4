#!/usr/bin/env bash
# The GPU check: run once on a machine with a CUDA GPU (after `make test-env`, or in any
# environment with the project installed and a CUDA build of torch 2.13.0).
#
#   bash benchmarks/gpu_check.sh [OUT_DIR]        # default OUT_DIR: gpu-report
#
# It runs (1) the host-sync and stacked-sweep tests on the GPU, (2) the sweep benchmark
# on the GPU (stacking speed-up, FLOP/s against the GPU's measured matmul throughput,
# memory per member), (3) the `paper` profile of Figures 1 and 3 (5 weight decays x 15,000
# epochs, width 512, as one stacked sweep), with a run store of its own, and writes
# OUT_DIR/report.md with the numbers. Nothing in the repository is modified: the notebooks
# are executed into OUT_DIR and the paper profile records no claims.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-gpu-report}")
py=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python )}
mkdir -p "$out"
"$py" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 'gpu_check: no CUDA device visible to torch')"
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
export GROK_STORE="$out/store" GROK_DEVICE=cuda PYTHONPATH="$PWD"
start=$(date +%s)
{ time "$py" -m pytest tests/test_host_sync.py tests/test_stacked.py -q -p no:cacheprovider; } > "$out/tests.txt" 2>&1 \
  || echo "TESTS FAILED (see tests.txt)" >> "$out/failures.txt"
{ time "$py" benchmarks/bench_sweep.py --device cuda --json "$out/bench_sweep.json"; } > "$out/bench_sweep.txt" 2>&1 \
  || echo "BENCHMARK FAILED (see bench_sweep.txt)" >> "$out/failures.txt"
for nb in fig1_loss_curves fig3_stable_rank; do
  { time "$py" -m papermill "notebooks/$nb.ipynb" "$out/$nb.paper.ipynb" -p profile paper --cwd notebooks \
      --kernel python3 --no-progress-bar; } > "$out/$nb.log" 2>&1 || echo "NOTEBOOK $nb FAILED (see $nb.log)" >> "$out/failures.txt"
done
"$py" - "$out" "$(( $(date +%s) - start ))" <<'PY'
import json, pathlib, sys
import nbformat
out, seconds = pathlib.Path(sys.argv[1]), sys.argv[2]
lines = [f"# GPU check ({seconds} s in all)", "", "```", (out / "nvidia-smi.txt").read_text()[:1500], "```", ""]
lines += ["## Tests", "```", (out / "tests.txt").read_text()[-1500:], "```", ""]
bench = out / "bench_sweep.json"
lines += ["## Sweep benchmark", "```", bench.read_text() if bench.exists() else "(failed)", "```", ""]
for nb in ("fig1_loss_curves", "fig3_stable_rank"):
    path = out / f"{nb}.paper.ipynb"
    lines += [f"## {nb}, paper profile", "```"]
    if path.exists():
        for cell in nbformat.read(path, 4).cells:
            if cell.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in cell.source:
                lines += [o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
    lines += ["```", ""]
if (out / "failures.txt").exists():
    lines += ["## Failures", (out / "failures.txt").read_text()]
(out / "report.md").write_text("\n".join(lines))
print(f"wrote {out / 'report.md'}")
PY
