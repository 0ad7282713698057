# Kernels and their specialization: constants and argument types from the command line,
# decorators and kernel options. Command-line syntax errors exit with code 2 and no location.
# RUN: not tile-cc %s --kernel scaled --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOCONST --strict-whitespace
# RUN: not tile-cc %s --kernel scaled --const BLOCK=16 2>&1 | FileCheck %s --check-prefix=NOARG
# RUN: not tile-cc %s --kernel scaled --arg x=f32:1 --const BLOCK=16 --const BLOK=3 --arg y=f32:1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not tile-cc %s --kernel scaled --arg x=f32:1 --const BLOCK=16.5 2>&1 | FileCheck %s --check-prefix=FLOATCONST
# RUN: not tile-cc %s --kernel scaled --arg x=f32:1 --arg BLOCK=i32:0 2>&1 | FileCheck %s --check-prefix=CONSTASARG
# RUN: not tile-cc %s --kernel scaled --const x=3 --const BLOCK=16 2>&1 | FileCheck %s --check-prefix=ARGASCONST
# RUN: not tile-cc %s --kernel default_float --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=DEFAULT
# RUN: not tile-cc %s --kernel flag --arg x=f32:1 --const FLAG=3 2>&1 | FileCheck %s --check-prefix=BOOLCONST
# RUN: not tile-cc %s --kernel str_const --arg x=f32:1 --const N=1 2>&1 | FileCheck %s --check-prefix=STRCONST
# RUN: not tile-cc %s --kernel annotated --arg x=f32:1 --arg n=f32:0 2>&1 | FileCheck %s --check-prefix=ANNOTATED
# RUN: not tile-cc %s --kernel annotated --arg x=f32:1 --arg n=i32:1 2>&1 | FileCheck %s --check-prefix=ANNOTATEDRANK
# RUN: not tile-cc %s --kernel runtime_default --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=RTDEFAULT
# RUN: not tile-cc %s --kernel nope --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOKERNEL
# RUN: not tile-cc %s --kernel helper --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HELPER
# RUN: not tile-cc %s --kernel undecorated --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=UNDECORATED
# RUN: not tile-cc %s --kernel occupancy --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=OCCUPANCY --strict-whitespace
# RUN: not tile-cc %s --kernel num_ctas --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NUMCTAS
# RUN: not tile-cc %s --kernel num_threads --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NUMTHREADS
# RUN: not tile-cc %s --kernel option --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=OPTION
# RUN: not tile-cc %s --kernel positional_option --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=POSOPTION
# RUN: not tile-cc %s --kernel warp_specialize_int --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=WSOPTION
# RUN: not tile-cc %s --kernel tuned --arg x=f32:1 --config 2 2>&1 | FileCheck %s --check-prefix=CONFIG
# RUN: not tile-cc %s --kernel tuned_occupancy --arg x=f32:1 --config 1 2>&1 | FileCheck %s --check-prefix=CONFIGOPTION
# RUN: not tile-cc %s --kernel no_configs --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NOCONFIGS
# RUN: not tile-cc %s --kernel returns --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=RETURNS
# RUN: not tile-cc %s --kernel scaled --arg x=f33:1 --const BLOCK=16 2>&1 | FileCheck %s --check-prefix=BADDTYPE
# RUN: not tile-cc %s --kernel scaled --arg x=f32 --const BLOCK=16 2>&1 | FileCheck %s --check-prefix=ARGFORM
# RUN: not tile-cc %s --kernel scaled --arg x=f32:9 --const BLOCK=16 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not tile-cc %s --kernel scaled --arg x=f32:1 --const BLOCK=abc 2>&1 | FileCheck %s --check-prefix=CONSTVALUE
# The command-line errors exit with 2, compile errors with 1.
# RUN: bash -c 'tile-cc %s --kernel scaled --arg x=f33:1 --const BLOCK=16 2>/dev/null; test $? -eq 2'
# RUN: bash -c 'tile-cc %s --kernel scaled --arg x=f32:1 2>/dev/null; test $? -eq 1'
import cuda.tile as ct


# NOCONST: {{.*}}kernels.py:[[@LINE+20]]:5: error: kernel 'scaled' needs values for constants: BLOCK (pass --const NAME=VALUE)
# NOCONST-NEXT: {{^}}def scaled(x, BLOCK: ct.Constant[int]):
# NOCONST-NEXT: {{^}}    ^~~~~~
# NOCONST: 1 error generated.
# NOARG: {{.*}}kernels.py:[[@LINE+16]]:5: error: kernel 'scaled' needs types for arguments: x (pass --arg NAME=DTYPE:RANK, rank 0 for a scalar)
# NOARG: 1 error generated.
# UNKNOWN: {{.*}}kernels.py:[[@LINE+14]]:5: error: kernel 'scaled' has no parameter 'BLOK' (given with --const)
# UNKNOWN: {{.*}}kernels.py:[[@LINE+13]]:5: error: kernel 'scaled' has no parameter 'y' (given with --arg)
# UNKNOWN: 2 errors generated.
# FLOATCONST: {{.*}}kernels.py:[[@LINE+11]]:15: error: constant 'BLOCK' is declared ct.Constant[int] but was given float 16.5
# FLOATCONST: 1 error generated.
# CONSTASARG: {{.*}}kernels.py:[[@LINE+9]]:15: error: 'BLOCK' is a ct.Constant parameter; pass it with --const, not --arg
# CONSTASARG: 1 error generated.
# ARGASCONST: {{.*}}kernels.py:[[@LINE+7]]:12: error: 'x' is not a ct.Constant parameter; pass its type with --arg, not --const
# ARGASCONST: 1 error generated.
# BADDTYPE: tile-cc: error: --arg argument 'x': unknown dtype 'f33' (expected one of bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, tfloat32, float8_e4m3fn, float8_e5m2)
# ARGFORM: tile-cc: error: --arg argument 'x': expected DTYPE:RANK (rank 0 for a scalar), got 'f32'
# RANK: tile-cc: error: --arg argument 'x': rank '9' is not an integer in [0, 8]
# CONSTVALUE: tile-cc: error: --const constant 'BLOCK' has value 'abc', which is not an integer, a float, True or False
@ct.kernel
def scaled(x, BLOCK: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(BLOCK,))


# DEFAULT: {{.*}}kernels.py:[[@LINE+3]]:22: error: constant 'B' is declared ct.Constant[int] but was given float 2.5
# DEFAULT: 1 error generated.
@ct.kernel
def default_float(x, B: ct.Constant[int] = 2.5):
    pass


# BOOLCONST: {{.*}}kernels.py:[[@LINE+3]]:13: error: constant 'FLAG' is declared ct.Constant[bool] but was given int 3
# BOOLCONST: 1 error generated.
@ct.kernel
def flag(x, FLAG: ct.Constant[bool]):
    pass


# STRCONST: {{.*}}kernels.py:[[@LINE+3]]:21: error: unsupported constant type 'str' (expected ct.Constant[int], [float] or [bool])
# STRCONST: 1 error generated.
@ct.kernel
def str_const(x, N: ct.Constant[str]):
    pass


# ANNOTATED: {{.*}}kernels.py:[[@LINE+5]]:18: error: argument 'n' is annotated 'int' but was given float32:0
# ANNOTATED: 1 error generated.
# ANNOTATEDRANK: {{.*}}kernels.py:[[@LINE+3]]:18: error: argument 'n' is annotated 'int' but was given int32:1
# ANNOTATEDRANK: 1 error generated.
@ct.kernel
def annotated(x, n: int):
    pass


# RTDEFAULT: {{.*}}kernels.py:[[@LINE+3]]:26: error: only ct.Constant parameters may have default values
# RTDEFAULT: 1 error generated.
@ct.kernel
def runtime_default(x, n=3):
    pass


# NOKERNEL: error: no kernel named 'nope' in {{.*}}kernels.py (functions: scaled, default_float, flag, str_const, annotated, runtime_default, helper, undecorated, occupancy, num_ctas, num_threads, option, warp_specialize_int, positional_option, tuned, tuned_occupancy, no_configs, returns)
# NOKERNEL: 1 error generated.
# HELPER: {{.*}}kernels.py:[[@LINE+2]]:2: error: 'helper' is a @ct.function helper, not a kernel; call it from a kernel
# HELPER: 1 error generated.
@ct.function
def helper(x):
    return x


# UNDECORATED: {{.*}}kernels.py:[[@LINE+2]]:5: error: 'undecorated' is not a kernel (decorate it with @ct.kernel)
# UNDECORATED: 1 error generated.
def undecorated(x):
    pass


# OCCUPANCY: {{.*}}kernels.py:[[@LINE+4]]:12: error: occupancy 64 is out of range [1, 32]
# OCCUPANCY-NEXT: {{^}}@ct.kernel(occupancy=64)
# OCCUPANCY-NEXT: {{^}}           ^~~~~~~~~~~~
# OCCUPANCY: 1 error generated.
@ct.kernel(occupancy=64)
def occupancy(x):
    pass


# NUMCTAS: {{.*}}kernels.py:[[@LINE+2]]:12: error: num_ctas 3 must be a power of two in [1, 16]
# NUMCTAS: 1 error generated.
@ct.kernel(num_ctas=3)
def num_ctas(x):
    pass


# NUMTHREADS: {{.*}}kernels.py:[[@LINE+2]]:12: error: num_threads 96 must be a power of two from 32 to 1024
# NUMTHREADS: 1 error generated.
@ct.kernel(num_threads=96)
def num_threads(x):
    pass


# OPTION: {{.*}}kernels.py:[[@LINE+2]]:12: error: unknown kernel option 'num_warps' (expected occupancy, num_ctas, num_threads or warp_specialize)
# OPTION: 1 error generated.
@ct.kernel(num_warps=4)
def option(x):
    pass


# WSOPTION: {{.*}}kernels.py:[[@LINE+2]]:28: error: kernel option 'warp_specialize' must be True or False
# WSOPTION: 1 error generated.
@ct.kernel(warp_specialize=1)
def warp_specialize_int(x):
    pass


# POSOPTION: {{.*}}kernels.py:[[@LINE+2]]:12: error: @ct.kernel takes only keyword options
# POSOPTION: 1 error generated.
@ct.kernel(4)
def positional_option(x):
    pass


# CONFIG: {{.*}}kernels.py:[[@LINE+2]]:22: error: configuration 2 was requested but the kernel has 2 autotune configs
# CONFIG: 1 error generated.
@ct.autotune(configs=[dict(B=16), dict(B=32)])
@ct.kernel
def tuned(x, B: ct.Constant[int]):
    pass


# CONFIGOPTION: {{.*}}kernels.py:[[@LINE+2]]:22: error: occupancy 64 is out of range [1, 32]
# CONFIGOPTION: 1 error generated.
@ct.autotune(configs=[dict(occupancy=2), dict(occupancy=64)], key=["x"])
@ct.kernel
def tuned_occupancy(x):
    pass


# NOCONFIGS: {{.*}}kernels.py:[[@LINE+2]]:2: error: @ct.autotune needs configs=[...]
# NOCONFIGS: 1 error generated.
@ct.autotune(key=["x"])
@ct.kernel
def no_configs(x):
    pass


# RETURNS: {{.*}}kernels.py:[[@LINE+4]]:12: error: kernels return nothing; write results with ct.store
# RETURNS: 1 error generated.
@ct.kernel
def returns(x):
    return 1
