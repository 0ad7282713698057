# tile-run reads arrays from .npy files (--array NAME=@FILE.npy: dtype and shape from the file)
# and writes every array after the run (--save DIR: DIR/NAME.npy, all or none, atomically).
# RUN: rm -rf %t && mkdir %t
# A run saved, then read back as the next run's input: the kernel adds 1 to the first 16.
# RUN: tile-run %s --kernel k --array x=f32:4x8:iota --print none --save %t/a
# RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); assert d[:6] == b'\x93NUMPY', d[:6]; print(d[10:80].decode())" %t/a/x.npy | FileCheck %s --check-prefix=HEADER
# RUN: tile-run %s --kernel k --array x=@%t/a/x.npy --print x | FileCheck %s --check-prefix=AGAIN
# A column-major array is saved in its logical (row-major) order.
# RUN: tile-run %s --kernel k --array x=f32:4x8:iota:colmajor --print none --save %t/c
# RUN: tile-run %s --kernel k --array x=@%t/c/x.npy --print x | FileCheck %s --check-prefix=AGAIN
# 16-bit floats keep their dtype through the file.
# RUN: tile-run %s --kernel k --array x=bf16:4x8:ones --print none --save %t/b
# RUN: tile-run %s --kernel k --array x=@%t/b/x.npy --print x | FileCheck %s --check-prefix=BF16
# So do int8 (int8 weights) and the other integer widths .npy holds unambiguously.
# RUN: tile-run %s --kernel inc --array x=i8:4x8:iota --print none --save %t/i8
# RUN: tile-run %s --kernel inc --array x=@%t/i8/x.npy --print x | FileCheck %s --check-prefix=INT8
#
# Errors, before the run: a missing or malformed file, an output that is the input, a dtype
# .npy files do not hold here, an unwritable folder.
# RUN: not tile-run %s --kernel k --array x=@%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING -DT=%t
# RUN: echo garbage > %t/bad.npy
# RUN: not tile-run %s --kernel k --array x=@%t/bad.npy 2>&1 | FileCheck %s --check-prefix=BAD -DT=%t
# RUN: not tile-run %s --kernel k --array x=@ 2>&1 | FileCheck %s --check-prefix=EMPTY
# RUN: cp %t/a/x.npy %t/keep.npy
# RUN: not tile-run %s --kernel k --array x=@%t/a/x.npy --save %t/a 2>&1 | FileCheck %s --check-prefix=ONTO
# RUN: cmp %t/a/x.npy %t/keep.npy
# RUN: not tile-run %s --kernel k --array x=i16:64 --save %t/u 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: test ! -e %t/u
# RUN: touch %t/file
# RUN: not tile-run %s --kernel k --array x=f32:64 --save %t/file 2>&1 | FileCheck %s --check-prefix=NOTDIR
import cuda.tile as ct


@ct.kernel
def k(x):
    t = ct.load(x, (0, 0), (2, 8))
    ct.store(x, (0, 0), t + 1.0)


@ct.kernel
def inc(x):
    ct.store(x, (0, 0), ct.load(x, (0, 0), (2, 8)) + 1)

# INT8: x: int8 (4, 8)
# INT8-NEXT: {{\[}}[2, 3, 4, 5, 6, 7, 8, 9],
# INT8-NEXT: [10, 11, 12, 13, 14, 15, 16, 17],
# INT8-NEXT: [16, 17, 18, 19, 20, 21, 22, 23],

# HEADER: {'descr': '<f4', 'fortran_order': False, 'shape': (4, 8)
# AGAIN: x: float32 (4, 8)
# AGAIN-NEXT: {{\[}}[2, 3, 4, 5, 6, 7, 8, 9],
# AGAIN-NEXT: [10, 11, 12, 13, 14, 15, 16, 17],
# AGAIN-NEXT: [16, 17, 18, 19, 20, 21, 22, 23],
# AGAIN-NEXT: [24, 25, 26, 27, 28, 29, 30, 31]]
# BF16: x: bfloat16 (4, 8)
# BF16-NEXT: {{\[}}[3, 3, 3, 3, 3, 3, 3, 3],
# BF16-NEXT: [3, 3, 3, 3, 3, 3, 3, 3],
# BF16-NEXT: [1, 1, 1, 1, 1, 1, 1, 1],
# MISSING: tile-run: error: --array x: [[T]]/missing.npy: cannot open: No such file or directory
# BAD: tile-run: error: --array x: [[T]]/bad.npy:
# EMPTY: tile-run: error: --array x=@ needs a file name (NAME=@FILE.npy)
# ONTO: tile-run: error: --save '{{.*}}/a/x.npy' is the input of --array x; refusing to overwrite it
# DTYPE: tile-run: error: --save: array 'x' is int16, which tile-run does not write to .npy (float16, bfloat16, float32, float64, bool_, int8, int32, int64, uint8, uint32, uint64)
# NOTDIR: tile-run: error: --save: '{{.*}}file' exists and is not a directory
