# Reductions, scans, creation and shape operations.
# RUN: tile-cc %s --kernel reductions --arg x=f32:2 --arg out=f32:1 --arg idx=i32:1 | FileCheck %s --check-prefix=RED
# RUN: tile-cc %s --kernel shapes --arg x=f16:2 --arg out=f16:3 | FileCheck %s --check-prefix=SHAPE
import cuda.tile as ct


# RED-LABEL: tile.kernel @reductions
# RED: tile.reduce sum %[[T:.*]] axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
# RED: tile.reduce max %[[T]] axis = 0 keepdims : tensor<64x32xf32> -> tensor<1x32xf32>
# RED: tile.reduce min %[[T]] axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
# RED: tile.reduce prod %[[T]] axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
# RED: tile.reshape %[[T]] : tensor<64x32xf32> -> tensor<2048xf32>
# RED: tile.reduce sum %{{.*}} axis = 0 : tensor<2048xf32> -> tensor<f32>
# RED: tile.reduce argmax %[[T]] axis = 1 : tensor<64x32xf32> -> tensor<64xi32>
# RED: tile.reduce argmin %[[T]] axis = 1 : tensor<64x32xf32> -> tensor<64xi32>
# RED: tile.scan cumsum %[[T]] axis = 1 : tensor<64x32xf32>
# RED: tile.scan cumprod %[[T]] axis = 0 reverse : tensor<64x32xf32>
# RED: tile.reduce sum %{{.*}} axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
@ct.kernel
def reductions(x, out, idx):
    t = ct.load(x, (0, 0), (64, 32))
    s = ct.sum(t, axis=1)
    m = ct.max(t, axis=0, keepdims=True)
    n = t.min(axis=-1)
    p = ct.prod(t, 1)
    total = ct.sum(t)
    am = ct.argmax(t, axis=1)
    an = ct.argmin(t, axis=1)
    c = ct.cumsum(t, axis=1)
    r = ct.cumprod(t, axis=0, reverse=True)
    ct.store(out, (0,), s + m.sum() + n + p + total + ct.sum(c + r, axis=1))
    ct.store(idx, (0,), am + an)


# SHAPE-LABEL: tile.kernel @shapes
# SHAPE: tile.iota : tensor<16xi32>
# SHAPE: arith.constant dense<0.000000e+00> : tensor<16x16xf16>
# SHAPE: arith.constant dense<1.000000e+00> : tensor<16x16xf16>
# SHAPE: arith.constant dense<2.500000e+00> : tensor<16x16xf16>
# SHAPE: tile.reshape %{{.*}} : tensor<16x16xf16> -> tensor<4x64xf16>
# SHAPE: tile.permute %{{.*}} [1, 0] : tensor<4x64xf16> -> tensor<64x4xf16>
# SHAPE: tile.permute %{{.*}} [1, 0] : tensor<64x4xf16> -> tensor<4x64xf16>
# SHAPE: tile.expand_dims %{{.*}} axis = 0 : tensor<4x64xf16> -> tensor<1x4x64xf16>
# SHAPE: tile.broadcast %{{.*}} : tensor<1x4x64xf16> -> tensor<2x4x64xf16>
# SHAPE: tile.cat %{{.*}}, %{{.*}} axis = 0 : tensor<2x4x64xf16>, tensor<2x4x64xf16> -> tensor<4x4x64xf16>
# SHAPE: tile.extract %{{.*}} [1, 0, 0] : tensor<4x4x64xf16> -> tensor<2x4x64xf16>
# SHAPE: tile.permute %{{.*}} [0, 2, 1] : tensor<2x4x64xf16> -> tensor<2x64x4xf16>
@ct.kernel
def shapes(x, out):
    r = ct.arange(16)
    z = ct.zeros((16, 16), dtype=ct.float16)
    o = ct.ones((16, 16), dtype=ct.float16)
    f = ct.full((16, 16), 2.5, dtype=x.dtype)
    t = ct.reshape(z + o + f, (4, -1))
    u = ct.permute(t, (1, 0)).T
    e = ct.expand_dims(u, 0)
    b = ct.broadcast_to(e, (2, 4, 64))
    c = ct.cat((b, b), axis=0)
    s = ct.extract(c, (1, 0, 0), (2, 4, 64))
    w = ct.transpose(s)
    ct.static_assert(w.shape == (2, 64, 4))
    ct.static_assert(len(w.shape) == w.ndim and w.dtype == ct.float16)
    ct.store(out, (0, 0, 0), w)
