# Operators, dtype promotion, NumPy broadcasting, comparisons and element-wise math.
# RUN: tile-cc %s --kernel promote --arg x=bf16:1 --arg y=f16:1 --arg n=i32:0 --arg out=f32:1 | FileCheck %s --check-prefix=PROMOTE
# RUN: tile-cc %s --kernel ints --arg a=i32:1 --arg b=i64:0 --arg out=i64:1 | FileCheck %s --check-prefix=INTS
# RUN: tile-cc %s --kernel math --arg x=f32:2 --arg out=f32:2 | FileCheck %s --check-prefix=MATH
# RUN: tile-cc %s --kernel logic --arg x=f32:1 --arg out=f32:1 --arg eps=f32:0 | FileCheck %s --check-prefix=LOGIC
# RUN: tile-cc %s --kernel zero_d --arg x=f32:1 --arg out=f32:1 --arg s=f32:0 | FileCheck %s --check-prefix=ZERO-D
import cuda.tile as ct


# bf16 + f16 meet in f32; a Python float adapts to the tile's dtype; i32 scalar * f32 tile -> f32.
# PROMOTE-LABEL: tile.kernel @promote
# PROMOTE: %[[A:.*]] = tile.load %arg0{{.*}} -> tensor<64xbf16>
# PROMOTE: %[[B:.*]] = tile.load %arg1{{.*}} -> tensor<64xf16>
# PROMOTE-DAG: %[[AE:.*]] = arith.extf %[[A]] : tensor<64xbf16> to tensor<64xf32>
# PROMOTE-DAG: %[[BE:.*]] = arith.extf %[[B]] : tensor<64xf16> to tensor<64xf32>
# PROMOTE: %[[S:.*]] = arith.addf %[[AE]], %[[BE]] : tensor<64xf32>
# PROMOTE: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<64xbf16>
# PROMOTE: arith.mulf %[[A]], %[[HALF]] : tensor<64xbf16>
# PROMOTE: %[[NF:.*]] = arith.sitofp %arg2 : i32 to f32
# PROMOTE: %[[NB:.*]] = tile.broadcast %[[NF]] : f32 -> tensor<64xf32>
# PROMOTE: arith.mulf %[[S]], %[[NB]] : tensor<64xf32>
# PROMOTE: arith.divf {{.*}} : tensor<64xf32>
@ct.kernel
def promote(x, y, n, out):
    a = ct.load(x, (0,), (64,))
    b = ct.load(y, (0,), (64,))
    s = a + b
    h = a * 0.5
    t = s * n
    q = t / 3
    ct.store(out, (0,), q + h.astype(ct.float32))


# INTS-LABEL: tile.kernel @ints
# INTS: %[[T:.*]] = tile.load
# INTS: arith.floordivsi {{.*}} : tensor<32xi32>
# INTS: arith.remsi {{.*}} : tensor<32xi32>
# INTS: arith.select
# INTS: arith.shli {{.*}} : tensor<32xi32>
# INTS: arith.shrsi {{.*}} : tensor<32xi32>
# INTS: arith.andi {{.*}} : tensor<32xi32>
# INTS: %[[X:.*]] = arith.xori {{.*}} : tensor<32xi32>
# INTS: arith.ori %{{.*}}, %[[X]] : tensor<32xi32>
# INTS: arith.muli %[[T]], %[[T]] : tensor<32xi32>
# INTS-NOT: arith.muli
# INTS: arith.extsi {{.*}} : tensor<32xi32> to tensor<32xi64>
# INTS: arith.addi {{.*}} : tensor<32xi64>
# INTS: arith.sitofp {{.*}} : tensor<32xi32> to tensor<32xf32>
# INTS: arith.divf
@ct.kernel
def ints(a, b, out):
    t = ct.load(a, (0,), (32,))
    f = t // 4
    m = t % 3
    sh = (t << 2) >> 1
    bits = (t & 7) | (t ^ 1)
    sq = t ** 2
    wide = (f + m + sh + bits + sq) + b
    ratio = t / 2
    ct.store(out, (0,), wide + ratio.astype(ct.int64))


# MATH-LABEL: tile.kernel @math
# MATH: math.exp %{{.*}} : tensor<16x16xf32>
# MATH: math.exp2
# MATH: math.log
# MATH: math.log2
# MATH: math.sqrt
# MATH: math.rsqrt
# MATH: math.sin
# MATH: math.cos
# MATH: math.tanh
# MATH: math.absf
# MATH: math.floor
# MATH: math.ceil
# MATH: arith.negf
# MATH: math.exp
# MATH: arith.addf
# MATH: arith.divf
# MATH: arith.minimumf
# MATH: arith.maximumf
# MATH: math.powf
@ct.kernel
def math(x, out):
    t = ct.load(x, (0, 0), (16, 16))
    r = ct.exp(t) + ct.exp2(t) + ct.log(t) + ct.log2(t) + ct.sqrt(t) + ct.rsqrt(t)
    r = r + ct.sin(t) + ct.cos(t) + ct.tanh(t) + ct.abs(t) + ct.floor(t) + ct.ceil(t)
    r = r + ct.sigmoid(t)
    r = ct.minimum(r, 1.0) + ct.maximum(t, 0.0) + ct.pow(t, 1.5)
    ct.store(out, (0, 0), r)


# LOGIC-LABEL: tile.kernel @logic
# LOGIC: %[[GT:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : tensor<32xf32>
# LOGIC: %[[LT:.*]] = arith.cmpf olt
# LOGIC: %[[BOTH:.*]] = arith.andi %[[GT]], %[[LT]] : tensor<32xi1>
# LOGIC: arith.select %[[BOTH]], %{{.*}}, %{{.*}} : tensor<32xi1>, tensor<32xf32>
# LOGIC: arith.cmpf oge
# LOGIC: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
# LOGIC: arith.cmpf une
@ct.kernel
def logic(x, out, eps):
    t = ct.load(x, (0,), (32,))
    inside = (t > 0.0) & (t < 1.0)
    clipped = ct.where(inside, t, 0.0)
    chained = 0.0 < eps < 1.0
    scale = 2.0 if eps >= 0.5 else eps
    ok = not (eps != eps)
    ct.store(out, (0,), clipped * scale)


# A 0-d tile (a full reduction) with Python numbers and scalars stays a 0-d tile.
# ZERO-D-LABEL: tile.kernel @zero_d
# ZERO-D: %[[SUM:.*]] = tile.reduce sum %{{.*}} axis = 0 : tensor<16xf32> -> tensor<f32>
# ZERO-D: %[[TENTH:.*]] = arith.constant dense<1.000000e-01> : tensor<f32>
# ZERO-D: %[[SCALED:.*]] = arith.mulf %[[SUM]], %[[TENTH]] : tensor<f32>
# ZERO-D: %[[S:.*]] = tile.broadcast %arg2 : f32 -> tensor<f32>
# ZERO-D: arith.addf %[[SCALED]], %[[S]] : tensor<f32>
# ZERO-D: arith.select %{{.*}} : tensor<i1>, tensor<f32>
@ct.kernel
def zero_d(x, out, s):
    total = ct.sum(ct.load(x, (0,), (16,))) * 0.1 + s
    ct.store(out, (0,), ct.reshape(ct.where(total > 0.0, total, 1.0), (1,)))
