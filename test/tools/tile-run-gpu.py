# tile-run --backend gpu: its options are checked before anything runs, and without a GPU it
# says why instead of running the interpreter alone. (On the GPU machine, scripts/gpu-run.sh
# runs it against the interpreter: every array compared, then --bench.)
# RUN: not tile-run %s --kernel k --array x=f32:64 --backend cpu 2>&1 | FileCheck %s --check-prefix=BACKEND
# RUN: not tile-run %s --kernel k --array x=f32:64 --bench 5 2>&1 | FileCheck %s --check-prefix=BENCH
# RUN: not tile-run %s --kernel k --array x=f32:64 --rtol 1e-3 2>&1 | FileCheck %s --check-prefix=RTOL
# RUN: not tile-run %s --kernel k --array x=f32:64 --backend gpu --bench 0 2>&1 | FileCheck %s --check-prefix=BENCH0
# RUN: not tile-run %s --kernel k --array x=f32:64 --backend gpu --flops 1e9 2>&1 | FileCheck %s --check-prefix=FLOPS
# RUN: not tile-run %s --kernel k --array x=f32:64 --backend gpu --atol -1 2>&1 | FileCheck %s --check-prefix=ATOL
# RUN: not tile-run %s --kernel k --grid 2 --array x=f32:64 --backend gpu --block 1 2>&1 | FileCheck %s --check-prefix=BLOCK
# RUN: not tile-run %S/Inputs/add-one.mlir --grid 1 --array arg0=f32:64 --backend gpu 2>&1 | FileCheck %s --check-prefix=MLIR
# RUN: env TILE_CUDA_DRIVER=/nonexistent/libcuda.so.1 not tile-run %s --kernel k --array x=f32:64:iota --backend gpu --print none 2>&1 | FileCheck %s --check-prefix=NOGPU
# RUN: tile-run %s --kernel k --array x=f32:64:iota --print none | count 0
# BACKEND: tile-run: error: --backend cpu: expected interpreter or gpu
# BENCH: tile-run: error: --bench needs --backend gpu
# RTOL: tile-run: error: --rtol needs --backend gpu
# BENCH0: tile-run: error: --bench
# FLOPS: tile-run: error: --flops needs --bench N
# ATOL: tile-run: error: --atol
# BLOCK: tile-run: error: --block runs one block on the interpreter; the GPU runs the whole grid
# MLIR: tile-run: error: --backend gpu compiles kernel sources (.py) with the JIT; run .mlir files on the interpreter
# NOGPU: tile-run: error: --backend gpu: {{.+}}
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (64,)) + 1.0)
