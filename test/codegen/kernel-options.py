# @ct.kernel options do what they say: occupancy=N becomes .minnctapersm N (the default stays
# 1, min-ctas.py); ct.ByTarget picks a value for the --arch being compiled; num_ctas=N on sm_90+
# becomes the metadata's preferred_cluster_size (the launch forms clusters of N blocks where
# the grid allows) and warns on older targets, which have no clusters.
# RUN: tile-cc %s --kernel busy --arg x=f32:1 --emit=ptx | FileCheck %s --check-prefix=OCC
# RUN: tile-cc %s --kernel by_target --arg x=f32:1 --emit=ptx --arch sm_90a | FileCheck %s --check-prefix=SM90
# RUN: tile-cc %s --kernel by_target --arg x=f32:1 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel clustered --arg x=f32:1 --emit=tile 2>&1 | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel clustered --arg x=f32:1 --emit=launcher --ptx-only -o %t.h 2>&1 | FileCheck %s --allow-empty --check-prefix=LAUNCHER
# RUN: FileCheck %s --check-prefix=META --input-file %t.cpp
# RUN: tile-cc %s --kernel clustered --arg x=f32:1 --emit=ptx --arch sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN80
# RUN: tile-cc %s --kernel clustered --arg x=f32:1 --emit=launcher --ptx-only --arch sm_80 -o %t80.h 2>&1
# RUN: FileCheck %s --check-prefix=META80 --input-file %t80.cpp
# RUN: tile-cc %s --kernel clustered_elsewhere --arg x=f32:1 --emit=tile 2>&1 | FileCheck %s --check-prefix=NOWARN
# warp_specialize=True/False is recorded on the kernel, for tile-warp-specialize
# (warp-specialize.mlir, warp-specialize-lowering.py); an autotune config may set it.
# RUN: tile-cc %s --kernel specialized --arg x=f32:1 --emit=tile 2>&1 | FileCheck %s --check-prefix=WS
# RUN: tile-cc %s --kernel tuned_specialized --arg x=f32:1 --config 1 --emit=tile 2>&1 | FileCheck %s --check-prefix=WSCONFIG
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


# IR-NOT: warning
# IR: tile.kernel @clustered{{.*}}num_ctas = 2 : i32
# META: \"preferred_cluster_size\": 2
# WARN80: kernel-options.py:[[@LINE+4]]:12: warning: num_ctas=2 has no effect on sm_80: thread-block clusters need sm_90 or newer, so the blocks run unclustered
# LAUNCHER-NOT: warning
# META80: clustered__tile
# META80-NOT: preferred_cluster_size
@ct.kernel(num_ctas=2)
def clustered(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# A value for another target only (cuTile's MatMul sample): nothing to warn about on sm_90a.
# NOWARN-NOT: warning
# NOWARN: tile.kernel @clustered_elsewhere
@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def clustered_elsewhere(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# A ct.ByTarget key that is not an architecture name is refused where it is written.
# RUN: not tile-cc %s --kernel bad_key --arg x=f32:1 --emit=ptx 2>&1 | FileCheck %s --check-prefix=BADKEY
# BADKEY: kernel-options.py:[[@LINE+1]]:34: error: ct.ByTarget keys are architectures like sm_90 or sm_100, or 'default'; got 'sm_9x'
@ct.kernel(occupancy=ct.ByTarget(sm_9x=3, default=1))
def bad_key(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# WS: tile.kernel @specialized{{.*}}warp_specialize = false
@ct.kernel(warp_specialize=False)
def specialized(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)


# WSCONFIG: tile.kernel @tuned_specialized{{.*}}warp_specialize = true
@ct.autotune(configs=[dict(warp_specialize=False), dict(warp_specialize=True)])
@ct.kernel
def tuned_specialized(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (128,)) + 1.0)
