# The cuTile functions added for compatibility refuse what they cannot honour with a located
# error that says why: ct.bitcast between widths, ct.ensure_constant / ct.static_eval of a
# run-time value, ct.assume_divisible_by with a bad divisor or a constant that is not a
# multiple, and ct.reduce / ct.scan with a combining function or identity they do not map.
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg n=i32:0 --arg out=f32:1 --error-limit 0 2>&1 | FileCheck %s
import cuda.tile as ct


@ct.kernel
def k(x, n, out):
    t = ct.load(x, (0,), (16,))
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.bitcast needs dtypes of the same width (bool and tfloat32 excluded): tile<16xf32> to dtype i16
    a = ct.bitcast(t, ct.int16)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.ensure_constant needs a compile-time value, got scalar i32
    b = ct.ensure_constant(n)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.static_eval needs a compile-time value, got scalar i32
    c = ct.static_eval(n + 1)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.assume_divisible_by needs a positive compile-time integer divisor, got int 0
    d = ct.assume_divisible_by(n, 0)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: 6 is not divisible by 4
    e = ct.assume_divisible_by(6, 4)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.assume_divisible_by needs an integer, got tile<16xf32>
    f = ct.assume_divisible_by(t, 4)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.reduce with ct.maximum needs its neutral element -inf (or an integer dtype's smallest value) as the identity, got int 0
    g = ct.reduce(t, 0, ct.maximum, 0)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.scan with ct.maximum is not supported yet (only ct.add and ct.mul scans)
    h = ct.scan(t, 0, ct.maximum, -float("inf"))
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.reduce supports the combining functions ct.add, ct.mul, ct.maximum and ct.minimum, got function ct.sub (lambdas and other functions are not supported yet)
    i = ct.reduce(t, 0, ct.sub, 0)
    # CHECK: cutile-functions.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.reduce with ct.add needs its neutral element 0 as the identity, got int 1
    j = ct.reduce(t, 0, ct.add, 1)
    ct.store(out, (0,), t)
