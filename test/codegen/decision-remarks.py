# Under --remarks every product says which instruction runs it and where its operands come
# from, and every load how it reaches the threads (DecisionRemarks.cpp): the fast choices are
# confirmed from the remarks, not from the PTX. tile-opt's tile-lower-to-llvm reports them with
# decision-remarks=true; the compile pipeline turns that on, and without --remarks nothing is
# printed.
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=SM90A
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx -o /dev/null --remarks --arch sm_80 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg c=f32:2 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=FMA
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg c=f32:2 --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
# SM90A: matmul.py:14:14: remark: load copied by TMA into 3 pipeline stages (descriptor 0: box [128, 64], 128-byte swizzle)
# SM90A: matmul.py:15:14: remark: load copied by TMA into 3 pipeline stages (descriptor 1: box [64, 64], 128-byte swizzle)
# SM90A: matmul.py:16:15: remark: product on wgmma.m64n128k16 (bf16), A from its copy in shared memory, B from its copy in shared memory
# SM80: matmul.py:14:14: remark: load copied with cp.async into 3 pipeline stages
# SM80: matmul.py:15:14: remark: load copied with cp.async into 3 pipeline stages
# SM80: matmul.py:16:15: remark: product on mma.sync.m16n8k16 (bf16), accumulator in registers, A from its copy in shared memory, B from its copy in shared memory
# FMA: decision-remarks.py:[[# @LINE + 9]]:9: remark: load read by each thread from global memory into registers
# FMA: decision-remarks.py:[[# @LINE + 9]]:9: remark: load read by each thread from global memory into registers
# FMA: decision-remarks.py:[[# @LINE + 9]]:25: remark: product on FMA (f32): each thread accumulates its outputs, both operands read from shared memory
# QUIET-NOT: remark
import cuda.tile as ct


@ct.kernel
def k(x, y, c):
    a = ct.load(x, (0, 0), (32, 16))
    b = ct.load(y, (0, 0), (16, 32))
    ct.store(c, (0, 0), ct.mma(a, b, ct.zeros((32, 32), dtype=ct.float32)))
