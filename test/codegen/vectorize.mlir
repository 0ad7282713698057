// Vectorised tile loads and stores: a thread's run of consecutive elements moves in accesses
// of up to 16 bytes when one uniform run-time condition holds (unit stride along the run,
// base pointer and every other stride multiples of the access) and the chunk is in bounds;
// otherwise the same elements take the scalar, masked path.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm | FileCheck %s

// bf16, 1024 elements over 128 threads: one run of 8 = one 16-byte access per thread.
// CHECK-LABEL: llvm.func @bf16__tile(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>, %[[N0:[^:]*]]: i64, %[[N1:[^:]*]]: i64, %[[S0:[^:]*]]: i64, %[[S1:[^:]*]]: i64,
// The uniform condition: 16-byte aligned base, unit last stride, row stride a multiple of 8
// elements (or a single row).
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[X]] : !llvm.ptr<1> to i64
// CHECK: %[[LOW:.*]] = arith.andi %[[ADDR]], %{{.*}} : i64
// CHECK: %[[BASE:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i64
// CHECK: %[[UNIT:.*]] = arith.cmpi eq, %[[S1]], %{{.*}} : i64
// CHECK: %[[BOTH:.*]] = arith.andi %[[BASE]], %[[UNIT]] : i1
// CHECK: %[[REM:.*]] = arith.andi %[[S0]], %{{.*}} : i64
// CHECK: %[[MULT:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : i64
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[N0]], %{{.*}} : i64
// CHECK: %[[ROWS:.*]] = arith.ori %[[MULT]], %[[ONE]] : i1
// CHECK: %[[ALIGNED:.*]] = arith.andi %[[BOTH]], %[[ROWS]] : i1
// The run is in bounds when its row and its last column are.
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %[[N0]] : i64
// CHECK: %[[SEVEN:.*]] = arith.constant 7 : i64
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %[[SEVEN]] : i64
// CHECK: %[[COL:.*]] = arith.cmpi ult, %[[END]], %[[N1]] : i64
// CHECK: %[[IN:.*]] = arith.andi %[[ROW]], %[[COL]] : i1
// CHECK: %[[VEC:.*]] = arith.andi %[[ALIGNED]], %[[IN]] : i1
// CHECK: scf.if %[[VEC]] -> (bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16) {
// CHECK:   %[[P:.*]] = llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK:   %[[RAW:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK:   %[[V:.*]] = llvm.bitcast %[[RAW]] : vector<4xi32> to vector<8xbf16>
// CHECK-COUNT-8: llvm.extractelement %[[V]]
// The scalar path: each element masked, NaN padding.
// CHECK: } else {
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK: arith.constant 0x7FC0 : bf16
// Stores mirror loads.
// CHECK: scf.if %{{.*}} {
// CHECK:   llvm.mlir.poison : vector<8xbf16>
// CHECK-COUNT-8: llvm.insertelement
// CHECK:   %[[OUT:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK:   llvm.store %[[OUT]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr<1>
// CHECK: llvm.return
tile.kernel @bf16(%x: !tile.array<?x?xbf16>, %y: !tile.array<?x?xbf16>) {
  %i = tile.bid 0
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%i, %c0] padding = nan : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x64xbf16>
  tile.store %t, %y[%i, %c0] : tensor<16x64xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}

// -----

// f32 with runs of 8: each run is two 16-byte accesses, the second 4 columns further on.
// CHECK-LABEL: llvm.func @f32__tile
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK:   llvm.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: }
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
tile.kernel @f32(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.store %t, %x[%c0, %c0] : tensor<16x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// With order = [1, 0] the tile's rows run along array dimension 0: that stride must be 1.
// CHECK-LABEL: llvm.func @permuted__tile(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>, %[[N0:[^:]*]]: i64, %[[N1:[^:]*]]: i64, %[[S0:[^:]*]]: i64, %[[S1:[^:]*]]: i64,
// CHECK: llvm.ptrtoint %[[X]]
// CHECK: arith.cmpi eq, %[[S0]], %{{.*}} : i64
// CHECK: arith.andi %[[S1]], %{{.*}} : i64
// CHECK: arith.cmpi eq, %[[N1]], %{{.*}} : i64
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
tile.kernel @permuted(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] padding = zero order = [1, 0] : !tile.array<?x?xf32>[i32, i32] -> tensor<8x64xf32>
  tile.store %t, %y[%c0, %c0] : tensor<8x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Booleans move as bytes: 8 of them in one 8-byte access.
// CHECK-LABEL: llvm.func @bools__tile
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: llvm.bitcast %{{.*}} : vector<2xi32> to vector<8xi8>
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i8
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>
tile.kernel @bools(%x: !tile.array<?xi1>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0] padding = zero : !tile.array<?xi1>[i32] -> tensor<1024xi1>
  tile.store %t, %x[%c0] : tensor<1024xi1>, !tile.array<?xi1>[i32]
  tile.return
}

// -----

// No vector path where none can apply: a static extent of 2 along the run is shorter than a
// 4-element access, and a 64-element tile is replicated over 128 threads.
// CHECK-LABEL: llvm.func @scalar__tile
// CHECK-NOT: vector<
// CHECK: llvm.return
tile.kernel @scalar(%x: !tile.array<?x2xf32>, %y: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] padding = zero : !tile.array<?x2xf32>[i32, i32] -> tensor<32x16xf32>
  tile.store %t, %x[%c0, %c0] : tensor<32x16xf32>, !tile.array<?x2xf32>[i32, i32]
  %s = tile.load %y[%c0] padding = zero : !tile.array<?xf32>[i32] -> tensor<64xf32>
  tile.store %s, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// A static extent of 1 admits only index 0: its stride is not checked.
// CHECK-LABEL: llvm.func @single__tile(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %[[S0:[^:]*]]: i64, %[[S1:[^:]*]]: i64)
// CHECK-NOT: arith.andi %[[S0]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
tile.kernel @single(%x: !tile.array<1x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] padding = zero : !tile.array<1x?xf32>[i32, i32] -> tensor<1x1024xf32>
  tile.return
}
