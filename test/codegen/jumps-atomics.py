# What while/break/return, a run-time range() step and the atomics become: a loop that can be
# left early is an scf.while down to the GPU dialect level; a run-time step is checked
# positive; atomic orderings reach the PTX (compare-and-swap carries its own, read-modify-write
# ops get fences, since NVPTX would emit them relaxed). jumps.py and cutile_api.py run them.
# RUN: tile-cc %s --kernel search --arg x=f32:1 --arg out=i32:1 --emit=tile | FileCheck %s --check-prefix=TILE
# RUN: tile-cc %s --kernel search --arg x=f32:1 --arg out=i32:1 --emit=gpu | FileCheck %s --check-prefix=GPU
# RUN: tile-cc %s --kernel strided --arg x=f32:1 --emit=tile | FileCheck %s --check-prefix=STEP
# RUN: tile-cc %s --kernel locked --arg lock=i32:1 --arg total=i32:1 --emit=ptx | FileCheck %s --check-prefix=PTX
import cuda.tile as ct


# TILE-LABEL: tile.kernel @search
# TILE: scf.while
# TILE: scf.condition
# TILE: scf.if
# TILE: tile.store
# GPU: llvm.func @search__tile
# GPU: scf.while
# GPU: scf.condition
@ct.kernel
def search(x, out):
    i = 0
    hit = -1
    while i < ct.num_tiles(x, axis=0, shape=(16,)):
        if ct.max(ct.load(x, (i,), (16,))) > 0.0:
            hit = i
            break
        i += 1
    if hit < 0:
        return
    ct.store(out, (0,), ct.full((1,), hit, dtype=ct.int32))


# STEP: %[[NB:.*]] = tile.num_blocks 0
# STEP: %[[POS:.*]] = arith.cmpi sgt, %[[NB]]
# STEP: tile.assert %[[POS]], "range() step must be positive"
# STEP: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]]
@ct.kernel
def strided(x):
    for t in range(ct.bid(0), ct.num_tiles(x, axis=0, shape=(16,)), ct.num_blocks(0)):
        ct.store(x, (t,), ct.load(x, (t,), (16,)) * 2.0)


# PTX: atom.acquire.gpu.global.cas.b32
# PTX: fence.acq_rel.gpu
# PTX-NEXT: atom.global.exch.b32
@ct.kernel
def locked(lock, total):
    while ct.atomic_cas(lock, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    ct.store(total, (0,), ct.load(total, (0,), (1,)) + 1)
    ct.atomic_xchg(lock, 0, 0, memory_order=ct.MemoryOrder.RELEASE)
