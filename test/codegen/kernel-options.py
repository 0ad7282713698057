# @ct.kernel options do what they say: occupancy=N becomes .minnctapersm N (the default stays
# 1, min-ctas.py); ct.ByTarget picks a value for the --arch being compiled; num_ctas > 1 is
# recorded but warns, since thread-block clusters are not implemented.
# RUN: tile-cc %s --kernel busy --arg x=f32:1 --emit=ptx | FileCheck %s --check-prefix=OCC
# RUN: tile-cc %s --kernel by_target --arg x=f32:1 --emit=ptx --arch sm_90a | FileCheck %s --check-prefix=SM90
# RUN: tile-cc %s --kernel by_target --arg x=f32:1 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel clustered --arg x=f32:1 --emit=tile 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: tile-cc %s --kernel clustered_elsewhere --arg x=f32:1 --emit=tile 2>&1 | FileCheck %s --check-prefix=NOWARN
import cuda.tile as ct


# OCC: .maxntid 128, 1, 1
# OCC-NEXT: .minnctapersm 4
@ct.kernel(occupancy=4)
def busy(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# SM90: .minnctapersm 3
# SM80: .minnctapersm 1
@ct.kernel(occupancy=ct.ByTarget(sm_90=3, default=1))
def by_target(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# WARN: kernel-options.py:[[@LINE+2]]:12: warning: num_ctas=2 is recorded but not used yet: thread-block clusters are not implemented, so the kernel runs with clusters of 1 block
# WARN: tile.kernel @clustered{{.*}}num_ctas = 2 : i32
@ct.kernel(num_ctas=2)
def clustered(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# A value for another target only (cuTile's MatMul sample): nothing to warn about on sm_90a.
# NOWARN-NOT: warning
# NOWARN: tile.kernel @clustered_elsewhere
@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def clustered_elsewhere(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)
