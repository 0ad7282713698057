# Name resolution errors: undefined names, names bound only on some paths, unknown members.
# RUN: not tile-cc %s --kernel undefined --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=UNDEF --strict-whitespace
# RUN: not tile-cc %s --kernel one_branch --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=BRANCH
# RUN: not tile-cc %s --kernel loop_only --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not tile-cc %s --kernel loop_var --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=LOOPVAR
# RUN: not tile-cc %s --kernel unknown_op --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=OP --strict-whitespace
# RUN: not tile-cc %s --kernel unknown_attr --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: not tile-cc %s --kernel host_module --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not tile-cc %s --kernel padding --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=PAD
# RUN: not tile-cc %s --kernel dtype_attr --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not tile-cc %s --kernel triton_names --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=TRITON
import cuda.tile as ct
import math


# UNDEF: {{.*}}names.py:[[@LINE+7]]:34: error: name 'y' is not defined
# UNDEF-NEXT: {{^}}    ct.store(x, index=(0,), tile=y)
# UNDEF-NEXT: {{^}}                                 ^
# UNDEF: 1 error generated.
@ct.kernel
def undefined(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=y)


# A name assigned in only one arm of a run-time `if` does not exist after it.
# BRANCH: {{.*}}names.py:[[@LINE+6]]:34: error: 'v' is not defined here: it is assigned only in some branches of the 'if' at line [[@LINE+4]]
# BRANCH: 1 error generated.
@ct.kernel
def one_branch(x, n: int):
    if n > 0:
        v = ct.load(x, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=v)


# LOOP: {{.*}}names.py:[[@LINE+6]]:34: error: 'w' is not defined here: it is assigned only inside the loop body
# LOOP: 1 error generated.
@ct.kernel
def loop_only(x):
    for i in range(4):
        w = ct.load(x, index=(i,), shape=(16,))
    ct.store(x, index=(0,), tile=w)


# LOOPVAR: {{.*}}names.py:[[@LINE+6]]:27: error: 'i' is not defined here: it is the loop variable and exists only inside the loop body
# LOOPVAR: 1 error generated.
@ct.kernel
def loop_var(x):
    for i in range(4):
        pass
    t = ct.load(x, index=(i,), shape=(16,))


# OP: {{.*}}names.py:[[@LINE+6]]:12: error: 'ct.lod' is not a supported operation or dtype; did you mean 'ct.load'?
# OP-NEXT: {{^}}    t = ct.lod(x, index=(0,), shape=(16,))
# OP-NEXT: {{^}}           ^~~
# OP: 1 error generated.
@ct.kernel
def unknown_op(x):
    t = ct.lod(x, index=(0,), shape=(16,))


# ATTR: {{.*}}names.py:[[@LINE+5]]:11: error: tile<16xf32> has no attribute 'foo'
# ATTR: 1 error generated.
@ct.kernel
def unknown_attr(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t.foo


# HOST: {{.*}}names.py:[[@LINE+4]]:14: error: 'math.gcd' is not supported in kernels (tile-cc knows math's constants and its math functions on compile-time numbers)
# HOST: 1 error generated.
@ct.kernel
def host_module(x):
    t = math.gcd(4, 6)


# PAD: {{.*}}names.py:[[@LINE+4]]:73: error: unknown padding mode 'PaddingMode.ONE' (expected ZERO, NEG_ZERO, NAN, POS_INF, NEG_INF or UNDETERMINED)
# PAD: 1 error generated.
@ct.kernel
def padding(x):
    t = ct.load(x, index=(0,), shape=(16,), padding_mode=ct.PaddingMode.ONE)


# DTYPE: {{.*}}names.py:[[@LINE+4]]:34: error: 'ct.float128' is not a supported operation or dtype
# DTYPE: 1 error generated.
@ct.kernel
def dtype_attr(x):
    t = ct.zeros((16,), dtype=ct.float128)


# Triton's spellings get ours; a name nothing is close to gets no suggestion.
# TRITON: names.py:[[@LINE+6]]:12: error: 'ct.program_id' is not a supported operation or dtype; did you mean 'ct.bid'?
# TRITON: names.py:[[@LINE+6]]:12: error: 'ct.dot' is not a supported operation or dtype; did you mean 'ct.mma'?
# TRITON: names.py:[[@LINE+6]]:12: error: 'ct.num_programs' is not a supported operation or dtype; did you mean 'ct.num_blocks'?
# TRITON: names.py:[[@LINE+6]]:12: error: 'ct.frobnicate' is not a supported operation or dtype{{$}}
@ct.kernel
def triton_names(x):
    i = ct.program_id(0)
    t = ct.dot(x, x)
    n = ct.num_programs(0)
    u = ct.frobnicate(x)
