# The constants and predicates of the lowering that otherwise only a GPU run would check: each
# RUN line pins one detail that a plausible one-line bug changes (test/mutations/ has them;
# scripts/mutation-test.sh checks that this file notices). No ptxas needed.
# RUN: tile-cc %s --kernel gather --arg x=f32:1 --arg y=f32:1 --emit=gpu | FileCheck %s --check-prefix=GATHER --implicit-check-not="cmpi ule"
# RUN: tile-cc %s --kernel neg_inf --arg x=f32:1 --arg y=f32:1 --emit=gpu | FileCheck %s --check-prefix=NEGINF --implicit-check-not=0x7F800000
# RUN: tile-cc %s --kernel log --arg x=f32:1 --arg y=f32:1 --emit=gpu | FileCheck %s --check-prefix=LOG
# RUN: tile-cc %s --kernel scan --arg x=f32:1 --arg y=f32:1 --emit=gpu | FileCheck %s --check-prefix=SCAN
# RUN: tile-cc %s --kernel fma --arg a=f32:2 --arg b=f32:2 --arg c=f32:2 --emit=gpu | FileCheck %s --check-prefix=FMA
# RUN: tile-cc %s --kernel mma --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=MMA
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arch sm_90a --emit=gpu | FileCheck %s --check-prefix=WGMMA-K
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arch sm_90a --emit=gpu --pipeline-stages 1 | FileCheck %s --check-prefix=WGMMA
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=8 --const BK=16 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arch sm_90a --emit=gpu --pipeline-stages 1 | FileCheck %s --check-prefix=WGMMA-NARROW
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arch sm_90a --emit=gpu | FileCheck %s --check-prefix=WGMMA-MN
import cuda.tile as ct

# Element indices are checked unsigned and strictly below the array's extent (%arg1), so that
# both a negative index and index == shape skip the access.
# GATHER-LABEL: llvm.func @gather__tile(
# GATHER: arith.cmpi ult, %{{.*}}, %arg1 : i64
# GATHER: llvm.load
@ct.kernel
def gather(x, y):
    i = ct.bid(0) * 128 + ct.arange(128)
    ct.store(y, (ct.bid(0),), ct.gather(x, i))

# NEG_INF pads with -inf (0xFF800000), never +inf.
# NEGINF: arith.constant 0xFF800000 : f32
@ct.kernel
def neg_inf(x, y):
    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,), padding_mode=ct.PaddingMode.NEG_INF))

# log(x) = lg2(x) * ln(2).
# LOG: %[[LN2:.*]] = arith.constant 0.693147182 : f32
# LOG: %[[L:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
# LOG-NEXT: arith.mulf %[[L]], %[[LN2]] : f32
@ct.kernel
def log(x, y):
    ct.store(y, (ct.bid(0),), ct.log(ct.load(x, (ct.bid(0),), (128,))))

# 1024 elements at 128 threads: four warps; after the warp totals go through shared memory,
# warp `own` adds the totals of the warps strictly before it (0 has none; own > w for w=1..3).
# SCAN: nvvm.barrier0
# SCAN: nvvm.barrier0
# SCAN: %{{.*}} = arith.cmpi ne, %[[OWN:.*]], %c0_i32 : i32
# SCAN: arith.cmpi ugt, %[[OWN]], %c1_i32 : i32
# SCAN: arith.cmpi ugt, %[[OWN]], %c2_i32 : i32
# SCAN: arith.cmpi ugt, %[[OWN]], %c3_i32 : i32
@ct.kernel
def scan(x, y):
    ct.store(y, (0,), ct.cumsum(ct.load(x, (0,), (1024,)), axis=0))

# f32 operands take the FMA path: acc = fma(a[m, k], b[k, n], acc), the loop-carried
# accumulator (a block argument) last.
# FMA: math.fma %{{[0-9]+}}, %{{[0-9]+}}, %arg{{[0-9]+}} : f32
# FMA-NOT: math.fma %{{[0-9]+}}, %arg
@ct.kernel
def fma(a, b, c):
    acc = ct.mma(ct.load(a, (0, 0), (32, 32)), ct.load(b, (0, 0), (32, 32)), ct.zeros((32, 32), dtype=ct.float32))
    ct.store(c, (0, 0), acc)

# One m16n8k16 mma.sync in one warp: accumulator element i of lane (group = lane / 4,
# quad = lane % 4) sits at row group + (i >= 2 ? 8 : 0), column quad * 2 + i % 2 (PTX ISA,
# "Matrix Fragments for mma.m16n8k16"); the fragment goes to shared memory in that order
# (index row * 8 + column).
# MMA: nvvm.mma.sync
# MMA: %[[C0:[0-9]+]] = llvm.extractvalue %{{[0-9]+}}[0]
# MMA: %[[C1:[0-9]+]] = llvm.extractvalue %{{[0-9]+}}[1]
# MMA: %[[C2:[0-9]+]] = llvm.extractvalue %{{[0-9]+}}[2]
# MMA: %[[C3:[0-9]+]] = llvm.extractvalue %{{[0-9]+}}[3]
# MMA: %[[GROUP:[0-9]+]] = arith.shrui %{{[0-9]+}}, %c2_i32 : i32
# MMA: %[[COL:[0-9]+]] = arith.muli %{{[0-9]+}}, %c2_i32 : i32
# MMA: %[[ROW:[0-9]+]] = arith.muli %{{[0-9]+}}, %c8_i32 : i32
# MMA: arith.addi %[[ROW]], %[[COL]] : i32
# MMA: llvm.store %[[C0]]
# MMA: %[[COL1:[0-9]+]] = arith.addi %[[COL]], %c1_i32 : i32
# MMA: arith.addi %[[ROW]], %[[COL1]] : i32
# MMA: llvm.store %[[C1]]
# MMA: arith.addi %[[GROUP]], %c8_i32 : i32
# MMA: %[[ROW8:[0-9]+]] = arith.muli %{{[0-9]+}}, %c8_i32 : i32
# MMA: arith.addi %[[ROW8]], %[[COL]] : i32
# MMA: llvm.store %[[C2]]
# MMA: arith.addi %[[ROW8]], %[[COL1]] : i32
# MMA: llvm.store %[[C3]]
@ct.kernel
def mma(a, b, c):
    acc = ct.mma(ct.load(a, (0, 0), (16, 16)), ct.load(b, (0, 0), (16, 8)), ct.zeros((16, 8), dtype=ct.float32))
    ct.store(c, (0, 0), acc)

# Through the scratch (--pipeline-stages 1), operands computed in registers take the stage
# layouts below, in their own orientation: A K-major and B N-major, both in the 128-byte
# swizzle (the same two descriptors as WGMMA-K and WGMMA-MN).
# WGMMA-DAG: arith.constant 4611686293305360384 : i64
# WGMMA-DAG: arith.constant 4611686293338849280 : i64
# A 64 x 16 (rows of 32 bytes) takes the 32-byte swizzle: leading 16 (1 unit), stride 8 rows *
# 32 = 256 (16 units), mode 3 at bit 62 (negative as an i64); B 16 x 8 (rows of 16 bytes) the
# interleaved core matrices, N-major: leading = the K step between core matrices 8 * 16 = 128
# (8 units), stride = the N step 128 (8 units): 8 << 16 | 8 << 32.
# WGMMA-NARROW-DAG: arith.constant -4611685949707845632 : i64
# WGMMA-NARROW-DAG: arith.constant 34360262656 : i64
# Read in place from the pipeline stages (the default), A (128 x 64, rows of 128 bytes) is
# K-major in the 128-byte swizzle: leading byte offset unused (16: 1 unit at bit 16), stride
# byte offset 8 rows * 128 = 1024 (64 units at bit 32), swizzle mode 1 at bit 62.
# WGMMA-K: arith.constant 4611686293305360384 : i64
# B (64 x 128, N contiguous, rows of 256 bytes: two 128-byte column blocks of 64 rows) is
# N-major: leading byte offset = the column blocks' distance 64 * 128 = 8192 (512 units),
# stride byte offset 1024 (64 units), swizzle mode 1: 512 << 16 | 64 << 32 | 1 << 62.
# WGMMA-MN: arith.constant 4611686293338849280 : i64
