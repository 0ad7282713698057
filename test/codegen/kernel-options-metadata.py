# occupancy reaches the launch metadata ("occupancy", beside .minnctapersm in the cubin).
# REQUIRES: ptxas
# RUN: tile-cc %s --kernel busy --arg x=f32:1 --emit=cubin -o %t.cubin
# RUN: FileCheck %s < %t.json
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --emit=cubin -o %t.plain.cubin
# RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.json
import cuda.tile as ct


# CHECK: "occupancy": 4
@ct.kernel(occupancy=4)
def busy(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# PLAIN: "occupancy": 1
@ct.kernel
def plain(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)
