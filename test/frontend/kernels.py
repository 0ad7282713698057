# Kernel options, autotune configurations, constants with defaults, matrix products, debugging.
# RUN: tile-cc %s --kernel options --arg x=f32:1 | FileCheck %s --check-prefix=OPT
# RUN: tile-cc %s --kernel tuned --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 | FileCheck %s --check-prefix=TUNE0
# RUN: tile-cc %s --kernel tuned --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --config 1 | FileCheck %s --check-prefix=TUNE1
# RUN: tile-cc %s --kernel tuned --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --const BN=16 | FileCheck %s --check-prefix=TUNEC
# RUN: tile-cc %s --kernel debug --arg x=f32:1 --arg eps=f32:0 | FileCheck %s --check-prefix=DEBUG
# RUN: tile-cc %s --list-kernels | FileCheck %s --check-prefix=LIST
import cuda.tile as ct


# OPT-LABEL: tile.kernel @options(%arg0: !tile.array<?xf32>) attributes {constants = {B = 128 : i64, FAST = true, SCALE = 2.500000e-01 : f64}, num_ctas = 2 : i32, occupancy = 2 : i32}
# OPT: arith.constant dense<2.500000e-01> : tensor<128xf32>
@ct.kernel(occupancy=2, num_ctas=2)
def options(x, B: ct.Constant[int] = 128, SCALE: ct.Constant[float] = 0.25, FAST: ct.Constant[bool] = True):
    t = ct.load(x, (0,), (B,))
    if FAST:
        t = t * SCALE
    ct.store(x, (0,), t)


# TUNE0-LABEL: tile.kernel @tuned
# TUNE0-SAME: constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}
# TUNE0-SAME: occupancy = 1 : i32
# TUNE0-SAME: tile.autotune_config = 0 : i32, tile.autotune_configs = [{BN = 64 : i64, occupancy = 1 : i64}, {BN = 128 : i64, occupancy = 2 : i64}], tile.autotune_key = ["M", "a.dtype"]
# TUNE0: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
# TUNE0: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
# TUNE1: constants = {BK = 32 : i64, BM = 64 : i64, BN = 128 : i64}
# TUNE1-SAME: occupancy = 2 : i32
# TUNE1: tile.mma {{.*}} : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
# TUNEC: constants = {BK = 32 : i64, BM = 64 : i64, BN = 16 : i64}
@ct.autotune(configs=[dict(BN=64, occupancy=1), dict(BN=128, occupancy=2)], key=["M", "a.dtype"])
@ct.kernel
def tuned(a, b, c, BN: ct.Constant[int], BM: ct.Constant[int] = 64, BK: ct.Constant[int] = 32):
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (i, k), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (k, j), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    extra = ct.load(a, (i, 0), (BM, BK)) @ ct.load(b, (0, j), (BK, BN))
    ct.store(c, (i, j), acc + extra)


# DEBUG-LABEL: tile.kernel @debug
# DEBUG: tile.print "block %d value %f\0A", %{{.*}}, %arg1 : i32, f32
# DEBUG: tile.print "%f %d\0A", %{{.*}}, %{{.*}} : tensor<8xf32>, i32
# DEBUG: %[[C:.*]] = arith.cmpf ogt, %arg1
# DEBUG: tile.assert %[[C]], "eps must be positive" : i1
# DEBUG: tile.assert %{{.*}}, "assertion failed" : tensor<8xi1>
@ct.kernel
def debug(x, eps):
    ct.printf("block %d value %f\n", ct.bid(0), eps)
    t = ct.load(x, (0,), (8,))
    ct.print(t, 3)
    assert eps > 0.0, "eps must be positive"
    assert t >= 0.0
    assert 1 + 1 == 2


# LIST: options: B(const) SCALE(const) FAST(const) x
# LIST: tuned: BN(const) BM(const) BK(const) a b c [2 autotune configs]
# LIST: debug: x eps
