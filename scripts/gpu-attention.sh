#!/usr/bin/env bash
# Attention on the GPU machine (device tool, `carry: ["bundle"]`, a bundle with tile-run:
# BUNDLE_BINARIES="tile-unittests tile-run" scripts/bundle-gpu.sh): kernels/examples/attention.py
# as written and with @ct.kernel(warp_specialize=True) (a producer warpgroup issues its copies)
# (1) on small ragged shapes against the interpreter (causal and not, D 64 and 128, bf16 and
# fp16, grouped-query heads, a sequence that is not a multiple of the key block), (2) torch's
# scaled_dot_product_attention timed on the benchmark's shapes (scripts/attention_torch.py),
# (3) ours on the same shapes (batch 16 x 8 heads, S 4096/16384/1024, D 128/64, causal and not;
# a bundle with tile-run-base, the tile-run of another commit, times that too), (4) our results
# on two of them checked against torch. ATTENTION_DIMS and ATTENTION_SEQS narrow (3) (default
# "128 64" and "4096 16384 1024"), ATTENTION_TORCH=0 leaves out (2). Writes $OUT/attention.log
# and .summary.
set -uo pipefail
LOG_NAME=attention.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
run="$work/bin/tile-run"
kernel="$root/kernels/examples/attention.py"
# The same kernel with the kernel option that asks for warp specialization.
specialized="$work/attention_ws.py"
sed 's/^@ct.kernel$/@ct.kernel(warp_specialize=True)/' "$kernel" > "$specialized"
grep -q "warp_specialize=True" "$specialized" || { echo "attention_ws.py: no @ct.kernel line" >> "$log"; exit 2; }
scale() { python3 -c "print(1 / $1 ** 0.5)"; }
# (1) against the interpreter: B x H x S x D, K/V with H / G heads
for cfg in "64 64 False True 1 bf16 256" "64 64 True True 1 bf16 256" "64 64 False False 1 bf16 200" \
           "64 64 True False 2 bf16 200" "128 64 False False 1 bf16 136" "128 64 True False 1 f16 136" \
           "64 128 True True 1 bf16 256" "64 128 False False 1 f16 300"; do
  set -- $cfg
  d=$1 tn=$2 causal=$3 even=$4 g=$5 dt=$6 s=$7 b=2 h=2
  for file in "$kernel" "$specialized"; do
    step "$run" "$file" --kernel attention --const TILE_D=$d --const H=$h --const TILE_M=128 --const TILE_N=$tn \
      --const CAUSAL=$causal --const EVEN_K=$even --const QUERY_GROUP_SIZE=$g --grid $(((s + 127) / 128)),$((b * h)) \
      --backend gpu --print none --array Q=$dt:${b}x${h}x${s}x$d:random:1 --array K=$dt:${b}x$((h / g))x${s}x$d:random:2 \
      --array V=$dt:${b}x$((h / g))x${s}x$d:random:3 --array Out=$dt:${b}x${h}x${s}x$d --scalar qk_scale=f32:$(scale $d)
  done
done
# fused_block's attention-like softmax of its own scores takes the same path
for cfg in 0 1; do
  step "$run" "$root/kernels/examples/fused_block.py" --kernel fused_block --config $cfg --grid 4 --backend gpu \
    --print none --array x=bf16:100x64:random:1 --array w_norm=bf16:64:random:2 --array w_proj=bf16:64x64:random:3 \
    --array gate=bf16:100x64:random:4 --array out=bf16:100x64 --array stats=f32:4 --scalar n=i32:100
done
# (2) torch first: its figures come back even if ours run past the call's limit
[ "${ATTENTION_TORCH:-1}" = 1 ] && step python3 "$root/scripts/attention_torch.py" time
# (3) ours, and (4) two results checked against torch: each shape as written, warp-specialized,
# and by tile-run-base when the bundle has it, at the key block the README's
# table reports for each D (128 for D = 128, 64 for D = 64).
bench=(--backend gpu --no-compare --print none --bench 20)
for d in ${ATTENTION_DIMS:-128 64}; do
  tn=$d
  for s in ${ATTENTION_SEQS:-4096 16384 1024}; do
    for causal in False True; do
      c=0; [ $causal = True ] && c=1
      flops=$((4 * 128 * s * s * d / (1 + c)))
      forms=("$run $kernel" "$run $specialized")
      [ -x "$work/bin/tile-run-base" ] && forms+=("$work/bin/tile-run-base $kernel")
      for form in "${forms[@]}"; do
        set -- $form
        # Each build its own JIT cache: the key names the source and options, so another
        # build would load this one's cubin where the two agree on them.
        export TILE_CACHE_DIR="$work/cache"; [ "$1" = "$work/bin/tile-run-base" ] && TILE_CACHE_DIR="$work/cache-base"
        save=(); [ $s = 1024 ] && [ "$1 $2" = "$run $kernel" ] && save=(--save "$work/r$d$c")
        step "$1" "$2" --kernel attention --const TILE_D=$d --const H=8 --const TILE_M=128 --const TILE_N=$tn \
          --const CAUSAL=$causal --grid $((s / 128)),128 --array Q=bf16:16x8x${s}x$d:random:1 \
          --array K=bf16:16x8x${s}x$d:random:2 --array V=bf16:16x8x${s}x$d:random:3 --array Out=bf16:16x8x${s}x$d \
          --scalar qk_scale=f32:$(scale $d) "${bench[@]}" --flops $flops "${save[@]}"
        [ ${#save[@]} -gt 0 ] && step python3 "$root/scripts/attention_torch.py" check "$work/r$d$c" $c
      done
    done
  done
done
grep -E "^== |rc=|median|check|error|warning|mismatch|not run" "$log" | sed "s|$root/||g; s|$work/||g" > "$out/attention.summary"
