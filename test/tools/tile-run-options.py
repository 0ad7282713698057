# tile-run: strict numbers, a --block inside the grid, CUDA's grid limits, names given once,
# messages that name tile-run's own options, and kernel files that are regular files.
# RUN: tile-run %s --kernel k --grid 2,2 --array x=f32:64 --block 1,1 --print x | FileCheck %s --check-prefix=OK
# RUN: not tile-run %s --kernel k --grid 2,2 --array x=f32:64 --block 5,5 2>&1 | FileCheck %s --check-prefix=BLOCK
# RUN: tile-run %s --kernel k --grid 2,2 --array x=f32:64 --block 5,5; test $? -eq 2
# RUN: not tile-run %s --kernel k --grid 2x --array x=f32:64 2>&1 | FileCheck %s --check-prefix=GRIDX
# RUN: not tile-run %s --kernel k --grid 2,,1 --array x=f32:64 2>&1 | FileCheck %s --check-prefix=GRIDEMPTY
# RUN: not tile-run %s --kernel k --grid 0 --array x=f32:64 2>&1 | FileCheck %s --check-prefix=GRID0
# RUN: not tile-run %s --kernel k --grid 1,70000 --array x=f32:64 2>&1 | FileCheck %s --check-prefix=GRIDY
# RUN: tile-run %s --kernel k --grid 1,70000 --array x=f32:64; test $? -eq 2
# RUN: not tile-run %s --kernel k --grid 3000000000 --array x=f32:64 2>&1 | FileCheck %s --check-prefix=GRIDBIG
# RUN: not tile-run %s --kernel k --array x=f32:64x --print x 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: not tile-run %s --kernel k --array x=f32:64:random:7x 2>&1 | FileCheck %s --check-prefix=SEED
# RUN: not tile-run %s --kernel k --array x=f32:64:full=1q 2>&1 | FileCheck %s --check-prefix=FILL
# RUN: not tile-run %s --kernel k --array x=f32:100000x100000x100000 2>&1 | FileCheck %s --check-prefix=HUGE
# RUN: not tile-run %s --kernel k --array x=f32:64 --scalar n=i32:99999999999 2>&1 | FileCheck %s --check-prefix=SCALAR
# RUN: not tile-run %s --kernel k --array x=f32:64 --scalar n=f32:1.5x 2>&1 | FileCheck %s --check-prefix=SCALARF
# RUN: not tile-run %s --kernel k --array x=f32:64 --config -1 2>&1 | FileCheck %s --check-prefix=CONFIG
# RUN: not tile-run %s --kernel k --array x=f32:64 --precision 7x 2>&1 | FileCheck %s --check-prefix=PRECISION
# RUN: not tile-run %s --kernel k --array x=f32:64 --array x=f32:32 2>&1 | FileCheck %s --check-prefix=DUPARRAY
# RUN: tile-run %s --kernel k --array x=f32:64 --array x=f32:32; test $? -eq 2
# RUN: not tile-run %s --kernel k --array x=f32:64 --scalar x=f32:1 2>&1 | FileCheck %s --check-prefix=BOTH
# RUN: not tile-run %s --kernel k --array x=f32:64 --const N=16 --const N=32 2>&1 | FileCheck %s --check-prefix=DUPCONST
# RUN: tile-run %s --kernel k --array x=f32:64 --const N=16 --const N=32; test $? -eq 2
# RUN: not tile-run %s --kernel k --array x=f32:64 --array y=f32:4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: not tile-run %s --kernel k --array x=f32:64 --array N=f32:4 2>&1 | FileCheck %s --check-prefix=CONSTARG
# RUN: not tile-run %s --kernel k --array x=f32:64 --print y 2>&1 | FileCheck %s --check-prefix=PRINT
# RUN: not tile-run %s --kernel k --array x=f32:64 --num-threads 256 2>&1 | FileCheck %s --check-prefix=THREADSCPU
# RUN: not tile-run %s --kernel k --array x=f32:64 --backend gpu --num-threads 96 2>&1 | FileCheck %s --check-prefix=THREADS96
# RUN: tile-run %s --kernel k --array x=f32:64 --backend gpu --num-threads 2048; test $? -eq 2
# THREADSCPU: tile-run: error: --num-threads needs --backend gpu
# THREADS96: tile-run: error: --num-threads 96 must be a power of two from 32 to 1024
# RUN: rm -rf %t.dir && mkdir %t.dir
# RUN: not tile-run %t.dir --kernel k 2>&1 | FileCheck %s --check-prefix=DIR -DDIR=%t.dir
# RUN: tile-run %t.dir --kernel k; test $? -eq 3
# RUN: tile-run /dev/zero --kernel k; test $? -eq 3
# RUN: mkdir -p %t.dir/k.mlir && tile-run %t.dir/k.mlir; test $? -eq 3
import cuda.tile as ct


@ct.kernel
def k(x, N: ct.Constant[int] = 16):
    i = ct.bid(0)
    ct.store(x, (i,), ct.load(x, (i,), (N,)) + 1.0)

# OK: x: float32 (64,)
# OK-NEXT: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
# BLOCK: tile-run: error: --block 5,5,0 is outside --grid 2,2,1 (block indices run from 0 to the grid's extent - 1 along each axis)
# GRIDX: tile-run: error: --grid: '2x' is not an integer
# GRIDEMPTY: tile-run: error: --grid: empty field in '2,,1'
# GRID0: tile-run: error: --grid: 0 is out of range [1, 2147483647]
# GRIDY: tile-run: error: --grid: 70000 is out of range along y (at most 65535, as on CUDA), in '1,70000'
# GRIDBIG: tile-run: error: --grid: 3000000000 is out of range [1, 2147483647]
# SHAPE: tile-run: error: --array x: bad shape '64x': empty field in '64x' (expected e.g. 100x70)
# SEED: tile-run: error: --array x seed: '7x' is not an integer
# FILL: tile-run: error: --array x fill: '1q' is not a number
# HUGE: tile-run: error: --array x: shape '100000x100000x100000' of float32 needs more than the 16 GiB tile-run allows
# SCALAR: tile-run: error: --scalar n (int32): 99999999999 is out of range [-2147483648, 2147483647]
# SCALARF: tile-run: error: --scalar n: '1.5x' is not a number
# CONFIG: tile-run: error: --config: -1 is out of range [0, 2147483647]
# PRECISION: tile-run: error: --precision: '7x' is not an integer
# DUPARRAY: tile-run: error: --array x is given twice
# BOTH: tile-run: error: 'x' is given with both --array and --scalar
# DUPCONST: tile-run: error: --const N is given twice
# UNKNOWN: error: kernel 'k' has no parameter 'y' (given with --array or --scalar)
# CONSTARG: error: 'N' is a ct.Constant parameter; pass it with --const, not --array or --scalar
# PRINT: tile-run: error: --print y: no such --array
# DIR: tile-run: error: '[[DIR]]' is a directory, not a kernel file
# A --block without z is block z = 0 (it used to default to 1, outside a 2-D grid, and ran
# nothing): only block (1, 0) adds 1 to x[16:32].
# RUN: tile-run %s --kernel k --grid 2 --array x=f32:64 --block 1 --print x | FileCheck %s --check-prefix=ONE
# ONE: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
