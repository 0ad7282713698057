#!/usr/bin/env bash
# 8-bit floats on the GPU machine (device tool, `carry: ["bundle"]`, a bundle with tile-unittests,
# tile-bench and libtilecc.so: BUNDLE_BINARIES="tile-bench tile-unittests"
# BUNDLE_LIBRARIES=libtilecc.so scripts/bundle-gpu.sh): (1) the SASS of the suite's fp8 GEMM
# (HGMMA on E4M3, no local memory), (2) the [float8] differential tests against the
# interpreter (every bit pattern widened, edges narrowed, products on 8-bit wgmma and on f16),
# (3) python/bench/fp8_gemm.py beside torch._scaled_mm and a bf16 matmul, (4) NVIDIA's
# BatchMatMul sample (its float8_e4m3fn case) when bundle/cutile-samples has it. Writes
# $OUT/float8.log.
set -uo pipefail
LOG_NAME=float8.log
# shellcheck source=gpu-common.sh
source "$(dirname "$0")/gpu-common.sh"
cubin="$root/bundle/cubins/fp8_gemm.cubin"
if [ -f "$cubin" ]; then
  sass=$(cuobjdump -sass "$cubin")
  echo "fp8_gemm SASS: $(grep -c HGMMA <<< "$sass") HGMMA ($(grep -m1 -o 'HGMMA[^ ]*' <<< "$sass")), $(grep -cE 'LDL|STL' <<< "$sass") LDL/STL" >> "$log"
fi
step env TILE_TEST_REQUIRE_GPU=1 timeout 300 "$work/bin/tile-unittests" "[float8]" -d yes
step timeout 240 python3 "$root/python/bench/fp8_gemm.py"
if [ -f "$root/bundle/cutile-samples/BatchMatMul.py" ]; then
  pushd "$root/bundle/cutile-samples" > /dev/null
  step timeout 300 python3 -m tilecc BatchMatMul.py --correctness-check
  popd > /dev/null
fi
tail -120 "$log"
exit $status
