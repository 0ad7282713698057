# The configurations the autotuner picks on the H200 for the benchmark shapes compile through
# ptxas (sm_90a) without spilling: fwd_pass_state 20 (64-row parts) and 6 and compute_out 13
# and 11 (128-row blocks over two warpgroups) at chunk 128, dstate 128; fwd_pass_state 17 at
# chunk 64, dstate 64 (compute_out's pick there is a configuration the plan narrows to dstate
# 64, which tile-cc cannot name). Other configurations may spill at chunk 128 (compute_out 11
# spills 64 bytes with the z gate); the tuner times them like the rest. The inputs are the
# benchmark's: bf16 x, B and C, fp32 D, no z.
# DEFINE: %{state} = --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg dt_out=f32:4:aligned --arg dA_cumsum=f32:4:aligned --arg initial_states=f32:4 --arg states=bf16:5:aligned --arg final_states=f32:4 --arg states_t=bf16:5 --arg final_states_t=f32:4 --arg nheads=i64:0 --arg ngroups=i64:0 --arg nchunks=i64:0 --arg seq_idx=f32:1
# DEFINE: %{out} = --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg C=bf16:4:aligned --arg cb=f32:5 --arg dt_out=f32:4:aligned --arg dA_cumsum=f32:4:aligned --arg states=bf16:5:aligned --arg initial_states=f32:4 --arg D=f32:1 --arg z=bf16:4 --arg y=bf16:4:aligned --arg nheads=i64:0 --arg ngroups=i64:0 --arg seq_idx=f32:1 --const HAS_D=True
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state %{state} --const Q=128 --config 20 --emit=cubin -o %t.s20.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state %{state} --const Q=128 --config 6 --emit=cubin -o %t.s6.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel fwd_pass_state %{state} --const Q=64 --config 17 --emit=cubin -o %t.s17.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out %{out} --const N=128 --const Q=128 --config 13 --emit=cubin -o %t.o13.cubin --resource-usage 2>&1 | FileCheck %s
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out %{out} --const N=128 --const Q=128 --config 11 --emit=cubin -o %t.o11.cubin --resource-usage 2>&1 | FileCheck %s
# With initial states, the first chunk's blocks add the product of the rest of their rounding
# (initial_state_remainder) inside the head loop, in 32-column steps that add no spills:
# RUN: tile-cc %S/../../kernels/mamba2/ssd.py --kernel compute_out %{out} --const N=128 --const Q=128 --const HAS_INIT=True --config 13 --emit=cubin -o %t.o13i.cubin --resource-usage 2>&1 | FileCheck %s
# CHECK: 0 bytes spill stores, 0 bytes spill loads
