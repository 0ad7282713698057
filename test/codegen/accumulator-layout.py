# tile-assign-layouts keeps what is computed from a Tensor Core accumulator in its layout
# (AccumulatorLayout.h): online softmax's row maximum and sum are #tile.mma_rows (a fold of each
# thread's registers and two quad shuffles), carried across the key blocks in it and broadcast
# back over the columns from registers; P = exp2(S - m) is wgmma's register A operand. Nothing in
# the loop goes through shared memory but the K and V stages. (S, O and P between them ask for
# 256 threads: two warpgroups of 64 rows, warpsM = 8.)
# RUN: tile-cc %s --kernel online_softmax --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=bf16:2:aligned --emit=gpu -o /dev/null --print-ir-after=tile-remove-layout-conversions 2>&1 | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel online_softmax --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=bf16:2:aligned --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
# RUN: tile-cc %s --kernel online_softmax --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=bf16:2:aligned --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel online_softmax --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=bf16:2:aligned --emit=cubin -o /dev/null --resource-usage 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: tile-cc %s --kernel refused --arg s=bf16:2 --arg t=bf16:2 --arg c=f32:2 --arg i=i32:2 --emit=gpu -o /dev/null --print-ir-after=tile-assign-layouts 2>&1 | FileCheck %s --check-prefix=REFUSED
# RUN: tile-cc %s --kernel refused --arg s=bf16:2 --arg t=bf16:2 --arg c=f32:2 --arg i=i32:2 --emit=gpu -o /dev/null --remarks -debug-only=tile-assign-layouts 2>&1 | FileCheck %s --check-prefix=WHY
# RUN: tile-cc %s --kernel online_softmax --arg q=bf16:2:aligned --arg k=bf16:2:aligned --arg v=bf16:2:aligned --arg o=bf16:2:aligned --emit=gpu -o /dev/null -debug-only=tile-assign-layouts 2>&1 | FileCheck %s --check-prefix=DEBUG
import cuda.tile as ct


@ct.kernel
def online_softmax(q, k, v, o):
    qt = ct.load(q, (ct.bid(0), 0), (128, 64))
    m = ct.full((128, 1), -1e30, dtype=ct.float32)
    l = ct.zeros((128, 1), dtype=ct.float32)
    acc = ct.zeros((128, 64), dtype=ct.float32)
    for j in range(ct.num_tiles(k, 0, (64, 64))):
        kt = ct.load(k, (0, j), (64, 64), order=(1, 0))
        s = ct.mma(qt, kt, ct.zeros((128, 64), dtype=ct.float32))
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.bfloat16), ct.load(v, (j, 0), (64, 64)), acc * alpha)
        m = m_new
    ct.store(o, (ct.bid(0), 0), (acc / l).astype(o.dtype))


# IR: scf.for {{.*}} iter_args({{.*}}) -> (tensor<128x64xf32, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>>, tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>>, tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>>)
# IR: tile.reduce max {{.*}} : tensor<128x64xf32, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>> -> tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>>
# IR: tile.broadcast {{.*}} : tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>> -> tensor<128x64xf32, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>>
# IR: tile.reduce sum {{.*}} -> tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>>
# IR: arith.truncf {{.*}} : tensor<128x64xf32, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>> to tensor<128x64xbf16, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>>
# IR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>}
# IR-NOT: tile.convert_layout
# IR: scf.yield
# After the loop, acc / l divides in the accumulator layout and converts once, for the store.
# IR: arith.divf {{.*}} : tensor<128x64xf32, #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>>

# REMARKS-NOT: through shared memory
# REMARKS: remark: load copied by TMA into {{[0-9]}} pipeline stages
# REMARKS: remark: product on wgmma.m64n64k16 (bf16), A from its copy in shared memory, B from its copy in shared memory
# REMARKS: remark: product on wgmma.m64n64k16 (bf16), A from registers, B from its copy in shared memory
# REMARKS-NOT: through shared memory

# Each row statistic: registers folded, then lanes 1 and 2 of the quad.
# PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# PTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
# PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
# PTXAS: 0 bytes spill stores, 0 bytes spill loads


# What stays canonical: a reduction along the rows (axis 0), an argmax, and an accumulator whose
# warps split its columns (16 rows at 128 threads: 4 warps along N).
@ct.kernel
def refused(s, t, c, i):
    a = ct.load(s, (0, 0), (64, 32))
    b = ct.load(t, (0, 0), (32, 64))
    x = ct.mma(a, b, ct.zeros((64, 64), dtype=ct.float32))
    ct.store(c, (0, 0), x - ct.max(x, axis=0, keepdims=True))
    ct.store(i, (0, 0), ct.argmax(x, axis=1, keepdims=True))
    a16 = ct.load(s, (0, 0), (16, 32))
    y = ct.mma(a16, b, ct.zeros((16, 64), dtype=ct.float32))
    ct.store(c, (1, 0), y - ct.max(y, axis=1, keepdims=True))


# REFUSED-NOT: mma_rows
# REFUSED: tile.reduce max {{.*}} axis = 0 keepdims : tensor<64x64xf32> -> tensor<1x64xf32>
# REFUSED: tile.reduce argmax {{.*}} : tensor<64x64xf32> -> tensor<64x1xi32>
# REFUSED: tile.reduce max {{.*}} : tensor<16x64xf32> -> tensor<16x1xf32>
# REFUSED-NOT: mma_rows
# WHY: [tile-assign-layouts] row reduction at {{.*}}accumulator-layout.py":70:29): canonical layout (the warps split the columns: #tile.mma<warpsB = 1, warpsM = 1, warpsN = 4>)
# WHY: accumulator-layout.py:70:29: remark: row reduction of an accumulator in the canonical layout: the warps split its columns (#tile.mma<warpsB = 1, warpsM = 1, warpsN = 4>), so no thread holds a whole row
# WHY-NOT: remark: row reduction of an accumulator

# In program order: the iter_args (acc, l, m), then the scores' conversion and their maximum.
# DEBUG: [tile-assign-layouts] kept in #tile.mma<warpsB = 1, warpsM = 8, warpsN = 1>: loop-carried tile at
# DEBUG: [tile-assign-layouts] kept in #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>: loop-carried tile at
# DEBUG: [tile-assign-layouts] kept in #tile.mma_rows<warpsB = 1, warpsM = 8, warpsN = 1>: tile.reduce at
# DEBUG: [tile-assign-layouts] kernel 'online_softmax': {{[0-9]+}} value(s) kept in accumulator layouts
