# On sm_90a, bf16/f16 products whose accumulator spans whole warpgroups along M (M a multiple
# of 64 per warpgroup, K of 16) run as wgmma.mma_async: both operands go to shared memory in
# the K-major core-matrix layout (B transposed on the way), a proxy fence and a barrier order
# those stores before the async reads, and the accumulator registers stay in #tile.mma order.
# N above 256 splits into several instructions; 256 threads make two warpgroups. Everything
# else keeps mma.sync: sm_90 without the a, tf32, M = 32, and a 64-row tile at 256 threads
# (warps along N). ptxas accepts the result: wgmma-cubin.py.
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --pipeline-stages 1 | FileCheck %s --check-prefix=WGMMA
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=STAGES
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --emit=ptx | FileCheck %s --check-prefix=PENDING
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BK=32 --const BM=64 --const BN=512 --arg a=f16:2 --arg b=f16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=WIDE
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BK=32 --const BM=128 --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --num-threads 256 | FileCheck %s --check-prefix=TWO-GROUPS
# RUN: tile-cc %s --kernel batched --arg a=bf16:3 --arg b=bf16:3 --arg c=f32:3 --emit=ptx | FileCheck %s --check-prefix=BATCHED
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --arch sm_90 | FileCheck %s --check-prefix=MMASYNC
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BK=32 --const BM=128 --const BN=64 --arg a=tf32:2 --arg b=tf32:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=MMASYNC
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BK=32 --const BM=32 --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=MMASYNC
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BK=32 --const BM=64 --const BN=64 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=ptx --num-threads 256 | FileCheck %s --check-prefix=MMASYNC
import cuda.tile as ct


# With the K loop pipelined (the default), both operands are copied into the stages in
# core-matrix order and read there in place: A K-major, B (64 x 128, N contiguous) N-major
# with the transpose bit (the last immediate); no operand goes through registers.
# The product's wgmma group stays pending across iterations (tile.wgmma_pending): each
# iteration waits for the previous one's group (wait_group 1), then a barrier, then the copies
# into the stage that group read; after the loop, wait_group 0.
# STAGES: cp.async.cg.shared.global
# STAGES-NOT: ld.shared
# STAGES: cp.async.wait_group 1;
# STAGES-NEXT: fence.proxy.async.shared::cta;
# STAGES-NEXT: bar.sync 0;
# STAGES: wgmma.fence.sync.aligned
# STAGES-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
# STAGES: wgmma.commit_group.sync.aligned;
# STAGES: wgmma.wait_group.sync.aligned 1;
# STAGES: bar.sync 0;
# STAGES: cp.async.cg.shared.global
# STAGES: wgmma.wait_group.sync.aligned 0;
# With TMA copies (aligned arrays) the mbarrier wait makes the copies visible: no barrier at
# the top of the iteration, one after the wait for the previous group.
# PENDING: mbarrier.try_wait.parity
# PENDING-NOT: bar.sync
# PENDING: wgmma.commit_group.sync.aligned;
# PENDING: wgmma.wait_group.sync.aligned 1;
# PENDING: bar.sync 0;
# PENDING: cp.async.bulk.tensor.2d
# PENDING: wgmma.wait_group.sync.aligned 0;
# 128 rows at 128 threads: one warpgroup, two m64 blocks; K = 64: four k16 steps each; the
# loads synchronous (--pipeline-stages 1), so the operands go through registers.
# WGMMA: st.shared.v4.b32
# WGMMA: fence.proxy.async.shared::cta
# WGMMA-NEXT: bar.sync 0
# WGMMA: wgmma.fence.sync.aligned
# WGMMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
# WGMMA: wgmma.commit_group.sync.aligned
# WGMMA: wgmma.wait_group.sync.aligned 0
# WGMMA-NOT: mma.sync
# WGMMA-NOT: ldmatrix
# N = 512: two m64n256 instructions per k16 step.
# WIDE-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
# WIDE-NOT: wgmma.mma_async
# TWO-GROUPS-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
# TWO-GROUPS-NOT: wgmma.mma_async
# BATCHED-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
# MMASYNC-NOT: wgmma
# MMASYNC: mma.sync.aligned
@ct.kernel
def batched(a, b, c):
    t = ct.mma(ct.load(a, (0, 0, 0), (2, 64, 32)), ct.load(b, (0, 0, 0), (2, 32, 32)),
               ct.zeros((2, 64, 32), dtype=ct.float32))
    ct.store(c, (0, 0, 0), t)
