# Loads padded with something other than zero are pipelined too: the copy (cp.async, or TMA
# for an aligned array) fills out-of-bounds elements with zeros, and the threads reading the
# stage select the padding for every element outside the array. A row max over column blocks
# with NEG_INF padding, the idiom for max, argmax and softmax.
# RUN: tile-cc %s --kernel row_max --const TM=8 --const TN=128 --arg x=f32:2 --arg out=f32:1 --arg n=i32:0 --emit=gpu -o %t.mlir --remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
# RUN: FileCheck %s --check-prefix=IR --input-file %t.mlir
# RUN: tile-cc %s --kernel row_max --const TM=8 --const TN=128 --arg x=f32:2:aligned --arg out=f32:1 --arg n=i32:0 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=TMA
# REMARKS-NOT: load not pipelined
# REMARKS: pipeline-padding.py:[[# @LINE + 16]]:13: remark: load copied with cp.async into 3 pipeline stages
# TMA: pipeline-padding.py:[[# @LINE + 15]]:13: remark: load copied by TMA into 3 pipeline stages (descriptor 0: box [8, 128], no swizzle)
# The stage's elements, each replaced by -inf (0xFF800000) where it lies outside the array:
# IR: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
# IR: scf.for
# IR: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
# IR: %[[IN:.*]] = arith.andi
# IR: arith.select %[[IN]], %{{.*}}, %[[NEGINF]] : f32
import cuda.tile as ct


@ct.kernel
def row_max(x, out, n: int, TM: ct.Constant[int], TN: ct.Constant[int]):
    row = ct.bid(0)
    m = ct.full((TM,), float("-inf"), dtype=ct.float32)
    for j in range(ct.cdiv(n, TN)):
        t = ct.load(x, (row, j), (TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
        m = ct.maximum(m, ct.max(t, axis=1))
    ct.store(out, (row,), m)
