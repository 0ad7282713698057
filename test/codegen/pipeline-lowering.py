# tile-lower-to-llvm implements tile-pipeline-loops' decisions with cp.async: the copies of the
# first S - 1 iterations before the loop (one commit group each, empty past the trip count),
# then in every iteration a wait until S - 2 groups are pending, a barrier, the copies of
# iteration i + S - 1 into the stage iteration i - 1 read (one commit group), and the loads
# read from their stage; after the loop every group is waited for and a barrier frees the
# stages. A tile wholly inside the array (one uniform check per load) takes full copies with
# no bounds; ragged edges copy fewer bytes (cp.async's source size); misaligned or strided
# views take an element-by-element path under a uniform condition.
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefixes=PTX,S3
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx --pipeline-stages 2 | FileCheck %s --check-prefixes=PTX,S2
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx --pipeline-stages 4 | FileCheck %s --check-prefixes=PTX,S4
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx --pipeline-stages 1 | FileCheck %s --check-prefix=OFF
# RUN: tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=gpu -o /dev/null -debug-only=tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=DEBUG
# RUN: not tile-cc %s --kernel k --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx --pipeline-stages 9 2>&1 | FileCheck %s --check-prefix=BAD
import cuda.tile as ct


@ct.kernel
def k(x, y, n):
    acc = ct.zeros((16, 64), dtype=ct.float32)
    for i in range(n):
        acc = acc * 0.5 + ct.load(x, (i, ct.bid(0)), (16, 64), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (0, ct.bid(0)), acc)

# The prologue: S - 1 commit groups of 16-byte copies (four f32 each): without a source size
# for a tile inside the array, else zero-filling past the edge through the source-size operand.
# The element-by-element path for misaligned views takes its indices through an opaque move
# (no induction variables for its addresses).
# PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
# PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
# PTX: // begin inline asm
# PTX-NEXT: mov.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}};
# S2-COUNT-1: cp.async.commit_group
# S3-COUNT-2: cp.async.commit_group
# S4-COUNT-3: cp.async.commit_group
# The load reads its stage (16-byte vectors).
# PTX: ld.shared.v4
# In the loop: wait until S - 2 groups are pending, a barrier, the copies S - 1 ahead.
# S2: cp.async.wait_group 0;
# S3: cp.async.wait_group 1;
# S4: cp.async.wait_group 2;
# PTX-NEXT: bar.sync 0;
# PTX: cp.async.cg.shared.global
# After the loop: every group, then a barrier before the scratch reuses the stages.
# PTX: cp.async.wait_group 0;
# PTX-NEXT: bar.sync 0;
# OFF-NOT: cp.async
# DEBUG: [tile-lower-to-llvm] scf.for at {{.*}}: 1 load(s) in 3 shared-memory stages of 4096 bytes, copied 2 iteration(s) ahead with cp.async
# BAD: --pipeline-stages

# Loads before and after a loop, copied at kernel start in two commit groups: the load before
# the loop waits for the first group only (the second stays in flight while the loop runs),
# the one after it for both.
# RUN: tile-cc %s --kernel around_loop --arg x=f32:2 --arg y=f32:2 --arg n=i32:0 --emit=ptx | FileCheck %s --check-prefix=AROUND
@ct.kernel
def around_loop(x, y, n):
    acc = ct.load(x, (0, ct.bid(0)), (16, 64))
    for i in range(n):
        acc = acc * 0.5
    ct.store(y, (0, ct.bid(0)), acc + ct.load(x, (1, ct.bid(0)), (16, 64)))

# AROUND: cp.async.cg.shared.global
# AROUND: cp.async.commit_group;
# AROUND: cp.async.cg.shared.global
# AROUND: cp.async.commit_group;
# AROUND-NOT: cp.async.commit_group
# AROUND: cp.async.wait_group 1;
# AROUND-NEXT: bar.sync 0;
# AROUND: ld.shared.v4
# AROUND: cp.async.wait_group 0;
# AROUND-NEXT: bar.sync 0;
# AROUND: ld.shared.v4
