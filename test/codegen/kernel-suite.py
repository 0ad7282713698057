# Every kernel of the suite (kernels/suite/, timed against torch by scripts/gpu-kernel-suite.sh)
# compiles without spills at its default settings and the suite's shapes.
# REQUIRES: ptxas
# RUN: tile-cc %S/../../kernels/suite/norms.py --kernel layer_norm --const N=4096 --const TM=1 --arg x=bf16:2:aligned --arg w=f32:1:aligned --arg b=f32:1:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/norms.py --kernel layer_norm --const N=8192 --const TM=1 --arg x=bf16:2:aligned --arg w=f32:1:aligned --arg b=f32:1:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/norms.py --kernel rms_norm --const N=8192 --const TM=1 --arg x=bf16:2:aligned --arg w=f32:1:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/softmax.py --kernel softmax --const N=8192 --const TM=1 --arg x=bf16:2:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/argmax.py --kernel row_argmax --const TM=1 --const TV=4096 --arg x=bf16:2:aligned --arg out=i64:1 --arg V=i64:0 --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/transpose.py --kernel transpose --const TM=64 --const TN=64 --arg x=bf16:2:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/int8_gemm.py --kernel int8_gemm --const TM=128 --const TN=128 --const TK=64 --arg x=bf16:2:aligned --arg w=i8:2:aligned --arg s=f32:1:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/suite/int8_gemm.py --kernel int8_gemm --const TM=16 --const TN=32 --const TK=512 --arg x=bf16:2:aligned --arg w=i8:2:aligned --arg s=f32:1:aligned --arg y=bf16:2:aligned --emit=cubin -o %t.cubin --resource-usage 2>&1 | FileCheck %s
# CHECK-NOT: warning
# CHECK: 0 bytes spill stores, 0 bytes spill loads
# CHECK-NOT: warning
