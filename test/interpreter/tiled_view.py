# cuTile's TiledView (TileGym accumulates with tiled_view(...).atomic_store_add): load and store
# a tile at a tile index (padding as the view says, ragged edges masked), atomic_store_<op> at
# the tile's element indices (out-of-bounds elements skipped), num_tiles, the view's dtype,
# tile_shape and traversal_steps; interpreted, compiled to PTX, and the errors.
# RUN: tile-run %s --kernel copy_add --grid 3,2 --array x=f32:10x16:iota --array y=f32:10x16 --array acc=f32:4x8 --array n=i32:3 --print y --print acc --print n | FileCheck %s --check-prefix=VALUES
# RUN: tile-cc %s --kernel copy_add --arg x=f32:2 --arg y=f32:2 --arg acc=f32:2 --arg n=i32:1 --emit=tile | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel copy_add --arg x=f32:2 --arg y=f32:2 --arg acc=f32:2 --arg n=i32:1 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-run %s --kernel maxed --grid 4 --array x=i32:16:iota --array m=i32:4 --print m | FileCheck %s --check-prefix=MAX
# RUN: tile-run %s --kernel fill --grid 2 --array x=f32:8:iota --array y=bf16:16 --print y | FileCheck %s --check-prefix=FILL
# RUN: not tile-cc %s --kernel narrow --arg x=f32:1 --arg y=bf16:1 2>&1 | FileCheck %s --check-prefix=NARROW
# RUN: not tile-cc %s --kernel bad_rank --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not tile-cc %s --kernel bad_steps --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=STEPS
# RUN: not tile-cc %s --kernel bad_padding --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=PADDING
# RUN: not tile-cc %s --kernel bad_axis --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=AXIS
# RUN: not tile-cc %s --kernel bad_index --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=INDEX
import cuda.tile as ct


# VALUES: y: float32 (10, 16)
# VALUES-NEXT: {{\[}}[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30],
# VALUES: [288, 290, 292, 294, 296, 298, 300, 302, 304, 306, 308, 310, 312, 314, 316, 318]]
# Every block adds its tile into tile (0, 0) of acc: acc[0][0] = 0 + 8 + 64 + 72 + 128 + 136;
# row 2 takes rows 2, 6 and 10 of x, and row 10 lies past the edge (zero padding).
# VALUES: acc: float32 (4, 8)
# VALUES-NEXT: {{\[}}[408, 414, 420, 426, 432, 438, 444, 450],
# VALUES-NEXT: [504, 510, 516, 522, 528, 534, 540, 546],
# VALUES-NEXT: [272, 276, 280, 284, 288, 292, 296, 300],
# VALUES-NEXT: [336, 340, 344, 348, 352, 356, 360, 364]]
# num_tiles: 3 along rows (10 / 4 rounded up), 2 along columns; traversal_steps is the shape.
# VALUES: n: int32 (3,)
# VALUES-NEXT: [3, 2, 8]
# IR: tile.load {{.*}} padding = zero {{.*}} -> tensor<4x8xf32>
# IR: tile.store {{.*}} : tensor<4x8xf32>
# IR: tile.atomic_add
# PTX: atom.global.add.f32
@ct.kernel
def copy_add(x, y, acc, n):
    tv = x.tiled_view((4, 8), padding_mode=ct.PaddingMode.ZERO)
    t = tv.load((ct.bid(0), ct.bid(1)))
    y.tiled_view((4, 8)).store((ct.bid(0), ct.bid(1)), t * 2.0)
    acc.tiled_view((4, 8)).atomic_store_add((0, 0), t)
    if ct.bid(0) == 0 and ct.bid(1) == 0:
        steps = tv.traversal_steps
        counts = ct.full((1,), tv.num_tiles(0), dtype=ct.int32)
        ct.store(n, (0,), counts)
        ct.store(n, (1,), ct.full((1,), tv.num_tiles(-1), dtype=ct.int32))
        ct.store(n, (2,), ct.full((1,), tv.tile_shape[1] * (steps[0] // 4), dtype=tv.dtype).astype(ct.int32))


# MAX: m: int32 (4,)
# MAX-NEXT: [12, 13, 14, 15]
@ct.kernel
def maxed(x, m):
    m.tiled_view(4).atomic_store_max(0, x.tiled_view(4).load(ct.bid(0)))


# RANK: tiled_view: a tile_shape of rank 1 for an array of rank 2 (one extent per array dimension)
@ct.kernel
def bad_rank(x):
    x.tiled_view(4)


# STEPS: tiled_view: traversal_steps tuple (2,) other than the tile shape (overlapping or spaced tiles) are not supported yet
@ct.kernel
def bad_steps(x):
    x.tiled_view((4,), traversal_steps=(2,))


# PADDING: tiled_view: padding_mode must be a ct.PaddingMode member, got int 0
@ct.kernel
def bad_padding(x):
    x.tiled_view((4,), padding_mode=0)


# AXIS: num_tiles: axis must be a compile-time int in [-1, 1), got int 1
@ct.kernel
def bad_axis(x):
    x.tiled_view((4,)).num_tiles(1)


# INDEX: atomic_store_add: expected 2 tile indices, got 1
@ct.kernel
def bad_index(x):
    x.tiled_view((4, 4)).atomic_store_add(0, ct.full((4, 4), 1.0, dtype=ct.float32))


# A number stored through a view fills a tile of the array's dtype (bf16 here), a tile
# broadcasts to the tile shape, and a scalar update adds to every element of the tile.
# FILL: y: bfloat16 (16,)
# FILL-NEXT: [2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 0.25, 0.25, 0.25, 0.25, 4.25, 4.25, 4.25, 4.25]
@ct.kernel
def fill(x, y):
    tv = y.tiled_view(4)
    tv.store(ct.bid(0), 1.5)
    tv.store(ct.bid(0) + 2, (x.tiled_view(1).load(ct.bid(0) * 4) + 0.25).astype(ct.bfloat16))
    tv.atomic_store_add(ct.bid(0), 1.0)


# A wider tile into a narrower array is refused, as ct.store refuses it.
# NARROW: ct.store: the tile has dtype f32 but the array has dtype bf16, which it does not widen to
@ct.kernel
def narrow(x, y):
    y.tiled_view(4).store(0, x.tiled_view(4).load(0))
