#!/usr/bin/env bash
# The first call in a new process with an empty cache, on the GPU machine (device tool,
# `carry: ["bundle"]`, a bundle with tile-ssd, tile-bench and tile-unittests): the prebuilt
# Mamba-2 kernels (docs/mamba2.md, "Prebuilt kernels") against compiling them (TILE_PREBUILT=0),
# tuned and with TILE_AUTOTUNE=0, on the 2.7B shape at the library's chunk and at 256, and on a
# float32 problem (ragged, chunk 256) through tile-ssd --check; then the [prebuilt] tests.
# Every run gets a fresh cache folder. Writes $OUT/first-call.log.
set -uo pipefail
LOG_NAME=first-call.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
fresh() { rm -rf "$work/cache"; mkdir -p "$work/cache"; }
bench() { # bench LABEL ENV... -- ARGS...
  local label=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  fresh
  echo "== $label" >> "$log"
  step env "${envs[@]}" timeout 120 "$work/bin/tile-bench" ssd --shape mamba2-2.7b_b4_L4096 --iters 3 "$@"
}
for chunk in 0 256; do
  bench "2.7B chunk $chunk, prebuilt" TILE_PREBUILT=1 -- --chunk-size $chunk
  bench "2.7B chunk $chunk, prebuilt, TILE_AUTOTUNE=0" TILE_AUTOTUNE=0 -- --chunk-size $chunk
  bench "2.7B chunk $chunk, compiled (TILE_PREBUILT=0)" TILE_PREBUILT=0 -- --chunk-size $chunk
done
# A float32 problem: 2.7B's heads, 1000 tokens (ragged), D and dt_bias, softplus, chunk 256.
inputs="$work/fp32"
python3 - "$inputs" <<'PY' >> "$log" 2>&1
import os, sys
import numpy as np
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
b, T, H, P, G, N = 1, 1000, 80, 64, 1, 128
arrays = {"x": rng.uniform(-1, 1, (b, T, H, P)), "dt": rng.uniform(-4, 0, (b, T, H)),
          "A": rng.uniform(-2, -0.5, (H,)), "B": rng.uniform(-1, 1, (b, T, G, N)),
          "C": rng.uniform(-1, 1, (b, T, G, N)), "D": rng.uniform(0, 1, (H,)),
          "dt_bias": rng.uniform(-1, 1, (H,))}
for name, a in arrays.items():
    np.save(os.path.join(d, name + ".npy"), a.astype(np.float32))
print("fp32 inputs written to", d)
PY
for mode in TILE_PREBUILT=1 TILE_AUTOTUNE=0 TILE_PREBUILT=0; do
  fresh
  echo "== float32 ragged chunk 256, $mode" >> "$log"
  step env "$mode" timeout 120 "$work/bin/tile-ssd" --inputs "$inputs" --chunk-size 256 --dt-softplus --check
done
fresh
step env TILE_TEST_REQUIRE_GPU=1 timeout 300 "$work/bin/tile-unittests" "[prebuilt]"
grep -E "^== |first call|rc=|passed|failed|FAILED" "$log" | tail -60
exit $status
