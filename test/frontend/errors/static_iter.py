# ct.static_iter refuses what it cannot unroll, with a located error that says why.
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg n=i32:0 --arg out=f32:1 --error-limit 0 2>&1 | FileCheck %s
# RUN: not tile-cc %s --kernel nested --arg x=f32:1 --arg n=i32:0 --arg out=f32:1 2>&1 | FileCheck %s --check-prefix=NESTED
import cuda.tile as ct


@ct.kernel
def k(x, n, out):
    t = ct.load(x, (0,), (16,))
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter(range(...)) needs bounds known at compile time, got scalar i32
    for i in ct.static_iter(range(n)):
        t = t + 1.0
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter() needs a tuple or a range() known at compile time, got int 3
    for i in ct.static_iter(3):
        t = t + 1.0
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: break is not supported in a ct.static_iter() loop (its body is unrolled at compile time)
    for i in ct.static_iter((1, 2)):
        if i == 2:
            break
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter() unrolls at most 4096 iterations; this range has 100000
    for i in ct.static_iter(range(100000)):
        t = t + 1.0
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter() takes one iterable (a tuple, or a range() of constants)
    for i in ct.static_iter((1, 2), (3, 4)):
        t = t + 1.0
    # CHECK: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter() can only be used as the iterable of a for loop
    r = ct.static_iter((1, 2))
    ct.store(out, (0,), t)


@ct.kernel
def nested(x, n, out):
    t = ct.load(x, (0,), (16,))
    for i in ct.static_iter(range(4096)):
        # NESTED: static_iter.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_iter() loops unroll more than 65536 bodies in this kernel (nested ones multiply, with every other unrolled loop)
        for j in ct.static_iter(range(16)):
            t = t + 1.0
    ct.store(out, (0,), t)
