# The PTX tile-cc emits for a small kernel: the entry, 64-bit bounds-checked global accesses,
# barriers around shared-memory exchanges, approximate transcendentals.
# RUN: tile-cc %s --kernel softmax_rows --arg x=f32:2 --arg y=f32:2 --emit=ptx | FileCheck %s
# RUN: tile-cc %s --kernel softmax_rows --arg x=f32:2 --arg y=f32:2 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel softmax_rows --arg x=f32:2 --arg y=f32:2 --emit=llvm | FileCheck %s --check-prefix=LLVM
# RUN: tile-cc %s --kernel softmax_rows --arg x=f32:2 --arg y=f32:2 --emit=gpu | FileCheck %s --check-prefix=GPU
import cuda.tile as ct


@ct.kernel
def softmax_rows(x, y):
    i = ct.bid(0)
    t = ct.load(x, (i, 0), (16, 64), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    ct.store(y, (i, 0), e / ct.sum(e, axis=1, keepdims=True))

# CHECK: .version 8.0
# CHECK: .target sm_90a
# CHECK: .extern .shared .align 1024 .b8 __tile_smem[];
# CHECK: .visible .entry softmax_rows__tile(
# CHECK: .maxntid 128, 1, 1
# CHECK: mov.u32 {{.*}}%tid.x;
# CHECK: ld.global.b32
# CHECK: bar.sync 0;
# CHECK: ex2.approx.f32
# CHECK: st.global.b32
# SM80: .version 7.0
# SM80: .target sm_80
# LLVM: define ptx_kernel void @softmax_rows__tile(ptr addrspace(1)
# LLVM: call float @llvm.nvvm.ex2.approx.f32
# GPU: llvm.func @softmax_rows__tile
# GPU: nvvm.barrier0
