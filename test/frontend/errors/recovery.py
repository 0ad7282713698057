# Semantic analysis goes on after an error: independent errors in one kernel are all reported,
# and a value that already failed does not produce follow-on errors where it is used.
# RUN: not tile-cc %s --kernel several --arg x=f32:2 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=ERR
import cuda.tile as ct


@ct.function
def helper(t, factor):
    return t * factor


@ct.kernel
def several(x, n: int):
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:34: error: the tile shape has dimension 48, which is not a power of two (tile dimensions must be powers of two)
    t = ct.load(x, index=(0, 0), shape=(16, 48))
    # `t` is invalid now: these lines add nothing.
    u = t * 2.0
    ct.store(x, index=(0, 0), tile=u)
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:9: error: name 'undefined_name' is not defined
    v = undefined_name + 1
    w = v * v
    a = ct.load(x, index=(0, 0), shape=(16, 32))
    # ERR: {{.*}}recovery.py:[[@LINE+3]]:11: error: shapes do not broadcast: tile<16x32xf32> and tile<32x16xf32> differ in dimension 0 (16 vs 32)
    # ERR: {{.*}}recovery.py:[[@LINE+2]]:9: note: left operand here
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:13: note: right operand here
    b = a + ct.zeros((32, 16), dtype=ct.float32)
    # ERR: {{.*}}recovery.py:[[@LINE+2]]:9: error: 'helper' is missing argument 'factor'
    # ERR: {{.*}}recovery.py:[[@LINE-20]]:15: note: parameter declared here
    c = helper(a)
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:8: error: the condition is tile<16x32xi1>; a condition must be a scalar (use ct.where for element-wise selection, or reduce the tile first)
    if a > 0:
        pass
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:5: error: 'a' changes type inside the loop: tile<16x32xf32> before the loop, tile<16x32xf16> at the end of the body; convert it with astype() so both agree
    for i in range(n):
        a = a.astype(ct.float16)
    # `a` is invalid after the loop.
    ct.store(x, index=(0,), tile=a)
    d = ct.load(x, index=(0, 0), shape=(16, 32))
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:17: error: the index has 1 entry but the array has rank 2
    ct.store(x, index=(0,), tile=d)
    # ERR: {{.*}}recovery.py:[[@LINE+1]]:19: error: axis 3 is out of range for a tile of rank 2
    s = ct.sum(d, axis=3)
# ERR: 8 errors generated.
