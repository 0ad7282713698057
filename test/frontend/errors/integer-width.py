# Integer widths never wrap silently: loop bounds and steps beyond 32 bits get a 64-bit
# induction variable (also when the last increment would pass 2^31), Python numbers that do
# not fit a narrower dtype are errors at the number, and --config needs @ct.autotune.
# RUN: tile-cc %s --kernel big_range --arg x=f32:1 | FileCheck %s --check-prefix=BIG
# RUN: tile-cc %s --kernel big_step --arg x=f32:1 | FileCheck %s --check-prefix=STEP
# RUN: tile-cc %s --kernel near_limit --arg x=f32:1 | FileCheck %s --check-prefix=NEAR
# RUN: tile-cc %s --kernel small_range --arg x=f32:1 | FileCheck %s --check-prefix=SMALL
# RUN: not tile-cc %s --kernel int8_overflow --arg x=i8:1 2>&1 | FileCheck %s --check-prefix=INT8
# RUN: not tile-cc %s --kernel float_to_int --arg x=i32:1 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not tile-cc %s --kernel small_range --arg x=f32:1 --config 99 2>&1 | FileCheck %s --check-prefix=CONFIG
# RUN: tile-cc %s --kernel small_range --arg x=f32:1 --config 0 | FileCheck %s --check-prefix=SMALL
import cuda.tile as ct


# BIG: %[[LO:.*]] = arith.constant 0 : i64
# BIG: %[[HI:.*]] = arith.constant 1000000000000 : i64
# BIG: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} : i64
@ct.kernel
def big_range(x):
    t = ct.load(x, (0,), (16,))
    for i in range(10**12):
        t = t + 1.0
    ct.store(x, (0,), t)


# STEP: %[[STEP:.*]] = arith.constant 4294967296 : i64
# STEP: scf.for %{{.*}} step %[[STEP]] iter_args({{.*}} : i64
@ct.kernel
def big_step(x):
    t = ct.load(x, (0,), (16,))
    for i in range(0, 10**10, 2**32):
        t = t + 1.0
    ct.store(x, (0,), t)


# 2^31 - 2 fits in i32, but i + 3 after the last iteration does not.
# NEAR: scf.for %{{.*}} : i64
@ct.kernel
def near_limit(x):
    t = ct.load(x, (0,), (16,))
    for i in range(0, 2147483646, 3):
        t = t + 1.0
    ct.store(x, (0,), t)


# SMALL: scf.for %{{.*}} : i32
@ct.kernel
def small_range(x):
    t = ct.load(x, (0,), (16,))
    for i in range(1000):
        t = t + 1.0
    ct.store(x, (0,), t)


# INT8: integer-width.py:[[@LINE+4]]:13: error: int 300 does not fit in i8 (range -128 to 127)
@ct.kernel
def int8_overflow(x):
    t = ct.load(x, (0,), (16,))
    t = t + 300
    ct.store(x, (0,), t)


# FLOAT: integer-width.py:[[@LINE+3]]:24: error: float 1e+20 does not fit in i32 (range -2147483648 to 2147483647)
@ct.kernel
def float_to_int(x):
    t = ct.full((16,), 1e20, dtype=ct.int32)
    ct.store(x, (0,), t)

# CONFIG: error: configuration 99 was requested but kernel 'small_range' has no @ct.autotune configs
