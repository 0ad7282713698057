# cuTile's named operators, arange(start=, step=), transpose(axis0, axis1), Tile.item(),
# Array.strides, a 0-d load, ct.assert_ and the atomics family, run by the interpreter.
# RUN: tile-run %s --kernel named --array x=f32:8:iota --array out=f32:8 --print out | FileCheck %s --check-prefix=NAMED
# RUN: tile-run %s --kernel compare --array x=i32:8:iota --array out=i32:8 --print out | FileCheck %s --check-prefix=CMP
# RUN: tile-run %s --kernel shapes --array x=f32:2x4:iota --array out=f32:4x2 --array st=i32:2 --print out --print st | FileCheck %s --check-prefix=SHAPES
# RUN: tile-run %s --kernel pick --array idx=i32:4:iota --array x=f32:8:iota --array out=f32:4 --print out | FileCheck %s --check-prefix=PICK
# RUN: tile-run %s --kernel atomics --array a=i32:8:iota --array old=i32:8 --print a --print old | FileCheck %s --check-prefix=ATOM
# RUN: tile-run %s --kernel spin --grid 4 --array lock=i32:1 --array total=i32:1 --print total --print lock | FileCheck %s --check-prefix=SPIN
# RUN: tile-run %s --kernel show --grid 2 | FileCheck %s --check-prefix=PRINT
# RUN: not tile-run %s --kernel checked --array x=f32:4:iota 2>&1 | FileCheck %s --check-prefix=ASSERT
import cuda.tile as ct
from cuda.tile import RoundingMode as RMd

ConstInt = ct.Constant[int]


# x = 0..7: (x + 1) / 2 - x * 0.5 + (x // 3) % 2 = 0.5 + (x // 3) % 2, with (0 // 3) % 2 = 0,
# x = 3..5 -> 1, x = 6, 7 -> 0; minus isnan (never), plus negative(-x) + x = 0.
# NAMED: out: float32 (8,)
# NAMED-NEXT: [0.5, 0.5, 0.5, 1.5, 1.5, 1.5, 0.5, 0.5]
@ct.kernel
def named(x, out):
    t = ct.load(x, (0,), (8,))
    a = ct.truediv(ct.add(t, 1.0, flush_to_zero=True), 2.0, rounding_mode=RMd.APPROX)
    b = ct.sub(a, ct.mul(t, 0.5))
    c = ct.add(b, ct.mod(ct.floordiv(t, 3.0), 2.0))
    d = ct.where(ct.isnan(t), 100.0, c)
    ct.store(out, (0,), ct.add(d, ct.add(ct.negative(t), t)))


# x = 0..7: less(x, 4) -> 1 for 0..3; bitwise_and(x, 6); xor with 1; shift left by 1, right by 2.
# (x & 6) ^ 1 = 1, 1, 3, 3, 5, 5, 7, 7; << 1 = 2, 2, 6, 6, 10, 10, 14, 14; >> 2 = 0, 0, 1, 1, 2, 2, 3, 3
# plus 10 * less = 10, 10, 11, 11, 2, 2, 3, 3; plus 100 * greater_equal(x, 7) at 7; bitwise_not(-1) = 0
# CMP: [10, 10, 11, 11, 2, 2, 3, 103]
@ct.kernel
def compare(x, out):
    t = ct.load(x, (0,), (8,))
    v = ct.bitwise_rshift(ct.bitwise_lshift(ct.bitwise_xor(ct.bitwise_and(t, 6), 1), 1), 2)
    v = v + 10 * ct.less(t, 4).astype(ct.int32) + 100 * ct.greater_equal(t, 7).astype(ct.int32)
    v = ct.bitwise_or(v, ct.bitwise_not(ct.full((8,), -1, dtype=ct.int32)))
    ct.store(out, (0,), v)


# transpose(t, 0, 1) of [[0, 1, 2, 3], [4, 5, 6, 7]], plus arange(4, start=10, step=2)[:, None]
# minus 10: [[0, 4], [1, 5], [2, 6], [3, 7]] + [[0], [2], [4], [6]]. The strides of a 2x4
# row-major array are (4, 1).
# SHAPES: out: float32 (4, 2)
# SHAPES-NEXT: {{\[\[}}0, 4],
# SHAPES-NEXT: [3, 7],
# SHAPES-NEXT: [6, 10],
# SHAPES-NEXT: [9, 13]]
# SHAPES: st: int32 (2,)
# SHAPES-NEXT: [4, 1]
@ct.kernel
def shapes(x, out, st):
    t = ct.transpose(ct.load(x, (0, 0), (2, 4)), 0, 1)
    r = ct.arange(4, dtype=ct.float32, start=10, step=2) - 10
    ct.store(out, (0, 0), t + r[:, None])
    s0 = ct.full((1,), x.strides[0], dtype=ct.int32)
    s1 = ct.full((1,), x.strides[1], dtype=ct.int32)
    ct.store(st, (0,), ct.cat((s0, s1), axis=0))


# idx = 0..3: the 0-d load reads idx[3] = 3; (3 - 2) as a 1-element tile, made an index by
# item(), picks tile 1 of x in tiles of 4.
# PICK: [4, 5, 6, 7]
@ct.kernel
def pick(idx, x, out):
    three = ct.load(idx, index=3, shape=())
    one = (ct.full((1,), 1, dtype=ct.int32) * (three - 2)).item()
    ct.store(out, (0,), ct.load(x, (one,), (4,)))


# a = 0..7. Element k: cas(k == 2 -> 50), xchg(3 -> 30), max(4, 40), min(5, -5), and(6, 3),
# or(7, 8), xor(1, 1), add(0, 9): one atomic per element through masks.
# ATOM: a: int32 (8,)
# ATOM-NEXT: [9, 0, 50, 30, 40, -5, 2, 15]
# ATOM: old: int32 (8,)
# ATOM-NEXT: [0, 1, 2, 3, 4, 5, 6, 7]
@ct.kernel
def atomics(a, old):
    k = ct.arange(8, dtype=ct.int32)
    o = ct.atomic_cas(a, k, 2, 50, mask=k == 2)
    o += ct.atomic_xchg(a, k, 30, mask=k == 3, memory_order=ct.MemoryOrder.RELAXED)
    o += ct.atomic_max(a, k, 40, mask=k == 4, memory_scope=ct.MemoryScope.BLOCK)
    o += ct.atomic_min(a, k, -5, mask=k == 5)
    o += ct.atomic_and(a, k, 3, mask=k == 6, memory_order=ct.MemoryOrder.ACQUIRE)
    o += ct.atomic_or(a, k, 8, mask=k == 7, memory_order=ct.MemoryOrder.RELEASE)
    o += ct.atomic_xor(a, k, 1, mask=k == 1, memory_scope=ct.MemoryScope.SYS)
    o += ct.atomic_add(a, k, 9, mask=k == 0, memory_order=ct.MemoryOrder.ACQ_REL)
    ct.store(old, (0,), o)


# A spin lock as in cuTile's LayerNorm sample: each block takes the lock with atomic_cas,
# adds its id + 1 to total, and releases it: total = 1 + 2 + 3 + 4, and the lock ends free.
# SPIN: total: int32 (1,)
# SPIN-NEXT: [10]
# SPIN: lock: int32 (1,)
# SPIN-NEXT: [0]
@ct.kernel
def spin(lock, total):
    while ct.atomic_cas(lock, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    t = ct.load(total, (0,), (1,))
    ct.store(total, (0,), t + ct.bid(0) + 1)
    ct.atomic_xchg(lock, 0, 0, memory_order=ct.MemoryOrder.RELEASE)


# ASSERT: the first element must be positive
@ct.kernel
def checked(x):
    ct.assert_(ct.load(x, (0,), (1,)).item() > 0.0, "the first element must be positive")


# print's sep= and end= are honoured.
# PRINT: block=0;
# PRINT: block=1;
@ct.kernel
def show():
    print("block", ct.bid(0), sep="=", end=";\n")
