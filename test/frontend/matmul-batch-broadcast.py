# ct.matmul, `@` and ct.mma broadcast batch dimensions as numpy's matmul does: a 2-D operand, or
# a batch of one, is broadcast to the other operand's (or ct.mma's accumulator's) batch size
# (cuTile's FFT sample multiplies a (1, F, F) factor by a (BS, F, K) batch this way).
# RUN: tile-cc %s --kernel k --arg w=f32:3 --arg x=f32:3 --arg out=f32:3 --emit=tile | FileCheck %s
# RUN: not tile-cc %s --kernel bad --arg w=f32:3 --arg x=f32:3 --arg out=f32:3 2>&1 | FileCheck %s --check-prefix=BAD
import cuda.tile as ct


@ct.kernel
def k(w, x, out):
    w1 = ct.load(w, (0, 0, 0), (1, 16, 16))
    xs = ct.load(x, (0, 0, 0), (4, 16, 8))
    y = ct.matmul(w1, xs) + ct.reshape(w1, (16, 16)) @ xs
    y = ct.mma(ct.reshape(w1, (16, 16)), ct.reshape(ct.extract(xs, (0, 0, 0), (1, 16, 8)), (16, 8)), y)
    ct.store(out, (0, 0, 0), y)

# CHECK-LABEL: tile.kernel @k
# CHECK: tile.broadcast %{{.*}} : tensor<1x16x16xf32> -> tensor<4x16x16xf32>
# CHECK: tile.mma {{.*}} : tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
# CHECK: tile.reshape %{{.*}} : tensor<16x16xf32> -> tensor<1x16x16xf32>
# CHECK: tile.broadcast %{{.*}} : tensor<1x16x16xf32> -> tensor<4x16x16xf32>
# CHECK: tile.mma {{.*}} : tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>
# The accumulator's batch of 4 broadcasts both 2-D operands.
# CHECK: tile.broadcast %{{.*}} : tensor<1x16x8xf32> -> tensor<4x16x8xf32>
# CHECK: tile.mma {{.*}} : tensor<4x16x16xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>


@ct.kernel
def bad(w, x, out):
    a = ct.load(w, (0, 0, 0), (2, 16, 16))
    b = ct.load(x, (0, 0, 0), (4, 16, 8))
    # BAD: matmul-batch-broadcast.py:[[@LINE+1]]:{{[0-9]+}}: error: ct.matmul: batch sizes 2 and 4 do not broadcast (each must be 1 or the same)
    ct.store(out, (0, 0, 0), ct.matmul(a, b))
