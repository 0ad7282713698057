# The wgmma PTX of wgmma.py (the example GEMM) assembles: ptxas (CUDA 13) takes the descriptors, the proxy fence
# and the tied wait, and reports no serialised wgmma.
# REQUIRES: ptxas
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=cubin -o %t.cubin --metadata %t.json --resource-usage 2>&1 | FileCheck %s
# CHECK: ptxas info{{.*}}Compiling entry function 'matmul__tile' for 'sm_90a'
# CHECK-NOT: wgmma serialized
# CHECK: Used {{[0-9]+}} registers
