# An mma.sync operand that is a transpose (permute of the last two dimensions) costs nothing
# for 16-bit types: the permute's input is stored in its own orientation and read with the
# opposite ldmatrix (A stored K x M with .trans, B stored N x K without), so no transpose goes
# through registers or shared memory. tf32 operands keep the permute (ldmatrix cannot transpose
# 32-bit elements). M = 32 keeps these products off wgmma.
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=TN
# RUN: tile-cc %s --kernel nt --arg a=f16:2 --arg b=f16:2 --arg c=f32:2 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=NT
# RUN: tile-cc %s --kernel tn --arg a=f32:2 --arg b=f32:2 --arg c=f32:2 --const TF32=True --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=TFLOAT
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --pipeline-stages 1 | FileCheck %s --check-prefix=PTX-TN
# RUN: tile-cc %s --kernel tn --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=COPY-TN
# RUN: tile-cc %s --kernel nt --arg a=f16:2 --arg b=f16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=PTX-NT
import cuda.tile as ct


@ct.kernel
def tn(a, b, c, TF32: ct.Constant[bool] = False):
    # A = transpose of a 64x32 (K x M) tile.
    x = ct.load(a, (0, ct.bid(0)), (64, 32))
    y = ct.load(b, (0, ct.bid(1)), (64, 32))
    if TF32:
        x = x.astype(ct.tfloat32)
        y = y.astype(ct.tfloat32)
    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(ct.transpose(x), y, ct.zeros((32, 32), dtype=ct.float32)))


@ct.kernel
def nt(a, b, c):
    # B = transpose of a 32x64 (N x K) tile.
    x = ct.load(a, (ct.bid(0), 0), (32, 64))
    y = ct.load(b, (ct.bid(1), 0), (32, 64))
    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(x, ct.transpose(y), ct.zeros((32, 32), dtype=ct.float32)))

# TN: tile.permute at {{.*}}mma-transposed.py":23:{{[0-9]+}}): folded into the Tensor Core products it feeds
# TN: tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k16){{.*}}, A transposed
# NT: tile.permute at {{.*}}mma-transposed.py":31:{{[0-9]+}}): folded into the Tensor Core products it feeds
# NT: tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k16){{.*}}, B transposed
# TFLOAT-NOT: folded into
# TFLOAT: tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k8)
# TFLOAT-NOT: transposed
# With synchronous loads (--pipeline-stages 1): one barrier pair for the operands and none for a
# permute; A is read with ldmatrix .trans and B (K x N, row-major) with .trans too.
# PTX-TN: bar.sync 0
# PTX-TN: st.shared.v4.b32
# PTX-TN: bar.sync 0
# PTX-TN-NOT: bar.sync
# PTX-TN: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# PTX-TN: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# PTX-TN: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# B stored N x K is read without .trans.
# PTX-NT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# PTX-NT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# PTX-NT-NOT: .trans
# PTX-NT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# By default the operands are copied at kernel start into the swizzled operand layout (the
# kernel has no loop, but these loads feed Tensor Cores; 64-byte rows: chunk XOR (row / 2) mod 4,
# both where the copies write and where ldmatrix reads) and read there in place: one barrier
# after the copies, no staging store.
# COPY-TN: xor.b32
# COPY-TN: cp.async.cg.shared.global
# COPY-TN: cp.async.commit_group;
# COPY-TN-NEXT: cp.async.wait_group 0;
# COPY-TN-NEXT: bar.sync 0;
# COPY-TN-NOT: bar.sync
# COPY-TN-NOT: st.shared.v4
# COPY-TN: xor.b32
# COPY-TN: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# COPY-TN: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# COPY-TN: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
