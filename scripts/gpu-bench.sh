#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry ["bundle"]): every step of gpu-run.sh but the
# benchmarks, then tile-bench ssd on the five shapes at chunk 64 (tuned; --peer when
# bundle-gpu.sh packed PEER_JSON) and the bf16 GEMM at 4096 and 8192. The log and
# bench.json go to $OUT. This is the run quoted in docs/mamba2.md.
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
export OUT="$out"
TILE_BENCH=0 bash "$root/scripts/gpu-run.sh" > /dev/null 2>&1
cp "$OUT/gpu-run.log" "$OUT/gpu-run-full.log" 2>/dev/null
# The steps and their outcome (the whole log is $OUT/gpu-run-full.log).
grep -E "^==|^   ok|FAILED|test cases|first call|ran |HGMMA|correct" "$OUT/gpu-run.log" | head -150
work=$(mktemp -d); tar -C "$work" -xJf "$root/bundle/tools.tar.xz"; export PATH="$work/bin:$PATH"
export TILE_CACHE_DIR=$work/cache
echo "=== tile-bench ssd, chunk 64, tuned"
peer=(); [ -f "$root/bundle/peer.json" ] && peer=(--peer "$root/bundle/peer.json")
tile-bench ssd ${peer[@]+"${peer[@]}"} --chunk-size 64 --iters 20 --warmup 2 --json "$OUT/bench.json" 2>&1 | grep -v "^tile-bench:" | head -12
echo "=== gemm"
tile-bench gemm --sizes 4096,8192 --iters 10 2>&1 | tail -12
