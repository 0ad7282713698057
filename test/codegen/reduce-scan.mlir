// tile-lower-to-llvm for reductions and scans: within a thread over the register bits of the
// axis, across lanes with warp shuffles, across warps through shared memory.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm | FileCheck %s

// 16x64 over 128 threads: runs of 8 along a row, 8 lanes per row. The run folds in registers,
// three butterflies (lane offsets 1, 2, 4) finish each row; the 16 sums reach their layout
// (thread t holds row t % 16) through shared memory, written once per row.
// CHECK-LABEL: llvm.func @row_sum__tile
// CHECK-SAME: tile.shared_bytes = 64 : i64
// CHECK-COUNT-7: arith.addf
// CHECK: %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[V0:.*]], %c1_i32{{.*}}, %c31_i32{{.*}} : f32 -> f32
// CHECK: %[[V1:.*]] = arith.addf %[[V0]], %[[S1]] : f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[V1]], %c2_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK: arith.addf
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK: %[[LEAD:.*]] = arith.andi %{{.*}}, %c7_i32 : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LEAD]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   llvm.store %[[SUM]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK: }
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.return
tile.kernel @row_sum(%x: !tile.array<?x?xf32>, %y: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  %s = tile.reduce sum %t axis = 1 : tensor<16x64xf32> -> tensor<16xf32>
  tile.store %s, %y[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// A row per thread: the reduction stays in registers and the result is already in place.
// CHECK-LABEL: llvm.func @in_place__tile
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-COUNT-7: arith.maxsi
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.kernel @in_place(%x: !tile.array<?x?xi32>, %y: !tile.array<?xi32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xi32>[i32, i32] -> tensor<128x8xi32>
  %s = tile.reduce max %t axis = 1 : tensor<128x8xi32> -> tensor<128xi32>
  tile.store %s, %y[%c0] : tensor<128xi32>, !tile.array<?xi32>[i32]
  tile.return
}

// -----

// Along the columns of 32x64: two register runs, lane bits 3 and 4 (offsets 8, 16) and both
// warp bits. argmax carries (value, position): NaN wins, ties go to the smaller position; the
// shuffles move both, and the four warps' partials meet in shared memory (8 register groups x
// 32 slots, values then positions), then the 64 results go through shared memory once more.
// CHECK-LABEL: llvm.func @col_argmax__tile
// CHECK-SAME: tile.shared_bytes = 2304 : i64
// CHECK: %[[EARLIER:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[MORE:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK: %[[SAME:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK: %[[TIE:.*]] = arith.andi %[[SAME]], %[[EARLIER]] : i1
// CHECK: %[[ORDERED:.*]] = arith.ori %[[MORE]], %[[TIE]] : i1
// CHECK: %[[NAN:.*]] = arith.cmpf uno
// CHECK: %[[NUM:.*]] = arith.cmpf ord
// CHECK: %[[NANEARLY:.*]] = arith.ori %[[NUM]], %[[EARLIER]] : i1
// CHECK: %[[NANWINS:.*]] = arith.andi %[[NAN]], %[[NANEARLY]] : i1
// CHECK: %[[TAKE:.*]] = arith.ori %[[ORDERED]], %[[NANWINS]] : i1
// CHECK: arith.select %[[TAKE]], %{{.*}}, %{{.*}} : f32
// CHECK: arith.select %[[TAKE]], %{{.*}}, %{{.*}} : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c8_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c8_i32{{.*}}, %{{.*}} : i32 -> i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c16_i32{{.*}}, %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %c16_i32{{.*}}, %{{.*}} : i32 -> i32
// CHECK: nvvm.barrier0
// CHECK: scf.if
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: scf.if
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
tile.kernel @col_argmax(%x: !tile.array<?x?xf32>, %y: !tile.array<?xi32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<32x64xf32>
  %s = tile.reduce argmax %t axis = 0 : tensor<32x64xf32> -> tensor<64xi32>
  tile.store %s, %y[%c0] : tensor<64xi32>, !tile.array<?xi32>[i32]
  tile.return
}

// -----

// A row scan of 16x64: a sequential scan within each run of 8, then Kogge-Stone over the
// run totals of the 8 lanes of a row (shfl.sync.up by 1, 2, 4), then the preceding lanes'
// total (up by 1) joins every element of the run. No shared memory.
// CHECK-LABEL: llvm.func @row_cumsum__tile
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK-COUNT-7: arith.addf
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %c1_i32{{.*}}, %c0_i32{{.*}} : f32 -> f32
// CHECK: arith.cmpi uge
// CHECK: arith.select
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %c2_i32{{.*}}, %c0_i32{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %c0_i32{{.*}} : f32 -> f32
// CHECK: %[[BEFORE:.*]] = nvvm.shfl.sync up %{{.*}}, %{{.*}}, %c1_i32{{.*}}, %c0_i32{{.*}} : f32 -> f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-8: arith.addf %[[BEFORE]], %{{.*}} : f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.kernel @row_cumsum(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  %s = tile.scan cumsum %t axis = 1 : tensor<16x64xf32>
  tile.store %s, %x[%c0, %c0] : tensor<16x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A reverse column scan of 64x32: lanes in reverse (shfl.sync.down by 4, 8, 16), the lane
// group's total from its first lane (shfl.sync.idx), warp totals through shared memory (16
// registers x 16 lane groups), then the two register runs within the thread.
// CHECK-LABEL: llvm.func @col_cumprod_reverse__tile
// CHECK-SAME: tile.shared_bytes = 1024 : i64
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %c31_i32{{.*}} : i32 -> i32
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %c8_i32{{.*}}, %c31_i32{{.*}} : i32 -> i32
// CHECK: arith.muli
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %c16_i32{{.*}}, %c31_i32{{.*}} : i32 -> i32
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %c4_i32{{.*}}, %c31_i32{{.*}} : i32 -> i32
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.barrier0
// CHECK: scf.if
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-64: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tile.kernel @col_cumprod_reverse(%x: !tile.array<?x?xi32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xi32>[i32, i32] -> tensor<64x32xi32>
  %s = tile.scan cumprod %t axis = 0 reverse : tensor<64x32xi32>
  tile.store %s, %x[%c0, %c0] : tensor<64x32xi32>, !tile.array<?x?xi32>[i32, i32]
  tile.return
}
