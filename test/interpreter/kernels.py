# Kernels run end to end by the interpreter (tile-run): reductions and scans on a ragged edge,
# a bf16 matmul, gather/scatter, printing, and the errors a kernel can stop with.
# RUN: tile-run %s --kernel rowstats --grid 2 --array x=f32:5x4:iota --array sums=f32:5 --array best=i32:5 --array run=f32:5x4 | FileCheck %s --check-prefix=STATS
# RUN: tile-run %s --kernel matmul --grid 2,2 --array a=bf16:3x5:ones --array b=bf16:5x3:iota --array c=f32:3x3 --print c | FileCheck %s --check-prefix=MM
# RUN: tile-run %s --kernel permute_gather --array x=i32:6:iota --array y=i32:8:full=-1 | FileCheck %s --check-prefix=GATHER
# RUN: tile-run %s --kernel show --grid 2 --array x=bf16:4:iota --scalar eps=f32:0.25 --print x | FileCheck %s --check-prefix=PRINT
# RUN: not tile-run %s --kernel show --grid 2 --array x=bf16:4:iota --scalar eps=f32:-1 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not tile-run %s --kernel divide --array x=i32:8:iota --scalar d=i32:0 2>&1 | FileCheck %s --check-prefix=DIV
# RUN: not tile-run %s --kernel divide --array x=i32:8:iota 2>&1 | FileCheck %s --check-prefix=MISSING
import cuda.tile as ct


# Rows of 4 in tiles of 4x4: block 1 covers row 4 and pads rows 5..7 with zeros, which are
# never stored. best = argmax of each row, run = cumsum along the row.
# STATS: x: float32 (5, 4)
# STATS: sums: float32 (5,)
# STATS-NEXT: [6, 22, 38, 54, 70]
# STATS: best: int32 (5,)
# STATS-NEXT: [3, 3, 3, 3, 3]
# STATS: run: float32 (5, 4)
# STATS-NEXT: {{\[\[}}0, 1, 3, 6],
# STATS:  [16, 33, 51, 70]]
@ct.kernel
def rowstats(x, sums, best, run):
    i = ct.bid(0)
    t = ct.load(x, (i, 0), (4, 4), padding_mode=ct.PaddingMode.ZERO)
    ct.store(sums, (i,), ct.sum(t, axis=1))
    ct.store(best, (i,), ct.argmax(t, axis=1))
    ct.store(run, (i, 0), ct.cumsum(t, axis=1))


# c = ones(3x5) @ iota(5x3): column j sums 3k + j for k < 5 = 30 + 5j.
# MM: c: float32 (3, 3)
# MM-NEXT: {{\[\[}}30, 35, 40],
# MM-NEXT:  [30, 35, 40],
# MM-NEXT:  [30, 35, 40]]
@ct.kernel
def matmul(a, b, c):
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((2, 2), dtype=ct.float32)
    for k in range(ct.num_tiles(a, 1, (2, 2))):
        ta = ct.load(a, (i, k), (2, 2), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (k, j), (2, 2), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (i, j), acc)


# y[k] = x[7 - k] where 7 - k is in bounds (else -5); then y[1] = 100 by a masked scatter.
# GATHER: y: int32 (8,)
# GATHER-NEXT: [-5, 100, 5, 4, 3, 2, 1, 0]
@ct.kernel
def permute_gather(x, y):
    r = ct.arange(8)
    g = ct.gather(x, 7 - r, padding_value=-5)
    ct.store(y, (0,), g)
    ct.scatter(y, r, ct.full((8,), 100, dtype=ct.int32), mask=r == 1)


# PRINT: block 0: eps 0.250
# PRINT-NEXT: [0.000000, 1.000000, 2.000000, 3.000000]
# PRINT-NEXT: block 1: eps 0.250
# PRINT-NEXT: [0.000000, 1.000000, 2.000000, 3.000000]
# PRINT-NEXT: x: bfloat16 (4,)
# PRINT-NEXT: [0, 1, 2, 3]
# ASSERT: block 0: eps -1.000
# ASSERT-NOT: block 1
# ASSERT: kernels.py:[[@LINE+5]]:5: error: assertion failed: eps must be positive (block (0, 0, 0))
@ct.kernel
def show(x, eps):
    ct.printf("block %d: eps %.3f\n", ct.bid(0), eps)
    ct.print(ct.load(x, (0,), (4,)))
    assert eps > 0.0, "eps must be positive"


# DIV: kernels.py:[[@LINE+5]]:{{[0-9]+}}: error: integer division by zero in 'arith.floordivsi' at element (0,) (block (0, 0, 0))
# MISSING: tile-run: error: no --array or --scalar for parameter 'd'
@ct.kernel
def divide(x, d):
    t = ct.load(x, (0,), (8,))
    ct.store(x, (0,), t // d)
