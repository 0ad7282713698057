#!/usr/bin/env bash
# Packed sequences and the decode step on the GPU machine (device tool, `carry: ["bundle"]`, a
# bundle with tile-unittests and tile-bench): (1) the [gpu][seq_idx] tests (seq_idx and each
# sequence's final state against the float64 recurrence and each sequence alone, tuned and in
# the state kernel's other forms), (2) `tile-bench ssd --decode` at batch 1, 16 and 256 with fp32
# and bf16 states, (3) `tile-bench ssd --chunk-size 0` (the forward pass, whose kernels gained
# the packed-sequence parameters). Writes $OUT/packed.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log="$out/packed.log"
work=$(mktemp -d)
tar -C "$work" -xJf "$root/bundle/tools.tar.xz" || { echo "no bundle" | tee "$log"; exit 2; }
export TILE_CACHE_DIR="$work/cache"
status=0
step() { echo "== $*" >> "$log"; "$@" >> "$log" 2>&1; local rc=$?; echo "rc=$rc" >> "$log"; [ $rc -eq 0 ] || status=1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log"
step env TILE_TEST_REQUIRE_GPU=1 timeout 240 "$work/bin/tile-unittests" "[seq_idx]"
for state in float32 bfloat16; do
  step timeout 60 "$work/bin/tile-bench" ssd --decode --batch 1,16,256 --state-dtype "$state"
done
step timeout 120 "$work/bin/tile-bench" ssd --chunk-size 0
grep -v "^ssd packed" "$log" | tail -80
exit $status
