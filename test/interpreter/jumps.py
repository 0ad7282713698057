# while, break, continue, a kernel's early return and a run-time range() step, run by the
# interpreter; the expected values are worked out by hand in the comments.
# RUN: tile-run %s --kernel first_over --array x=f32:16:iota --array out=i32:1 --scalar limit=f32:30 --print out | FileCheck %s --check-prefix=FIRST
# RUN: tile-run %s --kernel first_over --array x=f32:16:iota --array out=i32:1 --scalar limit=f32:1000 --print out | FileCheck %s --check-prefix=NONE
# RUN: tile-run %s --kernel even_tiles --array x=f32:16:iota --array out=f32:4 --print out | FileCheck %s --check-prefix=EVEN
# RUN: tile-run %s --kernel skip_block --grid 3 --array x=f32:12:iota --array out=f32:12:full=-1 --print out | FileCheck %s --check-prefix=SKIP
# RUN: tile-run %s --kernel stop_at --array x=f32:16:iota --array out=f32:16:full=-1 --scalar stop=i32:2 --print out | FileCheck %s --check-prefix=STOP
# RUN: tile-run %s --kernel strided --grid 3 --array x=f32:28:iota --array out=f32:28 --print out | FileCheck %s --check-prefix=STRIDED
# RUN: tile-run %s --kernel triangle --array out=i32:1 --scalar n=i32:5 --print out | FileCheck %s --check-prefix=TRI
# RUN: tile-run %s --kernel countdown --array out=i32:1 --print out | FileCheck %s --check-prefix=DOWN
# RUN: not tile-run %s --kernel strided_step --array x=f32:8:iota --array out=f32:8 --scalar step=i32:0 2>&1 | FileCheck %s --check-prefix=STEP0
import cuda.tile as ct

ConstInt = ct.Constant[int]


# Tile sums of 0..15 in tiles of 4: 6, 22, 38, 54. The first over 30 is tile 2; over 1000
# none is, and the loop runs out with found = -1.
# FIRST: out: int32 (1,)
# FIRST-NEXT: [2]
# NONE: [-1]
@ct.kernel
def first_over(x, out, limit: float):
    i = 0
    found = -1
    n = ct.num_tiles(x, axis=0, shape=(4,))
    while i < n:
        if ct.sum(ct.load(x, (i,), (4,))) > limit:
            found = i
            break
        i += 1
    ct.store(out, (0,), ct.full((1,), found, dtype=ct.int32))


# Tiles 0 and 2 only: [0, 1, 2, 3] + [8, 9, 10, 11].
# EVEN: [8, 10, 12, 14]
@ct.kernel
def even_tiles(x, out):
    acc = ct.zeros((4,), dtype=ct.float32)
    for i in range(4):
        if i % 2 == 1:
            continue
        acc += ct.load(x, (i,), (4,))
    ct.store(out, (0,), acc)


# Block 1 returns before its store; its part of out keeps -1.
# SKIP: [0, 2, 4, 6, -1, -1, -1, -1, 16, 18, 20, 22]
def double(t):
    return t * 2


@ct.kernel
def skip_block(x, out):
    b = ct.bid(0)
    if b == 1:
        return
    ct.store(out, (b,), double(ct.load(x, (b,), (4,))))


# The loop stores tiles 0 and 1, then returns at i == 2: the store after the loop never runs.
# STOP: [0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1]
@ct.kernel
def stop_at(x, out, stop: int):
    for i in range(4):
        if i == stop:
            return
        ct.store(out, (i,), ct.load(x, (i,), (4,)))
    ct.store(out, (3,), ct.full((4,), 99.0, dtype=ct.float32))


# A persistent loop: 3 blocks share the 7 tiles of 28 elements (block 0: 0, 3, 6; ...).
# STRIDED: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28]
@ct.kernel
def strided(x, out, T: ConstInt = 4):
    for t in range(ct.bid(0), ct.num_tiles(x, axis=0, shape=(T,)), ct.num_blocks(0)):
        ct.store(out, (t,), ct.load(x, (t,), (T,)) + 1)


# STEP0: range() step must be positive
@ct.kernel
def strided_step(x, out, step: int):
    for t in range(0, 2, step):
        ct.store(out, (t,), ct.load(x, (t,), (4,)))


# Nested loops, break in the inner one only: 0 + 1 + 2 + 3 + 4 = 10 for n = 5.
# TRI: [10]
@ct.kernel
def triangle(out, n: int):
    count = 0
    for i in range(n):
        j = 0
        while True:
            if j == i:
                break
            count += 1
            j += 1
    ct.store(out, (0,), ct.full((1,), count, dtype=ct.int32))


# range(10, 0, -3) is 10, 7, 4, 1; the break at 4 leaves 10 + 7 = 17.
# DOWN: [17]
@ct.kernel
def countdown(out):
    total = 0
    for i in range(10, 0, -3):
        if i < 5:
            break
        total += i
    ct.store(out, (0,), ct.full((1,), total, dtype=ct.int32))
