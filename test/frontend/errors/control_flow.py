# Control flow: run-time conditions, loop-carried values, returns, static checks.
# RUN: not tile-cc %s --kernel if_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=IFTILE --strict-whitespace
# RUN: not tile-cc %s --kernel if_array --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=IFARRAY
# RUN: not tile-cc %s --kernel carried_kind --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=CARRIED
# RUN: not tile-cc %s --kernel carried_dtype --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CARRIEDDTYPE
# RUN: not tile-cc %s --kernel carried_const --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=CARRIEDCONST
# RUN: not tile-cc %s --kernel branch_shapes --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=BRANCHSHAPE
# RUN: not tile-cc %s --kernel branch_consts --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=BRANCHCONST
# RUN: not tile-cc %s --kernel helper_return_if --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=HELPERIF
# RUN: not tile-cc %s --kernel helper_return_loop --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=HELPERLOOP
# RUN: not tile-cc %s --kernel break_loop --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=BREAK
# RUN: not tile-cc %s --kernel continue_loop --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CONTINUE
# RUN: not tile-cc %s --kernel not_range --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOTRANGE
# RUN: not tile-cc %s --kernel range_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RANGETILE
# RUN: not tile-cc %s --kernel range_step --arg x=f32:1 --arg s=f32:0 2>&1 | FileCheck %s --check-prefix=RANGESTEP
# RUN: not tile-cc %s --kernel range_zero_step --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RANGEZERO
# RUN: not tile-cc %s --kernel range_keyword --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=RANGEKW
# RUN: not tile-cc %s --kernel range_value --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RANGEVALUE
# RUN: not tile-cc %s --kernel static_assert_msg --arg x=f32:1 --const B=16 2>&1 | FileCheck %s --check-prefix=STATIC --strict-whitespace
# RUN: not tile-cc %s --kernel static_assert_shape --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=STATICSHAPE
# RUN: not tile-cc %s --kernel static_assert_runtime --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=STATICRT
# RUN: not tile-cc %s --kernel assert_const --arg x=f32:1 --const B=3 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not tile-cc %s --kernel nested_def --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NESTED
# RUN: not tile-cc %s --kernel inner_import --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=IMPORT
import cuda.tile as ct


@ct.function
def first_positive(v, n):
    if n > 0:
        return v
    return v * 0.0


@ct.function
def first_iteration(v, n):
    for i in range(n):
        return v
    return v


# IFTILE: {{.*}}control_flow.py:[[@LINE+7]]:8: error: the condition is tile<16xi1>; a condition must be a scalar (use ct.where for element-wise selection, or reduce the tile first)
# IFTILE-NEXT: {{^}}    if t > 0:
# IFTILE-NEXT: {{^}}       ^~~~~
# IFTILE: 1 error generated.
@ct.kernel
def if_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    if t > 0:
        pass


# IFARRAY: {{.*}}control_flow.py:[[@LINE+4]]:8: error: the condition is array<f32, rank 1>, which has no truth value
# IFARRAY: 1 error generated.
@ct.kernel
def if_array(x):
    if x:
        pass


# `acc` starts as an int and becomes a tile in the body.
# CARRIED: {{.*}}control_flow.py:[[@LINE+5]]:5: error: 'acc' changes type inside the loop: scalar i32 before the loop, tile<16xf32> at the end of the body; convert it with astype() so both agree
# CARRIED: 1 error generated.
@ct.kernel
def carried_kind(x, n: int):
    acc = 0
    for i in range(n):
        acc = acc + ct.load(x, index=(i,), shape=(16,))


# CARRIEDDTYPE: {{.*}}control_flow.py:[[@LINE+5]]:5: error: 'acc' changes type inside the loop: tile<16xf32> before the loop, tile<16xf16> at the end of the body; convert it with astype() so both agree
# CARRIEDDTYPE: 1 error generated.
@ct.kernel
def carried_dtype(x):
    acc = ct.zeros((16,), dtype=ct.float32)
    for i in range(4):
        acc = acc.astype(ct.float16)


# A compile-time value (here a shape) cannot change from one iteration to the next.
# CARRIEDCONST: {{.*}}control_flow.py:[[@LINE+5]]:5: error: 'shape' holds tuple (16,) before the loop and is reassigned inside it; only scalars and tiles can be loop-carried
# CARRIEDCONST: 1 error generated.
@ct.kernel
def carried_const(x, n: int):
    shape = (16,)
    for i in range(n):
        shape = (32,)
    t = ct.load(x, index=(0,), shape=shape)


# BRANCHSHAPE: {{.*}}control_flow.py:[[@LINE+4]]:5: error: 'v' is tile<16xf32> in one branch and tile<32xf32> in the other; both branches must give it the same type
# BRANCHSHAPE: 1 error generated.
@ct.kernel
def branch_shapes(x, n: int):
    if n > 0:
        v = ct.zeros((16,), dtype=ct.float32)
    else:
        v = ct.zeros((32,), dtype=ct.float32)


# Which shape to load depends on a run-time condition: not expressible.
# BRANCHCONST: {{.*}}control_flow.py:[[@LINE+7]]:38: error: 'shape' is not defined here: it is given different compile-time values (tuple (32,), tuple (16,)) in the branches of the run-time 'if' at line [[@LINE+5]]
# BRANCHCONST: 1 error generated.
@ct.kernel
def branch_consts(x, n: int):
    shape = (16,)
    if n > 0:
        shape = (32,)
    t = ct.load(x, index=(0,), shape=shape)


# HELPERIF: {{.*}}control_flow.py:[[@LINE-81]]:9: error: 'return' inside a loop or a run-time 'if' is not supported in @ct.function helpers; assign the result to a variable and return it at the end
# HELPERIF: 1 error generated.
@ct.kernel
def helper_return_if(x, n: int):
    t = ct.load(x, index=(0,), shape=(16,))
    u = first_positive(t, n)


# HELPERLOOP: {{.*}}control_flow.py:[[@LINE-82]]:9: error: 'return' inside a loop or a run-time 'if' is not supported in @ct.function helpers; assign the result to a variable and return it at the end
# HELPERLOOP: 1 error generated.
@ct.kernel
def helper_return_loop(x, n: int):
    t = ct.load(x, index=(0,), shape=(16,))
    u = first_iteration(t, n)


# BREAK: {{.*}}control_flow.py:[[@LINE+5]]:9: error: 'break' outside a loop
# BREAK: 1 error generated.
@ct.kernel
def break_loop(x):
    if ct.bid(0) == 0:
        break


# CONTINUE: {{.*}}control_flow.py:[[@LINE+4]]:5: error: 'continue' outside a loop
# CONTINUE: 1 error generated.
@ct.kernel
def continue_loop(x):
    continue


# NOTRANGE: {{.*}}control_flow.py:[[@LINE+5]]:14: error: for loops must iterate over range(...)
# NOTRANGE: 1 error generated.
@ct.kernel
def not_range(x):
    t = ct.load(x, index=(0,), shape=(16,))
    for i in t:
        pass


# RANGETILE: {{.*}}control_flow.py:[[@LINE+5]]:20: error: range() bounds must be integers, got tile<16xf32>
# RANGETILE: 1 error generated.
@ct.kernel
def range_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    for i in range(t):
        pass


# RANGESTEP: {{.*}}control_flow.py:[[@LINE+4]]:26: error: range() bounds must be integers, got scalar f32
# RANGESTEP: 1 error generated.
@ct.kernel
def range_step(x, s: float):
    for i in range(0, 8, s):
        pass


# RANGEZERO: {{.*}}control_flow.py:[[@LINE+4]]:26: error: range() step must not be zero
# RANGEZERO: 1 error generated.
@ct.kernel
def range_zero_step(x):
    for i in range(0, 8, 0):
        pass


# RANGEKW: {{.*}}control_flow.py:[[@LINE+4]]:23: error: range() takes no keyword arguments
# RANGEKW: 1 error generated.
@ct.kernel
def range_keyword(x, n: int):
    for i in range(n, step=2):
        pass


# RANGEVALUE: {{.*}}control_flow.py:[[@LINE+4]]:9: error: range() can only be used as the iterable of a for loop
# RANGEVALUE: 1 error generated.
@ct.kernel
def range_value(x):
    r = range(4)


# STATIC: {{.*}}control_flow.py:[[@LINE+6]]:22: error: static assertion failed: B must be a multiple of 32
# STATIC-NEXT: {{^}}    ct.static_assert(B % 32 == 0, "B must be a multiple of 32")
# STATIC-NEXT: {{^}}                     ^~~~~~~~~~~
# STATIC: 1 error generated.
@ct.kernel
def static_assert_msg(x, B: ct.Constant[int]):
    ct.static_assert(B % 32 == 0, "B must be a multiple of 32")


# STATICSHAPE: {{.*}}control_flow.py:[[@LINE+5]]:22: error: static assertion failed
# STATICSHAPE: 1 error generated.
@ct.kernel
def static_assert_shape(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.static_assert(t.shape[0] == 8)


# STATICRT: {{.*}}control_flow.py:[[@LINE+5]]:22: error: ct.static_assert needs a compile-time condition, got tile<16xf32>
# STATICRT: 1 error generated.
@ct.kernel
def static_assert_runtime(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.static_assert(t)


# ASSERT: {{.*}}control_flow.py:[[@LINE+4]]:12: error: assertion failed at compile time: B must be even
# ASSERT: 1 error generated.
@ct.kernel
def assert_const(x, B: ct.Constant[int]):
    assert B % 2 == 0, "B must be even"


# NESTED: {{.*}}control_flow.py:[[@LINE+4]]:9: error: nested function definitions are not supported in kernels
# NESTED: 1 error generated.
@ct.kernel
def nested_def(x):
    def inner():
        pass


# IMPORT: {{.*}}control_flow.py:[[@LINE+4]]:5: error: imports are only allowed at module level
# IMPORT: 1 error generated.
@ct.kernel
def inner_import(x):
    import math
