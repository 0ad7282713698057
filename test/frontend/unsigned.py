# Unsigned integers (ct.uint8 ... ct.uint64): arrays keep their ui type (and the launch
# metadata's "uint32"), tiles are signless once built, and each operation whose result depends
# on the signedness takes its unsigned form (IRGenUnsigned.cpp).
# RUN: tile-cc %s --kernel ops --arg a=u32:1 --arg b=u8:1 --arg out=u32:1 --arg f=f32:1 --emit=tile | FileCheck %s
# RUN: not tile-cc %s --kernel mixed --arg a=u32:1 --arg y=i32:1 2>&1 | FileCheck %s --check-prefix=MIXED
# RUN: not tile-cc %s --kernel negative --arg a=u32:1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
# RUN: tile-cc %s --kernel scalar_param --arg a=u32:1 --arg n=u32:0 --emit=tile | FileCheck %s --check-prefix=SCALAR
# RUN: not tile-cc %s --kernel atomic --arg a=u32:1 2>&1 | FileCheck %s --check-prefix=ATOMIC
# RUN: not tile-cc %s --kernel product --arg a=u8:2 2>&1 | FileCheck %s --check-prefix=MMA
# RUN: tile-cc %s --kernel ops --arg a=u32:1 --arg b=u8:1 --arg out=u32:1 --arg f=f32:1 --emit=launcher --ptx-only -o %t.h
# RUN: FileCheck %s --check-prefix=META --input-file %t.cpp
import cuda.tile as ct
import numpy as np

# CHECK-LABEL: tile.kernel @ops(%arg0: !tile.array<?xui32>, %arg1: !tile.array<?xui8>, %arg2: !tile.array<?xui32>, %arg3: !tile.array<?xf32>)
# CHECK: tile.load %arg0{{.*}} -> tensor<16xi32>
# CHECK: arith.extui {{.*}} : tensor<16xi8> to tensor<16xi32>
# CHECK: arith.divui
# CHECK: arith.remui
# CHECK: arith.shrui
# CHECK: arith.cmpi ugt
# CHECK: arith.maxui
# CHECK: arith.minui
# CHECK: arith.uitofp {{.*}} : tensor<16xi32> to tensor<16xf32>
# CHECK: arith.fptoui {{.*}} : tensor<16xf32> to tensor<16xi32>
# The maximum of unsigned values: the signed maximum of the values with the sign bit flipped.
# CHECK: %[[FLIP:.*]] = arith.xori %{{.*}}, %{{.*}} : tensor<16xi32>
# CHECK: %[[MAX:.*]] = tile.reduce max %[[FLIP]]
# CHECK: arith.xori %[[MAX]]
# CHECK: tile.print "%u\0A"
# CHECK: tile.reduce sum
# CHECK: arith.ceildivui
# CHECK-NOT: ui32>
# CHECK: tile.store {{.*}} : tensor<16xi32>, !tile.array<?xui32>
# META: \"dtype\": \"uint32\"
# META: \"dtype\": \"uint8\"
@ct.kernel
def ops(a, b, out, f):
    x = ct.load(a, (0,), (16,))
    w = ct.load(b, (0,), (16,)).astype(np.uint32)
    r = x // (w + 1) + x % (w + 1) + (x >> 3)
    r = ct.where(x > 4000000000, r, ct.maximum(x, w)) + ct.minimum(x, w)
    r = r + (x.astype(ct.float32) * 0.5).astype(ct.uint32)
    m = ct.max(x, axis=0)
    ct.print(m)
    r = r + m + ct.sum(x, axis=0) + ct.cdiv(m, 3)
    ct.store(out, (0,), r)
    ct.store(f, (0,), x.astype(ct.float32))


# MIXED: unsigned.py:[[@LINE+3]]:{{[0-9]+}}: error: cannot combine tile<16xui32> and tile<16xi32>: no integer type of this width holds the values of both; cast one with astype()
@ct.kernel
def mixed(a, y):
    ct.store(a, (0,), ct.load(a, (0,), (16,)) + ct.load(y, (0,), (16,)))


# NEGATIVE: unsigned.py:[[@LINE+3]]:{{[0-9]+}}: error: int -1 does not fit in ui32 (range 0 to 4294967295)
@ct.kernel
def negative(a):
    ct.store(a, (0,), ct.load(a, (0,), (16,)) + -1)


# An unsigned scalar parameter keeps its type; its uses see it through one cast at the entry.
# SCALAR: tile.kernel @scalar_param(%arg0: !tile.array<?xui32>, %arg1: ui32)
# SCALAR-NEXT: %[[N:.*]] = builtin.unrealized_conversion_cast %arg1 : ui32 to i32
# SCALAR: arith.divui %[[N]], %{{.*}} : i32
@ct.kernel
def scalar_param(a, n):
    ct.store(a, (0,), ct.load(a, (0,), (16,)) + n // 3)


# ATOMIC: unsigned.py:[[@LINE+3]]:{{[0-9]+}}: error: ct.atomic_max on an array of dtype ui32 is not supported (unsigned atomic order); add, and, or, xor, xchg and cas are
@ct.kernel
def atomic(a):
    r = ct.atomic_max(a, ct.arange(16, dtype=ct.int32), ct.full((16,), 3, dtype=ct.uint32))


# MMA: unsigned.py:[[@LINE+4]]:{{[0-9]+}}: error: ct.mma of unsigned integers (tile<16x16xui8>) is not supported: convert the operands with astype()
@ct.kernel
def product(a):
    t = ct.load(a, (0, 0), (16, 16))
    r = ct.mma(t, t, ct.zeros((16, 16), dtype=ct.int32))
