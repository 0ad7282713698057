# The TMA lowering's inline PTX assembles (ptxas, CUDA 13), and the launch metadata describes
# each descriptor (the runtime encodes them at launch) and the aligned arguments' promise.
# REQUIRES: ptxas
# RUN: tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2:aligned --arg y=f32:2 --arg n=i32:0 --emit=cubin -o %t.cubin --metadata %t.json --resource-usage 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=META --input-file %t.json
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --emit=cubin -o %t.gemm.cubin --metadata %t.gemm.json --resource-usage 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=GEMM-META --input-file %t.gemm.json
# sm_90 without the a: TMA copies and proxy fences (PTX 8.0; with 7.8 LLVM aborted selecting
# the fence), mma.sync products.
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --arch sm_90 --emit=cubin -o %t.sm90.cubin --resource-usage 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --arch sm_90 --emit=ptx | FileCheck %s --check-prefix=SM90
# SM90: .version 8.0
# SM90: fence.proxy.async
# SM90: cp.async.bulk.tensor.2d
# SM90: mma.sync.aligned.m16n8k16
# PTXAS: ptxas info{{.*}}Compiling entry function
# PTXAS-NOT: wgmma serialized
# PTXAS: 0 bytes spill stores, 0 bytes spill loads

# META: "alignment": 16,
# META-NEXT: "dtype": "float32",
# META-NEXT: "kind": "array",
# META-NEXT: "name": "x",
# META-NEXT: "rank": 2,
# META-NEXT: "unit_stride_last": true
# META: "tma": [
# META-NEXT: {
# META-NEXT: "box": [
# META-NEXT: 16,
# META-NEXT: 64
# META-NEXT: ],
# META-NEXT: "l2_promotion": "128B",
# META-NEXT: "oob_fill": "zero",
# META-NEXT: "param": "x",
# META-NEXT: "swizzle": "none"


# a's 128 x 64 tile is one 128-byte column block; b's 64 x 128 tile two of 64 x 64.
# GEMM-META: "tma": [
# GEMM-META: "box": [
# GEMM-META-NEXT: 128,
# GEMM-META-NEXT: 64
# GEMM-META: "param": "a",
# GEMM-META-NEXT: "swizzle": "128B"
# GEMM-META: "box": [
# GEMM-META-NEXT: 64,
# GEMM-META-NEXT: 64
# GEMM-META: "param": "b",
# GEMM-META-NEXT: "swizzle": "128B"
