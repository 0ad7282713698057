#!/usr/bin/env bash
# The kernel suite on the GPU machine (device tool, `carry: ["bundle"]`, a bundle with tile-run:
# BUNDLE_BINARIES="tile-unittests tile-run" scripts/bundle-gpu.sh): each kernel of
# kernels/suite/ and the GEMM, written the plain way, (1) on a small ragged shape against the
# interpreter, (2) torch on the suite's shapes (scripts/kernel_suite_torch.py time: torch's kernels
# and a device-to-device copy), (3) ours on the same shapes, timed, results saved, (4) our results
# against torch's (kernel_suite_torch.py check). Writes $OUT/kernel-suite.log and .summary.
set -uo pipefail
LOG_NAME=kernel-suite.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
run="$work/bin/tile-run"
results="$work/results"
mkdir -p "$results"
s="$root/kernels/suite"
# (1) ragged shapes against the interpreter
step "$run" "$s/norms.py" --kernel layer_norm --const N=256 --const TM=2 --grid 5 --backend gpu --print none \
  --array x=bf16:9x256:random:1 --array w=f32:256:random:2 --array b=f32:256:random:3 --array y=bf16:9x256
step "$run" "$s/norms.py" --kernel rms_norm --const N=256 --const TM=2 --grid 5 --backend gpu --print none \
  --array x=bf16:9x256:random:1 --array w=f32:256:random:2 --array y=bf16:9x256
step "$run" "$s/softmax.py" --kernel softmax --const N=256 --const TM=2 --grid 5 --backend gpu --print none \
  --array x=bf16:9x256:random:1 --array y=bf16:9x256
step "$run" "$s/argmax.py" --kernel row_argmax --const TM=2 --const TV=128 --grid 5 --backend gpu --print none \
  --array x=f32:9x300:random:1 --array out=i64:9 --scalar V=i64:300
step "$run" "$s/transpose.py" --kernel transpose --const TM=64 --const TN=64 --grid 2,3 --backend gpu --print none \
  --array x=bf16:100x150:random:1 --array y=bf16:150x100
# torch's timings first: they come back even if our side below runs past the call's limit
step python3 "$root/scripts/kernel_suite_torch.py" time "$results"
# (3) the suite's shapes: results saved for the torch check, then timed
rows=32768
bench=(--backend gpu --no-compare --print none --bench 50)
for n in 4096 8192; do
  # rows per block and threads: the compiler's default (0), then the thread counts by hand
  for cfg in "1 0" "1 128" "1 256" "1 512" "2 256" "4 512"; do
    set -- $cfg
    thr=(); [ "$2" != 0 ] && thr=(--num-threads "$2")
    save=(); [ "$n" = 4096 ] && [ "$2" = 0 ] && save=(--save "$results/layer_norm")
    step "$run" "$s/norms.py" --kernel layer_norm --const N=$n --const TM=$1 "${thr[@]}" --grid $((rows / $1)) \
      --array x=bf16:${rows}x$n:random:1 --array w=f32:$n:random:2 --array b=f32:$n:random:3 --array y=bf16:${rows}x$n \
      "${bench[@]}" "${save[@]}"
    save=(); [ "$n" = 4096 ] && [ "$2" = 0 ] && save=(--save "$results/rms_norm")
    step "$run" "$s/norms.py" --kernel rms_norm --const N=$n --const TM=$1 "${thr[@]}" --grid $((rows / $1)) \
      --array x=bf16:${rows}x$n:random:1 --array w=f32:$n:random:2 --array y=bf16:${rows}x$n "${bench[@]}" "${save[@]}"
    save=(); [ "$n" = 4096 ] && [ "$2" = 0 ] && save=(--save "$results/softmax")
    step "$run" "$s/softmax.py" --kernel softmax --const N=$n --const TM=$1 "${thr[@]}" --grid $((rows / $1)) \
      --array x=bf16:${rows}x$n:random:1 --array y=bf16:${rows}x$n "${bench[@]}" "${save[@]}"
  done
done
step "$run" "$s/argmax.py" --kernel row_argmax --const TM=1 --const TV=4096 --grid 4096 \
  --array x=bf16:4096x32000:random:5 --array out=i64:4096 --scalar V=i64:32000 "${bench[@]}" --save "$results/argmax"
step "$run" "$s/transpose.py" --kernel transpose --const TM=64 --const TN=64 --grid 128,128 \
  --array x=bf16:8192x8192:random:1 --array y=bf16:8192x8192 "${bench[@]}" --save "$results/transpose"
for n in 4096 8192; do
  step "$run" "$root/kernels/examples/matmul.py" --kernel matmul --const BM=128 --const BN=256 --const BK=64 \
    --grid $((n / 128)),$((n / 256)) --array a=bf16:${n}x$n:random:1 --array b=bf16:${n}x$n:random:2 \
    --array c=bf16:${n}x$n "${bench[@]}" --flops $((2 * n * n * n))
done
# int8 weights (K x N, a scale per column), y = x @ (w * s): decode (M = 16) and prefill (M = 4096)
for cfg in "16 32 512" "16 64 256" "4096 128 64" "4096 64 128"; do
  set -- $cfg
  m=$1; tm=$((m < 128 ? m : 128)); [ "$m" = 4096 ] && [ "$2" = 64 ] && tm=64
  save=(); [ "$m" = 4096 ] && [ "$2" = 128 ] && save=(--save "$results/int8_gemm")
  step "$run" "$s/int8_gemm.py" --kernel int8_gemm --const TM=$tm --const TN=$2 --const TK=$3 \
    --grid $((m / tm)),$((4096 / $2)) --array x=bf16:${m}x4096:random:1 --array w=i8:4096x4096:random:2 \
    --array s=f32:4096:random:3 --array y=bf16:${m}x4096 "${bench[@]}" "${save[@]}" --flops $((2 * m * 4096 * 4096))
done
# (4) our saved results against torch's
step python3 "$root/scripts/kernel_suite_torch.py" check "$results"
grep -E "^== |rc=|median|check|error|warning" "$log" | sed "s|$root/||g; s|$work/||g" > "$out/kernel-suite.summary"
