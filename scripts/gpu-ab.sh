#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry ["bundle"]): the SSD forward pass and the bf16
# GEMM twice in one run, with a compile option off and on, so the before/after figures come
# from the same machine minutes apart. By default the option is the loop pipelining
# (TILE_PIPELINE_STAGES=1 turns it off; 0 derives the stages from the latency hints):
#   AB_VAR=TILE_PIPELINE_STAGES AB_BEFORE=1 AB_AFTER=0 bash scripts/gpu-ab.sh
# Or two builds side by side: with bundle/before-bench.tar.xz present (scripts/keep-bench.sh
# saves the current bundle's tile-bench there before the bundle is rebuilt), "before" runs that
# binary and "after" the new one, with no option changed.
# Then compute-sanitizer racecheck/synccheck (unless AB_SANITIZE=0) and the [gpu] tests
# (TILE_TEST_REQUIRE_GPU=1, unless AB_TESTS=0). Output goes to $OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
var=${AB_VAR:-TILE_PIPELINE_STAGES}
work=$(mktemp -d)
tar -C "$work" -xJf "$root/bundle/tools.tar.xz" || { echo "gpu-ab: no bundle; run scripts/bundle-gpu.sh"; exit 2; }
export PATH="$work/bin:$PATH"
twoBuilds=0
if [ -f "$root/bundle/before-bench.tar.xz" ]; then
  mkdir -p "$work/before" && tar -C "$work/before" -xJf "$root/bundle/before-bench.tar.xz" && twoBuilds=1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for side in before after; do
  bench=tile-bench
  if [ $twoBuilds = 1 ]; then
    [ "$side" = before ] && bench="$work/before/bin/tile-bench"
    echo "=== $side: $([ "$side" = before ] && echo "the saved build" || echo "this build")"
  else
    value=${AB_BEFORE:-1}
    [ "$side" = after ] && value=${AB_AFTER:-0}
    echo "=== $side: $var=$value"
    export "$var=$value"
  fi
  export TILE_CACHE_DIR="$work/cache-$side"
  "$bench" ssd --chunk-size 64 --iters 20 --warmup 2 --json "$out/ssd-$side.json" 2>&1 | grep -v "^tile-bench:" | head -120
  "$bench" gemm --sizes 4096,8192 --iters 10 2>&1 | tail -26
done
[ $twoBuilds = 1 ] || unset "$var"
if [ -d "$root/bundle/cubins" ] && command -v cuobjdump >/dev/null; then
  echo "=== SASS (cubins compiled on the build machine)"
  for c in "$root"/bundle/cubins/*.cubin; do
    n=$(basename "$c" .cubin)
    cuobjdump -sass "$c" > "$work/$n.sass"
    echo "$n: $(grep -c HGMMA "$work/$n.sass") HGMMA, $(grep -c HMMA "$work/$n.sass") HMMA, $(grep -c LDGSTS "$work/$n.sass") LDGSTS," \
         "$(grep -c UTMALDG "$work/$n.sass") UTMALDG, $(grep -c -E 'LDL|STL' "$work/$n.sass") LDL/STL;" \
         "$(grep -h spill "$root/bundle/cubins/$n.ptxas.txt" 2>/dev/null | tr -s ' ')"
  done
fi
# compute-sanitizer's race and barrier checks on the pipelined kernels (the Mamba-2 demo's four
# kernels and a GEMM), with a timeout: a wrong wait would hang rather than fail.
if [ "${AB_SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  for tool in racecheck synccheck; do
    echo "=== compute-sanitizer --tool $tool"
    export TILE_CACHE_DIR="$work/cache-sanitize"
    TILE_AUTOTUNE=0 timeout 240 compute-sanitizer --tool "$tool" tile-ssd 2>&1 | grep -E "ERROR SUMMARY|RACE|Error|correct" | head -6
    timeout 120 compute-sanitizer --tool "$tool" tile-bench gemm --sizes 256 --iters 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|RACE|Error| ok | failed" | head -6
  done
fi
if [ "${AB_TESTS:-1}" = 1 ]; then
  echo "=== [gpu] tests"
  export TILE_CACHE_DIR="$work/cache-tests"
  TILE_TEST_REQUIRE_GPU=1 timeout 420 tile-unittests "[gpu]" 2>&1 | tee "$out/gpu-tests.log" | tail -25
fi
