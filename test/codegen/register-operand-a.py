# A Tensor Core product whose A operand is computed in registers (not a load) takes A's
# fragments from registers when every thread can build its own elements (tile-assign-layouts
# gives A the #tile.mma layout, tile-remove-layout-conversions rematerializes it): wgmma's
# register-A form on sm_90a, mma.sync without ldmatrix for A on sm_80. Otherwise A goes
# through shared memory and a remark says why.
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg v=f32:1 --arg t=f32:2 --arg c=f32:2 --emit=gpu -o /dev/null --print-ir-after=tile-assign-layouts 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg v=f32:1 --arg t=f32:2 --arg c=f32:2 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
# RUN: tile-cc %s --kernel swapped --arg a=bf16:2 --arg b=bf16:2 --arg v=f32:1 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=WGMMA
# RUN: tile-cc %s --kernel swapped --arg a=bf16:2 --arg b=bf16:2 --arg v=f32:1 --arg c=f32:2 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=MMASYNC
# RUN: tile-cc %s --kernel swapped --arg a=bf16:2 --arg b=bf16:2 --arg v=f32:1 --arg c=f32:2 --emit=cubin -o /dev/null --resource-usage 2>&1 | FileCheck %s --check-prefix=PTXAS
import cuda.tile as ct


@ct.kernel
def k(a, b, v, t, c):
    x = ct.load(a, (0, 0), (64, 32))
    y = ct.load(b, (0, 0), (32, 64))
    s = ct.load(v, (0,), (32,))
    acc = ct.zeros((64, 64), dtype=ct.float32)
    # 1. A scaled per column: built in registers.
    ct.store(c, (0, 0), ct.mma((x.astype(ct.float32) * s[None, :]).astype(ct.bfloat16), y, acc))
    # 2. A from a scan: its elements come from other threads, so A goes through shared memory.
    ct.store(c, (1, 0), ct.mma(ct.cumsum(x.astype(ct.float32), axis=1).astype(ct.bfloat16), y, acc))
    # 3. tf32: the register fragments are built for 16-bit operands only.
    tx = ct.load(t, (0, 0), (64, 32))
    ct.store(c, (2, 0), ct.mma((tx * s[None, :]).astype(ct.tfloat32), y.astype(ct.tfloat32), acc))
    # 4. A loaded: read in place, no decision recorded.
    ct.store(c, (3, 0), ct.mma(x, y, acc))


# fwd_pass_state's swapped product: A is the transpose of a loaded tile, weighted per K column.
@ct.kernel
def swapped(a, b, v, c):
    bt = ct.load(a, (0, 0), (32, 64))
    x = ct.load(b, (0, 0), (32, 64))
    s = ct.load(v, (0,), (32,))
    w = (ct.transpose(bt).astype(ct.float32) * ct.exp(s)[None, :]).astype(ct.bfloat16)
    ct.store(c, (0, 0), ct.mma(w, x, ct.zeros((64, 64), dtype=ct.float32)))


# ATTR: tile.convert_layout {{.*}} : tensor<64x32xbf16> -> tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
# ATTR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>} : tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, tensor<32x64xbf16>
# ATTR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<shared>} : tensor<64x32xbf16>, tensor<32x64xbf16>
# ATTR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>, tile.operand_a = #tile.operand<shared>} : tensor<64x32xtf32>
# ATTR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x32xbf16>, tensor<32x64xbf16>

# REMARKS-NOT: register-operand-a.py:21:{{.*}}remark: the A operand
# REMARKS: register-operand-a.py:23:25: remark: the A operand is computed in registers but goes through shared memory: its threads cannot build their own elements ('tile.scan' moves data between threads)
# REMARKS: register-operand-a.py:26:25: remark: the A operand is computed in registers but goes through shared memory: A fragments in registers are built for 16-bit operands only, not tf32
# REMARKS-NOT: register-operand-a.py:28:{{.*}}remark: the A operand
# With the fallbacks, one line per product says what the code does (DecisionRemarks.cpp):
# REMARKS: register-operand-a.py:21:25: remark: product on wgmma.m64n64k16 (bf16), A from registers, B from its copy in shared memory
# REMARKS: register-operand-a.py:23:25: remark: product on wgmma.m64n64k16 (bf16), A from a shared-memory buffer, B from its copy in shared memory
# REMARKS: register-operand-a.py:26:25: remark: product on mma.sync.m16n8k8 (tf32), accumulator in registers, A from a shared-memory buffer, B from a shared-memory buffer
# REMARKS: register-operand-a.py:28:25: remark: product on wgmma.m64n64k16 (bf16), A from its copy in shared memory, B from its copy in shared memory

# The fence takes A's packed registers (tied), then one register-A wgmma per k16 step, B
# (32 x 64, N contiguous) by descriptor with the transpose bit; A never touches shared memory
# (its elements are read from the copy of `a` and weighted in registers).
# WGMMA: wgmma.fence.sync.aligned;
# WGMMA-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%r{{[0-9]+}}, {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
# WGMMA: wgmma.wait_group.sync.aligned 0;
# WGMMA-NOT: wgmma.mma_async

# On sm_80 the same product runs mma.sync with A from registers: B's fragments come from
# ldmatrix .trans, A's from none.
# MMASYNC-NOT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# MMASYNC: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# MMASYNC-NOT: ldmatrix.sync.aligned.m8n8.x4.shared.b16

# ptxas keeps the fence where it is (no warpgroup.arrive injected) and spills nothing.
# PTXAS-NOT: C7519
# PTXAS: 0 bytes spill stores, 0 bytes spill loads


# An A operand computed element-wise from a pipelined load's transpose, (w x)^T: the stage of
# x holds core matrices, its fragments are read with ldmatrix.trans and the scale applied to
# each register; B is read in place; nothing computed goes through shared memory.
# RUN: tile-cc %s --kernel weighted_transpose --arg x=bf16:2:aligned --arg b=bf16:2:aligned --arg w=f32:1:aligned --arg c=f32:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=LEAVES
# LEAVES: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# LEAVES-NOT: st.shared
# LEAVES: wgmma.mma_async
@ct.kernel
def weighted_transpose(x, b, w, c, n: int):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for k in range(n):
        xs = ct.load(x, (k, 0), (64, 64))
        bs = ct.load(b, (k, 0), (64, 64))
        ws = ct.load(w, (k,), (64,))
        a = (ct.transpose(xs).astype(ct.float32) * ws[None, :]).astype(ct.bfloat16)
        acc = ct.mma(a, bs, acc)
    ct.store(c, (0, 0), acc)


# An A operand built element-wise from another product's accumulator (FlashAttention's
# P = f(Q.K^T) feeding P.V; Mamba-2's masked, decayed C.B^T feeding the product with x): the
# accumulator fragments are the A fragments already (same warps, same shape), so A stays in
# registers; the conversion out of the accumulator layout and the one into A's cancel, and the
# only shared-memory traffic is wgmma's own B operands.
# RUN: tile-cc %s --kernel from_accumulator --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=f32:2 --emit=gpu -o /dev/null --print-ir-after=tile-remove-layout-conversions 2>&1 | FileCheck %s --check-prefix=FROMACC
# RUN: tile-cc %s --kernel from_accumulator --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=f32:2 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=FROMACC-REMARKS --allow-empty
# FROMACC: %[[S:.*]] = tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32, #tile.mma<[[L:.*]]>>
# FROMACC-NOT: tile.convert_layout
# FROMACC: %[[E:.*]] = math.exp %{{.*}} : tensor<64x64xf32, #tile.mma<[[L]]>>
# FROMACC-NOT: tile.convert_layout
# FROMACC: tile.mma %{{.*}}, %{{.*}}, %{{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>} : tensor<64x64xbf16, #tile.mma<[[L]]>>
# FROMACC-NOT: tile.convert_layout
# FROMACC-REMARKS-NOT: the A operand
@ct.kernel
def from_accumulator(q, k, v, o):
    qs = ct.load(q, (0, 0), (64, 64))
    ks = ct.load(k, (0, 0), (64, 64))
    vs = ct.load(v, (0, 0), (64, 64))
    s = ct.mma(qs, ct.transpose(ks), ct.zeros((64, 64), dtype=ct.float32))
    causal = ct.arange(64)[None, :] <= ct.arange(64)[:, None]
    p = ct.where(causal, ct.exp(s * 0.125), 0.0).astype(ct.bfloat16)
    ct.store(o, (0, 0), ct.mma(p, vs, ct.zeros((64, 64), dtype=ct.float32)))


# An A operand converted from int8 weights (nn.Linear's layout written as W.x^T) goes through
# shared memory: register fragments are not built from integer stages (OperandSources.h).
# RUN: tile-cc %s --kernel int8_a --arg w=i8:2:aligned --arg s=f32:1:aligned --arg x=bf16:2:aligned --arg y=f32:2 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=INT8
# INT8: register-operand-a.py:[[# @LINE + 9]]:15: remark: the A operand is computed in registers but goes through shared memory: it is converted from a loaded tile of integers (register fragments are not built from 8-bit stages)
@ct.kernel
def int8_a(w, s, x, y):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    sc = ct.load(s, (0,), (64,))
    for k in range(4):
        wt = ct.load(w, (0, k), (64, 64))
        xt = ct.load(x, (k, 0), (64, 64))
        a = (wt.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16)
        acc = ct.mma(a, xt, acc)
    ct.store(y, (0, 0), acc)
