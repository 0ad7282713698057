# tile-swap-mma-operands end to end: a GEMM whose B operand is computed (dequantized: rows
# scaled) runs as D^T = B^T.A^T, the computed operand in wgmma's A slot from registers (four %r
# per instruction, no descriptor; each thread reads its elements of b's stage with ldmatrix
# .trans and scales them), a's tile by descriptor; the loop carries the accumulator transposed
# and the store after the loop takes it back. A loop that also stores its accumulator every
# iteration keeps the product as written, with a remark, and so does one whose B is converted
# from int8 weights (register fragments are not read from integer stages: OperandSources.h).
# RUN: tile-cc %s --kernel scaled_b --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg s=f32:1:aligned --arg c=f32:2:aligned --arg k_tiles=i32:0 --emit=ptx -o /dev/null --print-ir-after=tile-swap-mma-operands 2>&1 | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel scaled_b --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg s=f32:1:aligned --arg c=f32:2:aligned --arg k_tiles=i32:0 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel stored --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg s=f32:1:aligned --arg c=f32:2 --arg k_tiles=i32:0 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=KEPT
# RUN: tile-cc %s --kernel int8_weights --arg x=bf16:2:aligned --arg w=i8:2:aligned --arg s=f32:1:aligned --arg y=bf16:2 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=INT8-REMARK
# RUN: tile-cc %s --kernel decode --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg s=f32:1:aligned --arg y=bf16:2 --emit=ptx | FileCheck %s --check-prefix=DECODE
# RUN: tile-cc %s --kernel decode --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg s=f32:1:aligned --arg y=bf16:2 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=DECODE-REMARK
import cuda.tile as ct


# IR: scf.for {{.*}} -> (tensor<128x64xf32>)
# IR: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.mma_swapped} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
# IR: tile.permute {{.*}} [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
# PTX-COUNT-8: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# PTX: wgmma.fence.sync.aligned;
# PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%r{{[0-9]+}}, {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 0;
# PTX-NOT: wgmma.mma_async
@ct.kernel
def scaled_b(a, b, s, c, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((64, 128), dtype=ct.float32)
    for k in range(k_tiles):
        at = ct.load(a, (i, k), (64, 64))
        bt = ct.load(b, (k, j), (64, 128))
        sc = ct.load(s, (k,), (64,))
        bw = (bt.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16)
        acc = ct.mma(at, bw, acc)
    ct.store(c, (i, j), acc)


# KEPT: remark: operands not swapped (the computed B operand goes through shared memory): the loop uses its accumulator for more than this product
@ct.kernel
def stored(a, b, s, c, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((64, 128), dtype=ct.float32)
    for k in range(k_tiles):
        ct.store(c, (k, j), acc)
        at = ct.load(a, (i, k), (64, 64))
        bt = ct.load(b, (k, j), (64, 128))
        sc = ct.load(s, (k,), (64,))
        bw = (bt.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16)
        acc = ct.mma(at, bw, acc)


# INT8-REMARK: swap-mma-operands.py:[[# @LINE + 11]]:15: remark: operands not swapped (the computed B operand goes through shared memory): its B operand is converted from a loaded tile of integers (register fragments are not built from 8-bit stages)
@ct.kernel
def int8_weights(x, w, s, y):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((64, 64), dtype=ct.float32)
    sc = ct.load(s, (bn,), (64,))
    for k in range(ct.num_tiles(x, axis=1, shape=(64, 64))):
        a = ct.load(x, (bm, k), (64, 64))
        b = ct.load(w, (k, bn), (64, 64))
        bd = (b.astype(ct.float32) * sc[None, :]).astype(ct.bfloat16)
        acc = ct.mma(a, bd, acc)
    ct.store(y, (bm, bn), acc.astype(ct.bfloat16))


# 16 rows are too few for wgmma (tile-select-mma picks mma.sync), but swapped, the weight
# tile's 64 columns are wgmma's M and the 16 rows its N.
# DECODE-REMARK: swap-mma-operands.py:[[# @LINE + 13]]:15: remark: operands swapped (D^T = B^T.A^T): with M and N exchanged the product runs on wgmma instead of mma.sync
# DECODE-REMARK: swap-mma-operands.py:[[# @LINE + 12]]:15: remark: product on wgmma.m64n16k16 (bf16), A from registers, B from its copy in shared memory
# DECODE: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
# DECODE-NOT: mma.sync.aligned
@ct.kernel
def decode(a, b, s, y):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((16, 64), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(16, 128))):
        at = ct.load(a, (bm, k), (16, 128))
        bt = ct.load(b, (k, bn), (128, 64))
        sc = ct.load(s, (k,), (128,))
        acc = ct.mma(at, (bt.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16), acc)
    ct.store(y, (bm, bn), acc.astype(ct.bfloat16))
