#!/usr/bin/env bash
# Mamba-2 for training and serving beside mamba_ssm, on the GPU machine (device tool, `carry:
# ["bundle", ".peers"]`: a bundle with tile-bench, and .peers/mamba_ssm_min, mamba_ssm's Triton SSD in pure Python): our
# backward pass (`tile-bench ssd --backward`) and mamba_ssm's (python/bench/backward_mamba_ssm.py,
# its Triton kernels under autograd), and our decode step (`tile-bench ssd --decode`) and
# mamba_ssm's selective_state_update (python/bench/decode_mamba_ssm.py), on the same shapes and
# inputs, in one call. PEERS=DIR names another peers folder. Writes $OUT/train-serve.log.
set -uo pipefail
LOG_NAME=train-serve.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
peers=${PEERS:-$root/.peers}
step timeout 150 "$work/bin/tile-bench" ssd --backward --iters 3 --json "$out/backward.json"
[ -d "$peers/mamba_ssm_min" ] && step timeout 200 python3 "$root/python/bench/backward_mamba_ssm.py" --peers "$peers"
for state in float32 bfloat16; do
  step timeout 60 "$work/bin/tile-bench" ssd --decode --batch 1,16,256 --state-dtype "$state"
  [ -d "$peers/mamba_ssm_min" ] && step timeout 60 python3 "$root/python/bench/decode_mamba_ssm.py" --peers "$peers" \
    --state-dtype "$state"
done
grep -v "^ssd " "$log" | tail -80
exit $status
