#!/usr/bin/env bash
# The Python package on the GPU machine (device tool, `carry: ["bundle"]`; a bundle with the
# static libtilecc.so and tile-bench: BUNDLE_BINARIES=tile-bench BUNDLE_LIBRARIES=libtilecc.so
# scripts/bundle-gpu.sh): (1) the torch tests (python/tests/test_torch.py: streams, CUDA graphs,
# strided views, autotuning, errors; test_mamba2_torch.py: the Mamba-2 operator against the
# reference, on a side stream, in a CUDA graph and torch.compile), (2) every cuTile program in
# bundle/cutile-samples/ (NVIDIA's samples, copied there, never into the repository) run
# unchanged with `python3 -m tilecc PROGRAM --correctness-check`, (3) the Mamba-2 operator timed
# beside `tile-bench ssd` in the same call (python/bench/bench_mamba2.py; GPU_PYTHON_BENCH=0
# skips it), (4) with .peers/mamba_ssm_min: the operator beside mamba_ssm, and the decode step
# (`tile-bench ssd --decode`) beside its selective_state_update. Writes $OUT/python.log.
set -uo pipefail
LOG_NAME=python.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
[ -f "$work/lib/libtilecc.so" ] || { echo "the bundle has no lib/libtilecc.so" | tee "$log"; exit 2; }
python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__)' >> "$log" 2>&1
step python3 "$root/python/tests/test_torch.py"
step python3 "$root/python/tests/test_mamba2_torch.py"
if [ -d "$root/bundle/cutile-samples" ]; then
  pushd "$root/bundle/cutile-samples" > /dev/null
  for program in [A-Z]*.py; do
    step timeout 300 python3 -m tilecc "$program" --correctness-check
  done
  popd > /dev/null
fi
# Test programs of NVIDIA's own (e.g. test_softmax.py, the softmax kernels cutile-python has no
# sample for), each run by a driver of the bundle's: bundle/nvidia-tests/run_*.py.
for runner in "$root"/bundle/nvidia-tests/run_*.py; do
  [ -f "$runner" ] && step timeout 300 python3 -m tilecc "$runner"
done
if [ "${GPU_PYTHON_BENCH:-1}" != 0 ] && [ -x "$work/bin/tile-bench" ]; then
  step "$work/bin/tile-bench" ssd --chunk-size 0 --json "$out/tile-bench.json"
  step python3 "$root/python/bench/bench_mamba2.py" --chunk-size 0 --tile-bench "$out/tile-bench.json"
fi
# Beside mamba_ssm itself (a checkout's .peers/ holding mamba_ssm_min, carried with the bundle):
# agreement with the float64 reference, and speed on the same shapes in this process.
if [ -d "$root/.peers/mamba_ssm_min" ]; then
  step timeout 420 python3 "$root/python/bench/compare_mamba_ssm.py" --peers "$root/.peers"
  # The decode step beside mamba_ssm's selective_state_update, both state dtypes.
  if [ "${GPU_PYTHON_BENCH:-1}" != 0 ] && [ -x "$work/bin/tile-bench" ]; then
    for state in float32 bfloat16; do
      step "$work/bin/tile-bench" ssd --decode --state-dtype "$state"
      step timeout 300 python3 "$root/python/bench/decode_mamba_ssm.py" --peers "$root/.peers" --state-dtype "$state"
    done
  fi
fi
cat "$log" | tail -150
exit $status
