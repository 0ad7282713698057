# tile-cc's numeric options are parsed strictly, a repeated --const/--arg is an error, and an
# input that is not a regular file is refused (exit 2 for the command line, 3 for the input).
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --config -1 2>&1 | FileCheck %s --check-prefix=CONFIG
# RUN: tile-cc %s --kernel k --arg x=f32:1 --config -1; test $? -eq 2
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --config 1x 2>&1 | FileCheck %s --check-prefix=CONFIGX
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --num-threads -5 2>&1 | FileCheck %s --check-prefix=THREADS
# RUN: tile-cc %s --kernel k --arg x=f32:1 --num-threads abc; test $? -eq 2
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --num-threads 48 2>&1 | FileCheck %s --check-prefix=THREADS48
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --error-limit -1 2>&1 | FileCheck %s --check-prefix=LIMIT
# RUN: tile-cc %s --kernel k --arg x=f32:1 --error-limit 0x10; test $? -eq 2
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --const N=4 --const N=8 2>&1 | FileCheck %s --check-prefix=DUPCONST
# RUN: tile-cc %s --kernel k --arg x=f32:1 --const N=4 --const N=4; test $? -eq 2
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg x=f32:2 2>&1 | FileCheck %s --check-prefix=DUPARG
# RUN: tile-cc %s --kernel k --arg x=f32:1 --arg x=f32:2; test $? -eq 2
# RUN: rm -rf %t.dir && mkdir %t.dir
# RUN: not tile-cc %t.dir --kernel k 2>&1 | FileCheck %s --check-prefix=DIR -DDIR=%t.dir
# RUN: tile-cc %t.dir --kernel k; test $? -eq 3
# RUN: not tile-cc /dev/zero --kernel k 2>&1 | FileCheck %s --check-prefix=DEV
# RUN: tile-cc /dev/zero --kernel k; test $? -eq 3
# RUN: tile-cc %s --kernel k --arg x=f32:1 --config 0 --error-limit 5 --num-threads 256 -o /dev/null
import cuda.tile as ct


@ct.kernel
def k(x, N: ct.Constant[int] = 16):
    ct.store(x, (0,), ct.load(x, (0,), (N,)))

# CONFIG: tile-cc: error: --config: -1 is out of range [0, 2147483647]
# CONFIGX: tile-cc: error: --config: '1x' is not an integer
# THREADS: tile-cc: error: --num-threads: -5 is out of range [32, 1024]
# THREADS48: tile-cc: error: --num-threads 48 must be a power of two from 32 to 1024
# LIMIT: tile-cc: error: --error-limit: -1 is out of range [0, 2147483647]
# DUPCONST: tile-cc: error: --const N is given twice
# DUPARG: tile-cc: error: --arg x is given twice
# DIR: tile-cc: error: '[[DIR]]' is a directory, not a kernel source file
# DEV: tile-cc: error: '/dev/zero' is not a regular file (a device, FIFO or socket), not a kernel source file
