# Bulk tensor stores (TMA): tile-place-tma makes a store that a loop repeats into an aligned
# array a cp.async.bulk.tensor from a staging buffer (TmaStore.h): thread 0 waits until the
# buffer's previous copy has read it, every thread writes its elements in the box's layout
# (swizzled column blocks), fences them for the async proxy, and thread 0 issues one bulk store
# per column block and commits the group; the kernel waits for its stores before it returns.
# Each store that keeps element stores gets a remark saying why.
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=ACC
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2:aligned --arg n=i32:0 --emit=ptx -o /dev/null --print-ir-after=tile-place-tma 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel acc_f32 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=F32
# RUN: tile-cc %s --kernel rank4 --arg x=bf16:4:aligned --arg y=bf16:4:aligned --arg heads=i32:0 --emit=ptx | FileCheck %s --check-prefix=RANK4
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2 --arg n=i32:0 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=UNALIGNED
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=PLAIN
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2:aligned --arg n=i32:0 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel refused --arg x=f32:2:aligned --arg y=f32:2:aligned --arg z=f32:2:aligned --arg w=f32:2:aligned --arg v=f32:2:aligned --arg n=i32:0 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=REFUSED
# RUN: tile-cc %s --kernel acc_bf16 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2:aligned --arg n=i32:0 --emit=ptx -debug-only=tile-place-tma,tile-lower-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
# RUN: tile-cc %s --kernel single --arg x=f32:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx -debug-only=tile-lower-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=SINGLE-DEBUG
# RUN: tile-cc %s --kernel single --arg x=f32:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=SINGLE
# RUN: tile-cc %s --kernel row_per_iteration --arg x=f32:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx -o /dev/null --print-ir-after=tile-place-tma 2>&1 >/dev/null | FileCheck %s --check-prefix=ROW
import cuda.tile as ct


# A bf16 accumulator, 64 x 64 (128-byte rows: one 128-byte swizzled block), stored every
# iteration at the row block the loop counts.
# IR: tile.kernel @acc_bf16
# IR-SAME: tile.tma_maps = [{{.*}}{arg = 2 : i64, box = array<i64: 64, 64>, nan_fill = false, swizzle = 128 : i64}]
# IR-SAME: tile.tma_store_bytes = 8192 : i64
# IR: tile.store {{.*}}{tile.tma = {{[0-9]+}} : i64}
# Thread 0 waits until the previous bulk store has read the staging buffer, a barrier (the
# pipelined loop's own at the top of the iteration: the store, the loop's only bulk store,
# adds none); the buffer gets the fragment pairs; the writes are fenced for the async proxy; a
# barrier (after thread 0's wait, a no-op with one buffer); thread 0 stores and commits. (Two
# alternating buffers, one barrier per store, and a store in a loop without stages, with both
# of its barriers: tma-store-lowering.mlir.)
# ACC: cp.async.bulk.wait_group.read 0;
# ACC: bar.sync 0;
# ACC-NOT: bar.sync
# ACC: st.shared.{{b32|v2.b16}} [%r{{[0-9]+}}+{{[0-9]+}}]
# ACC: fence.proxy.async.shared::cta;
# ACC: cp.async.bulk.wait_group.read 0;
# ACC: bar.sync 0;
# ACC: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# ACC-NEXT: // end inline asm
# ACC-NEXT: // begin inline asm
# ACC-NEXT: cp.async.bulk.commit_group;
# ACC: cp.async.bulk.wait_group 0;
# ACC: ret;
# ACC-NOT: st.global
# The same kernel without TMA: element stores, no bulk copies.
# UNALIGNED: remark: store not written by TMA: the array 'c' is not known to be 16-byte aligned
# PLAIN-NOT: bulk_group
# PLAIN: st.global
# SM80-NOT: cp.async.bulk
# SM80: st.global
# DEBUG: [tile-place-tma] store at {{.*}}: TMA descriptor {{[0-9]+}} over 'c', box 64 64, swizzle 128, staging 8192 bytes
# DEBUG: [tile-lower-to-llvm] kernel 'acc_bf16': 1 staging buffer(s) of 8192 bytes for TMA stores at offset {{[0-9]+}}
@ct.kernel
def acc_bf16(a, b, c, n: int):
    j = ct.bid(0)
    for i in range(n):
        acc = ct.mma(ct.load(a, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(b, (0, j), (64, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.zeros((64, 64), dtype=ct.float32))
        ct.store(c, (i, j), acc.astype(ct.bfloat16))


# f32 rows of 256 bytes: two 128-byte column blocks, two bulk stores 32 columns apart.
# F32-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# F32: cp.async.bulk.commit_group;
@ct.kernel
def acc_f32(a, b, c, n: int):
    j = ct.bid(0)
    for i in range(n):
        acc = ct.mma(ct.load(a, (i, 0), (64, 32), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(b, (0, j), (32, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.zeros((64, 64), dtype=ct.float32))
        ct.store(c, (i, j), acc)


# A rank-4 tile (Mamba-2's y) at a head the loop counts (h = h0 + hh): a 4-D box.
# RANK4: cp.async.bulk.tensor.4d.global.shared::cta.bulk_group
@ct.kernel
def rank4(x, y, heads: int):
    c = ct.bid(0)
    for h in range(heads):
        t = ct.load(x, (0, c, h, 0), (1, 64, 1, 32), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (0, c, h, 0), (t.astype(ct.float32) * -0.5).astype(ct.bfloat16))


# What keeps element stores, one remark each: the same tile every iteration (nothing orders two
# bulk stores), an array the kernel also reads, allow_tma=False; a store
# outside loops has no remark.
# REFUSED-DAG: remark: store not written by TMA: no tile index changes with every iteration of the loop around it
# REFUSED-DAG: remark: store not written by TMA: the kernel also accesses 'z' elsewhere
# REFUSED-DAG: remark: store not written by TMA: allow_tma=False
# REFUSED-NOT: remark: store not written by TMA
@ct.kernel
def refused(x, y, z, w, v, n: int):
    for i in range(n):
        t = ct.load(x, (i, 0), (16, 16), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (0, 0), t)
        ct.store(z, (i, 0), t + ct.load(z, (i, 0), (16, 16), padding_mode=ct.PaddingMode.ZERO))
        ct.store(w, (i, 0), t, allow_tma=False)
    ct.store(v, (0, 0), ct.load(x, (0, 0), (16, 16)))


# A 16 KiB tile at occupancy 8 (27.5 KiB a block): the staging buffer fits beside nothing else,
# so the loop's load is not pipelined; one buffer, waited for before anyone writes it.
# SINGLE-DEBUG: kernel 'single': 1 staging buffer(s) of 16384 bytes for TMA stores at offset 0
# SINGLE: cp.async.bulk.wait_group.read 0;
# SINGLE: bar.sync 0;
# SINGLE: st.shared
# SINGLE: fence.proxy.async.shared::cta;
# SINGLE: cp.async.bulk.wait_group.read 0;
# SINGLE: bar.sync 0;
# SINGLE: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
@ct.kernel(occupancy=8)
def single(x, y, n: int):
    for i in range(n):
        t = ct.load(x, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (i, 0), t * 2.0)


# One row per iteration (NVIDIA's softmax_per_row): a 1 x 128 f32 tile has no 8 rows for the
# 128-byte swizzle's period (the copy engine swizzles by address, the staging by row), so it
# is staged unswizzled in one box of the whole row; swizzled 32-column boxes stored the
# columns past the first 32 permuted on the GPU.
# ROW: tile.tma_maps = [{{.*}}{arg = 1 : i64, box = array<i64: 1, 128>, nan_fill = false, swizzle = 0 : i64}]
@ct.kernel
def row_per_iteration(x, y, n: int):
    for i in range(ct.bid(0), n, ct.num_blocks(0)):
        row = ct.load(x, index=(i, 0), shape=(1, 128))
        e = ct.exp(row - ct.max(row, axis=1, keepdims=True))
        ct.store(y, index=(i, 0), tile=e / ct.sum(e, axis=1, keepdims=True))
