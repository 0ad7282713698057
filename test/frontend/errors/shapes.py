# Shape errors: tile dimensions that are not powers of two, ranks that do not match, shapes that
# do not broadcast, matrix products, axes and sub-tiles out of range.
# RUN: not tile-cc %s --kernel load_pow2 --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=LOAD --strict-whitespace
# RUN: not tile-cc %s --kernel const_pow2 --arg x=f32:2 --const TM=48 2>&1 | FileCheck %s --check-prefix=CONST
# RUN: not tile-cc %s --kernel full_pow2 --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=FULL
# RUN: not tile-cc %s --kernel zero_dim --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: not tile-cc %s --kernel reshape_pow2 --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: not tile-cc %s --kernel reshape_size --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=RESHAPESIZE
# RUN: not tile-cc %s --kernel reshape_infer --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INFER
# RUN: not tile-cc %s --kernel reshape_two_infer --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INFER2
# RUN: not tile-cc %s --kernel arange_pow2 --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ARANGE
# RUN: not tile-cc %s --kernel index_rank --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=INDEXRANK
# RUN: not tile-cc %s --kernel shape_rank --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=SHAPERANK
# RUN: not tile-cc %s --kernel store_rank --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=STORERANK
# RUN: not tile-cc %s --kernel broadcast --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=BCAST --strict-whitespace
# RUN: not tile-cc %s --kernel broadcast_to --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=BCASTTO
# RUN: not tile-cc %s --kernel mma_k --arg x=f16:2 2>&1 | FileCheck %s --check-prefix=MMAK
# RUN: not tile-cc %s --kernel mma_acc --arg x=f16:2 2>&1 | FileCheck %s --check-prefix=MMAACC
# RUN: not tile-cc %s --kernel mma_rank --arg x=f16:1 2>&1 | FileCheck %s --check-prefix=MMARANK
# RUN: not tile-cc %s --kernel matmul_k --arg x=f16:2 2>&1 | FileCheck %s --check-prefix=MATMUL
# RUN: not tile-cc %s --kernel reduce_axis --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=REDUCE
# RUN: not tile-cc %s --kernel scan_axis --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=SCAN
# RUN: not tile-cc %s --kernel expand_axis --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=EXPAND
# RUN: not tile-cc %s --kernel permute_axes --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=PERMUTE
# RUN: not tile-cc %s --kernel cat_not_tuple --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=CAT
# RUN: not tile-cc %s --kernel cat_rank --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=CATRANK
# RUN: not tile-cc %s --kernel cat_dims --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=CATDIMS
# RUN: not tile-cc %s --kernel extract_pow2 --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=EXTRACT
# RUN: not tile-cc %s --kernel extract_range --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=EXTRACTRANGE
# RUN: not tile-cc %s --kernel extract_rank --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=EXTRACTRANK
# RUN: not tile-cc %s --kernel subscript_int --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=SUBSCRIPT
# RUN: not tile-cc %s --kernel subscript_many --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=SUBSCRIPTMANY
# RUN: not tile-cc %s --kernel shape_index --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=SHAPEINDEX
# RUN: not tile-cc %s --kernel tuple_index --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=TUPLEINDEX
# RUN: not tile-cc %s --kernel order_perm --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=ORDER
import cuda.tile as ct


# LOAD: {{.*}}shapes.py:[[@LINE+6]]:34: error: the tile shape has dimension 24, which is not a power of two (tile dimensions must be powers of two)
# LOAD-NEXT: {{^}}    t = ct.load(x, index=(0, 0), shape=(16, 24))
# LOAD-NEXT: {{^}}                                 ^~~~~~~~~~~~~~
# LOAD: 1 error generated.
@ct.kernel
def load_pow2(x):
    t = ct.load(x, index=(0, 0), shape=(16, 24))


# The shape comes from a constant given on the command line (TM=48).
# CONST: {{.*}}shapes.py:[[@LINE+4]]:34: error: the tile shape has dimension 48, which is not a power of two (tile dimensions must be powers of two)
# CONST: 1 error generated.
@ct.kernel
def const_pow2(x, TM: ct.Constant[int]):
    a = ct.load(x, index=(0, 0), shape=(TM, 32))


# FULL: {{.*}}shapes.py:[[@LINE+4]]:17: error: the shape has dimension 12, which is not a power of two (tile dimensions must be powers of two)
# FULL: 1 error generated.
@ct.kernel
def full_pow2(x):
    t = ct.full((12,), 0.0, dtype=ct.float32)


# ZERO: {{.*}}shapes.py:[[@LINE+4]]:18: error: the shape has dimension 0, which is not a power of two (tile dimensions must be powers of two)
# ZERO: 1 error generated.
@ct.kernel
def zero_dim(x):
    t = ct.zeros((16, 0), dtype=ct.float32)


# RESHAPE: {{.*}}shapes.py:[[@LINE+5]]:23: error: the shape has dimension 3, which is not a power of two (tile dimensions must be powers of two)
# RESHAPE: 1 error generated.
@ct.kernel
def reshape_pow2(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.reshape(t, (3, -1))


# RESHAPESIZE: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.reshape: cannot reshape (16, 32) (512 elements) to (8, 8) (64 elements)
# RESHAPESIZE: 1 error generated.
@ct.kernel
def reshape_size(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.reshape(a, (8, 8))


# INFER: {{.*}}shapes.py:[[@LINE+5]]:23: error: the -1 dimension cannot be inferred: tile<16xf32> has 16 elements, which is not a multiple of 32
# INFER: 1 error generated.
@ct.kernel
def reshape_infer(x):
    a = ct.load(x, index=(0,), shape=(16,))
    b = ct.reshape(a, (-1, 32))


# INFER2: {{.*}}shapes.py:[[@LINE+5]]:19: error: the shape can have only one -1 (inferred) dimension
# INFER2: 1 error generated.
@ct.kernel
def reshape_two_infer(x):
    a = ct.load(x, index=(0,), shape=(16,))
    b = a.reshape((-1, -1))


# ARANGE: {{.*}}shapes.py:[[@LINE+4]]:19: error: the length has dimension 10, which is not a power of two (tile dimensions must be powers of two)
# ARANGE: 1 error generated.
@ct.kernel
def arange_pow2(x):
    a = ct.arange(10)


# INDEXRANK: {{.*}}shapes.py:[[@LINE+4]]:20: error: the index has 1 entry but the array has rank 2
# INDEXRANK: 1 error generated.
@ct.kernel
def index_rank(x):
    t = ct.load(x, index=(0,), shape=(16, 16))


# SHAPERANK: {{.*}}shapes.py:[[@LINE+4]]:34: error: the tile shape has rank 1 but the array has rank 2
# SHAPERANK: 1 error generated.
@ct.kernel
def shape_rank(x):
    t = ct.load(x, index=(0, 0), shape=(16,))


# STORERANK: {{.*}}shapes.py:[[@LINE+4]]:5: error: ct.store: stored tile 'tensor<16x16xf32>' has rank 2 but the array has rank 1
# STORERANK: 1 error generated.
@ct.kernel
def store_rank(x):
    ct.store(x, index=(0,), tile=ct.zeros((16, 16), dtype=ct.float32))


# BCAST: {{.*}}shapes.py:[[@LINE+14]]:11: error: shapes do not broadcast: tile<16x32xf32> and tile<16x16xf32> differ in dimension 1 (32 vs 16)
# BCAST-NEXT: {{^}}    c = a + b
# BCAST-NEXT: {{^}}          ^
# BCAST: {{.*}}shapes.py:[[@LINE+11]]:9: note: left operand here
# BCAST-NEXT: {{^}}    c = a + b
# BCAST-NEXT: {{^}}        ^
# BCAST: {{.*}}shapes.py:[[@LINE+8]]:13: note: right operand here
# BCAST-NEXT: {{^}}    c = a + b
# BCAST-NEXT: {{^}}            ^
# BCAST: 1 error generated.
@ct.kernel
def broadcast(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.load(x, index=(0, 0), shape=(16, 16))
    c = a + b


# BCASTTO: {{.*}}shapes.py:[[@LINE+5]]:9: error: cannot broadcast tile<16x32xf32> to the shape given
# BCASTTO: 1 error generated.
@ct.kernel
def broadcast_to(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.broadcast_to(a, (16, 64))


# MMAK: {{.*}}shapes.py:[[@LINE+6]]:9: error: ct.mma: contraction sizes differ: a is (16, 32) (K = 32) but b is (16, 32) (K = 16)
# MMAK: 1 error generated.
@ct.kernel
def mma_k(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.load(x, index=(0, 0), shape=(16, 32))
    c = ct.mma(a, b, ct.zeros((16, 32), dtype=ct.float32))


# MMAACC: {{.*}}shapes.py:[[@LINE+6]]:9: error: ct.mma: accumulator has shape (16, 32) but a * b has M = 16, N = 64
# MMAACC: 1 error generated.
@ct.kernel
def mma_acc(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.load(x, index=(0, 0), shape=(32, 64))
    c = ct.mma(a, b, ct.zeros((16, 32), dtype=ct.float32))


# MMARANK: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.mma: operands must all be 2-D (MxK, KxN, MxN) or all 3-D (batched), got ranks 1, 1, 1
# MMARANK: 1 error generated.
@ct.kernel
def mma_rank(x):
    a = ct.load(x, index=(0,), shape=(16,))
    c = ct.mma(a, a, ct.zeros((16,), dtype=ct.float32))


# MATMUL: {{.*}}shapes.py:[[@LINE+5]]:9: error: '@': contraction sizes differ: a is (16, 32) (K = 32) but b is (16, 32) (K = 16)
# MATMUL: 1 error generated.
@ct.kernel
def matmul_k(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = a @ a


# REDUCE: {{.*}}shapes.py:[[@LINE+5]]:19: error: axis 2 is out of range for a tile of rank 2
# REDUCE: 1 error generated.
@ct.kernel
def reduce_axis(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    s = ct.sum(a, axis=2)


# SCAN: {{.*}}shapes.py:[[@LINE+5]]:22: error: axis -2 is out of range for a tile of rank 1
# SCAN: 1 error generated.
@ct.kernel
def scan_axis(x):
    a = ct.load(x, index=(0,), shape=(16,))
    s = ct.cumsum(a, axis=-2)


# EXPAND: {{.*}}shapes.py:[[@LINE+5]]:27: error: axis 5 is out of range for inserting into a tile of rank 2
# EXPAND: 1 error generated.
@ct.kernel
def expand_axis(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.expand_dims(a, 5)


# PERMUTE: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.permute: permutation [0, 2] is not a permutation of 0..1
# PERMUTE: 1 error generated.
@ct.kernel
def permute_axes(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.permute(a, (0, 2))


# CAT: {{.*}}shapes.py:[[@LINE+5]]:16: error: ct.cat takes a tuple of two tiles
# CAT: 1 error generated.
@ct.kernel
def cat_not_tuple(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    u = ct.cat(a, axis=0)


# CATRANK: {{.*}}shapes.py:[[@LINE+5]]:16: error: ct.cat: tile<16x32xf32> and tile<16xf32> differ in rank
# CATRANK: 1 error generated.
@ct.kernel
def cat_rank(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.cat((a, ct.zeros((16,), dtype=ct.float32)), axis=0)


# CATDIMS: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.cat: operand shapes (16, 32) and (8, 32) differ in dimension 0, which is not the concatenation axis
# CATDIMS: 1 error generated.
@ct.kernel
def cat_dims(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    b = ct.cat((a, ct.zeros((8, 32), dtype=ct.float32)), axis=1)


# EXTRACT: {{.*}}shapes.py:[[@LINE+5]]:37: error: the sub-tile shape has dimension 24, which is not a power of two (tile dimensions must be powers of two)
# EXTRACT: 1 error generated.
@ct.kernel
def extract_pow2(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    e = ct.extract(a, index=(0, 0), shape=(16, 24))


# EXTRACTRANGE: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.extract: index 4 in dimension 0 is out of range: the tile holds 2 sub-tiles there
# EXTRACTRANGE: 1 error generated.
@ct.kernel
def extract_range(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    e = ct.extract(a, index=(4, 0), shape=(8, 32))


# EXTRACTRANK: {{.*}}shapes.py:[[@LINE+5]]:9: error: ct.extract: expected 1 indices, got 2
# EXTRACTRANK: 1 error generated.
@ct.kernel
def extract_rank(x):
    a = ct.load(x, index=(0,), shape=(16,))
    e = ct.extract(a, index=(0, 0), shape=(8,))


# SUBSCRIPT: {{.*}}shapes.py:[[@LINE+5]]:11: error: tiles can only be indexed with ':' and None (to add an axis); use ct.extract for sub-tiles
# SUBSCRIPT: 1 error generated.
@ct.kernel
def subscript_int(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    e = a[0, :]


# SUBSCRIPTMANY: {{.*}}shapes.py:[[@LINE+5]]:14: error: too many indices for tile<16xf32>
# SUBSCRIPTMANY: 1 error generated.
@ct.kernel
def subscript_many(x):
    a = ct.load(x, index=(0,), shape=(16,))
    b = a[:, :, None]


# SHAPEINDEX: {{.*}}shapes.py:[[@LINE+4]]:17: error: tuple index 2 is out of range for a tuple of 1 element
# SHAPEINDEX: 1 error generated.
@ct.kernel
def shape_index(x):
    d = x.shape[2]


# TUPLEINDEX: {{.*}}shapes.py:[[@LINE+5]]:17: error: tuple index -2 is out of range for a tuple of 1 element
# TUPLEINDEX: 1 error generated.
@ct.kernel
def tuple_index(x):
    a = ct.load(x, index=(0,), shape=(16,))
    n = a.shape[-2]


# ORDER: {{.*}}shapes.py:[[@LINE+4]]:9: error: ct.load: order [1, 1] is not a permutation of 0..1
# ORDER: 1 error generated.
@ct.kernel
def order_perm(x):
    a = ct.load(x, index=(0, 0), shape=(16, 32), order=(1, 1))
