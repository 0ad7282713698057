# The example kernels compile end to end (and compile-kernels.sh takes them through ptxas).
# RUN: tile-cc %S/../../kernels/examples/fused_block.py --kernel fused_block --arg x=bf16:2 --arg w_norm=bf16:1 --arg w_proj=bf16:2 --arg gate=bf16:2 --arg out=bf16:2 --arg stats=f32:1 --arg n=i32:0 --emit=ptx | FileCheck %s
# RUN: tile-cc %S/../../kernels/examples/fused_block.py --kernel fused_block --arg x=bf16:2 --arg w_norm=bf16:1 --arg w_proj=bf16:2 --arg gate=bf16:2 --arg out=bf16:2 --arg stats=f32:1 --arg n=i32:0 --config 1 --emit=ptx | FileCheck %s
# RUN: tile-cc %S/../../kernels/examples/scale_rows.py --kernel scale_rows --const TM=64 --const TN=32 --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2 --emit=ptx | FileCheck %s --check-prefix=SCALE
# Attention at its default threads, D 64 and 128, causal and ragged: no spills (ptxas reports).
# RUN: tile-cc %S/../../kernels/examples/attention.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=128 --emit=cubin -o /dev/null --resource-usage 2>&1 | FileCheck %s --check-prefix=ATTN
# RUN: tile-cc %S/../../kernels/examples/attention.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=128 --const H=8 --const TILE_M=128 --const TILE_N=64 --const CAUSAL=True --const EVEN_K=False --emit=cubin -o /dev/null --resource-usage 2>&1 | FileCheck %s --check-prefix=ATTN
# ATTN-NOT: C7519
# ATTN: 0 bytes spill stores, 0 bytes spill loads
# CHECK: .visible .entry fused_block__tile(
# CHECK: atom.global.add.f32
# SCALE: .visible .entry scale_rows__tile(
# scale_rows: the rows load as 16-byte vectors when the array allows, are scaled in f32,
# rounded to bf16 and stored as vectors (the scalar path covers ragged edges).
# SCALE: ld.global.v4.b32
# SCALE: mul.rn.f32
# SCALE: cvt.rn.bf16.f32
# SCALE: st.global.v4.b32
