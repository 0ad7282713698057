# Calls: arity, keywords and argument kinds of ct.* operations, tile methods and @ct.function
# helpers; calling things that cannot be called.
# RUN: not tile-cc %s --kernel too_many --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=MANY --strict-whitespace
# RUN: not tile-cc %s --kernel bad_keyword --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not tile-cc %s --kernel missing --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not tile-cc %s --kernel twice --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not tile-cc %s --kernel unary_extra --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=UNARY
# RUN: not tile-cc %s --kernel method_extra --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=METHOD
# RUN: not tile-cc %s --kernel method_missing --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=METHODMISSING
# RUN: not tile-cc %s --kernel helper_many --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HMANY
# RUN: not tile-cc %s --kernel helper_keyword --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HKEYWORD
# RUN: not tile-cc %s --kernel helper_missing --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HMISSING --strict-whitespace
# RUN: not tile-cc %s --kernel helper_twice --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HTWICE
# RUN: not tile-cc %s --kernel not_helper --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOTHELPER
# RUN: not tile-cc %s --kernel call_kernel --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CALLKERNEL
# RUN: not tile-cc %s --kernel call_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CALLTILE
# RUN: not tile-cc %s --kernel call_decorator --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=DECORATOR
# RUN: not tile-cc %s --kernel recursion --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RECURSION
# RUN: not tile-cc %s --kernel grid_axis --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=GRID
# RUN: not tile-cc %s --kernel not_array --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOTARRAY
# RUN: not tile-cc %s --kernel store_number --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=STORENUM
# RUN: not tile-cc %s --kernel latency_range --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=LATENCY
# RUN: not tile-cc %s --kernel latency_store --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=LATENCYSTORE
# RUN: not tile-cc %s --kernel latency_runtime --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=LATENCYRT
# RUN: not tile-cc %s --kernel allow_tma --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=TMA
# RUN: not tile-cc %s --kernel padding_int --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=PADDING
# RUN: not tile-cc %s --kernel printf_format --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=PRINTF
# RUN: not tile-cc %s --kernel keepdims_int --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=KEEPDIMS
import cuda.tile as ct


@ct.function
def scale(t, factor, bias=0.0):
    return t * factor + bias


@ct.function
def forever(v):
    return forever(v)


def plain(t):
    raise ValueError("host code only")


# MANY: {{.*}}calls.py:[[@LINE+6]]:69: error: ct.load() takes at most 7 positional arguments (8 given)
# MANY-NEXT: {{^}}    t = ct.load(x, (0,), (16,), (0,), ct.PaddingMode.ZERO, 2, True, 5)
# MANY-NEXT: {{^}}                                                                    ^
# MANY: 1 error generated.
@ct.kernel
def too_many(x):
    t = ct.load(x, (0,), (16,), (0,), ct.PaddingMode.ZERO, 2, True, 5)


# KEYWORD: {{.*}}calls.py:[[@LINE+4]]:45: error: ct.load() got an unexpected keyword argument 'padding' (parameters: array, index, shape, order, padding_mode, latency, allow_tma)
# KEYWORD: 1 error generated.
@ct.kernel
def bad_keyword(x):
    t = ct.load(x, index=(0,), shape=(16,), padding=ct.PaddingMode.ZERO)


# MISSING: {{.*}}calls.py:[[@LINE+4]]:9: error: ct.load() is missing required argument 'shape'
# MISSING: 1 error generated.
@ct.kernel
def missing(x):
    t = ct.load(x, index=(0,))


# TWICE: {{.*}}calls.py:[[@LINE+4]]:33: error: ct.load() got multiple values for argument 'index'
# TWICE: 1 error generated.
@ct.kernel
def twice(x):
    t = ct.load(x, (0,), (16,), index=(1,))


# UNARY: {{.*}}calls.py:[[@LINE+5]]:19: error: ct.exp() takes at most 1 positional argument (2 given)
# UNARY: 1 error generated.
@ct.kernel
def unary_extra(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.exp(t, 2)


# A method's tile is not counted among its arguments.
# METHOD: {{.*}}calls.py:[[@LINE+5]]:30: error: astype() takes at most 1 positional argument (2 given)
# METHOD: 1 error generated.
@ct.kernel
def method_extra(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t.astype(ct.float16, 1)


# METHODMISSING: {{.*}}calls.py:[[@LINE+5]]:9: error: astype() is missing required argument 'dtype'
# METHODMISSING: 1 error generated.
@ct.kernel
def method_missing(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t.astype()


# HMANY: {{.*}}calls.py:[[@LINE+5]]:9: error: 'scale' takes 3 arguments but 4 were given
# HMANY: 1 error generated.
@ct.kernel
def helper_many(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = scale(t, 2.0, 1.0, 3.0)


# HKEYWORD: {{.*}}calls.py:[[@LINE+5]]:18: error: 'scale' has no parameter 'fator'
# HKEYWORD: 1 error generated.
@ct.kernel
def helper_keyword(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = scale(t, fator=2.0)


# HMISSING: {{.*}}calls.py:[[@LINE+10]]:9: error: 'scale' is missing argument 'factor'
# HMISSING-NEXT: {{^}}    u = scale(t)
# HMISSING-NEXT: {{^}}        ^~~~~~~~
# HMISSING: {{.*}}calls.py:[[@LINE-87]]:14: note: parameter declared here
# HMISSING-NEXT: {{^}}def scale(t, factor, bias=0.0):
# HMISSING-NEXT: {{^}}             ^~~~~~
# HMISSING: 1 error generated.
@ct.kernel
def helper_missing(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = scale(t)


# HTWICE: {{.*}}calls.py:[[@LINE+5]]:23: error: 'scale' got multiple values for parameter 'factor'
# HTWICE: 1 error generated.
@ct.kernel
def helper_twice(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = scale(t, 2.0, factor=3.0)


# A plain function is inlined like a @ct.function; this one is host code that does not parse.
# NOTHELPER: {{.*}}calls.py:[[@LINE+6]]:9: error: 'plain' is defined by host code that tile-cc cannot compile
# NOTHELPER: {{.*}}calls.py:[[@LINE-97]]:5: note: `raise` statements are not supported
# NOTHELPER: 1 error generated.
@ct.kernel
def not_helper(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = plain(t)


# CALLKERNEL: {{.*}}calls.py:[[@LINE+4]]:5: error: kernel 'too_many' cannot be called from a kernel; make it a @ct.function
# CALLKERNEL: 1 error generated.
@ct.kernel
def call_kernel(x):
    too_many(x)


# CALLTILE: {{.*}}calls.py:[[@LINE+5]]:9: error: tile<16xf32> is not callable
# CALLTILE: 1 error generated.
@ct.kernel
def call_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t(1)


# DECORATOR: {{.*}}calls.py:[[@LINE+4]]:5: error: ct.function is a decorator, not a function to call inside a kernel
# DECORATOR: 1 error generated.
@ct.kernel
def call_decorator(x):
    ct.function(x)


# RECURSION: {{.*}}calls.py:[[@LINE-131]]:12: error: helper calls nested too deeply (recursion is not supported)
# RECURSION: 1 error generated.
@ct.kernel
def recursion(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = forever(t)


# GRID: {{.*}}calls.py:[[@LINE+4]]:16: error: grid axis 3 is out of range; a grid has axes 0, 1, 2
# GRID: 1 error generated.
@ct.kernel
def grid_axis(x):
    t = ct.bid(3)


# NOTARRAY: {{.*}}calls.py:[[@LINE+5]]:17: error: the 'array' argument must be an array (a kernel argument), got tile<16xf32>
# NOTARRAY: 1 error generated.
@ct.kernel
def not_array(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.load(t, index=(0,), shape=(16,))


# STORENUM: {{.*}}calls.py:[[@LINE+4]]:29: error: the stored value must be a tile, got float 1.0
# STORENUM: 1 error generated.
@ct.kernel
def store_number(x):
    ct.store(x, index=(0,), tile=1.0)


# LATENCY: {{.*}}calls.py:[[@LINE+4]]:45: error: latency 12 is out of range [1, 10]
# LATENCY: 1 error generated.
@ct.kernel
def latency_range(x):
    t = ct.load(x, index=(0,), shape=(16,), latency=12)


# LATENCYSTORE: {{.*}}calls.py:[[@LINE+5]]:37: error: latency 0 is out of range [1, 10]
# LATENCYSTORE: 1 error generated.
@ct.kernel
def latency_store(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=t, latency=0)


# LATENCYRT: {{.*}}calls.py:[[@LINE+4]]:45: error: latency must be a compile-time integer, got scalar i32
# LATENCYRT: 1 error generated.
@ct.kernel
def latency_runtime(x, n: int):
    t = ct.load(x, index=(0,), shape=(16,), latency=n)


# TMA: {{.*}}calls.py:[[@LINE+4]]:45: error: allow_tma must be True or False, got int 1
# TMA: 1 error generated.
@ct.kernel
def allow_tma(x):
    t = ct.load(x, index=(0,), shape=(16,), allow_tma=1)


# PADDING: {{.*}}calls.py:[[@LINE+4]]:45: error: padding_mode must be a ct.PaddingMode member, got int 0
# PADDING: 1 error generated.
@ct.kernel
def padding_int(x):
    t = ct.load(x, index=(0,), shape=(16,), padding_mode=0)


# PRINTF: {{.*}}calls.py:[[@LINE+5]]:5: error: ct.printf needs a format string as its first argument
# PRINTF: 1 error generated.
@ct.kernel
def printf_format(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.printf(t)


# KEEPDIMS: {{.*}}calls.py:[[@LINE+5]]:27: error: keepdims must be True or False
# KEEPDIMS: 1 error generated.
@ct.kernel
def keepdims_int(x):
    t = ct.load(x, index=(0,), shape=(16,))
    s = ct.sum(t, axis=0, keepdims=1)
