# ct.pack_to_bytes and ct.unpack_from_bytes refuse what has no whole bytes or no 1-D uint8
# input, with the location and the case.
# RUN: not tile-cc %s --kernel pack_bool --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=BOOL -DFILE=%s
# RUN: not tile-cc %s --kernel pack_scalar --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=SCALAR -DFILE=%s
# RUN: not tile-cc %s --kernel unpack_signed --arg x=i8:1 2>&1 | FileCheck %s --check-prefix=SIGNED -DFILE=%s
# RUN: not tile-cc %s --kernel unpack_2d --arg x=u8:2 2>&1 | FileCheck %s --check-prefix=TWOD -DFILE=%s
# RUN: not tile-cc %s --kernel unpack_ragged --arg x=u8:1 2>&1 | FileCheck %s --check-prefix=RAGGED -DFILE=%s
# RUN: not tile-cc %s --kernel unpack_tf32 --arg x=u8:1 2>&1 | FileCheck %s --check-prefix=TF32 -DFILE=%s
import cuda.tile as ct


# BOOL: [[FILE]]:[[# @LINE + 3]]:22: error: ct.pack_to_bytes needs elements of whole bytes (not bool or tfloat32), got
@ct.kernel
def pack_bool(x):
    ct.pack_to_bytes(ct.load(x, index=(0,), shape=(8,)) > 0)


# SCALAR: [[FILE]]:[[# @LINE + 3]]:22: error: ct.pack_to_bytes needs a tile, got
@ct.kernel
def pack_scalar(x):
    ct.pack_to_bytes(1)


# SIGNED: [[FILE]]:[[# @LINE + 3]]:26: error: ct.unpack_from_bytes needs a 1-D tile of uint8, got
@ct.kernel
def unpack_signed(x):
    ct.unpack_from_bytes(ct.load(x, index=(0,), shape=(8,)), ct.int32)


# TWOD: [[FILE]]:[[# @LINE + 3]]:26: error: ct.unpack_from_bytes needs a 1-D tile of uint8, got
@ct.kernel
def unpack_2d(x):
    ct.unpack_from_bytes(ct.load(x, index=(0, 0), shape=(2, 4)), ct.int32)


# RAGGED: [[FILE]]:[[# @LINE + 3]]:5: error: ct.unpack_from_bytes: 2 bytes do not make whole dtype i32 elements (4 bytes each)
@ct.kernel
def unpack_ragged(x):
    ct.unpack_from_bytes(ct.load(x, index=(0,), shape=(2,)), ct.int32)


# TF32: [[FILE]]:[[# @LINE + 3]]:62: error: ct.unpack_from_bytes needs a dtype of whole bytes (not bool or tfloat32), got
@ct.kernel
def unpack_tf32(x):
    ct.unpack_from_bytes(ct.load(x, index=(0,), shape=(8,)), ct.tfloat32)
