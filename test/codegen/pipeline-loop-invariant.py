# A load of the kernel's body that a Tensor Core product inside a loop reads is read by every
# iteration: tile-pipeline-loops keeps its bytes out of the loop's stage budget, so its
# kernel-start copy finds room (here a fifth stage would otherwise take it).
# A body load that only products outside loops read reserves nothing.
# RUN: tile-cc %s --kernel inside --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg n=i32:0 --emit=gpu -o /dev/null -debug-only=tile-pipeline-loops 2>&1 | FileCheck %s --check-prefix=INSIDE
# RUN: tile-cc %s --kernel outside --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --arg n=i32:0 --emit=gpu -o /dev/null -debug-only=tile-pipeline-loops 2>&1 | FileCheck %s --check-prefix=OUTSIDE
import cuda.tile as ct


@ct.kernel(occupancy=2)
def inside(a, b, c, n: int):
    at = ct.load(a, (0, 0), (128, 64))
    acc = ct.zeros((128, 128), dtype=ct.float32)
    for i in range(n):
        acc = ct.mma(at, ct.load(b, (i, 0), (64, 128), latency=10), acc)
    ct.store(c, (0, 0), acc)

# INSIDE: kernel 'inside': 16384 bytes kept for loop-invariant Tensor Core operands
# INSIDE: loop at {{.*}}: 1 load(s) copied {{[0-9]+}} iteration(s) ahead, {{[0-9]+}} stages of 16384 bytes at offset 0 (latency hint 10, budget {{[0-9]+}} bytes)
# INSIDE: load at {{.*}}pipeline-loop-invariant.py":[[@LINE-8]]{{.*}}: copied at kernel start into 16384 bytes at offset {{[0-9]+}}, in the Tensor Core operand layout


@ct.kernel(occupancy=2)
def outside(a, b, c, n: int):
    acc = ct.zeros((128, 128), dtype=ct.float32)
    for i in range(n):
        acc = ct.mma(ct.load(a, (i, 0), (128, 64)), ct.load(b, (i, 0), (64, 128)), acc)
    acc = ct.mma(ct.load(a, (0, 0), (128, 64)), ct.load(b, (0, 0), (64, 128)), acc)
    ct.store(c, (0, 0), acc)

# OUTSIDE-NOT: kept for loop-invariant
# OUTSIDE: loop at
