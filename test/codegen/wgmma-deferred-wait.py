# A wgmma product's wait is deferred past the ops that can run while its group does: element-
# wise work, loads and element stores that do not use the result go between the last
# wgmma.mma_async and wgmma.wait_group; the first use, a barrier (here: a reduction across
# warps) or the end of a region ends it.
# RUN: tile-cc %s --kernel overlap --arg a=bf16:2 --arg b=bf16:2 --arg s=f32:1 --arg c=f32:2 --arg d=f32:1 --emit=ptx | FileCheck %s
# RUN: tile-cc %s --kernel overlap --arg a=bf16:2 --arg b=bf16:2 --arg s=f32:1 --arg c=f32:2 --arg d=f32:1 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=DEBUG
# RUN: tile-cc %s --kernel barrier_first --arg a=bf16:2 --arg b=bf16:2 --arg s=f32:1 --arg c=f32:2 --emit=ptx | FileCheck %s --check-prefix=BARRIER
import cuda.tile as ct

# CHECK-LABEL: .entry overlap
# CHECK: wgmma.mma_async
# CHECK-NOT: wgmma.wait_group
# The independent exponentials and the element store of d run before the wait:
# CHECK: ex2.approx.f32
# CHECK-NOT: wgmma.wait_group
# CHECK: st.global
# CHECK: wgmma.wait_group.sync.aligned 0;
# DEBUG: wgmma wait deferred past {{[1-9][0-9]*}} op(s)
@ct.kernel
def overlap(a, b, s, c, d):
    ta = ct.load(a, (0, 0), (64, 64))
    tb = ct.load(b, (0, 0), (64, 64))
    acc = ct.mma(ta, tb, ct.zeros((64, 64), dtype=ct.float32))
    e = ct.exp(ct.load(s, (0,), (64,)))
    ct.store(d, (0,), e * 2.0)
    ct.store(c, (0, 0), acc * e[:, None])


# A reduction's partial results meet in shared memory behind a barrier: the wait comes first.
# BARRIER-LABEL: .entry barrier_first
# BARRIER: wgmma.mma_async
# BARRIER-NOT: bar.sync
# BARRIER: wgmma.wait_group.sync.aligned 0;
# BARRIER: bar.sync
@ct.kernel
def barrier_first(a, b, s, c):
    ta = ct.load(a, (0, 0), (64, 64))
    tb = ct.load(b, (0, 0), (64, 64))
    acc = ct.mma(ta, tb, ct.zeros((64, 64), dtype=ct.float32))
    m = ct.max(ct.load(s, (0,), (64,)), axis=0)
    ct.store(c, (0, 0), acc * m)
