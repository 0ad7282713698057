# Kernels defined in factory functions (as NVIDIA's nvfp4 sample does): a @ct.kernel function
# nested directly in a top-level def is a kernel named "factory.kernel" (or by its plain name
# when no other factory defines one so named). The factory's parameters and locals the kernel
# uses are its constants (--const); locals computed from constants before the kernel's
# definition get their value from the factory; the rest of its body is host code, set aside.
# RUN: tile-cc %s --kernel make_scale.scale --const factor=2.5 --const BLOCK=16 --arg x=f32:1 --arg y=f32:1 --emit=tile -o - | FileCheck %s
# RUN: tile-cc %s --kernel scale --const factor=2.5 --const BLOCK=16 --arg x=f32:1 --arg y=f32:1 --emit=tile -o - | FileCheck %s
# RUN: tile-cc %s --kernel make_scale.scale --const factor=2.5 --const BLOCK=16 --const offset=7 --arg x=f32:1 --arg y=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=GIVEN
# RUN: tile-cc %s --list-kernels | FileCheck %s --check-prefix=LIST
# RUN: not tile-cc %s --kernel make_scale.scale --const factor=2.5 --arg x=f32:1 --arg y=f32:1 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%s
# RUN: not tile-cc %s --kernel make_shift.shift --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HOSTLOCAL -DFILE=%s
# RUN: not tile-cc %s --kernel add_one --const n=4 --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
# RUN: tile-cc %s --kernel first.add_one --const n=4 --arg x=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=FIRST
# RUN: tile-run %s --kernel make_scale.scale --const factor=2.0 --const BLOCK=4 --grid 2 --array x=f32:8:iota --array y=f32:8 --print y | FileCheck %s --check-prefix=OUT
import cuda.tile as ct
import numpy as np


def make_scale(factor, BLOCK, unused=3):
    if BLOCK <= 0:
        raise ValueError(f"BLOCK must be positive, not {BLOCK}")
    offset = BLOCK // 4 + 1
    table = [i * i for i in range(BLOCK)]

    @ct.kernel
    def scale(x, y):
        i = ct.bid(0)
        t = ct.load(x, index=(i,), shape=(BLOCK,))
        ct.store(y, index=(i,), tile=t * factor + offset)

    return scale


# The factory's constants are folded into the kernel, and recorded on it.
# CHECK: tile.kernel @scale(%arg0: !tile.array<?xf32>, %arg1: !tile.array<?xf32>) attributes {constants = {BLOCK = 16 : i64, factor = 2.500000e+00 : f64, offset = 5 : i64}}
# CHECK: tile.load %arg0[{{.*}}] : !tile.array<?xf32>[i32] -> tensor<16xf32>
# CHECK: arith.constant dense<2.500000e+00> : tensor<16xf32>
# CHECK: arith.constant dense<5.000000e+00> : tensor<16xf32>
# GIVEN: arith.constant dense<7.000000e+00> : tensor<16xf32>

# LIST: make_scale.scale: factor(const) BLOCK(const) offset(const) x y
# LIST-NEXT: make_shift.shift: amount(const) x
# LIST-NEXT: first.add_one: n(const) x
# LIST-NEXT: second.add_one: n(const) x
# LIST-NEXT: make_tuned.copy: occupancy(const) x y
# LIST-NOT: host_helper

# MISSING: [[FILE]]:19:24: error: kernel 'make_scale.scale' needs a value for 'BLOCK', a parameter of its factory 'make_scale' (pass --const BLOCK=VALUE)
# MISSING-NOT: offset

# HOSTLOCAL: [[FILE]]:62:5: error: kernel 'make_shift.shift' needs a value for 'amount', which its factory 'make_shift' computes in host code (pass --const amount=VALUE)

# AMBIGUOUS: error: kernel name 'add_one' is ambiguous in {{.*}}: name one of first.add_one, second.add_one

# FIRST: tile.kernel @add_one(%arg0: !tile.array<?xf32>) attributes {constants = {n = 4 : i64}}

# x = 0..7, BLOCK = 4 (offset 2): y = 2x + 2
# OUT: [2, 4, 6, 8, 10, 12, 14, 16]


def make_shift(values):
    amount = np.asarray(values).sum()

    @ct.kernel
    def shift(x):
        ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(4,)) + amount)

    return shift


def first(n):
    @ct.kernel
    def add_one(x):
        ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(n,)) + 1)

    return add_one


def second(n):
    @ct.kernel
    def add_one(x):
        ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(n,)) + 2)

    return add_one


def host_helper(n):
    def inner(v):
        return v * n

    return inner


if __name__ == "__main__":
    kern = make_scale(2.0, 16)


# Kernel options from the factory's arguments (TileGym's nvfp4: @ct.kernel(occupancy=occupancy)).
# RUN: tile-cc %s --kernel make_tuned.copy --const occupancy=3 --arg x=f32:1 --arg y=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=OPTION
# RUN: not tile-cc %s --kernel make_tuned.copy --arg x=f32:1 --arg y=f32:1 2>&1 | FileCheck %s --check-prefix=OPTION-MISSING
# OPTION: tile.kernel @copy
# OPTION-SAME: occupancy = 3 : i32
# OPTION-MISSING: error: kernel 'make_tuned.copy' needs a value for 'occupancy', a parameter of its factory 'make_tuned' (pass --const occupancy=VALUE)
def make_tuned(occupancy):
    @ct.kernel(occupancy=occupancy)
    def copy(x, y):
        ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(8,)))

    return copy
