# What the lowering of every memory op computes at the array's edges, on --emit=gpu output (one
# warp, so one element per thread and no vectors): each index is compared unsigned and strictly
# below the array's run-time extent in its own dimension (a negative index is a huge unsigned
# one), the comparisons of all dimensions (and a mask) are and-ed, the access sits under that
# predicate, and an out-of-bounds load yields its padding mode's constant. No ptxas needed.
# RUN: tile-cc %s --kernel pad_modes --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=PAD --implicit-check-not="cmpi ule" --implicit-check-not="cmpi slt"
# RUN: tile-cc %s --kernel pad_modes --arg x=bf16:1 --arg y=bf16:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=PAD16
# RUN: tile-cc %s --kernel load2d --arg x=f32:2 --arg y=f32:2 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=TWOD --implicit-check-not="cmpi ule" --implicit-check-not="cmpi slt"
# RUN: tile-cc %s --kernel scatter --arg x=f32:1 --arg i=i32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=SCATTER --implicit-check-not="cmpi ule" --implicit-check-not="cmpi slt"
# RUN: tile-cc %s --kernel atomic --arg x=f32:1 --arg i=i32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=ATOMIC --implicit-check-not="cmpi ule" --implicit-check-not="cmpi slt"
# RUN: tile-cc %s --kernel gather64 --arg x=f32:1 --arg i=i64:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=GATHER64
import cuda.tile as ct


# Every padding mode, in the order of the loads: ZERO, NEG_ZERO, NAN, POS_INF, NEG_INF, and
# UNDETERMINED, which reads as zero on the GPU. Each load is bounds-checked against x's extent
# (%arg1), each store against y's (%arg4).
# PAD-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
# PAD-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
# PAD-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
# PAD-DAG: %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
# PAD-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# PAD: %[[LANE:[0-9]+]] = arith.extui
# PAD-NEXT: %[[IN0:[0-9]+]] = arith.cmpi ult, %[[LANE]], %arg1 : i64
# PAD: scf.if %[[IN0]] -> (f32) {
# PAD-NEXT: llvm.load
# PAD: } else {
# PAD-NEXT: scf.yield %[[ZERO]] : f32
# PAD: %[[OUT0:[0-9]+]] = arith.cmpi ult, %[[LANE]], %arg4 : i64
# PAD: scf.if %[[OUT0]] {
# PAD-NEXT: llvm.store
# Tile 1 starts at element 32.
# PAD: %[[I1:[0-9]+]] = arith.addi %[[LANE]], %c32_i64 : i64
# PAD-NEXT: %[[IN1:[0-9]+]] = arith.cmpi ult, %[[I1]], %arg1 : i64
# PAD: scf.if %[[IN1]] -> (f32) {
# PAD: scf.yield %[[NEGZERO]] : f32
# PAD: scf.yield %[[NAN]] : f32
# PAD: scf.yield %[[INF]] : f32
# PAD: scf.yield %[[NEGINF]] : f32
# PAD: scf.yield %[[ZERO]] : f32
# The same modes in bf16: the constants of bf16's own encoding.
# PAD16-DAG: arith.constant 0xFF80 : bf16
# PAD16-DAG: arith.constant 0x7F80 : bf16
# PAD16-DAG: arith.constant 0x7FC0 : bf16
# PAD16-DAG: arith.constant -0.000000e+00 : bf16
# PAD16-DAG: arith.constant 0.000000e+00 : bf16
@ct.kernel
def pad_modes(x, y):
    ct.store(y, (0,), ct.load(x, (0,), (32,), padding_mode=ct.PaddingMode.ZERO))
    ct.store(y, (1,), ct.load(x, (1,), (32,), padding_mode=ct.PaddingMode.NEG_ZERO))
    ct.store(y, (2,), ct.load(x, (2,), (32,), padding_mode=ct.PaddingMode.NAN))
    ct.store(y, (3,), ct.load(x, (3,), (32,), padding_mode=ct.PaddingMode.POS_INF))
    ct.store(y, (4,), ct.load(x, (4,), (32,), padding_mode=ct.PaddingMode.NEG_INF))
    ct.store(y, (5,), ct.load(x, (5,), (32,), padding_mode=ct.PaddingMode.UNDETERMINED))


# A 2-D tile: the row index (block 0's rows) against x's rows (%arg1), the column index against
# its columns (%arg2), both required; the element offset is row * stride0 + column * stride1.
# The store checks y's rows (%arg6) and columns (%arg7).
# TWOD: %[[ROW:[0-9]+]] = arith.addi
# TWOD-NEXT: %[[ROWOK:[0-9]+]] = arith.cmpi ult, %[[ROW]], %arg1 : i64
# TWOD: %[[COL:[0-9]+]] = arith.addi
# TWOD-NEXT: %[[COLOK:[0-9]+]] = arith.cmpi ult, %[[COL]], %arg2 : i64
# TWOD-NEXT: %[[OK:[0-9]+]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
# TWOD-NEXT: %[[R:[0-9]+]] = arith.muli %[[ROW]], %arg3 : i64
# TWOD-NEXT: %[[C:[0-9]+]] = arith.muli %[[COL]], %arg4 : i64
# TWOD-NEXT: arith.addi %[[R]], %[[C]] : i64
# TWOD: scf.if %[[OK]] -> (f32) {
# TWOD: scf.yield %cst : f32
# TWOD: arith.cmpi ult, %{{.*}}, %arg6 : i64
# TWOD-NEXT: arith.cmpi ult, %{{.*}}, %arg7 : i64
# TWOD-NEXT: %[[SOK:[0-9]+]] = arith.andi
# TWOD: scf.if %[[SOK]] {
# TWOD-NEXT: llvm.store
@ct.kernel
def load2d(x, y):
    ct.store(y, (0, 0), ct.load(x, (ct.bid(0), ct.bid(1)), (4, 8), padding_mode=ct.PaddingMode.NEG_INF))


# scatter: the i32 index sign-extended (so -1 stays negative, then fails the unsigned check),
# compared with x's extent (%arg1) and and-ed with the mask.
# SCATTER: %[[MASK:[0-9]+]] = arith.cmpi ne, %[[IDX:[0-9]+]], %c3_i32 : i32
# SCATTER-NEXT: %[[I:[0-9]+]] = arith.extsi %[[IDX]] : i32 to i64
# SCATTER-NEXT: %[[IN:[0-9]+]] = arith.cmpi ult, %[[I]], %arg1 : i64
# SCATTER-NEXT: %[[OK:[0-9]+]] = arith.andi %[[MASK]], %[[IN]] : i1
# SCATTER: scf.if %[[OK]] {
# SCATTER-NEXT: llvm.store
@ct.kernel
def scatter(x, i):
    idx = ct.load(i, (0,), (32,))
    ct.scatter(x, idx, ct.full((32,), 1.0, dtype=ct.float32), mask=idx != 3)


# atomic_add: the same predicate; a masked-off or out-of-bounds element returns 0.
# ATOMIC-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
# ATOMIC: %[[MASK:[0-9]+]] = arith.cmpi ne, %[[IDX:[0-9]+]], %c3_i32 : i32
# ATOMIC-NEXT: %[[I:[0-9]+]] = arith.extsi %[[IDX]] : i32 to i64
# ATOMIC-NEXT: %[[IN:[0-9]+]] = arith.cmpi ult, %[[I]], %arg1 : i64
# ATOMIC-NEXT: %[[OK:[0-9]+]] = arith.andi %[[MASK]], %[[IN]] : i1
# ATOMIC: scf.if %[[OK]] -> (f32) {
# ATOMIC-NEXT: llvm.atomicrmw fadd
# ATOMIC: } else {
# ATOMIC-NEXT: scf.yield %[[ZERO]] : f32
@ct.kernel
def atomic(x, i, y):
    idx = ct.load(i, (0,), (32,))
    ct.store(y, (0,), ct.atomic_add(x, idx, ct.full((32,), 1.0, dtype=ct.float32), mask=idx != 3))


# An i64 index is compared as is: never truncated to 32 bits (2^32 + 3 would read element 3).
# GATHER64: %[[IDX:[0-9]+]] = scf.if %{{.*}} -> (i64) {
# GATHER64: %[[IN:[0-9]+]] = arith.cmpi ult, %[[IDX]], %arg1 : i64
# GATHER64: scf.if %[[IN]] -> (f32) {
# GATHER64-NEXT: llvm.load
@ct.kernel
def gather64(x, i, y):
    ct.store(y, (0,), ct.gather(x, ct.load(i, (0,), (32,)), padding_value=-7.0))
