# Kernels that do not fit the target: a located error naming what does not fit and what to
# change, never a raw ptxas failure (issue #45).
#
# Shared memory: an MLA-decoding-like loop reads a 128x512 bf16 KV tile as the B operand of
# two wgmma products (transposed for Q.K^T, as it is for P.V). Its stages do not fit, so the loop
# is not pipelined (a remark); the two 128 KiB operand buffers are live one after the other in
# the loop body, so they share their bytes (tile-allocate-shared compares buffers in the
# innermost block holding both): 196624 bytes in all, where each 128 KiB counted once per
# buffer would need 262144. A 256x512 tile does not fit even alone: the error lists the buffers
# live at once with their sizes and source lines.
# RUN: tile-cc %s --kernel mla --arg q=bf16:2:aligned --arg kv=bf16:2:aligned --arg o=bf16:2:aligned --arg n=i32:0 --const TN=128 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=UNPIPELINED
# RUN: tile-cc %s --kernel mla --arg q=bf16:2:aligned --arg kv=bf16:2:aligned --arg o=bf16:2:aligned --arg n=i32:0 --const TN=128 --emit=gpu -o - | FileCheck %s --check-prefix=SHARED
# RUN: not tile-cc %s --kernel mla --arg q=bf16:2:aligned --arg kv=bf16:2:aligned --arg o=bf16:2:aligned --arg n=i32:0 --const TN=256 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=SMEM
# RUN: tile-cc %s --kernel mla --arg q=bf16:2:aligned --arg kv=bf16:2:aligned --arg o=bf16:2:aligned --arg n=i32:0 --const TN=64 --emit=ptx -o /dev/null
# UNPIPELINED: remark: loop not pipelined: 2 stages of its loads need 262160 bytes of shared memory with their mbarriers
# SHARED: tile.shared_bytes = 196624
#
# Registers: a 256x256 f32 accumulator is 65536 values, the whole register file of a block. At
# the 512 threads the compiler chooses, each warpgroup's m64n256 wgmma keeps 128 accumulator
# registers per thread live, all a thread may have there (ptxas: "Insufficient registers",
# C7602). At 256 threads it compiles (and spills); 256x128 fits at 512.
# RUN: not tile-cc %s --kernel mm --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --const TN=256 --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
# RUN: tile-cc %s --kernel mm --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --const TN=256 --num-threads 256 --emit=ptx -o /dev/null
# Its spill warning does not suggest the 512 threads that the check above refuses.
# RUN: tile-cc %s --kernel mm --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --const TN=256 --num-threads 256 --emit=cubin -o %t.spill.cubin 2>&1 | FileCheck %s --check-prefix=SPILL
# SPILL: tile-cc: warning: kernel 'mm' spills registers to local memory at 256 threads per block: {{.*}} per thread; give it smaller tiles{{$}}
# RUN: tile-cc %s --kernel mm --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --const TN=128 --num-threads 512 --emit=ptx -o /dev/null
#
# When ptxas itself fails, the error names the kernel and that ptxas failed, with its lines.
# RUN: printf '#!/bin/sh\necho "ptxas fatal   : something went wrong"\nexit 3\n' > %t.ptxas && chmod +x %t.ptxas
# RUN: env TILE_PTXAS=%t.ptxas not tile-cc %s --kernel mm --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --const TN=128 --emit=cubin -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
import cuda.tile as ct

# SMEM: remark: loop not pipelined: 2 stages of its loads need 524304 bytes of shared memory with their mbarriers
# SMEM: resource-limits.py:[[@LINE+2]]:5: error: shared memory: the buffers need 327680 bytes, over the 232448 a block may have on sm_90a; 327680 bytes are live at once: 64x512xbf16 (65536 bytes, line [[@LINE+9]]), 256x512xbf16 (262144 bytes, line [[@LINE+9]]); use smaller tiles (or keep fewer of them live at once)
@ct.kernel
def mla(q, kv, o, n: int, TN: ct.Constant[int]):
    qt = ct.load(q, (ct.bid(0), 0), (64, 512))
    m = ct.full((64, 1), -1e30, dtype=ct.float32)
    l = ct.zeros((64, 1), dtype=ct.float32)
    acc = ct.zeros((64, 512), dtype=ct.float32)
    for j in range(n):
        k = ct.load(kv, (j, 0), (TN, 512))
        s = ct.mma(qt, ct.transpose(k), ct.zeros((64, TN), dtype=ct.float32))
        mn = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - mn)
        a = ct.exp(m - mn)
        l = l * a + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.bfloat16), k, acc * a)
        m = mn
    ct.store(o, (ct.bid(0), 0), (acc / l).astype(o.dtype))


# REGS: resource-limits.py:[[@LINE+7]]:15: error: accumulator tile 256x256xf32 does not fit in registers: its wgmma keeps 128 accumulator registers per thread live with operands and addresses beside them (about 160), but at 512 threads per block a thread may have 128 (65536 per block); use a smaller tile (at most 192 columns at 512 threads) or fewer threads (num_threads=256, where the accumulator takes 256 registers per thread and may spill)
# PTXAS: tile-cc: error: ptxas failed on kernel 'mm' (exit code 3):
# PTXAS-NEXT: ptxas fatal   : something went wrong
@ct.kernel
def mm(a, b, c, n: int, TN: ct.Constant[int]):
    acc = ct.zeros((256, TN), dtype=ct.float32)
    for k in range(n):
        acc = ct.mma(ct.load(a, (ct.bid(0), k), (256, 64)), ct.load(b, (k, ct.bid(1)), (64, TN)), acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
