# Loops with carried values, run-time and compile-time conditionals, helpers, tuples.
# RUN: tile-cc %s --kernel loop --arg x=f32:2 --arg out=f32:1 --arg n=i32:0 --const BLOCK=32 | FileCheck %s --check-prefix=LOOP
# RUN: tile-cc %s --kernel reverse --arg out=i32:1 | FileCheck %s --check-prefix=REV
# RUN: tile-cc %s --kernel branches --arg x=f32:1 --arg flag=i32:0 --const MODE=2 | FileCheck %s --check-prefix=IF
# RUN: tile-cc %s --kernel helpers --arg x=f32:1 --arg out=f32:1 | FileCheck %s --check-prefix=HELP
import cuda.tile as ct

LOG2E = 1.4426950408889634
TILE = 2 * 32


# LOOP-LABEL: tile.kernel @loop
# LOOP: %[[ACC0:.*]] = arith.constant dense<0.000000e+00> : tensor<32xf32>
# LOOP: %[[K0:.*]] = arith.constant 0 : i32
# LOOP: %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %arg2 step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]], %[[K:.*]] = %[[K0]]) -> (tensor<32xf32>, i32)  : i32 {
# LOOP:   tile.load %arg0[%{{.*}}, %[[I]]]
# LOOP:   %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : tensor<32xf32>
# LOOP:   %[[K1:.*]] = arith.addi %[[K]], %{{.*}} : i32
# LOOP:   scf.yield %[[SUM]], %[[K1]] : tensor<32xf32>, i32
# LOOP: tile.store %[[R]]#0, %arg1
@ct.kernel
def loop(x, out, n, BLOCK: ct.Constant[int]):
    acc = ct.zeros((BLOCK,), dtype=ct.float32)
    k = 0
    for i in range(1, n):
        t = ct.load(x, (ct.bid(0), i), (BLOCK, BLOCK))
        acc += ct.sum(t, axis=1)
        k += 1
    ct.store(out, (0,), acc)


# range(10, 0, -2) runs i = 10 - 2*k for k in [0, 5).
# REV-LABEL: tile.kernel @reverse
# REV: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
# REV: %[[S:.*]] = arith.muli %[[K]], %{{.*}} : i32
# REV: arith.subi %{{.*}}, %[[S]] : i32
@ct.kernel
def reverse(out):
    total = 0
    for i in range(10, 0, -2):
        total += i
    ct.store(out, (0,), ct.full((16,), total, dtype=ct.int32))


# Compile-time conditions fold; run-time ones become scf.if with the assigned values as results.
# IF-LABEL: tile.kernel @branches
# IF: %[[T:.*]] = tile.load
# IF-NOT: arith.constant dense<1.000000e+02>
# IF: arith.addf %[[T]]
# IF: %[[C:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# IF: %[[R:.*]]:2 = scf.if %[[C]] -> (i32, tensor<16xf32>) {
# IF:   scf.yield %{{.*}}, %{{.*}} : i32, tensor<16xf32>
# IF: } else {
# IF:   %[[C2:.*]] = arith.cmpi eq, %arg1
# IF:   scf.if %[[C2]] -> (i32, tensor<16xf32>)
# IF: tile.store %[[R]]#1
@ct.kernel
def branches(x, flag, MODE: ct.Constant[int]):
    t = ct.load(x, (0,), (16,))
    if MODE == 1:
        t = t * 100.0
    elif MODE == 2:
        t = t + 1.0
    else:
        ct.static_assert(False, "never compiled")
    count = 0
    if flag > 0:
        t = t * 2.0
        count = 1
    elif flag == 0:
        t = -t
    else:
        count = 2
    ct.store(x, (0,), t)


@ct.function
def scale_exp2(t, s=LOG2E):
    """Helpers are inlined at each call; constants stay compile-time."""
    return ct.exp2(t * s)


@ct.function
def split(t):
    return t + 1.0, t - 1.0


# HELP-LABEL: tile.kernel @helpers
# HELP: %[[T:.*]] = tile.load
# HELP: %[[S:.*]] = arith.constant dense<1.44269502> : tensor<64xf32>
# HELP: %[[M:.*]] = arith.mulf %[[T]], %[[S]]
# HELP: math.exp2 %[[M]]
# HELP: arith.constant dense<2.000000e+00>
# HELP: arith.addf
# HELP: arith.subf
@ct.kernel
def helpers(x, out):
    t = ct.load(x, (0,), (TILE,))
    e = scale_exp2(t)
    f = scale_exp2(t, s=2.0)
    a, b = split(e + f)
    (c, d) = (a, b)
    c, d = d, c
    ct.store(out, (0,), c * d)
