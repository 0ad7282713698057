#!/usr/bin/env bash
# Runs on the GPU machine (through the device tool, with `carry: ["bundle"]`): unpacks the
# static bundle, runs every test binary (the [gpu] tests included) and writes the log to $OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log="$out/gpu-run.log"
work=$(mktemp -d)
if ! tar -C "$work" -xJf "$root/bundle/tools.tar.xz"; then
  echo "gpu-run: no bundle at bundle/tools.tar.xz; run scripts/bundle-gpu.sh first" | tee "$log"
  exit 2
fi
export PATH="$work/bin:$PATH"
failures=0
have() { command -v "$1" >/dev/null; }
step() {  # step TITLE COMMAND...: runs one step, logs it, counts failures
  local title=$1; shift
  echo "== $title" | tee -a "$log"
  if "$@" >>"$log" 2>&1; then echo "   ok" | tee -a "$log"; else echo "   FAILED ($?)" | tee -a "$log"; failures=$((failures + 1)); fi
}
step "machine" nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
have tile-opt && step "tile-opt lists the tile dialect" bash -c 'tile-opt --help | grep -q "tile"'
have tile-cc && step "tile-cc on the sample kernel" bash -c "tile-cc $root/kernels/examples/scale_rows.py --kernel scale_rows --const TM=64 --const TN=32 --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2 | tile-opt -canonicalize"
step "tile-unittests (CPU tests)" tile-unittests "~[gpu]"
# On this machine a [gpu] test that skips is a failure; -d yes lists each test with its time.
step "tile-unittests [gpu]" env TILE_TEST_REQUIRE_GPU=1 tile-unittests "[gpu]" -d yes
# The JIT in an application, twice: the second process loads from the disk cache. --backend gpu
# fails rather than fall back to the interpreter; the same binary then runs interpreted.
export TILE_CACHE_DIR="$work/cache"
have tile-jit-example && step "tile-jit-example on the GPU (compiles)" tile-jit-example --backend gpu
have tile-jit-example && step "tile-jit-example on the GPU (second process, disk cache)" tile-jit-example --backend gpu
have tile-jit-example && step "tile-jit-example with TILE_INTERPRET=1 (interpreter)" env TILE_INTERPRET=1 tile-jit-example
# The example applications built against the installed package (docs/embedding.md): the
# launcher application on the runtime alone, and the JIT + ssdForward one, on the GPU (a
# fallback to the interpreter fails here) and then interpreted.
have tile-aot-example && step "examples/aot: launch_matmul from the generated launcher" env TILE_TEST_REQUIRE_GPU=1 tile-aot-example
have tile-embed-example && step "examples/embed on the GPU (JIT kernel + ssdForward)" env TILE_TEST_REQUIRE_GPU=1 tile-embed-example
have tile-embed-example && step "examples/embed with TILE_INTERPRET=1" env TILE_INTERPRET=1 tile-embed-example
# tile-run --backend gpu (in the bundle with BUNDLE_BINARIES="... tile-run"): a kernel on the
# GPU against the interpreter, every array compared: a ragged bf16 GEMM (wgmma, the 16-byte
# epilogue on inside tiles, checked stores on the edges) and a strided, misaligned view.
mm="$root/kernels/examples/matmul.py"
have tile-run && step "tile-run --backend gpu: ragged bf16 GEMM against the interpreter" \
  tile-run "$mm" --kernel matmul --const BM=128 --const BN=256 --const BK=64 --grid 3,2 \
  --array a=bf16:300x200:random:1 --array b=bf16:200x500:random:2 --array c=bf16:300x500 --print none --backend gpu
have tile-run && step "tile-run --backend gpu: column-major operands" \
  tile-run "$mm" --kernel matmul --const BM=64 --const BN=64 --const BK=32 --grid 2,2 \
  --array a=f16:100x70:random:3:colmajor --array b=f16:70x90:random:4 --array c=f32:100x90 --print none --backend gpu
have tile-run && step "tile-run --backend gpu --bench: bf16 GEMM 4096^3" \
  tile-run "$mm" --kernel matmul --const BM=128 --const BN=256 --const BK=64 --grid 32,16 \
  --array a=bf16:4096x4096:random:1 --array b=bf16:4096x4096:random:2 --array c=bf16:4096x4096 \
  --print none --backend gpu --no-compare --bench 20 --flops 137438953472
# Cold start with tuning off (a fresh cache: compiling configuration 0 of the four kernels),
# then with tuning (every configuration compiled at once and timed), then a second process
# (kernels and decisions from the caches).
have tile-ssd && step "tile-ssd demo, cold cache, TILE_AUTOTUNE=0" env TILE_CACHE_DIR="$work/cold0" TILE_AUTOTUNE=0 tile-ssd
have tile-ssd && step "tile-ssd demo (compiles and tunes; checked against the float64 reference)" env TILE_AUTOTUNE_PRINT=1 tile-ssd
have tile-ssd && step "tile-ssd demo again (second process: kernels and decisions from the caches)" tile-ssd
# The Tensor Core products on sm_90a are HGMMA in the SASS (wgmma) and nothing spills to local
# memory (LDL/STL): cubins that bundle-gpu.sh compiled on the build machine, read with
# cuobjdump here; the ptxas report beside each says how much it would spill.
sass_hgmma_no_spills() {  # sass_hgmma_no_spills NAME
  local cubin="$root/bundle/cubins/$1.cubin"
  cuobjdump -sass "$cubin" > "$work/$1.sass" &&
    echo "$1: $(grep -c HGMMA "$work/$1.sass") HGMMA, $(grep -c UTMALDG "$work/$1.sass") UTMALDG," \
      "$(grep -c UTMASTG "$work/$1.sass") UTMASTG, $(grep -c -E 'LDL|STL' "$work/$1.sass") LDL/STL;" \
      "$(grep -h spill "$root/bundle/cubins/$1.ptxas.txt" | tr -s ' ')" &&
    grep -q HGMMA "$work/$1.sass" && ! grep -q -E 'LDL|STL' "$work/$1.sass"
}
if have cuobjdump && [ -d "$root/bundle/cubins" ]; then
  for k in matmul chunk_bmm fwd_pass_state compute_out; do
    step "SASS: $k's products are HGMMA, no spills" sass_hgmma_no_spills "$k"
  done
fi
if [ "${TILE_BENCH:-1}" = 1 ] && have tile-bench; then
  step "tile-bench gemm" tile-bench gemm --iters "${TILE_BENCH_ITERS:-10}" --json "$out/gemm.json"
  # The peer's timings when bundle-gpu.sh packed them (PEER_JSON), else this compiler's alone.
  peer=()
  for f in "$root/bundle/peer.json" "$root/bundle/triton_mamba_ssm_h200.json"; do
    if [ -f "$f" ]; then peer=(--peer "$f"); break; fi
  done
  step "tile-bench ssd" tile-bench ssd ${peer[@]+"${peer[@]}"} --iters "${TILE_BENCH_ITERS:-10}" --warmup 2 --json "$out/bench.json" --export-tuning "$out/tuning.json"
fi
tail -n 120 "$log"
echo "gpu-run: $failures step(s) failed"
exit $((failures > 0))
