// What wgmma.m64nNk16 reads and where its accumulator registers go, pinned on small cases
// worked out by hand from the PTX ISA's wgmma fragment and descriptor tables. Thread t of the
// 128: warp w = t >> 5 (rows 16 (w mod 4) .. of the warpgroup's 64), lane l = t & 31,
// group g = l >> 2, quad q = l & 3. A changed register order, row, column, descriptor
// offset or descriptor constant changes these lines.
// RUN: tile-opt %s -split-input-file -tile-choose-threads="arch=sm_90a" -tile-select-mma -tile-swap-mma-operands -tile-assign-layouts -tile-remove-layout-conversions -tile-place-shared-operands -tile-allocate-shared -tile-lower-to-llvm -canonicalize -cse | FileCheck %s

// D[64x16] = A[64x16] B[16x16], both operands from shared memory, 32-byte swizzled (rows of
// 16 bf16). A at the window's byte 0 (64 rows x 32 bytes), B after it at byte 2048.
// Descriptor = (address >> 4) & 0x3fff plus constant fields (leading byte offset bits 16-29,
// stride byte offset bits 32-45, both >> 4; swizzle bits 62-63, 3 = 32-byte):
//   A, K-major: stride 256 bytes (8 rows x 32) -> 16, leading unused -> 1:
//       0xC000001000010000 = -4611685949707845632;
//   B, MN-major (rows along K): stride 256 -> 16, leading = the step between 32-byte column
//       blocks, 16 rows x 32 = 512 bytes -> 32: 0xC000001000200000 = -4611685949705814016.
// A's warpgroup wg = w / 4 starts at wg * 2048 (0 here: one warpgroup).
// Accumulator register i (8 per thread): row 16 (w mod 4) + g + 8 ((i >> 1) & 1), column
// 8 (i >> 2) + 2q + (i & 1): d0, d1 at (g, 2q); d2, d3 at (g + 8, 2q); d4, d5 at (g, 8 + 2q);
// d6, d7 at (g + 8, 8 + 2q). Each pair is one 8-byte store.
// CHECK-LABEL: llvm.func @wgmma__tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[WARP:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[WG64:.*]] = arith.extsi %[[WG]] : i32 to i64
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: %[[BADDR:.*]] = arith.addi %[[BASE]], %c2048_i64
// CHECK-NEXT: %[[BSH:.*]] = arith.shrui %[[BADDR]], %c4_i64
// CHECK-NEXT: %[[BSTART:.*]] = arith.andi %[[BSH]], %c16383_i64
// CHECK-NEXT: %[[BDESC:.*]] = arith.addi %[[BSTART]], %c-4611685949705814016_i64
// CHECK-NEXT: %[[AOFF:.*]] = arith.muli %[[WG64]], %c2048_i64
// CHECK-NEXT: %[[AADDR:.*]] = arith.addi %[[BASE]], %[[AOFF]]
// CHECK-NEXT: %[[ASH:.*]] = arith.shrui %[[AADDR]], %c4_i64
// CHECK-NEXT: %[[ASTART:.*]] = arith.andi %[[ASH]], %c16383_i64
// CHECK-NEXT: %[[ADESC:.*]] = arith.addi %[[ASTART]], %c-4611685949707845632_i64
// CHECK-NEXT: %[[D:.*]] = nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]], %{{.*}}, <m = 64, n = 16, k = 16>
// CHECK: %[[W:.*]] = llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;"
// CHECK-NEXT: %[[D0:.*]] = llvm.extractvalue %[[W]][0]
// CHECK-NEXT: %[[D1:.*]] = llvm.extractvalue %[[W]][1]
// CHECK-NEXT: %[[D2:.*]] = llvm.extractvalue %[[W]][2]
// CHECK-NEXT: %[[D3:.*]] = llvm.extractvalue %[[W]][3]
// CHECK-NEXT: %[[D4:.*]] = llvm.extractvalue %[[W]][4]
// CHECK-NEXT: %[[D5:.*]] = llvm.extractvalue %[[W]][5]
// CHECK-NEXT: %[[D6:.*]] = llvm.extractvalue %[[W]][6]
// CHECK-NEXT: %[[D7:.*]] = llvm.extractvalue %[[W]][7]
// The vector stores (aligned output), at D's element row * 16 + column:
// CHECK: scf.if
// CHECK-NEXT: %[[LANE:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK-NEXT: %[[G:.*]] = arith.shrui %[[LANE]], %c2_i32
// CHECK-NEXT: %[[Q:.*]] = arith.andi %[[LANE]], %c3_i32
// CHECK-NEXT: %[[WM:.*]] = arith.remui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WM]], %c16_i32
// CHECK-NEXT: %[[WG0:.*]] = arith.addi %[[W16]], %[[G]]
// CHECK-NEXT: %[[Q2:.*]] = arith.muli %[[Q]], %c2_i32
// CHECK-NEXT: %[[WGROWS:.*]] = arith.muli %[[WG]], %c64_i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[WGROWS]], %[[WG0]]
// CHECK-NEXT: %[[ROWE:.*]] = arith.muli %[[ROW]], %c16_i32
// CHECK-NEXT: arith.addi %[[ROWE]], %[[Q2]]
// CHECK: %[[V0:.*]] = llvm.insertelement %[[D0]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[D1]], %[[V0]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
// d2, d3: row g + 8.
// CHECK-NEXT: %[[G8:.*]] = arith.addi %[[G]], %c8_i32
// CHECK-NEXT: %[[WG8:.*]] = arith.addi %[[W16]], %[[G8]]
// CHECK-NEXT: %[[ROW8:.*]] = arith.addi %[[WGROWS]], %[[WG8]]
// CHECK-NEXT: %[[ROW8E:.*]] = arith.muli %[[ROW8]], %c16_i32
// CHECK-NEXT: arith.addi %[[ROW8E]], %[[Q2]]
// CHECK: %[[V2:.*]] = llvm.insertelement %[[D2]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[D3]], %[[V2]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
// d4, d5: row g, column 8 + 2q.
// CHECK-NEXT: %[[Q28:.*]] = arith.addi %[[Q2]], %c8_i32
// CHECK-NEXT: arith.addi %[[ROWE]], %[[Q28]]
// CHECK: %[[V4:.*]] = llvm.insertelement %[[D4]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[D5]], %[[V4]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
// d6, d7: row g + 8, column 8 + 2q.
// CHECK-NEXT: arith.addi %[[ROW8E]], %[[Q28]]
// CHECK: %[[V6:.*]] = llvm.insertelement %[[D6]], %{{.*}}[%c0_i32 : i32] : vector<2xf32>
// CHECK-NEXT: llvm.insertelement %[[D7]], %[[V6]][%c1_i32 : i32] : vector<2xf32>
// CHECK: llvm.store
tile.kernel @wgmma(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x16xbf16>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<64x16xf32>
  %d = tile.mma %x, %y, %z : tensor<64x16xbf16>, tensor<16x16xbf16>, tensor<64x16xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x16xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A computed in registers (bf16 from a loaded f32 tile): the load is made in the accumulator's
// layout, so each thread loads exactly its A fragment, and wgmma takes it from registers.
// Fragment element r of a thread: row 16 (w mod 4) + g + 8 ((r >> 1) & 1), column
// 8 (r >> 2) + 2q + (r & 1) - element 0 at (g, 2q), 2 at (g + 8, 2q), 4 at (g, 8 + 2q).
// Register j of the instruction's A is the pair (2j, 2j + 1): {a0, a1}, {a2, a3}, {a4, a5},
// {a6, a7}, in that order; B is the only descriptor (byte 0 of the window, MN-major).
// CHECK-LABEL: llvm.func @wgmma_register_a__tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[LANE:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK-NEXT: %[[WARP:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK-NEXT: %[[G:.*]] = arith.shrui %[[LANE]], %c2_i32
// CHECK-NEXT: %[[Q:.*]] = arith.andi %[[LANE]], %c3_i32
// CHECK-NEXT: %[[WM:.*]] = arith.remui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WM]], %c16_i32
// CHECK-NEXT: %[[R0:.*]] = arith.addi %[[W16]], %[[G]]
// CHECK-NEXT: %[[Q2:.*]] = arith.muli %[[Q]], %c2_i32
// CHECK-NEXT: %[[WGROWS:.*]] = arith.muli %[[WG]], %c64_i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[WGROWS]], %[[R0]]
// CHECK-NEXT: %[[ROWE:.*]] = arith.muli %[[ROW]], %c16_i32
// CHECK-NEXT: %[[E0:.*]] = arith.addi %[[ROWE]], %[[Q2]]
// CHECK: %[[X0:.*]] = scf.if
// CHECK: %[[Q21:.*]] = arith.addi %[[Q2]], %c1_i32
// CHECK-NEXT: arith.addi %[[ROWE]], %[[Q21]]
// CHECK: %[[X1:.*]] = scf.if
// CHECK: %[[G8:.*]] = arith.addi %[[G]], %c8_i32
// CHECK-NEXT: %[[R8:.*]] = arith.addi %[[W16]], %[[G8]]
// CHECK-NEXT: %[[ROW8:.*]] = arith.addi %[[WGROWS]], %[[R8]]
// CHECK-NEXT: %[[ROW8E:.*]] = arith.muli %[[ROW8]], %c16_i32
// CHECK-NEXT: arith.addi %[[ROW8E]], %[[Q2]]
// CHECK: %[[X2:.*]] = scf.if
// CHECK: %[[X3:.*]] = scf.if
// CHECK: %[[Q28:.*]] = arith.addi %[[Q2]], %c8_i32
// CHECK-NEXT: arith.addi %[[ROWE]], %[[Q28]]
// CHECK: %[[X4:.*]] = scf.if
// CHECK: %[[X5:.*]] = scf.if
// CHECK: %[[X6:.*]] = scf.if
// CHECK: %[[X7:.*]] = scf.if
// CHECK: %[[T0:.*]] = arith.truncf %[[X0]] : f32 to bf16
// CHECK-NEXT: %[[T1:.*]] = arith.truncf %[[X1]] : f32 to bf16
// CHECK-NEXT: %[[T2:.*]] = arith.truncf %[[X2]] : f32 to bf16
// CHECK-NEXT: %[[T3:.*]] = arith.truncf %[[X3]] : f32 to bf16
// CHECK-NEXT: %[[T4:.*]] = arith.truncf %[[X4]] : f32 to bf16
// CHECK-NEXT: %[[T5:.*]] = arith.truncf %[[X5]] : f32 to bf16
// CHECK-NEXT: %[[T6:.*]] = arith.truncf %[[X6]] : f32 to bf16
// CHECK-NEXT: %[[T7:.*]] = arith.truncf %[[X7]] : f32 to bf16
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[P0:.*]] = llvm.insertelement %[[T0]], %{{.*}}[%c0_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[P0B:.*]] = llvm.insertelement %[[T1]], %[[P0]][%c1_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0:.*]] = llvm.bitcast %[[P0B]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[P1:.*]] = llvm.insertelement %[[T2]], %{{.*}}[%c0_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[P1B:.*]] = llvm.insertelement %[[T3]], %[[P1]][%c1_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A1:.*]] = llvm.bitcast %[[P1B]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[P2:.*]] = llvm.insertelement %[[T4]], %{{.*}}[%c0_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[P2B:.*]] = llvm.insertelement %[[T5]], %[[P2]][%c1_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A2:.*]] = llvm.bitcast %[[P2B]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[P3:.*]] = llvm.insertelement %[[T6]], %{{.*}}[%c0_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[P3B:.*]] = llvm.insertelement %[[T7]], %[[P3]][%c1_i32 : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A3:.*]] = llvm.bitcast %[[P3B]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[F:.*]] = llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "=r,=r,=r,=r,0,1,2,3" %[[A0]], %[[A1]], %[[A2]], %[[A3]]
// CHECK-NEXT: %[[F0:.*]] = llvm.extractvalue %[[F]][0]
// CHECK-NEXT: %[[F1:.*]] = llvm.extractvalue %[[F]][1]
// CHECK-NEXT: %[[F2:.*]] = llvm.extractvalue %[[F]][2]
// CHECK-NEXT: %[[F3:.*]] = llvm.extractvalue %[[F]][3]
// CHECK-NEXT: %[[BSH:.*]] = arith.shrui %[[BASE]], %c4_i64
// CHECK-NEXT: %[[BSTART:.*]] = arith.andi %[[BSH]], %c16383_i64
// CHECK-NEXT: %[[BDESC:.*]] = arith.addi %[[BSTART]], %c-4611685949705814016_i64
// CHECK-NEXT: llvm.inline_asm has_side_effects "{{.*}}wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, 1, 1, 1;{{.*}}" {{.*}}, %[[F0]], %[[F1]], %[[F2]], %[[F3]], %[[BDESC]], %c1_i32
tile.kernel @wgmma_register_a(%f: !tile.array<?x?xf32>, %a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %xf = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x16xf32>
  %x = arith.truncf %xf : tensor<64x16xf32> to tensor<64x16xbf16>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<64x16xf32>
  %d = tile.mma %x, %y, %z : tensor<64x16xbf16>, tensor<16x16xbf16>, tensor<64x16xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x16xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
