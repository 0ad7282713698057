// tile-load-operands-in-memory-order: a load with `order` whose tile only feeds products
// becomes a load in memory order and a permute (a 2-D transpose after the reshape when unit
// dims surround the matrix), which the product folds; other transposed loads stay as they are.
// RUN: tile-opt %s -split-input-file -tile-load-operands-in-memory-order | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-load-operands-in-memory-order -debug-only=tile-load-operands-in-memory-order -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG

// cuTile's FMHA sample loads K^T as (1, 1, D, N) with order (0, 1, 3, 2).
// CHECK-LABEL: tile.kernel @attention_k
// CHECK: %[[K:.*]] = tile.load %arg0[%c0_i32, %c0_i32, %arg2, %c1_i32] : !tile.array<?x?x?x?xbf16>[i32, i32, i32, i32] -> tensor<1x1x64x128xbf16>
// CHECK: %[[M:.*]] = tile.reshape %[[K]] : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
// CHECK: %[[T:.*]] = tile.permute %[[M]] [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
// CHECK: tile.mma %{{.*}}, %[[T]], %{{.*}}
// DEBUG: [tile-load-operands-in-memory-order] load at {{.*}}: in memory order tensor<1x1x64x128xbf16>, then permuted into the products it feeds
tile.kernel @attention_k(%k: !tile.array<?x?x?x?xbf16>, %o: !tile.array<?x?xf32>, %j: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x128xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %kt = tile.load %k[%c0, %c0, %c1, %j] order = [0, 1, 3, 2] : !tile.array<?x?x?x?xbf16>[i32, i32, i32, i32] -> tensor<1x1x128x64xbf16>
  %m = tile.reshape %kt : tensor<1x1x128x64xbf16> -> tensor<128x64xbf16>
  %s = tile.mma %q, %m, %acc : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
  tile.store %s, %o[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A 2-D transposed operand: the load in memory order, then the permute.
// CHECK-LABEL: tile.kernel @transposed_b
// CHECK: %[[L:.*]] = tile.load %arg0[%arg2, %c0_i32] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
// CHECK: tile.permute %[[L]] [1, 0] : tensor<64x32xbf16> -> tensor<32x64xbf16>
tile.kernel @transposed_b(%b: !tile.array<?x?xbf16>, %o: !tile.array<?x?xf32>, %j: i32) {
  %c0 = arith.constant 0 : i32
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %bt = tile.load %b[%c0, %j] order = [1, 0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %s = tile.mma %a, %bt, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %s, %o[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Also stored: not only a product's operand, so the load keeps its order.
// CHECK-LABEL: tile.kernel @also_stored
// CHECK: tile.load %arg0[%c0_i32, %c0_i32] order = [1, 0]
// CHECK-NOT: tile.permute
tile.kernel @also_stored(%b: !tile.array<?x?xbf16>, %o: !tile.array<?x?xf32>, %t: !tile.array<?x?xbf16>) {
  %c0 = arith.constant 0 : i32
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %bt = tile.load %b[%c0, %c0] order = [1, 0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %s = tile.mma %a, %bt, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %s, %o[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.store %bt, %t[%c0, %c0] : tensor<32x64xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}
