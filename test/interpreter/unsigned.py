# Unsigned integers run by the interpreter: a = 4294967290 (2^32 - 6) everywhere, b = 0..7;
# each row of `out` is one operation, worked out by hand below. Signed semantics would give
# negative quotients, sign-filled shifts and the other maximum.
# RUN: tile-run %s --kernel uops --array a=u32:8:full=4294967290 --array b=u8:8:iota --array out=u32:7x8 --array red=u32:3 --print out --print red | FileCheck %s
# RUN: tile-run %s --kernel bytes --array a=u8:4:full=250 --array out=i32:4 --print out | FileCheck %s --check-prefix=BYTES
# RUN: tile-run %s --kernel scalar --array a=u32:2:full=4294967290 --scalar n=u32:4000000000 --array out=u32:2 --print out | FileCheck %s --check-prefix=SCALAR
# RUN: not tile-run %s --kernel scalar --array a=u32:2 --scalar n=u32:-1 --array out=u32:2 2>&1 | FileCheck %s --check-prefix=NEGATIVE
# RUN: tile-run %s --kernel unary --array a=u64:4:iota --array out=u64:4 --print out | FileCheck %s --check-prefix=UNARY
import cuda.tile as ct

# CHECK: out: uint32 (7, 8)
# a + b wraps past 2^32 - 1 after b = 5:
# CHECK-NEXT: {{\[\[}}4294967290, 4294967291, 4294967292, 4294967293, 4294967294, 4294967295, 0, 1],
# a // (b + 1):
# CHECK-NEXT: [4294967290, 2147483645, 1431655763, 1073741822, 858993458, 715827881, 613566755, 536870911],
# a % (b + 1):
# CHECK-NEXT: [0, 0, 1, 2, 0, 4, 5, 2],
# a >> 28 (a logical shift: 15, not -1):
# CHECK-NEXT: [15, 15, 15, 15, 15, 15, 15, 15],
# maximum(a, b) is a, minimum(a, b) is b:
# CHECK-NEXT: [4294967290, 4294967290, 4294967290, 4294967290, 4294967290, 4294967290, 4294967290, 4294967290],
# CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7],
# a > b (1 everywhere: signed, a would be -6):
# CHECK-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]]
# max, min and sum (8 * (2^32 - 6) mod 2^32 = 2^32 - 48) of a + b:
# CHECK: red: uint32 (3,)
# CHECK-NEXT: [4294967295, 0, 4294967248]
@ct.kernel
def uops(a, b, out, red):
    x = ct.load(a, (0,), (8,))
    w = ct.load(b, (0,), (8,)).astype(ct.uint32)
    ct.store(out, (0, 0), ct.reshape(x + w, (1, 8)))
    ct.store(out, (1, 0), ct.reshape(x // (w + 1), (1, 8)))
    ct.store(out, (2, 0), ct.reshape(x % (w + 1), (1, 8)))
    ct.store(out, (3, 0), ct.reshape(x >> 28, (1, 8)))
    ct.store(out, (4, 0), ct.reshape(ct.maximum(x, w), (1, 8)))
    ct.store(out, (5, 0), ct.reshape(ct.minimum(x, w), (1, 8)))
    ct.store(out, (6, 0), ct.reshape(ct.where(x > w, 1, 0).astype(ct.uint32), (1, 8)))
    s = x + w
    ct.store(red, (0,), ct.reshape(ct.max(s, axis=0), (1,)))
    ct.store(red, (1,), ct.reshape(ct.min(s, axis=0), (1,)))
    ct.store(red, (2,), ct.reshape(ct.sum(x, axis=0), (1,)))


# 250 as a uint8 widens to 250 (zero-extended) and converts to float as 250; as int8 it is -6.
# BYTES: out: int32 (4,)
# BYTES-NEXT: [250, 250, -6, 4]
@ct.kernel
def bytes(a, out):
    x = ct.load(a, (0,), (4,))
    r = ct.where(ct.arange(4, dtype=ct.int32) == 0, x.astype(ct.int32), 0)
    r = r + ct.where(ct.arange(4, dtype=ct.int32) == 1, x.astype(ct.float32).astype(ct.int32), 0)
    r = r + ct.where(ct.arange(4, dtype=ct.int32) == 2, ct.bitcast(x, ct.int8).astype(ct.int32), 0)
    r = r + ct.where(ct.arange(4, dtype=ct.int32) == 3, (x >> 6).astype(ct.int32) + 1, 0)
    ct.store(out, (0,), r)


# An unsigned scalar parameter: a // n = 1, n >> 1 = 2000000000, and 1 + 2000000000 + n wraps
# to 6000000001 - 2^32 = 1705032705.
# SCALAR: out: uint32 (2,)
# SCALAR-NEXT: [1705032705, 1705032705]
# NEGATIVE: --scalar n (uint32): -1 is out of range [0, 4294967295]
@ct.kernel
def scalar(a, n, out):
    x = ct.load(a, (0,), (2,))
    ct.store(out, (0,), x // n + (n >> 1) + ct.full((2,), n, dtype=ct.uint32))


# Negation and inversion wrap: -k + ~k = -k + (2^64 - 1 - k); with abs(k) = k and + k, every
# element is 2^64 - 1.
# UNARY: out: uint64 (4,)
# UNARY-NEXT: [18446744073709551615, 18446744073709551615, 18446744073709551615, 18446744073709551615]
@ct.kernel
def unary(a, out):
    x = ct.load(a, (0,), (4,))
    ct.store(out, (0,), -x + (~x) + abs(x) + ct.arange(4, dtype=ct.uint64))
