# The shared memory of a pipelined loop at the occupancy a kernel asks for. tile-pipeline-loops
# sizes the stages from an estimate of the lowering's scratch: a product's operand that it reads
# in place from its stage (here x^T, the A operand) takes no scratch, so at occupancy 3 the
# 17408-byte stages get 3 of them beside the computed B operand's 8 KiB and the TMA store's
# staging buffer. When the estimate falls short (the lowering's scratch of the 32-row mma.sync
# product is larger), tile-lower-to-llvm lowers the kernel again with a stage less rather than
# let it take more than its occupancy's share (57344 bytes at occupancy 4), with a remark, or
# says so when no stage can go.
# RUN: tile-cc %s --kernel rows64 --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg s=bf16:2:aligned --arg f=f32:2 --arg n=i32:0 --emit=cubin -o %t.cubin --metadata %t.json --print-ir-after=tile-pipeline-loops 2>&1 | FileCheck %s --check-prefix=STAGES
# RUN: FileCheck %s --check-prefix=SHARED64 < %t.json
# RUN: tile-cc %s --kernel rows32 --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg s=bf16:2:aligned --arg f=f32:2 --arg n=i32:0 --emit=cubin -o %t32.cubin --metadata %t32.json --remarks 2>&1 | FileCheck %s --check-prefix=DROP
# RUN: FileCheck %s --check-prefix=SHARED32 < %t32.json
# RUN: tile-cc %s --kernel rows32 --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg s=bf16:2:aligned --arg f=f32:2 --arg n=i32:0 --emit=ptx -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=DEBUG
# RUN: tile-cc %s --kernel rows64_at8 --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg s=bf16:2:aligned --arg f=f32:2 --arg n=i32:0 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=TIGHT
# RUN: tile-cc %s --kernel rows32_at5 --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg s=bf16:2:aligned --arg f=f32:2 --arg n=i32:0 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=OVER
import cuda.tile as ct


def state_loop(x, b, w, s, f, n, P):
    S = ct.zeros((P, 64), dtype=ct.float32)
    for c in range(n):
        ct.store(s, (c, 0), S.astype(s.dtype))
        xc = ct.load(x, (c, 0), (64, P))
        bc = ct.load(b, (c, 0), (64, 64))
        wv = ct.load(w, (c,), (64,))
        wb = (bc.astype(ct.float32) * wv[:, None]).astype(ct.bfloat16)
        S = ct.mma(ct.transpose(xc), wb, S)
    ct.store(f, (0, 0), S)


# STAGES: tile.pipeline_stage_bytes = 17408 : i64, tile.pipeline_stages = 3 : i64
# SHARED64: "dynamic_shared_memory": 69632,
# SHARED64: "occupancy": 3,
@ct.kernel(occupancy=3)
def rows64(x, b, w, s, f, n: int):
    state_loop(x, b, w, s, f, n, 64)


# DROP: remark: loop pipelined with 2 stages instead of 3: with 3 the kernel needs 59392 bytes of shared memory, over the 57344 a block gets at occupancy 4
# DEBUG: kernel 'rows32': 59392 bytes of shared memory at occupancy 4 (share 57344); lowering again with 2 stages in its last pipelined loop
# DEBUG: kernel 'rows32' -> llvm.func @rows32__tile: 128 threads, 46080 bytes of dynamic shared memory
# SHARED32: "dynamic_shared_memory": 46080,
# SHARED32: "occupancy": 4,
@ct.kernel(occupancy=4)
def rows32(x, b, w, s, f, n: int):
    state_loop(x, b, w, s, f, n, 32)


# At occupancy 5 the loop already has only 2 stages: nothing can go, and the remark says the
# kernel runs fewer blocks per SM than it asks for.
# OVER: remark: the kernel needs 46080 bytes of shared memory, over the 45670 a block gets at occupancy 5: fewer blocks run per SM
@ct.kernel(occupancy=5)
def rows32_at5(x, b, w, s, f, n: int):
    state_loop(x, b, w, s, f, n, 32)


# At occupancy 8 two stages do not fit: the figure counts the stages' mbarriers (8 bytes each
# beside the 17408-byte stage), which decide the cases where the bytes alone would just fit.
# TIGHT: remark: loop not pipelined: 2 stages of its loads need 34832 bytes of shared memory with their mbarriers and {{[0-9]+}} are left at occupancy 8
@ct.kernel(occupancy=8)
def rows64_at8(x, b, w, s, f, n: int):
    state_loop(x, b, w, s, f, n, 64)
