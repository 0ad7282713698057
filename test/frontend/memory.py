# Loads, stores and element-wise memory access.
# RUN: tile-cc %s --kernel copy --arg x=f32:2 --arg y=f32:2 --const BM=64 --const BN=32 | FileCheck %s --check-prefix=COPY
# RUN: tile-cc %s --kernel hints --arg x=bf16:2 --arg y=bf16:2 | FileCheck %s --check-prefix=HINTS
# RUN: tile-cc %s --kernel elements --arg x=f32:1 --arg idx=i32:1 --arg out=f32:2 | FileCheck %s --check-prefix=ELEM
# RUN: tile-cc %s --kernel sizes --arg x=f16:3 --arg n=i64:0 --arg out=i32:1 | FileCheck %s --check-prefix=SIZES
import cuda.tile as ct


# COPY-LABEL: tile.kernel @copy(%arg0: !tile.array<?x?xf32>, %arg1: !tile.array<?x?xf32>)
# COPY: %[[I:.*]] = tile.bid 0
# COPY: %[[J:.*]] = tile.bid 1
# COPY: %[[T:.*]] = tile.load %arg0[%[[I]], %[[J]]] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<64x32xf32>
# COPY: tile.store %[[T]], %arg1[%[[I]], %[[J]]] : tensor<64x32xf32>, !tile.array<?x?xf32>[i32, i32]
@ct.kernel
def copy(x, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, j), tile=t)


# HINTS-LABEL: tile.kernel @hints
# HINTS: tile.load %arg0[%{{.*}}, %{{.*}}] padding = neg_inf order = [1, 0] {allow_tma = false, latency = 4 : i32} : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x32xbf16>
# HINTS: tile.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] order = [1, 0] {allow_tma = true, latency = 2 : i32}
@ct.kernel
def hints(x, y):
    i = ct.bid(0)
    t = ct.load(x, (i, 0), (16, 32), order=(1, 0), padding_mode=ct.PaddingMode.NEG_INF,
                latency=4, allow_tma=False)
    ct.store(y, (i, 0), t, order=(1, 0), latency=2, allow_tma=True)


# ELEM-LABEL: tile.kernel @elements
# ELEM: %[[R:.*]] = tile.iota : tensor<128xi32>
# ELEM: %[[IDX:.*]] = tile.load %arg1
# ELEM: %[[MASK:.*]] = arith.cmpi slt, %[[IDX]]
# ELEM: %[[G:.*]] = tile.gather %arg0[%[[IDX]]] mask(%[[MASK]] : tensor<128xi1>) padding(%{{.*}} : f32) : !tile.array<?xf32>[tensor<128xi32>] -> tensor<128xf32>
# ELEM: tile.scatter %[[G]], %arg0[%[[R]]] : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
# ELEM: %[[ROWS:.*]] = tile.broadcast %{{.*}} : tensor<8x1xi32> -> tensor<8x16xi32>
# ELEM: %[[COLS:.*]] = tile.broadcast %{{.*}} : tensor<1x16xi32> -> tensor<8x16xi32>
# ELEM: tile.atomic_add %{{.*}}, %arg2[%[[ROWS]], %[[COLS]]] : tensor<8x16xf32>, !tile.array<?x?xf32>[tensor<8x16xi32>, tensor<8x16xi32>]
@ct.kernel
def elements(x, idx, out):
    r = ct.arange(128)
    i = ct.load(idx, (0,), (128,))
    g = ct.gather(x, i, mask=i < 1000, padding_value=-1.0)
    ct.scatter(x, r, g)
    rows = ct.arange(8)[:, None]
    cols = ct.arange(16)[None, :]
    old = ct.atomic_add(out, (rows, cols), 1.0)


# SIZES-LABEL: tile.kernel @sizes
# SIZES: %[[D2:.*]] = tile.dim %arg0, 2 : !tile.array<?x?x?xf16>
# SIZES: %[[NT:.*]] = arith.ceildivsi %[[D2]], %{{.*}} : i64
# SIZES: arith.trunci %[[NT]] : i64 to i32
# SIZES: arith.ceildivsi %arg1, %{{.*}} : i64
@ct.kernel
def sizes(x, n, out):
    tiles = ct.num_tiles(x, 2, (1, 1, 64))
    chunks = ct.cdiv(n, 256)
    static = ct.cdiv(1000, 64)
    ct.static_assert(static == 16, "cdiv folds at compile time")
    v = ct.full((16,), tiles + static, dtype=ct.int32)
    ct.store(out, (chunks.astype(ct.int32),), v)
