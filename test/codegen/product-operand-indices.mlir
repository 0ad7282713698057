// What each product form reads, pinned on small cases worked out by hand. A changed index in
// the lowering (a swapped operand, a transposed read, a wrong offset) changes these lines.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -canonicalize -cse | FileCheck %s

// FMA: D[4x8] = A[4x2] B[2x8] at 32 threads, one output element per thread. The accumulator's
// canonical layout puts element (m, n) on thread t = 8m + n: n = t mod 8, m = (t / 8) mod 4.
// A and B are written to shared memory row-major, A at element 0 (4x2 = 8 floats = 32 bytes),
// B after it at element 8. For each k of the loop the thread reads
//   A[m][k] at element 2m + k, and B[k][n] at element 8 + 8k + n,
// and accumulates A[m][k] * B[k][n] (math.fma a, b, acc).
// CHECK-LABEL: llvm.func @fma__tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32
// CHECK-NEXT: %[[N:.*]] = arith.remui %[[LANE]], %c8_i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.divui %[[LANE]], %c8_i32
// CHECK-NEXT: %[[M:.*]] = arith.remui %[[ROWS]], %c4_i32
// CHECK-NEXT: scf.for %[[K:.*]] = %c0_i32 to %c2_i32 step %c1_i32 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// CHECK-NEXT: %[[M2:.*]] = arith.muli %[[M]], %c2_i32
// CHECK-NEXT: %[[AIDX:.*]] = arith.addi %[[M2]], %[[K]]
// CHECK-NEXT: %[[APTR:.*]] = llvm.getelementptr %[[SMEM:.*]][%[[AIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[AV:.*]] = llvm.load %[[APTR]]
// CHECK-NEXT: %[[K8:.*]] = arith.muli %[[K]], %c8_i32
// CHECK-NEXT: %[[KN:.*]] = arith.addi %[[K8]], %[[N]]
// CHECK-NEXT: %[[BIDX:.*]] = arith.addi %[[KN]], %c8_i32
// CHECK-NEXT: %[[BPTR:.*]] = llvm.getelementptr %[[SMEM]][%[[BIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[BV:.*]] = llvm.load %[[BPTR]]
// CHECK-NEXT: %[[FMA:.*]] = math.fma %[[AV]], %[[BV]], %[[ACC]] : f32
// CHECK-NEXT: scf.yield %[[FMA]]
tile.kernel @fma(%a: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) attributes {tile.num_threads = 32 : i64} {
  %c0 = arith.constant 0 : i32
  %x = tile.load %a[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<4x2xf32>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<2x8xf32>
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %d = tile.mma %x, %y, %z : tensor<4x2xf32>, tensor<2x8xf32>, tensor<4x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<4x8xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
