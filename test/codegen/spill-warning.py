# A kernel that spills registers to local memory says so, naming the kernel, its threads and
# registers, the bytes, and what to change. A LayerNorm holding 4 rows of 4096 floats per block
# at 128 threads: 128 registers per thread for the tile alone, across two reductions. At its
# default settings the compiler gives it 512 threads (its widest tile, 16384 elements, at 32 per
# thread; choose-threads.mlir) and it neither spills nor says anything.
# REQUIRES: ptxas
# RUN: tile-cc %s --kernel layer_norm --const TM=4 --const N=4096 --arg x=bf16:2 --arg w=f32:1 --arg b=f32:1 --arg y=bf16:2 --emit=cubin -o %t.cubin --num-threads 128 2>&1 | FileCheck %s
# RUN: tile-cc %s --kernel layer_norm --const TM=4 --const N=4096 --arg x=bf16:2 --arg w=f32:1 --arg b=f32:1 --arg y=bf16:2 --emit=cubin -o %t.cubin 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
# The same warning from every configuration of a package, and from the launcher's images.
# RUN: rm -rf %t.pkg && tile-cc %s --kernel layer_norm --const N=4096 --arg x=bf16:2 --arg w=f32:1 --arg b=f32:1 --arg y=bf16:2 --all-configs -j 1 -o %t.pkg 2>&1 | FileCheck %s --check-prefix=PACKAGE
# CHECK: tile-cc: warning: kernel 'layer_norm' spills registers to local memory at 128 threads per block: {{[0-9]+}} registers, {{[1-9][0-9]*}} bytes stored and {{[1-9][0-9]*}} loaded per thread; give it more threads (@ct.kernel(num_threads=256), or --num-threads 256 to tile-cc and tile-run) or smaller tiles
# QUIET-NOT: warning
# PACKAGE-NOT: configuration 0: kernel
# PACKAGE: tile-cc: warning: configuration 1: kernel 'layer_norm' spills registers to local memory at 128 threads per block
# PACKAGE-NOT: configuration 2: kernel
import cuda.tile as ct


@ct.autotune(configs=[dict(TM=1), dict(TM=4, num_threads=128), dict(TM=4)])
@ct.kernel
def layer_norm(x, w, b, y, TM: ct.Constant[int], N: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(TM, N)).astype(ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) / N
    d = t - mean
    var = ct.sum(d * d, axis=1, keepdims=True) / N
    norm = d * ct.rsqrt(var + 1e-5)
    out = norm * ct.load(w, index=(0,), shape=(N,)) + ct.load(b, index=(0,), shape=(N,))
    ct.store(y, index=(row, 0), tile=out.astype(y.dtype))
