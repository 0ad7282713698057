#!/usr/bin/env bash
# Mamba-2 for training and serving on the GPU machine (device tool, `carry: ["bundle"]`, a bundle
# with tile-unittests, tile-bench and libtilecc.so): (1) the [gpu][seq_idx] and [gpu][backward]
# tests (packed sequences and each sequence's final state; the backward pass against the float64
# reference backward), (2) python/tests/test_mamba2_torch.py (seq_idx, varlen states and autograd
# on torch tensors), (3) `tile-bench ssd --backward` beside the forward, (4) `tile-bench ssd
# --decode` at batch 1, 16 and 256 with fp32 and bf16 states, (5) `tile-bench ssd --chunk-size 0`
# (the forward pass, whose kernels gained the packed-sequence parameters). Writes $OUT/packed.log.
set -uo pipefail
LOG_NAME=packed.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
step env TILE_TEST_REQUIRE_GPU=1 timeout 200 "$work/bin/tile-unittests" "[seq_idx],[backward]"
[ -f "$work/lib/libtilecc.so" ] && step timeout 240 python3 "$root/python/tests/test_mamba2_torch.py"
step timeout 150 "$work/bin/tile-bench" ssd --backward --iters 3 --json "$out/backward.json"
for state in float32 bfloat16; do
  step timeout 60 "$work/bin/tile-bench" ssd --decode --batch 1,16,256 --state-dtype "$state"
done
step timeout 120 "$work/bin/tile-bench" ssd --chunk-size 0
grep -v "^ssd packed\|^ssd backward" "$log" | tail -100
exit $status
