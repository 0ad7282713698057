# The Mamba-2 kernels compile end to end for the specializations ssd_forward uses (every flag,
# several chunk sizes). This also guards the lowering's bookkeeping on large kernels.
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel chunk_cumsum --arg dt=f32:3 --arg A=f32:1 --arg dt_bias=f32:1 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg seqlen=i64:0 --const Q=256 --const BH=8 --const HAS_BIAS=True --const SOFTPLUS=True --emit=ptx | FileCheck %s --check-prefix=CUMSUM
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state --arg x=bf16:4 --arg B=bf16:4 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg initial_states=f32:4 --arg states=f32:5 --arg final_states=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg nchunks=i64:0 --const Q=128 --const BP=64 --const BN=64 --const HAS_INIT=True --emit=ptx | FileCheck %s --check-prefix=STATE
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out --arg x=f32:4 --arg B=f32:4 --arg C=f32:4 --arg dt_out=f32:4 --arg dA_cumsum=f32:4 --arg states=f32:5 --arg D=f32:2 --arg z=f32:4 --arg y=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --const Q=64 --const N=64 --const BQ=64 --const BP=64 --const BN=32 --const HAS_D=True --const D_PER_CHANNEL=True --const HAS_Z=True --emit=ptx | FileCheck %s --check-prefix=OUT
# CUMSUM: .visible .entry chunk_cumsum__tile(
# STATE: .visible .entry fwd_pass_state__tile(
# OUT: .visible .entry compute_out__tile(
