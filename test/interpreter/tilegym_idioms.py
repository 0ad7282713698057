# Idioms of NVIDIA's TileGym kernels, interpreted and compiled: latency= hints on gather and
# scatter, a stored tile widened to the array's dtype (bf16 into f32, i32 into i64, f16 into
# f32: cuTile's implicit cast), a scalar-index gather giving a 0-d tile, and 0-d tiles where a
# number is expected (range() bounds, ct.cdiv, ct.full's fill, an if condition), ct.extract
# at run-time indices.
# RUN: tile-run %s --kernel widen --array x=f32:8:iota --array idx=i32:8:iota --array out=f32:8 --array big=i64:8 --array half=f32:8 --print out --print big --print half | FileCheck %s --check-prefix=WIDEN
# RUN: tile-run %s --kernel counted --const T=4 --array cnt=i32:4:iota --array y=f32:16 --print y | FileCheck %s --check-prefix=COUNTED
# RUN: tile-cc %s --kernel widen --arg x=f32:1 --arg idx=i32:1 --arg out=f32:1 --arg big=i64:1 --arg half=f32:1 --emit=tile | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel counted --const T=4 --arg cnt=i32:1 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-run %s --kernel columns --const N=4 --array x=f32:4x4:iota --array y=f32:4x1 --print y | FileCheck %s --check-prefix=COLUMNS
# RUN: tile-run %s --kernel pick --array x=f32:8x8:iota --array y=f32:2x4 --array sel=i32:2:iota --print y | FileCheck %s --check-prefix=PICK
# RUN: tile-cc %s --kernel pick --arg x=f32:2 --arg y=f32:2 --arg sel=i32:1 --emit=tile | FileCheck %s --check-prefix=PICKIR
# RUN: tile-cc %s --kernel pick --arg x=f32:2 --arg y=f32:2 --arg sel=i32:1 --emit=ptx | FileCheck %s --check-prefix=PTX-PICK
# RUN: not tile-cc %s --kernel bad_extract --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=BADEXTRACT
# RUN: not tile-cc %s --kernel narrow --arg x=f32:1 --arg out=f16:1 2>&1 | FileCheck %s --check-prefix=NARROW
# RUN: not tile-cc %s --kernel bad_latency --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=LATENCY
# RUN: tile-cc %s --kernel f8_copy --arg a=f8e4m3:1 --arg c=f32:1 --emit=ptx -o - 2>&1 | FileCheck %s --check-prefix=F8
# RUN: tile-cc %s --kernel f8_round --arg x=f32:1 --emit=ptx -o - 2>&1 | FileCheck %s --check-prefix=F8OP
# RUN: tile-run %s --kernel f8_copy --array a=f8e4m3:4:iota --array c=f32:4 --print c | FileCheck %s --check-prefix=F8INTERP
import cuda.tile as ct


# WIDEN: out: float32 (8,)
# WIDEN-NEXT: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
# WIDEN: big: int64 (8,)
# WIDEN-NEXT: [0, 3, 6, 9, 12, 15, 18, 21]
# WIDEN: half: float32 (8,)
# WIDEN-NEXT: [14, 12, 10, 8, 6, 4, 2, 0]
# IR: arith.extf {{.*}} : tensor<8xbf16> to tensor<8xf32>
# IR: arith.extsi {{.*}} : tensor<8xi32> to tensor<8xi64>
# IR: tile.scatter
# IR: tile.gather
# IR: arith.extf {{.*}} : tensor<8xf16> to tensor<8xf32>
@ct.kernel
def widen(x, idx, out, big, half):
    t = ct.load(x, (0,), (8,)) + 0.5
    ct.store(out, (0,), t.astype(ct.bfloat16))
    i = ct.load(idx, (0,), (8,))
    ct.scatter(big, i, i * 3, latency=3)
    g = ct.gather(x, 7 - i, latency=2)
    ct.scatter(half, i, g.astype(ct.float16) * 2)


# cnt = 0, 1, 2, 3: n = 3 tiles of ones, then tile 3 filled with n.
# COUNTED: y: float32 (16,)
# COUNTED-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3]
# PTX: .entry counted
@ct.kernel
def counted(cnt, y, T: ct.Constant[int]):
    n = ct.gather(cnt, 3)
    for j in range(ct.cdiv(n * T, T)):
        ct.store(y, (j,), ct.full((T,), 1.0, dtype=ct.float32))
    if n > 2:
        ct.store(y, (3,), ct.full((T,), n, dtype=ct.float32))


# NARROW: [[@LINE+3]]:25: error: ct.store: the tile has dtype f32 but the array has dtype f16, which it does not widen to; convert it with .astype(array.dtype)
@ct.kernel
def narrow(x, out):
    ct.store(out, (0,), ct.load(x, (0,), (8,)))


# LATENCY: [[@LINE+3]]:27: error: latency 11 is out of range [1, 10]
@ct.kernel
def bad_latency(x):
    ct.scatter(x, 0, 1.0, latency=11)


# 8-bit floats compile: bytes loaded, widened in integer code (compiler/codegen/lowering/Float8.h).
# F8: .visible .entry f8_copy__tile
# F8: ld.global.{{.*}}8
# F8INTERP: c: float32 (4,)
# F8INTERP-NEXT: [0, 1, 2, 3]
@ct.kernel
def f8_copy(a, c):
    ct.store(c, (0,), ct.load(a, (0,), (4,)).astype(ct.float32))


# ... and f32 rounded to e4m3 and back.
# F8OP: .visible .entry f8_round__tile
@ct.kernel
def f8_round(x):
    t = ct.load(x, (0,), (4,)).astype(ct.float8_e4m3fn)
    ct.store(x, (0,), t.astype(ct.float32))


# Row r of x (4r + j at column j): sum_j x[r, j] * (j + 1), one column at a time.
# COLUMNS: y: float32 (4, 1)
# COLUMNS-NEXT: {{\[}}[20],
# COLUMNS-NEXT: [60],
# COLUMNS-NEXT: [100],
# COLUMNS-NEXT: [140]]
@ct.kernel
def columns(x, y, N: ct.Constant[int]):
    m = ct.load(x, index=(0, 0), shape=(N, N))
    acc = ct.zeros((N, 1), dtype=ct.float32)
    for j in range(N):
        acc = acc + ct.extract(m, (0, j), shape=(N, 1)) * (j + 1)
    ct.store(y, index=(0, 0), tile=acc)


# sel = 0, 1: the 2x4 sub-tile at (0, 1) of the 8x8 iota, both indices from memory: the row
# dimension is picked out at run time (split into 4 tiles of 2, the others zeroed, summed),
# then the column one.
# PICK: y: float32 (2, 4)
# PICK-NEXT: {{\[}}[4, 5, 6, 7],
# PICK-NEXT: [12, 13, 14, 15]]
# PICKIR: tile.reshape {{.*}} : tensor<8x8xf32> -> tensor<4x2x8xf32>
# PICKIR: arith.select
# PICKIR: tile.reduce sum {{.*}} axis = 0 : tensor<4x2x8xf32> -> tensor<2x8xf32>
# PICKIR: tile.reshape {{.*}} : tensor<2x8xf32> -> tensor<2x2x4xf32>
# PICKIR: tile.reduce sum {{.*}} axis = 1 : tensor<2x2x4xf32> -> tensor<2x4xf32>
# PTX-PICK: .entry pick
@ct.kernel
def pick(x, y, sel):
    m = ct.load(x, index=(0, 0), shape=(8, 8))
    ct.store(y, index=(0, 0), tile=ct.extract(m, (ct.gather(sel, 0), ct.gather(sel, 1)), shape=(2, 4)))


# BADEXTRACT: [[@LINE+4]]:23: error: a ct.extract index must be an integer, got
@ct.kernel
def bad_extract(x):
    m = ct.load(x, index=(0, 0), shape=(8, 8))
    t = ct.extract(m, (0, 1.5), shape=(2, 4))
