// The tile dialect's folders, through the canonicalizer.
// RUN: tile-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: tile.kernel @static_dim
tile.kernel @static_dim(%x: !tile.array<?x64xf32>, %o: !tile.array<?xi64>) {
  // The static dimension folds to a constant, and its broadcast to a splat.
  // CHECK-DAG: %[[SPLAT:.*]] = arith.constant dense<64> : tensor<2xi64>
  // CHECK-DAG: %[[D0:.*]] = tile.dim %{{.*}}, 0
  // CHECK-NOT: tile.dim %{{.*}}, 1
  // CHECK: tile.broadcast %[[D0]]
  %d0 = tile.dim %x, 0 : !tile.array<?x64xf32>
  %d1 = tile.dim %x, 1 : !tile.array<?x64xf32>
  %c0 = arith.constant 0 : i32
  %t0 = tile.broadcast %d0 : i64 -> tensor<2xi64>
  %t1 = tile.broadcast %d1 : i64 -> tensor<2xi64>
  // CHECK: tile.store %[[SPLAT]]
  tile.store %t0, %o[%c0] : tensor<2xi64>, !tile.array<?xi64>[i32]
  tile.store %t1, %o[%c0] : tensor<2xi64>, !tile.array<?xi64>[i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @identities
// CHECK-SAME: (%[[X:.*]]: !tile.array<?x?xf32>
tile.kernel @identities(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  // CHECK: %[[T:.*]] = tile.load
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x8xf32>
  // CHECK-NOT: tile.broadcast
  // CHECK-NOT: tile.reshape
  // CHECK-NOT: tile.permute
  // CHECK-NOT: tile.extract
  %b = tile.broadcast %t : tensor<16x8xf32> -> tensor<16x8xf32>
  %r = tile.reshape %b : tensor<16x8xf32> -> tensor<16x8xf32>
  %p = tile.permute %r [0, 1] : tensor<16x8xf32> -> tensor<16x8xf32>
  %e = tile.extract %p [0, 0] : tensor<16x8xf32> -> tensor<16x8xf32>
  // CHECK: tile.store %[[T]], %[[X]]
  tile.store %e, %x[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @chains
tile.kernel @chains(%x: !tile.array<?x?x?xf32>, %y: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0, %c0] : !tile.array<?x?x?xf32>[i32, i32, i32] -> tensor<2x4x8xf32>
  // permute(permute(t, [1, 2, 0]), [2, 0, 1]) is the identity.
  %p1 = tile.permute %t [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %p2 = tile.permute %p1 [2, 0, 1] : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
  // CHECK-NOT: tile.permute
  // Two reshapes become one.
  // CHECK: tile.reshape %{{.*}} : tensor<2x4x8xf32> -> tensor<64xf32>
  // CHECK-NOT: tile.reshape
  %r1 = tile.reshape %p2 : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %r2 = tile.reshape %r1 : tensor<8x8xf32> -> tensor<64xf32>
  tile.store %r2, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @compose_permutes
tile.kernel @compose_permutes(%x: !tile.array<?x?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0, %c0] : !tile.array<?x?x?xf32>[i32, i32, i32] -> tensor<2x4x8xf32>
  // CHECK: tile.permute %{{.*}} [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  // CHECK-NOT: tile.permute
  %p1 = tile.permute %t [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %p2 = tile.permute %p1 [1, 2, 0] : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  tile.store %p2, %x[%c0, %c0, %c0] order = [2, 0, 1] : tensor<8x2x4xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  tile.return
}

// -----

// Two permutations that do not commute: result dim d is t's dim inner[outer[d]] = [1, 2, 0]
// (outer[inner[d]] would be [2, 0, 1]).
// CHECK-LABEL: tile.kernel @compose_noncommuting_permutes
tile.kernel @compose_noncommuting_permutes(%x: !tile.array<?x?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0, %c0] : !tile.array<?x?x?xf32>[i32, i32, i32] -> tensor<2x4x8xf32>
  // CHECK: tile.permute %{{.*}} [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  // CHECK-NOT: tile.permute
  %p1 = tile.permute %t [1, 0, 2] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %p2 = tile.permute %p1 [0, 2, 1] : tensor<4x2x8xf32> -> tensor<4x8x2xf32>
  tile.store %p2, %x[%c0, %c0, %c0] order = [1, 2, 0] : tensor<4x8x2xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @splats
tile.kernel @splats(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  // CHECK: %[[S:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
  // CHECK-NOT: tile.broadcast
  // CHECK-NOT: tile.expand_dims
  // CHECK-NOT: tile.permute
  %b = tile.broadcast %one : f32 -> tensor<4xf32>
  %e = tile.expand_dims %b axis = 0 : tensor<4xf32> -> tensor<1x4xf32>
  %bb = tile.broadcast %e : tensor<1x4xf32> -> tensor<8x4xf32>
  %p = tile.permute %bb [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %q = tile.permute %p [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tile.store %[[S]]
  tile.store %q, %x[%c0, %c0] : tensor<8x4xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @broadcast_chain
tile.kernel @broadcast_chain(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<1x1xf32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<8x4xf32>
  // CHECK-NOT: tile.broadcast
  %b1 = tile.broadcast %t : tensor<1x1xf32> -> tensor<1x4xf32>
  %b2 = tile.broadcast %b1 : tensor<1x4xf32> -> tensor<8x4xf32>
  tile.store %b2, %y[%c0, %c0] : tensor<8x4xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reduce_size_one
tile.kernel @reduce_size_one(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<8x1xf32>
  // CHECK-NOT: tile.reduce sum
  // CHECK: tile.reduce argmax
  %s = tile.reduce sum %t axis = 1 keepdims : tensor<8x1xf32> -> tensor<8x1xf32>
  %a = tile.reduce argmax %t axis = 1 keepdims : tensor<8x1xf32> -> tensor<8x1xi32>
  tile.store %s, %x[%c0, %c0] : tensor<8x1xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.print "%d", %a : tensor<8x1xi32>
  tile.return
}
