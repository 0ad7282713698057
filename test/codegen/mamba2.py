# The Mamba-2 kernels compile end to end for the specializations ssd_forward uses (every flag,
# several chunk sizes), and their products take the operand type the precision asks for: the
# data's bf16 by default (wgmma m64nNk16 bf16 on sm_90a where the accumulator spans whole
# warpgroups, mma.sync m16n8k16 bf16 elsewhere; no tf32), tf32 with TF32=True (m16n8k8), exact
# FMA products for fp32 data. This also guards the lowering's bookkeeping on large kernels.
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel chunk_cumsum --arg dt=f32:3 --arg A=f32:1 --arg dt_bias=f32:1 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg seqlen=i64:0 --const Q=256 --const BH=8 --const HAS_BIAS=True --const SOFTPLUS=True --emit=ptx | FileCheck %s --check-prefix=CUMSUM
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel chunk_bmm --arg B=bf16:4 --arg C=bf16:4 --arg cb=f32:5 --arg ngroups=i64:0 --const Q=128 --const N=128 --const BQ=64 --const BN=32 --emit=ptx | FileCheck %s --check-prefix=BMM
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state --arg x=bf16:4 --arg B=bf16:4 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg initial_states=f32:4 --arg states=f32:5 --arg final_states=f32:4 --arg states_t=f32:5 --arg final_states_t=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg nchunks=i64:0 --arg seq_idx=f32:1 --const Q=128 --const BP=64 --const BN=64 --const HAS_INIT=True --emit=ptx | FileCheck %s --check-prefix=STATE
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state --arg x=bf16:4 --arg B=bf16:4 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg initial_states=f32:4 --arg states=f32:5 --arg final_states=f32:4 --arg states_t=f32:5 --arg final_states_t=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg nchunks=i64:0 --arg seq_idx=f32:1 --const Q=64 --const BP=64 --const BN=64 --const TF32=True --emit=ptx | FileCheck %s --check-prefix=STATE-TF32
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg dt_out=f32:4:aligned --arg dA_cumsum=f32:4:aligned --arg initial_states=f32:4 --arg states=bf16:5:aligned --arg final_states=f32:4 --arg states_t=bf16:5 --arg final_states_t=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg nchunks=i64:0 --arg seq_idx=f32:1 --const Q=64 --const BP=64 --const BN=64 --const SWAP=True --emit=ptx | FileCheck %s --check-prefix=STATE-SWAP
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out --arg x=bf16:4 --arg B=bf16:4 --arg C=bf16:4 --arg cb=f32:5 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg states=f32:5 --arg initial_states=f32:4 --arg D=f32:1 --arg z=bf16:4 --arg y=bf16:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg seq_idx=f32:1 --const Q=128 --const N=128 --const BQ=64 --const BP=64 --const BN=32 --const HAS_D=True --const HAS_Z=True --emit=ptx | FileCheck %s --check-prefix=OUT
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out --arg x=f32:4 --arg B=f32:4 --arg C=f32:4 --arg cb=f32:5 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg states=f32:5 --arg initial_states=f32:4 --arg D=f32:2 --arg z=f32:4 --arg y=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg seq_idx=f32:1 --const Q=64 --const N=64 --const BQ=64 --const BP=64 --const BN=32 --const HAS_D=True --const D_PER_CHANNEL=True --const HAS_Z=True --emit=ptx | FileCheck %s --check-prefix=OUT-F32
# CUMSUM: .visible .entry chunk_cumsum__tile(
# CUMSUM: shfl.sync.up
# BMM: .visible .entry chunk_bmm__tile(
# BMM: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
# BMM-NOT: tf32
# STATE: .visible .entry fwd_pass_state__tile(
# STATE: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
# STATE-NOT: tf32
# The swapped form (SWAP=True): S^T += (decay-weighted B)^T x, the computed factor in wgmma's A
# slot from registers (four %r per instruction, no descriptor; each thread reads its elements
# of the B tile from the stage with ldmatrix .trans and weights them), x by descriptor
# (N-major, transpose bit); the copies by TMA.
# STATE-SWAP: .visible .entry fwd_pass_state__tile(
# STATE-SWAP: cp.async.bulk.tensor
# STATE-SWAP-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# STATE-SWAP: wgmma.fence.sync.aligned;
# STATE-SWAP-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%r{{[0-9]+}}, {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
# STATE-SWAP-NOT: wgmma.mma_async
# STATE-TF32: .visible .entry fwd_pass_state__tile(
# STATE-TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# STATE-TF32-NOT: bf16.bf16
# OUT: .visible .entry compute_out__tile(
# OUT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
# OUT-NOT: tf32
# OUT-F32: .visible .entry compute_out__tile(
# OUT-F32-NOT: mma.sync
# OUT-F32: fma.rn.f32
