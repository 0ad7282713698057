# Bulk tensor copies (TMA) of loads from aligned arguments (--arg NAME=DTYPE:RANK:aligned), as
# tile-place-tma decides them: the descriptor is a 128-byte __grid_constant__ parameter after the
# ABI's own; thread 0 initializes one mbarrier per stage before the loop (and invalidates them
# after it), arms the stage's barrier with the bytes of its copies and issues one
# cp.async.bulk.tensor per tile; every thread waits for the barrier's phase before reading.
# Arrays without the facts keep cp.async (tma-cubin.py: ptxas and the metadata). The kernel is
# pipeline-lowering.py's (one 16 x 64 f32 load per iteration).
# RUN: tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2:aligned --arg y=f32:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=PLAIN
# RUN: tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2:aligned --arg y=f32:2 --arg n=i32:0 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=PLAIN
# RUN: tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2:aligned --arg y=f32:2 --arg n=i32:0 --emit=ptx --remarks 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=REMARK
# RUN: not tile-cc %S/pipeline-lowering.py --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0:aligned --emit=ptx 2>&1 | FileCheck %s --check-prefix=SCALAR
# PTX: .param .align 64 .b8 k__tile_param_{{[0-9]+}}[128]
# Before the loop: thread 0 initializes the 3 stage barriers.
# PTX-COUNT-3: mbarrier.init.shared::cta.b64
# PTX: fence.mbarrier_init.release.cluster;
# PTX: fence.proxy.async.shared::cta;
# PTX: bar.sync 0;
# The prologue's copies: the 4096 bytes of a 16 x 64 f32 tile, coordinates innermost first.
# PTX: mov.b32 [[BYTES:%r[0-9]+]], 4096;
# PTX-NEXT: // begin inline asm
# PTX-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], [[BYTES]];
# PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# In the loop: the wait for this iteration's phase, the barrier, the copy two iterations ahead.
# PTX: mbarrier.try_wait.parity.shared::cta.b64 P1, [%r{{[0-9]+}}], %r{{[0-9]+}};
# PTX: bar.sync 0;
# PTX: mbarrier.arrive.expect_tx.shared::cta.b64
# PTX: cp.async.bulk.tensor.2d
# After the loop the barriers are invalidated, so a later run starts at phase 0.
# PTX-COUNT-3: mbarrier.inval.shared::cta.b64
# PTX-NOT: cp.async.cg

# PLAIN-NOT: cp.async.bulk
# PLAIN-NOT: mbarrier
# PLAIN: cp.async.{{c[ag]}}.shared.global
# REMARK-NOT: not TMA

# SCALAR: ':aligned' states facts of an array; a scalar (rank 0) has none

# The Tensor Core operands of a wgmma GEMM come in 128-byte swizzled column blocks of 64 bf16, one copy
# per block (a's 64 x 64 tile: one; b's 64 x 128 tile: two, 8 KiB apart), into stages the
# products read in place without a proxy fence (the copy engine writes through the async
# proxy: the one fence is the prologue's, for the scratch's generic writes), and one expect of
# their 24 KiB.
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=GEMM
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=GEMMLOOP
# GEMM: fence.proxy.async
# GEMM: mov.b32 [[GBYTES:%r[0-9]+]], 24576;
# GEMM-NEXT: // begin inline asm
# GEMM-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], [[GBYTES]];
# GEMM-COUNT-3: cp.async.bulk.tensor.2d
# GEMM-NOT: fence.proxy.async
# GEMMLOOP-DAG: mbarrier.try_wait.parity
# GEMMLOOP-DAG: wgmma.mma_async

# compute_out's configuration 6 (4 blocks per SM) fills its shared memory with kernel-start
# copies: tile-pipeline-loops leaves no room for their two mbarriers, so those keep cp.async
# (a load is worth more than its copy engine) and say why.
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg C=bf16:4:aligned --arg cb=f32:5:aligned --arg dt_out=f32:4:aligned --arg dA_cumsum=f32:4:aligned --arg states=bf16:5:aligned --arg initial_states=f32:4 --arg D=f32:1:aligned --arg z=bf16:4:aligned --arg y=bf16:4:aligned --arg nheads=i64:0 --arg ngroups=i64:0 --arg seq_idx=f32:1 --const Q=64 --const N=128 --config 6 --emit=gpu -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=NOROOM
# NOROOM: remark: load copied with cp.async, not TMA: no shared memory is left at occupancy 4 for the mbarriers of the kernel-start copies
