# Type errors: dtypes that do not match, operands of the wrong kind, compile-time arithmetic.
# RUN: not tile-cc %s --kernel store_dtype --arg x=f32:1 --arg y=f16:1 2>&1 | FileCheck %s --check-prefix=STORE --strict-whitespace
# RUN: not tile-cc %s --kernel bitand_float --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=BITAND
# RUN: not tile-cc %s --kernel astype_string --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ASTYPE
# RUN: not tile-cc %s --kernel astype_array --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ASTYPEARR
# RUN: not tile-cc %s --kernel tuple_operand --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=TUPLE
# RUN: not tile-cc %s --kernel array_operand --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ARRAY
# RUN: not tile-cc %s --kernel dtype_operand --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not tile-cc %s --kernel compare_string --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=CMP
# RUN: not tile-cc %s --kernel negate_string --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=NEG
# RUN: not tile-cc %s --kernel invert_float --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INVERT
# RUN: not tile-cc %s --kernel and_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=AND
# RUN: not tile-cc %s --kernel div_zero --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=DIVZERO
# RUN: not tile-cc %s --kernel overflow --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=OVERFLOW
# RUN: not tile-cc %s --kernel shift --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=SHIFT
# RUN: not tile-cc %s --kernel where_cond --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=WHERE
# RUN: not tile-cc %s --kernel cdiv_float --arg x=f32:1 --arg s=f32:0 2>&1 | FileCheck %s --check-prefix=CDIV
# RUN: not tile-cc %s --kernel int_of_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INT
# RUN: not tile-cc %s --kernel index_float --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=INDEX
# RUN: not tile-cc %s --kernel unpack_scalar --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=UNPACK
# RUN: not tile-cc %s --kernel unpack_count --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=UNPACK3
# RUN: not tile-cc %s --kernel assign_element --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=IMMUTABLE
# RUN: not tile-cc %s --kernel is_tile --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=IS
import cuda.tile as ct


# STORE: {{.*}}types.py:[[@LINE+7]]:29: error: ct.store: the tile has dtype f32 but the array has dtype f16, which it does not widen to; convert it with .astype(array.dtype)
# STORE-NEXT: {{^}}    ct.store(y, index=(0,), tile=t)
# STORE-NEXT: {{^}}                            ^~~~~~
# STORE: 1 error generated.
@ct.kernel
def store_dtype(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=t)


# BITAND: {{.*}}types.py:[[@LINE+5]]:11: error: '&' needs integer or boolean operands, got tile<16xf32> and int 1
# BITAND: 1 error generated.
@ct.kernel
def bitand_float(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t & 1


# ASTYPE: {{.*}}types.py:[[@LINE+5]]:18: error: the dtype must be a dtype such as ct.float32, got string "float16"
# ASTYPE: 1 error generated.
@ct.kernel
def astype_string(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t.astype("float16")


# ASTYPEARR: {{.*}}types.py:[[@LINE+4]]:19: error: astype needs a tile or a scalar, got array<f32, rank 1>
# ASTYPEARR: 1 error generated.
@ct.kernel
def astype_array(x):
    u = ct.astype(x, ct.float16)


# TUPLE: {{.*}}types.py:[[@LINE+5]]:13: error: unsupported operand for '+': tuple (1, 2)
# TUPLE: 1 error generated.
@ct.kernel
def tuple_operand(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t + (1, 2)


# ARRAY: {{.*}}types.py:[[@LINE+5]]:13: error: unsupported operand for '*': array<f32, rank 1>
# ARRAY: 1 error generated.
@ct.kernel
def array_operand(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t * x


# DTYPE: {{.*}}types.py:[[@LINE+5]]:21: error: unsupported operand for '+': dtype f32
# DTYPE: 1 error generated.
@ct.kernel
def dtype_operand(x):
    t = ct.load(x, index=(0,), shape=(16,))
    s = ct.sum(t) + ct.float32


# CMP: {{.*}}types.py:[[@LINE+5]]:13: error: cannot compare string "a" with '<'
# CMP: 1 error generated.
@ct.kernel
def compare_string(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t < "a"


# NEG: {{.*}}types.py:[[@LINE+4]]:9: error: bad operand for unary '-': string "s"
# NEG: 1 error generated.
@ct.kernel
def negate_string(x):
    u = -"s"


# INVERT: {{.*}}types.py:[[@LINE+5]]:9: error: bad operand for unary '~': tile<16xf32>
# INVERT: 1 error generated.
@ct.kernel
def invert_float(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ~t


# AND: {{.*}}types.py:[[@LINE+5]]:9: error: 'and' on run-time values needs booleans, got tile<16xf32>; compare first (x > 0) or use & and |
# AND: 1 error generated.
@ct.kernel
def and_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = t and t


# DIVZERO: {{.*}}types.py:[[@LINE+4]]:11: error: integer division or modulo by zero
# DIVZERO: 1 error generated.
@ct.kernel
def div_zero(x):
    c = 1 // 0


# OVERFLOW: {{.*}}types.py:[[@LINE+4]]:11: error: integer overflow in a compile-time expression (64-bit)
# OVERFLOW: 1 error generated.
@ct.kernel
def overflow(x):
    c = 3 ** 50


# SHIFT: {{.*}}types.py:[[@LINE+4]]:11: error: shift count 70 is out of range
# SHIFT: 1 error generated.
@ct.kernel
def shift(x):
    c = 1 << 70


# WHERE: {{.*}}types.py:[[@LINE+5]]:18: error: ct.where needs a boolean condition, got tile<16xf32>
# WHERE: 1 error generated.
@ct.kernel
def where_cond(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.where(t, t, 0.0)


# CDIV: {{.*}}types.py:[[@LINE+4]]:17: error: ct.cdiv needs integers, got scalar f32
# CDIV: 1 error generated.
@ct.kernel
def cdiv_float(x, s: float):
    n = ct.cdiv(s, 16)


# INT: {{.*}}types.py:[[@LINE+5]]:13: error: int() needs a scalar, got tile<16xf32>
# INT: 1 error generated.
@ct.kernel
def int_of_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    u = int(t)


# INDEX: {{.*}}types.py:[[@LINE+4]]:20: error: a tile index must be an integer, got float 0.5
# INDEX: 1 error generated.
@ct.kernel
def index_float(x):
    t = ct.load(x, index=(0.5,), shape=(16,))


# UNPACK: {{.*}}types.py:[[@LINE+4]]:12: error: cannot unpack scalar i32 into 2 names
# UNPACK: 1 error generated.
@ct.kernel
def unpack_scalar(x):
    a, b = ct.bid(0)


# UNPACK3: {{.*}}types.py:[[@LINE+4]]:15: error: cannot unpack a tuple of 2 values into 3 names
# UNPACK3: 1 error generated.
@ct.kernel
def unpack_count(x):
    a, b, c = (1, 2)


# IMMUTABLE: {{.*}}types.py:[[@LINE+5]]:5: error: tiles are immutable: assignment to an element or slice is not supported
# IMMUTABLE: 1 error generated.
@ct.kernel
def assign_element(x):
    t = ct.load(x, index=(0,), shape=(16,))
    t[0] = 1.0


# IS: {{.*}}types.py:[[@LINE+5]]:11: error: 'is' compares only with None or between dtypes
# IS: 1 error generated.
@ct.kernel
def is_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    b = t is t
