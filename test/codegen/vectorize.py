# Vectorised global accesses in the PTX: 16-byte ld/st.global.v4 for runs of f32 and of 16-bit
# types, behind a uniform alignment check on the (64-bit) base pointer, with the scalar masked
# accesses kept for ragged edges and misaligned or strided arrays.
# RUN: tile-cc %s --kernel scale --arg x=f32:2 --arg y=f32:2 --emit=ptx | FileCheck %s --check-prefixes=CHECK,F32
# RUN: tile-cc %s --kernel scale --arg x=bf16:2 --arg y=bf16:2 --emit=ptx | FileCheck %s --check-prefixes=CHECK,B16
# RUN: tile-cc %s --kernel scale --arg x=f16:2 --arg y=f16:2 --emit=ptx | FileCheck %s --check-prefixes=CHECK,B16
# RUN: tile-cc %s --kernel scale --arg x=bf16:2 --arg y=f32:2 --emit=ptx --arch sm_80 | FileCheck %s --check-prefixes=CHECK,MIXED
import cuda.tile as ct


@ct.kernel
def scale(x, y):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, (i, j), (32, 64), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (i, j), (t * 2.0).astype(y.dtype))

# CHECK: .visible .entry scale__tile(
# CHECK: ld.param.b64 [[X:%rd[0-9]+]], [scale__tile_param_0];
# CHECK: and.b64 %rd{{[0-9]+}}, [[X]], 15;
# F32: ld.global.v4.b32
# F32: ld.global.b32
# F32: st.global.v4.b32
# F32: st.global.b32
# B16: ld.global.v4.b32
# B16: ld.global.b16
# B16: st.global.v4.b32
# B16: st.global.b16
# MIXED: ld.global.v4.b32
# MIXED: ld.global.b16
# MIXED: st.global.v4.b32
# MIXED: st.global.b32
