# occupancy=N becomes .minnctapersm N (ptxas then keeps each thread within 65536 / (N * threads)
# registers); without it a kernel asks for 1. An autotune configuration's occupancy overrides
# the decorator's.
# RUN: tile-cc %s --kernel fixed --arg x=f32:1 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=FIXED
# RUN: tile-cc %s --kernel tuned --arg x=f32:1 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=CONFIG0
# RUN: tile-cc %s --kernel tuned --arg x=f32:1 --arg y=f32:1 --emit=ptx --config 1 | FileCheck %s --check-prefix=CONFIG1
# RUN: tile-cc %s --kernel tuned --arg x=f32:1 --arg y=f32:1 --emit=ptx --config 1 --num-threads 256 | FileCheck %s --check-prefix=CONFIG1
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=PLAIN
import cuda.tile as ct


@ct.kernel(occupancy=3)
def fixed(x, y):
    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (256,)) * 2.0)


@ct.autotune(configs=[dict(B=256), dict(B=128, occupancy=4)], key=[])
@ct.kernel(occupancy=2)
def tuned(x, y, B: ct.Constant[int]):
    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (B,)) * 2.0)


@ct.kernel
def plain(x, y):
    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (256,)) * 2.0)

# FIXED: .minnctapersm 3
# CONFIG0: .minnctapersm 2
# CONFIG1: .minnctapersm 4
# PLAIN: .minnctapersm 1
