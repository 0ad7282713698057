# A wgmma operand that is a transpose (permute of the last two dimensions) costs nothing: wgmma
# reads 16-bit operands K-major or MN-major, so the permute's input is written to shared memory
# as it is, in vector stores, and read in the other orientation; the permute itself is not
# lowered (no round trip through shared memory and no barrier pair for it). A permute with
# another use keeps its lowering.
# RUN: tile-cc %s --kernel nt --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=NT
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=TN
# RUN: tile-cc %s --kernel shared_use --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg d=bf16:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=KEPT
# Without wgmma (sm_90) the product is mma.sync, which folds the transpose too (mma-transposed.py).
# RUN: tile-cc %s --kernel nt --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm --arch sm_90 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: tile-cc %s --kernel nt --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --pipeline-stages 1 | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel nt --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm --pipeline-stages 1 2>&1 | FileCheck %s --check-prefix=NT-SCRATCH
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm --pipeline-stages 1 2>&1 | FileCheck %s --check-prefix=TN-SCRATCH
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --pipeline-stages 1 | FileCheck %s --check-prefix=TN-PTX --implicit-check-not=st.shared.b16
# RUN: tile-cc %s --kernel nt --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=COPY
import cuda.tile as ct


@ct.kernel
def nt(a, b, c):
    # B = transpose of a 64x32 (N x K) tile: stored as read, 16-byte runs.
    x = ct.load(a, (ct.bid(0), 0), (64, 32))
    y = ct.load(b, (ct.bid(1), 0), (64, 32))
    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(x, ct.transpose(y), ct.zeros((64, 64), dtype=ct.float32)))


@ct.kernel
def tn(a, b, c):
    # A = transpose of a 32x64 (K x M) tile.
    x = ct.load(a, (0, ct.bid(0)), (32, 64))
    y = ct.load(b, (0, ct.bid(1)), (32, 64))
    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(ct.transpose(x), y, ct.zeros((64, 64), dtype=ct.float32)))


@ct.kernel
def shared_use(a, b, c, d):
    x = ct.load(a, (ct.bid(0), 0), (64, 32))
    yt = ct.transpose(ct.load(b, (ct.bid(1), 0), (64, 32)))
    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(x, yt, ct.zeros((64, 64), dtype=ct.float32)))
    ct.store(d, (0, 0), yt)

# NT: tile.permute at {{.*}}wgmma-transposed.py":24:{{[0-9]+}}): folded into the Tensor Core products it feeds
# NT: tile.mma at {{.*}}: wgmma
# SM90: tile.permute at {{.*}}: folded into the Tensor Core products it feeds
# SM90: tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k16){{.*}}, B transposed
# TN: tile.permute at {{.*}}wgmma-transposed.py":32:{{[0-9]+}}): folded into the Tensor Core products it feeds
# TN: tile.mma at {{.*}}: wgmma
# KEPT-NOT: folded into the
# Through buffers of their own (tile-place-shared-operands, tile-allocate-shared), each
# operand in its own orientation and swizzled by its row length (64 bytes for the 32-wide K of
# nt, 128 for the 64-wide M and N of tn): B of nt (the transpose of an N x K tile: its input
# behind a transposed view) and A of nt are K-major, both operands of tn MN-major.
# NT-SCRATCH: tgpu.store_shared at {{.*}}: !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> at scratch +0
# NT-SCRATCH: tgpu.store_shared at {{.*}}: !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> at scratch +4096
# NT-SCRATCH: tile.mma at {{.*}}: A K-major in a buffer, B K-major in a buffer, read in place
# TN-SCRATCH: tgpu.store_shared at {{.*}}: !tgpu.shared<32x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> at scratch +0
# TN-SCRATCH: tgpu.store_shared at {{.*}}: !tgpu.shared<32x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> at scratch +4096
# TN-SCRATCH: tile.mma at {{.*}}: A M-major in a buffer, B N-major in a buffer, read in place
# Four 16-byte stores per thread (two 32 x 64 tiles at 128 threads), no element-wise ones, at
# swizzled addresses (the 16-byte chunk XOR the row's bits); the product reads A M-major and B
# N-major (the two transpose immediates).
# TN-PTX: xor.b32
# TN-PTX-COUNT-4: st.shared.v4.b32
# TN-PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 1;
# With synchronous loads (--pipeline-stages 1): one barrier pair for the operands, none for a
# permute: the kernel's first barrier opens the operands' stores, the second follows their
# proxy fence.
# PTX: bar.sync 0
# PTX-NOT: bar.sync
# PTX: fence.proxy.async.shared::cta
# PTX-NEXT: bar.sync 0
# PTX-NEXT: wgmma.fence.sync.aligned
# By default the operands are copied at kernel start straight into core-matrix order, which
# wgmma reads in place: the wait for the copies, the proxy fence and one barrier.
# COPY: cp.async.cg.shared.global
# COPY: cp.async.commit_group;
# COPY-NEXT: cp.async.wait_group 0;
# COPY-NEXT: fence.proxy.async.shared::cta
# COPY-NEXT: bar.sync 0
# COPY-NEXT: wgmma.fence.sync.aligned
# COPY-NOT: bar.sync
