# Every kernel tells ptxas that one resident block per SM is enough (.minnctapersm 1 beside
# .maxntid), so ptxas may give each thread the registers it needs. With .maxntid alone, ptxas
# (CUDA 13.0) built heavily spilling kernels such as this one (fwd_pass_state's shape at chunk
# 256 with initial states) at 32 registers for full occupancy, and in that mode it loaded each
# thread's last 4-element run of init from the start of its row (it rematerialised the column
# offset from a register already reused for the address's high word): states[:, 0], a copy of
# init, came out wrong on the GPU (the [gpu] differential case state_loop_q256_init).
# RUN: tile-cc %s --kernel k --arg x=f32:4 --arg bm=f32:4 --arg w=f32:4 --arg init=f32:4 --arg states=f32:5 --arg nheads=i32:0 --arg n=i32:0 --emit=ptx | FileCheck %s
# RUN: tile-cc %s --kernel k --arg x=f32:4 --arg bm=f32:4 --arg w=f32:4 --arg init=f32:4 --arg states=f32:5 --arg nheads=i32:0 --arg n=i32:0 --emit=ptx --num-threads 256 | FileCheck %s --check-prefix=T256
# RUN: tile-cc %s --kernel k --arg x=f32:4 --arg bm=f32:4 --arg w=f32:4 --arg init=f32:4 --arg states=f32:5 --arg nheads=i32:0 --arg n=i32:0 --emit=llvm | FileCheck %s --check-prefix=LLVM
# RUN: tile-cc %s --kernel k --arg x=f32:4 --arg bm=f32:4 --arg w=f32:4 --arg init=f32:4 --arg states=f32:5 --arg nheads=i32:0 --arg n=i32:0 --emit=gpu | FileCheck %s --check-prefix=GPU
import cuda.tile as ct


@ct.kernel
def k(x, bm, w, init, states, nheads, n):
    bi = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    S = ct.reshape(ct.load(init, (bi, h, ct.bid(0), ct.bid(1)), (1, 1, 64, 64), padding_mode=ct.PaddingMode.ZERO), (64, 64))
    for c in range(n):
        ct.store(states, (bi, c, h, ct.bid(0), ct.bid(1)), ct.reshape(S, (1, 1, 1, 64, 64)))
        xc = ct.reshape(ct.load(x, (bi, c, h, ct.bid(0)), (1, 256, 1, 64), padding_mode=ct.PaddingMode.ZERO), (256, 64))
        bc = ct.reshape(ct.load(bm, (bi, c, 0, ct.bid(1)), (1, 256, 1, 64), padding_mode=ct.PaddingMode.ZERO), (256, 64))
        wv = ct.reshape(ct.load(w, (bi, h, c, 0), (1, 1, 1, 256)), (256,))
        S = ct.mma(ct.transpose(xc), bc * wv[:, None], S * 0.5)

# CHECK: .visible .entry k__tile(
# CHECK: .maxntid 128, 1, 1
# CHECK-NEXT: .minnctapersm 1
# T256: .maxntid 256, 1, 1
# T256-NEXT: .minnctapersm 1
# LLVM: define ptx_kernel void @k__tile({{.*}}) {{.*}}#[[ATTRS:[0-9]+]]
# LLVM: attributes #[[ATTRS]] = {{{.*}}"nvvm.maxntid"="128,1,1" "nvvm.minctasm"="1"
# GPU: llvm.func @k__tile({{.*}} attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32,
