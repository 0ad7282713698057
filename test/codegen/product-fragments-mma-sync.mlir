// What mma.sync.m16n8k16 reads and where its accumulator registers go, pinned on small cases
// worked out by hand from the PTX ISA's fragment tables (the warp's lane l, group g = l >> 2,
// quad q = l & 3). A changed lane expression, pitch, offset or register order changes these
// lines; the GPU differential suite checks the same forms against the interpreter.
// RUN: tile-opt %s -split-input-file -tile-choose-threads="arch=sm_80 num-threads=32" -tile-select-mma -tile-assign-layouts -tile-remove-layout-conversions -tile-lower-to-llvm -canonicalize -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-choose-threads="arch=sm_80 num-threads=64" -tile-select-mma -tile-assign-layouts -tile-remove-layout-conversions -tile-lower-to-llvm -canonicalize -cse | FileCheck %s --check-prefix=BATCHED

// D[16x8] = A[16x16] B[16x8], bf16, one warp. A sits in shared memory at element 0, rows
// padded to 24 elements; B after it at element 384 (16 x 24), rows padded to 16.
// A by ldmatrix.x4: matrices 0..3 are A's 8x8 blocks (rows 0-7, cols 0-7), (8-15, 0-7),
// (0-7, 8-15), (8-15, 8-15) - the order of the fragment a0..a3 - so lane l gives the row
// (l & 7) + 8 * ((l >> 3) & 1) and the column 8 * (l >> 4): element row * 24 + col.
// B by ldmatrix.x2.trans: lanes 0-15 give rows k = 0..15 of B (the same row expression),
// element 384 + row * 16 + col (lanes 16-31's addresses are not read by .x2).
// Accumulator: c0, c1 are D[g][2q], D[g][2q + 1]; c2, c3 the same columns of row g + 8:
// each pair is stored as one 8-byte vector at row g (then g + 8), column 2q.
// CHECK-LABEL: llvm.func @mma__tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK-NEXT: %[[LANE:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK-NEXT: %[[WARP:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK-NEXT: %[[R8:.*]] = arith.andi %[[LANE]], %c7_i32
// CHECK-NEXT: %[[L3:.*]] = arith.shrui %[[LANE]], %c3_i32
// CHECK-NEXT: %[[BIT3:.*]] = arith.andi %[[L3]], %c1_i32
// CHECK-NEXT: %[[BIT4:.*]] = arith.shrui %[[LANE]], %c4_i32
// CHECK-NEXT: %[[DOWN:.*]] = arith.muli %[[BIT3]], %c8_i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[R8]], %[[DOWN]]
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[BIT4]], %c8_i32
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WARP]], %c16_i32
// CHECK-NEXT: %[[AROW:.*]] = arith.addi %[[W16]], %[[ROW]]
// CHECK-NEXT: %[[AROWE:.*]] = arith.muli %[[AROW]], %c24_i32
// CHECK-NEXT: %[[AIDX:.*]] = arith.addi %[[AROWE]], %[[COL]]
// CHECK-NEXT: %[[APTR:.*]] = llvm.getelementptr %[[SMEM:.*]][%[[AIDX]]]
// CHECK-NEXT: %[[AREGS:.*]] = nvvm.ldmatrix %[[APTR]] {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[AREGS]][0]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[AREGS]][1]
// CHECK-NEXT: %[[A2:.*]] = llvm.extractvalue %[[AREGS]][2]
// CHECK-NEXT: %[[A3:.*]] = llvm.extractvalue %[[AREGS]][3]
// CHECK-NEXT: %[[BROWE:.*]] = arith.muli %[[AROW]], %c16_i32
// CHECK-NEXT: %[[BIDX0:.*]] = arith.addi %[[BROWE]], %[[COL]]
// CHECK-NEXT: %[[BIDX:.*]] = arith.addi %[[BIDX0]], %c384_i32
// CHECK-NEXT: %[[BPTR:.*]] = llvm.getelementptr %[[SMEM]][%[[BIDX]]]
// CHECK-NEXT: %[[BREGS:.*]] = nvvm.ldmatrix %[[BPTR]] {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %[[BREGS]][0]
// CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %[[BREGS]][1]
// CHECK-NEXT: %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NEXT: %[[C0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT: %[[C1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT: %[[C2:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-NEXT: %[[C3:.*]] = llvm.extractvalue %[[D]][3]
// The vector store (aligned output): row g at element (16w + g) * 8 + 2q of D.
// CHECK: scf.if
// CHECK-NEXT: %[[G:.*]] = arith.shrui %[[LANE]], %c2_i32
// CHECK-NEXT: %[[Q:.*]] = arith.andi %[[LANE]], %c3_i32
// CHECK-NEXT: %[[Q2:.*]] = arith.muli %[[Q]], %c2_i32
// CHECK-NEXT: %[[CROW:.*]] = arith.addi %[[W16]], %[[G]]
// CHECK-NEXT: %[[CROWE:.*]] = arith.muli %[[CROW]], %c8_i32
// CHECK-NEXT: %[[CIDX:.*]] = arith.addi %[[CROWE]], %[[Q2]]
// CHECK: %[[V0:.*]] = llvm.insertelement %[[C0]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[C1]], %[[V0]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
// The second pair: row g + 8, the same column.
// CHECK-NEXT: %[[G8:.*]] = arith.addi %[[G]], %c8_i32
// CHECK-NEXT: %[[CROW8:.*]] = arith.addi %[[W16]], %[[G8]]
// CHECK-NEXT: %[[CROW8E:.*]] = arith.muli %[[CROW8]], %c8_i32
// CHECK-NEXT: arith.addi %[[CROW8E]], %[[Q2]]
// CHECK: %[[V2:.*]] = llvm.insertelement %[[C2]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[C3]], %[[V2]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
tile.kernel @mma(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x8xbf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.mma %x, %y, %z : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A = transpose of a loaded 16x16 tile At (K x M): At is stored as loaded (rows of 16 m
// padded to 24) and read with ldmatrix.x4.trans. Fragment a1 is A's rows m 8-15 at k 0-7,
// which is the block of At at rows k 0-7, columns m 8-15; a2 (m 0-7, k 8-15) is At's rows
// 8-15, columns 0-7. So lane l gives At's row (l & 7) + 8 * (l >> 4) and the column
// 8 * ((l >> 3) & 1): the two lane bits swap roles against the untransposed read.
// CHECK-LABEL: llvm.func @mma_a_transposed__tile
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32
// CHECK-NEXT: %[[WARP:.*]] = arith.shrui %{{.*}}, %c5_i32
// CHECK-NEXT: %[[R8:.*]] = arith.andi %[[LANE]], %c7_i32
// CHECK-NEXT: %[[L3:.*]] = arith.shrui %[[LANE]], %c3_i32
// CHECK-NEXT: %[[BIT3:.*]] = arith.andi %[[L3]], %c1_i32
// CHECK-NEXT: %[[BIT4:.*]] = arith.shrui %[[LANE]], %c4_i32
// CHECK-NEXT: %[[RIGHT:.*]] = arith.muli %[[BIT3]], %c8_i32
// CHECK-NEXT: arith.addi %[[R8]], %[[RIGHT]]
// CHECK-NEXT: %[[DOWN:.*]] = arith.muli %[[BIT4]], %c8_i32
// CHECK-NEXT: %[[TROW:.*]] = arith.addi %[[R8]], %[[DOWN]]
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WARP]], %c16_i32
// CHECK-NEXT: %[[AROW:.*]] = arith.addi %[[W16]], %[[TROW]]
// CHECK-NEXT: %[[AROWE:.*]] = arith.muli %[[AROW]], %c24_i32
// CHECK-NEXT: %[[AIDX:.*]] = arith.addi %[[AROWE]], %[[RIGHT]]
// CHECK-NEXT: %[[APTR:.*]] = llvm.getelementptr %{{.*}}[%[[AIDX]]]
// CHECK-NEXT: nvvm.ldmatrix %[[APTR]] {{.*}}layout = #nvvm.mma_layout<col>, num = 4
tile.kernel @mma_a_transposed(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %xt = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %x = tile.permute %xt [1, 0] : tensor<16x16xbf16> -> tensor<16x16xbf16>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x8xbf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.mma %x, %y, %z : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Batched: D[2x16x8] = A[2x16x32] B[2x32x8] at 64 threads, warp w owns batch w. A's batches
// stack their rows (pitch 40 = 32 + 8), so batch w's row r is row 16w + r; B's stack theirs
// after A at element 1280 (2 x 16 x 40), pitch 16, so batch w's row k is row 32w + k. Over
// the K loop (k0 = 0, 16): A at (16w + row) * 40 + k0 + col, B at 1280 + (32w + k0 + row) * 16 + col.
// The accumulator goes to D's element (16w + g) * 8 + 2q of the batch-stacked 32x8: batch
// idx / 128, row (idx / 8) mod 16, column idx mod 8.
// BATCHED-LABEL: llvm.func @mma_batched__tile
// BATCHED: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32
// BATCHED-NEXT: %[[WARP:.*]] = arith.shrui %{{.*}}, %c5_i32
// BATCHED-NEXT: %[[R8:.*]] = arith.andi %[[LANE]], %c7_i32
// BATCHED-NEXT: %[[L3:.*]] = arith.shrui %[[LANE]], %c3_i32
// BATCHED-NEXT: %[[BIT3:.*]] = arith.andi %[[L3]], %c1_i32
// BATCHED-NEXT: %[[BIT4:.*]] = arith.shrui %[[LANE]], %c4_i32
// BATCHED-NEXT: %[[DOWN:.*]] = arith.muli %[[BIT3]], %c8_i32
// BATCHED-NEXT: %[[ROW:.*]] = arith.addi %[[R8]], %[[DOWN]]
// BATCHED-NEXT: %[[COL:.*]] = arith.muli %[[BIT4]], %c8_i32
// BATCHED-NEXT: %[[W16:.*]] = arith.muli %[[WARP]], %c16_i32
// BATCHED-NEXT: %[[W32:.*]] = arith.muli %[[WARP]], %c32_i32
// BATCHED-NEXT: scf.for %[[K0:.*]] = %c0_i32 to %c32_i32 step %c16_i32
// BATCHED-NEXT: %[[ACOL:.*]] = arith.addi %[[K0]], %[[COL]]
// BATCHED-NEXT: %[[AROW:.*]] = arith.addi %[[W16]], %[[ROW]]
// BATCHED-NEXT: %[[AROWE:.*]] = arith.muli %[[AROW]], %c40_i32
// BATCHED-NEXT: %[[AIDX:.*]] = arith.addi %[[AROWE]], %[[ACOL]]
// BATCHED-NEXT: llvm.getelementptr %[[SMEM:.*]][%[[AIDX]]]
// BATCHED: %[[BK:.*]] = arith.addi %[[W32]], %[[K0]]
// BATCHED-NEXT: %[[BROW:.*]] = arith.addi %[[BK]], %[[ROW]]
// BATCHED-NEXT: %[[BROWE:.*]] = arith.muli %[[BROW]], %c16_i32
// BATCHED-NEXT: %[[BIDX0:.*]] = arith.addi %[[BROWE]], %[[COL]]
// BATCHED-NEXT: %[[BIDX:.*]] = arith.addi %[[BIDX0]], %c1280_i32
// BATCHED-NEXT: llvm.getelementptr %[[SMEM]][%[[BIDX]]]
// BATCHED: scf.if
// BATCHED-NEXT: %[[G:.*]] = arith.shrui %[[LANE]], %c2_i32
// BATCHED-NEXT: %[[Q:.*]] = arith.andi %[[LANE]], %c3_i32
// BATCHED-NEXT: %[[Q2:.*]] = arith.muli %[[Q]], %c2_i32
// BATCHED-NEXT: %[[CROW:.*]] = arith.addi %[[W16]], %[[G]]
// BATCHED-NEXT: %[[CROWE:.*]] = arith.muli %[[CROW]], %c8_i32
// BATCHED-NEXT: %[[CIDX:.*]] = arith.addi %[[CROWE]], %[[Q2]]
// BATCHED-NEXT: arith.remui %[[CIDX]], %c8_i32
// BATCHED-NEXT: %[[CR:.*]] = arith.divui %[[CIDX]], %c8_i32
// BATCHED-NEXT: arith.remui %[[CR]], %c16_i32
// BATCHED-NEXT: %[[CB:.*]] = arith.divui %[[CIDX]], %c128_i32
// BATCHED-NEXT: arith.remui %[[CB]], %c2_i32
tile.kernel @mma_batched(%a: !tile.array<?x?x?xbf16>, %c: !tile.array<?x?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %a[%c0, %c0, %c0] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<2x16x32xbf16>
  %y = tile.load %a[%c0, %c0, %c0] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<2x32x8xbf16>
  %z = arith.constant dense<0.0> : tensor<2x16x8xf32>
  %d = tile.mma %x, %y, %z : tensor<2x16x32xbf16>, tensor<2x32x8xbf16>, tensor<2x16x8xf32>
  tile.store %d, %c[%c0, %c0, %c0] : tensor<2x16x8xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  tile.return
}
