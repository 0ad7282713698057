# The second round of hostile inputs (each RUN line a reproducer that failed before): inputs
# that never end, outputs that are inputs, options given twice, tools' messages for what they
# cannot do. Exit codes: 2 for the command line, 3 for input/output, 1 for the kernel.
# RUN: rm -rf %t && mkdir %t && cp %s %t/k.py
#
# Unbounded reads: /dev/zero and a FIFO nobody writes are refused at once (they used to grow
# to the OOM killer or block forever); standard input past the limit too.
# RUN: not tile-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: mkfifo %t/fifo
# RUN: not tile-opt %t/fifo 2>&1 | FileCheck %s --check-prefix=FIFO -DT=%t
# RUN: not env TILE_SSD_SOURCE=/dev/zero tile-ssd --interpret 2>&1 | FileCheck %s --check-prefix=SSDZERO
# RUN: not env TILE_SSD_SOURCE=%t/fifo tile-ssd --interpret 2>&1 | FileCheck %s --check-prefix=SSDFIFO -DT=%t
# RUN: truncate -s 300000000 %t/big.mlir
# RUN: not tile-opt - < %t/big.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
# RUN: not tile-opt %t/big.mlir 2>&1 | FileCheck %s --check-prefix=BIG
#
# Outputs that are inputs: the tuning table, and a kernel source named like a package file.
# RUN: echo '{}' > %t/t.h && cp %t/t.h %t/t.cpp
# RUN: not tile-cc %t/k.py --kernel auto --arg x=f32:1 --emit=launcher --config all --ptx-only --tuning-table %t/t.h -o %t/t.h 2>&1 | FileCheck %s --check-prefix=TABLEH
# RUN: not tile-cc %t/k.py --kernel auto --arg x=f32:1 --emit=launcher --config all --ptx-only --tuning-table %t/t.cpp -o %t/t.h 2>&1 | FileCheck %s --check-prefix=TABLECPP
# RUN: echo '{}' | cmp - %t/t.h && echo '{}' | cmp - %t/t.cpp
# RUN: mkdir %t/pk && cp %s %t/pk/manifest.json
# RUN: not tile-cc %t/pk/manifest.json --kernel auto --arg x=f32:1 --all-configs --emit=ptx -o %t/pk 2>&1 | FileCheck %s --check-prefix=MANIFEST
# RUN: cmp %s %t/pk/manifest.json
#
# Options given twice are refused (the last one used to win silently).
# RUN: not tile-cc %t/k.py --kernel one --arg x=f32:1 -o %t/a -o %t/b 2>&1 | FileCheck %s --check-prefix=TWICEO
# RUN: not tile-run %t/k.py --kernel one --array x=f32:64 --grid 2,2 --grid 1 2>&1 | FileCheck %s --check-prefix=TWICEGRID
# RUN: tile-run %t/k.py --kernel one --array x=f32:64 --grid 2,2 --grid 1; test $? -eq 2
#
# A ptxas that exits 0 and writes nothing: an error, no 0-byte cubin.
# RUN: printf '#!/bin/sh\nexit 0\n' > %t/ptxas && chmod +x %t/ptxas
# RUN: not env TILE_PTXAS=%t/ptxas tile-cc %t/k.py --kernel one --arg x=f32:1 --emit=cubin -o %t/one.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS -DT=%t
# RUN: test ! -e %t/one.cubin && test ! -e %t/one.json
#
# printf conversions are checked against their arguments (%s used to pass an integer as a pointer).
# RUN: not tile-cc %t/k.py --kernel prints --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=PRINTF
#
# Out of memory: one line and exit code 3, not LLVM's abort (exit 134) or an uncaught bad_alloc.
# RUN: (ulimit -v 1500000; tile-run %t/k.py --kernel one --array x=f32:16384x16384x2 --print none; test $? -eq 3)
# RUN: (ulimit -v 1500000; not tile-run %t/k.py --kernel one --array x=f32:16384x16384x2 --print none 2>&1) | FileCheck %s --check-prefix=OOM
#
# tile-run --help names the fills and when --kernel is needed.
# RUN: tile-run --help | FileCheck %s --check-prefix=HELP
import cuda.tile as ct


@ct.kernel
def one(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (16,)) + 1.0)


@ct.autotune(configs=[dict(B=16), dict(B=32)], key=[])
@ct.kernel
def auto(x, B: ct.Constant[int]):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)))


@ct.kernel
def prints(x):
    ct.printf("%s\n", ct.bid(0))

# ZERO: tile-opt: error: /dev/zero: is not a regular file
# FIFO: tile-opt: error: [[T]]/fifo: is not a regular file
# SSDZERO: TILE_SSD_SOURCE=/dev/zero: is not a regular file
# SSDFIFO: TILE_SSD_SOURCE=[[T]]/fifo: is not a regular file
# STDIN: tile-opt: error: <stdin>: is more than 256.0 MiB, the limit for this kind of input
# BIG: tile-opt: error: {{.*}}big.mlir: is 286.1 MiB; the limit for this kind of file is 256.0 MiB
# TABLEH: tile-cc: error: -o '{{.*}}t.h' is the --tuning-table file; refusing to overwrite it
# TABLECPP: tile-cc: error: the launcher source (from -o) '{{.*}}t.cpp' is the --tuning-table file; refusing to overwrite it
# MANIFEST: tile-cc: error: the package's manifest '{{.*}}pk/manifest.json' is the input file; refusing to overwrite it
# TWICEO: tile-cc: error: -o is given 2 times; give it once (the last would silently replace the others)
# TWICEGRID: tile-run: error: --grid is given 2 times; give it once (the last would silently replace the others)
# PTXAS: tile-cc: error: [[T]]/ptxas exited 0 but wrote nothing as the cubin
# PRINTF: k.py:{{[0-9]+}}:5: error: ct.printf: argument #0: %s reads a string or pointer, but tile values are numbers (use %d for integers, %f or %g for floats)
# OOM: tile-run: error: out of memory
# HELP: --array=<NAME=DTYPE:SHAPE[:FILL[:LAYOUT]] | NAME=@FILE.npy>
# HELP-SAME: FILL: zeros (default), ones, iota
# HELP: --kernel=<NAME> {{.*}}required for a .py file
# HELP: --save=<DIR>
