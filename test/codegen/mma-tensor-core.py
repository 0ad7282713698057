# Matrix products on Tensor Cores: bf16/f16 -> f32 with M, K multiples of 16 and N of 8 become
# ldmatrix-fed mma.sync.m16n8k16 on sm_80+ (sm_90a runs them as wgmma where it can: wgmma.py),
# tf32 -> f32 mma.sync.m16n8k8; other dtypes, shapes and older targets take the FMA path through
# shared memory.
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --arch sm_90 --pipeline-stages 1 | FileCheck %s --check-prefix=BF16
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --arch sm_90 | FileCheck %s --check-prefix=INPLACE
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=f16:2 --arg b=f16:2 --arg c=f32:2 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=F16
# RUN: tile-cc %s --kernel matmul --const BN=8 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --arch sm_90 | FileCheck %s --check-prefix=ONE-N-TILE
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=tf32:2 --arg b=tf32:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=TF32
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=f16:2 --arg b=f16:2 --arg c=f32:2 --emit=ptx --arch sm_75 | FileCheck %s --check-prefix=FMA
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=f32:2 --arg b=f32:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=FMA
# RUN: tile-cc %s --kernel matmul --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu --print-ir-after=tile-remove-layout-conversions -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAYOUT
# RUN: tile-cc %s --kernel batched --arg a=bf16:3 --arg b=bf16:3 --arg c=f32:3 --emit=gpu | FileCheck %s --check-prefix=GPU
import cuda.tile as ct


@ct.kernel
def matmul(a, b, c, BN: ct.Constant[int]):
    acc = ct.zeros((64, BN), dtype=ct.float32)
    for kk in range(ct.num_tiles(a, 1, (64, 32))):
        ta = ct.load(a, (ct.bid(0), kk), (64, 32), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (kk, ct.bid(1)), (32, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)


@ct.kernel
def batched(a, b, c):
    ta = ct.load(a, (0, 0, 0), (4, 32, 16), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, 0, 0), (4, 16, 16), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, (0, 0, 0), ct.mma(ta, tb, ct.zeros((4, 32, 16), dtype=ct.float32)))

# The K loop carries the accumulator as mma.sync fragments, stored from them after the loop.
# LAYOUT: %[[ACC:.*]] = scf.for {{.*}} -> (tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>)
# LAYOUT-NOT: tile.convert_layout
# LAYOUT: scf.yield
# LAYOUT-NOT: tile.convert_layout
# LAYOUT: tile.store %[[ACC]], {{.*}} : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
# With the loop's loads pipelined (the default), both operands are copied into shared memory in
# core-matrix order and read there in place: ldmatrix (.trans for B, loaded K x N) from the
# stages, no staging store and no barrier but the loop's own (three in all: before the
# prologue, at the top of an iteration, after the loop).
# INPLACE-NOT: st.shared.v4
# INPLACE-COUNT-1: bar.sync
# INPLACE-NOT: st.shared.v4
# INPLACE: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# INPLACE-NOT: st.shared.v4
# INPLACE: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# INPLACE: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# INPLACE: cp.async.wait_group 1;
# INPLACE-NEXT: bar.sync 0;
# INPLACE: cp.async.wait_group 0;
# INPLACE-NEXT: bar.sync 0;
# INPLACE-NOT: bar.sync
# INPLACE-NOT: st.shared.v4
# With synchronous loads (--pipeline-stages 1) each thread's run of 8 bf16 goes to shared
# memory as one 16-byte store.
# BF16: st.shared.v4.b32
# BF16: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# BF16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# The accumulator is stored from its fragments: a pair of neighbouring f32 per 8-byte store
# (scalar stores only on the ragged-edge path).
# BF16: st.global.v2.b32
# F16: .target sm_80
# F16: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# F16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# F16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# tf32: m16n8k8; A through ldmatrix (16-byte rows of four tf32), B fragments element by element
# (ldmatrix cannot transpose 32-bit elements).
# TF32: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# TF32-NOT: ldmatrix{{.*}}.trans
# TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# One 16x8 tile per warp: B comes in with the two-matrix form.
# ONE-N-TILE: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
# ONE-N-TILE: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# FMA-NOT: mma.sync
# FMA-NOT: ldmatrix
# FMA: fma.rn.f32
# GPU-LABEL: llvm.func @batched__tile
# GPU: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
# GPU: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2 : i32
# GPU: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
