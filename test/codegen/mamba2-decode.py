# The Mamba-2 decode step (kernels/mamba2/decode.py) compiles through ptxas for sm_90a and sm_80
# without spilling, in every @ct.autotune configuration, at the 2.7B model's dstate 128 (its BP
# list fits unchanged: BP * N <= 8192) with every option on: an fp32 state with bf16 data and y,
# and a bf16 state (mamba_ssm's Mamba-2 step with dt, dt_bias and D per channel); and at
# dstate 256, where the plan caps BP at 32 (configurations 0 to 3; 4 fits to 2's 32).
# REQUIRES: ptxas
# DEFINE: %{f32} = --arg state=f32:4:aligned --arg new_state=f32:4:aligned --arg x=bf16:3 --arg dt=f32:2 --arg A=f32:1 --arg dt_bias=f32:1 --arg B=bf16:3 --arg C=bf16:3 --arg D=f32:1 --arg z=bf16:3 --arg y=bf16:3 --arg nheads=i64:0 --arg ngroups=i64:0 --const HAS_BIAS=True --const SOFTPLUS=True --const HAS_D=True --const HAS_Z=True
# DEFINE: %{bf16} = --arg state=bf16:4:aligned --arg new_state=bf16:4:aligned --arg x=bf16:3 --arg dt=f32:3 --arg A=f32:1 --arg dt_bias=f32:2 --arg B=bf16:3 --arg C=bf16:3 --arg D=f32:2 --arg z=bf16:3 --arg y=bf16:3 --arg nheads=i64:0 --arg ngroups=i64:0 --const DT_PER_CHANNEL=True --const HAS_BIAS=True --const BIAS_PER_CHANNEL=True --const SOFTPLUS=True --const CLAMP=True --const DT_MIN=0.0 --const HAS_D=True --const D_PER_CHANNEL=True --const HAS_Z=True
# RUN: for c in 0 1 2 3 4; do for arch in sm_90a sm_80; do tile-cc %S/../../kernels/mamba2/decode.py --kernel decode_step %{f32} --const N=128 --config $c --arch $arch --emit=cubin -o %t.f32.$c.$arch.cubin --resource-usage 2>&1 | grep spill; done; done | FileCheck %s --check-prefix=SPILLS --implicit-check-not=spill
# RUN: for c in 0 1 2 3 4; do for arch in sm_90a sm_80; do tile-cc %S/../../kernels/mamba2/decode.py --kernel decode_step %{bf16} --const N=128 --config $c --arch $arch --emit=cubin -o %t.bf16.$c.$arch.cubin --resource-usage 2>&1 | grep spill; done; done | FileCheck %s --check-prefix=SPILLS --implicit-check-not=spill
# RUN: for c in 0 1 2 3; do for arch in sm_90a sm_80; do tile-cc %S/../../kernels/mamba2/decode.py --kernel decode_step %{f32} --const N=256 --config $c --arch $arch --emit=cubin -o %t.n256.$c.$arch.cubin --resource-usage 2>&1 | grep spill; done; done | FileCheck %s --check-prefix=SPILLS8 --implicit-check-not=spill
# SPILLS-COUNT-10: 0 bytes spill stores, 0 bytes spill loads
# SPILLS8-COUNT-8: 0 bytes spill stores, 0 bytes spill loads
