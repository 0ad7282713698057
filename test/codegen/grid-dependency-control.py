# cuTile's grid dependency controls (programmatic dependent launch): griddepcontrol.wait and
# .launch_dependents on sm_90 and later, nothing before (no PDL there: launches are serial). A
# kernel that waits gets "programmatic_dependent_launch": true in its metadata, and the runtime
# then launches it with cuLaunchKernelEx's programmatic stream serialization.
# REQUIRES: ptxas
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=SM90
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 --arch sm_90 --emit=ptx | FileCheck %s --check-prefix=SM90
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 --arch sm_80 --emit=ptx | FileCheck %s --check-prefix=SM80
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 --emit=cubin -o %t.cubin
# RUN: FileCheck %s --check-prefix=META < %t.json
# RUN: tile-cc %s --kernel chained --arg x=f32:1 --arg y=f32:1 --arch sm_80 --emit=cubin -o %t.80.cubin
# RUN: FileCheck %s --check-prefix=NOMETA < %t.80.json
# RUN: tile-cc %s --kernel first --arg x=f32:1 --emit=cubin -o %t.first.cubin
# RUN: FileCheck %s --check-prefix=NOMETA < %t.first.json
# RUN: tile-run %s --kernel chained --grid 2 --array x=f32:128:iota --array y=f32:128 --print y | FileCheck %s --check-prefix=INTERP
# IR: tile.grid_dependency_control wait
# IR: tile.grid_dependency_control launch_dependents
# SM90: griddepcontrol.wait;
# SM90: ld.global
# SM90: griddepcontrol.launch_dependents;
# SM80-NOT: griddepcontrol
# META: "programmatic_dependent_launch": true
# NOMETA-NOT: programmatic_dependent_launch
# INTERP: [0.5, 1.5, 2.5, {{.*}}, 127.5]
import cuda.tile as ct


@ct.kernel
def chained(x, y):
    ct.grid_dependency_control_wait()
    t = ct.load(x, (ct.bid(0),), (64,))
    ct.grid_dependency_control_launch_dependents()
    ct.store(y, (ct.bid(0),), t + 0.5)


@ct.kernel
def first(x):
    ct.grid_dependency_control_launch_dependents()
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (64,)) * 2.0)


# A load copied at kernel start would be issued before the wait where the source put it: the
# kernel waits first, before the copy (and again in place, at once).
# RUN: tile-cc %s --kernel prefetched --arg x=bf16:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=EARLY
# EARLY: griddepcontrol.wait;
# EARLY-NOT: griddepcontrol
# EARLY: cp.async.bulk.tensor
# EARLY: griddepcontrol.wait;
@ct.kernel
def prefetched(x, y, n: int):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(n):
        acc = acc + 1.0
    ct.grid_dependency_control_wait()
    t = ct.load(x, (ct.bid(0), 0), (64, 64)).astype(ct.float32)
    ct.store(y, (ct.bid(0), 0), acc + t)


# The inputs a kernel reads before its wait (a load copied at kernel start, above the wait in
# the source) are copied while the predecessor finishes; the loop after the wait copies its
# first iterations in a prologue that follows the wait: the kernel waits once, where the
# source says, after the input's copy.
# RUN: tile-cc %s --kernel inputs_first --arg x=bf16:2:aligned --arg z=bf16:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=INPLACE
# INPLACE-NOT: griddepcontrol.wait
# INPLACE: cp.async.bulk.tensor
# INPLACE: griddepcontrol.wait;
# INPLACE-NOT: griddepcontrol.wait
# INPLACE: cp.async.bulk.tensor
# INPLACE-NOT: griddepcontrol.wait
@ct.kernel
def inputs_first(x, z, y, n: int):
    t = ct.load(x, (ct.bid(0), 0), (64, 64)).astype(ct.float32)
    ct.grid_dependency_control_wait()
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(n):
        acc = acc + ct.load(z, (i, 0), (64, 64)).astype(ct.float32)
    ct.store(y, (ct.bid(0), 0), acc + t)


# A wait inside a pipelined loop: the prologue copies the first iterations before the loop,
# ahead of that wait, so the kernel waits at its start.
# RUN: tile-cc %s --kernel wait_in_loop --arg z=bf16:2:aligned --arg y=f32:2:aligned --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=INLOOP
# INLOOP: griddepcontrol.wait;
# INLOOP-NOT: griddepcontrol.wait
# INLOOP: cp.async.bulk.tensor
# INLOOP: griddepcontrol.wait;
@ct.kernel
def wait_in_loop(z, y, n: int):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(n):
        ct.grid_dependency_control_wait()
        acc = acc + ct.load(z, (i, 0), (64, 64)).astype(ct.float32)
    ct.store(y, (ct.bid(0), 0), acc)
