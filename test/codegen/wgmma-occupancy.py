# An occupancy whose register share cannot hold a wgmma: occupancy=2 at 512 threads leaves
# 65536 / 1024 = 64 registers per thread, and an m64n128 product keeps 64 accumulator
# registers live with its operands beside them (ptxas: "Insufficient registers", C7602, as
# NVIDIA's AttentionFMHA sample at TILE_M=256 hit). The lowering asks for one block per SM
# instead and says so; occupancy=2 at 256 threads (128 registers) stays.
# RUN: tile-cc %s --kernel tight --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s --check-prefix=TIGHT < %t.ptx
# RUN: tile-cc %s --kernel roomy --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --emit=ptx 2>&1 | FileCheck %s --check-prefix=ROOMY
import cuda.tile as ct

# WARN: warning: occupancy=2 leaves 64 registers per thread at 512 threads, fewer than its wgmma needs (96): compiled for occupancy 1
# TIGHT: .maxntid 512, 1, 1
# TIGHT-NEXT: .minnctapersm 1
# TIGHT: wgmma.mma_async
@ct.kernel(occupancy=2, num_threads=512)
def tight(a, b, c):
    acc = ct.mma(ct.load(a, (ct.bid(0), 0), (256, 64)), ct.load(b, (0, 0), (64, 128)), ct.zeros((256, 128), ct.float32))
    ct.store(c, (ct.bid(0), 0), acc)


# ROOMY-NOT: warning
# ROOMY: .maxntid 256, 1, 1
# ROOMY-NEXT: .minnctapersm 2
@ct.kernel(occupancy=2, num_threads=256)
def roomy(a, b, c):
    acc = ct.mma(ct.load(a, (ct.bid(0), 0), (256, 64)), ct.load(b, (0, 0), (64, 128)), ct.zeros((256, 128), ct.float32))
    ct.store(c, (ct.bid(0), 0), acc)
