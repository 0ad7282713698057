# `for target in ct.static_iter(iterable)` unrolls at compile time: the body is emitted once per
# element of a tuple (of constants, tuples or tiles) or of a range() of constants, the target
# bound to the element (tuple targets unpack it); no loop reaches the IR. Run-time conditions in
# the body stay scf.if.
# RUN: tile-cc %s --kernel k --arg x=f32:1 --arg out=f32:1 --arg n=i32:0 --emit=tile | FileCheck %s
import cuda.tile as ct


@ct.kernel
def k(x, out, n: int):
    t = ct.load(x, (0,), (16,))
    acc = ct.zeros((16,), dtype=ct.float32)
    for s in ct.static_iter((1.0, 2.0)):
        acc = acc + t * s
    for i, w in ct.static_iter(((0, 0.5), (1, 0.25))):
        acc = acc + ct.load(x, (i,), (16,)) * w
    for j in ct.static_iter(range(4, 0, -2)):
        if j < n:
            acc = acc + 1.0
    ct.store(out, (0,), acc)

# CHECK-LABEL: tile.kernel @k
# CHECK-NOT: scf.for
# CHECK: arith.constant dense<1.000000e+00>
# CHECK: arith.mulf
# CHECK: arith.constant dense<2.000000e+00>
# CHECK: arith.mulf
# CHECK: tile.load %arg0[%{{.*}}] : !tile.array<?xf32>[i32] -> tensor<16xf32>
# CHECK: arith.constant dense<5.000000e-01>
# CHECK: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK: tile.load %arg0[%[[ONE]]]
# CHECK: arith.constant dense<2.500000e-01>
# CHECK: %[[FOUR:.*]] = arith.constant 4 : i32
# CHECK: arith.cmpi slt, %[[FOUR]], %arg2
# CHECK: scf.if
# CHECK: %[[TWO:.*]] = arith.constant 2 : i32
# CHECK: arith.cmpi slt, %[[TWO]], %arg2
# CHECK: scf.if
# CHECK-NOT: scf.for
# CHECK: tile.store
