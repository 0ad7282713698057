# tile-cc -o writes through a temporary file renamed into place on success: a failed compile
# leaves an existing output as it was, and -o/--metadata naming the input (directly or through
# a symlink) or each other is refused (exit 2) with the input unchanged.
# RUN: rm -rf %t && mkdir %t && cp %s %t/k.py && cp %s %t/orig.py
# RUN: not tile-cc %t/k.py --kernel k --arg x=f32:1 -o %t/k.py 2>&1 | FileCheck %s --check-prefix=SELF -DT=%t
# RUN: tile-cc %t/k.py --kernel k --arg x=f32:1 -o %t/k.py; test $? -eq 2
# RUN: cmp %t/k.py %t/orig.py
# RUN: ln -s k.py %t/link.py
# RUN: not tile-cc %t/k.py --kernel k --arg x=f32:1 -o %t/link.py 2>&1 | FileCheck %s --check-prefix=LINK -DT=%t
# RUN: cd %t && not tile-cc k.py --kernel k --arg x=f32:1 -o ./sub/../k.py 2>&1 | FileCheck %s --check-prefix=DOTS
# RUN: cmp %t/k.py %t/orig.py
# RUN: not tile-cc %t/k.py --kernel k --arg x=f32:1 --emit=cubin -o %t/a.cubin --metadata %t/link.py 2>&1 | FileCheck %s --check-prefix=META -DT=%t
# RUN: not tile-cc %t/k.py --kernel k --arg x=f32:1 --emit=cubin -o %t/a.cubin --metadata %t/a.cubin 2>&1 | FileCheck %s --check-prefix=BOTH -DT=%t
# RUN: cmp %t/k.py %t/orig.py
#
# A failed compile (a missing --arg) keeps an existing output, and leaves no temporary file.
# RUN: echo keep > %t/out.mlir
# RUN: not tile-cc %t/k.py --kernel k -o %t/out.mlir
# RUN: echo keep | cmp - %t/out.mlir
# RUN: tile-cc %t/k.py --kernel k --arg x=f32:1 -o %t/out.mlir
# RUN: FileCheck %s --check-prefix=IR < %t/out.mlir
# RUN: ls -A %t | FileCheck %s --check-prefix=NOTEMP
# A file size limit fails the write with the old output intact (exit 3).
# RUN: echo keep > %t/out.mlir
# RUN: bash -c 'ulimit -f 0; tile-cc %t/k.py --kernel k --arg x=f32:1 -o %t/out.mlir; test $? -eq 3'
# RUN: echo keep | cmp - %t/out.mlir
# Special files are written in place, never renamed over.
# RUN: tile-cc %t/k.py --kernel k --arg x=f32:1 -o /dev/null
# RUN: test -c /dev/null
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.store(x, (0,), ct.load(x, (0,), (16,)))

# SELF: tile-cc: error: -o '[[T]]/k.py' is the input file; refusing to overwrite it
# LINK: tile-cc: error: -o '[[T]]/link.py' is the input file; refusing to overwrite it
# DOTS: tile-cc: error: -o './sub/../k.py' is the input file; refusing to overwrite it
# META: tile-cc: error: --metadata '[[T]]/link.py' is the input file; refusing to overwrite it
# BOTH: tile-cc: error: --metadata '[[T]]/a.cubin' and -o '[[T]]/a.cubin' are the same file
# IR: tile.kernel
# NOTEMP-NOT: tmp
