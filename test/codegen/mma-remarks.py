# tile-assign-layouts records the instruction of every product (tile.mma_instruction) and, with
# tile-cc --remarks, says why a product does not use a faster one the target has.
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg t=f32:2 --arg u=f32:2 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg t=f32:2 --arg u=f32:2 --emit=gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg t=f32:2 --arg u=f32:2 --emit=gpu -o /dev/null --print-ir-after=tile-assign-layouts 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: tile-cc %s --kernel k --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg t=f32:2 --arg u=f32:2 --emit=gpu -o /dev/null --remarks --arch sm_80 2>&1 | FileCheck %s --check-prefix=SM80
import cuda.tile as ct


@ct.kernel
def k(a, b, c, t, u):
    x = ct.load(a, (0, 0), (64, 32))
    y = ct.load(b, (0, 0), (32, 64))
    # 1. bf16 64x64x32 over 4 warps: wgmma on sm_90a, mma.sync on sm_80 (no remark there).
    ct.store(c, (0, 0), ct.mma(x, y, ct.zeros((64, 64), dtype=ct.float32)))
    # 2. tf32 operands: Tensor Cores, but not wgmma here.
    tx = ct.load(t, (0, 0), (64, 32)).astype(ct.tfloat32)
    ty = ct.load(u, (0, 0), (32, 64)).astype(ct.tfloat32)
    ct.store(c, (1, 0), ct.mma(tx, ty, ct.zeros((64, 64), dtype=ct.float32)))
    # 3. f32 operands: no Tensor Cores.
    ct.store(c, (2, 0), ct.mma(ct.load(t, (0, 0), (64, 32)), ct.load(u, (0, 0), (32, 64)),
                               ct.zeros((64, 64), dtype=ct.float32)))
    # 4. 16x8 has work for one warp of four.
    ct.store(c, (3, 0), ct.mma(ct.load(a, (0, 0), (16, 16)), ct.load(b, (0, 0), (16, 8)),
                               ct.zeros((16, 8), dtype=ct.float32)))

# REMARKS-NOT: mma-remarks.py:15:{{.*}}remark
# REMARKS: mma-remarks.py:19:25: remark: wgmma here takes bf16, f16 or 8-bit float operands; using mma.sync
# REMARKS: mma-remarks.py:21:25: remark: no Tensor Cores for this product: operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats); using FMA
# REMARKS: mma-remarks.py:24:25: remark: Tensor Cores keep the accumulator in registers only when every warp has work: this product has work for 1 of 4 warps; using mma.sync with the accumulator in shared memory
# QUIET-NOT: remark
# ATTR: tile.mma {{.*}}tile.mma_instruction = #tile.mma_instruction<wgmma>
# ATTR: tile.mma {{.*}}tile.mma_instruction = #tile.mma_instruction<mma.sync>
# ATTR: tile.mma {{.*}}tile.mma_instruction = #tile.mma_instruction<fma>
# ATTR: tile.mma {{.*}}tile.mma_instruction = #tile.mma_instruction<mma.sync>
# SM80-NOT: remark: wgmma
# SM80: remark: no Tensor Cores for this product: operands are f32
