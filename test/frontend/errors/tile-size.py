# Tiles are bounded (2^20 elements) where they are made, with a located error: shapes whose
# element count overflows 64 bits (which used to compile to an empty kernel), large-but-legal
# shapes (which used to exhaust the compiler's memory), broadcasts and reshapes. Code
# generation then bounds each thread's share of a tile.
# RUN: not tile-cc %s --kernel overflow --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=OVERFLOW
# RUN: not tile-cc %s --kernel huge --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=HUGE
# RUN: not tile-cc %s --kernel full --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=FULL
# RUN: not tile-cc %s --kernel just_over --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=JUST-OVER
# RUN: not tile-cc %s --kernel broadcast --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=BROADCAST
# RUN: not tile-cc %s --kernel reshape --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: tile-cc %s --kernel largest --arg x=f32:2 | FileCheck %s --check-prefix=LARGEST
# RUN: not tile-cc %s --kernel largest --arg x=f32:2 --emit=gpu --num-threads 128 2>&1 | FileCheck %s --check-prefix=REGS
# RUN: tile-cc %s --kernel largest --arg x=f32:2 --emit=gpu --num-threads 256 | FileCheck %s --check-prefix=REGS256
import cuda.tile as ct


# OVERFLOW: tile-size.py:[[@LINE+3]]:28: error: the tile shape (4294967296, 4294967296) has more than 2^63 elements; a tile holds at most 1048576 (2^20): split the work into smaller tiles
@ct.kernel
def overflow(x):
    t = ct.load(x, (0, 0), (1 << 32, 1 << 32))
    ct.store(x, (0, 0), t)


# HUGE: tile-size.py:[[@LINE+3]]:28: error: the tile shape (1048576, 1048576) has 1099511627776 elements; a tile holds at most 1048576 (2^20)
@ct.kernel
def huge(x):
    t = ct.load(x, (0, 0), (1 << 20, 1 << 20))
    ct.store(x, (0, 0), t)


# FULL: tile-size.py:[[@LINE+3]]:17: error: the shape (4096, 4096) has 16777216 elements; a tile holds at most 1048576 (2^20)
@ct.kernel
def full(x):
    t = ct.full((4096, 4096), 1.0, dtype=ct.float32)
    ct.store(x, (0, 0), t)


# One element count above the limit (twice `largest`) is refused by the front end itself.
# JUST-OVER: tile-size.py:[[@LINE+3]]:17: error: the shape (2048, 1024) has 2097152 elements; a tile holds at most 1048576 (2^20)
@ct.kernel
def just_over(x):
    t = ct.full((2048, 1024), 1.0, dtype=ct.float32)
    ct.store(x, (0, 0), t)


# BROADCAST: tile-size.py:[[@LINE+5]]:11: error: the broadcast result (4096, 4096) has 16777216 elements; a tile holds at most 1048576 (2^20)
@ct.kernel
def broadcast(x):
    a = ct.load(x, (0, 0), (4096, 1))
    b = ct.load(x, (0, 0), (1, 4096))
    c = a + b
    ct.store(x, (0, 0), c)


# RESHAPE: tile-size.py:[[@LINE+4]]:23: error: the shape (4096, 4096) has 16777216 elements; a tile holds at most 1048576 (2^20)
@ct.kernel
def reshape(x):
    a = ct.load(x, (0, 0), (64, 64))
    c = ct.reshape(a, (4096, 4096))
    ct.store(x, (0, 0), c)


# The largest tile compiles to tile IR; at 128 threads each thread would hold 8192 registers.
# LARGEST: tile.load {{.*}} -> tensor<1024x1024xf32>
# REGS: tile-size.py:[[@LINE+5]]:9: error: tile 1024x1024xf32 needs 8192 32-bit registers per thread at 128 threads; the limit is 4096 (use smaller tiles or more threads)
# At 256 threads each thread holds 4096 registers: the limit exactly, so it lowers.
# REGS256: llvm.func @largest__tile({{.*}}nvvm.maxntid = array<i32: 256, 1, 1>
@ct.kernel
def largest(x):
    t = ct.load(x, (0, 0), (1024, 1024))
    ct.store(x, (0, 0), t)
