// tile-assign-layouts: Tensor Core products (bf16/f16 -> f32 on sm_80+, every warp with work)
// get the #tile.mma accumulator layout, with conversions around them; the rest keep the
// canonical layout.
// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts="num-threads=256" | FileCheck %s --check-prefix=T256
// RUN: tile-opt %s -split-input-file -tile-assign-layouts="arch=sm_75" | FileCheck %s --check-prefix=SM75
// RUN: not tile-opt %s -split-input-file -tile-assign-layouts="arch=gfx90a" 2>&1 | FileCheck %s --check-prefix=BAD-ARCH
// RUN: not tile-opt %s -split-input-file -tile-lower-to-llvm="arch=sm_9" 2>&1 | FileCheck %s --check-prefix=BAD-ARCH-LOWER
// BAD-ARCH: error: unknown target 'gfx90a' (expected sm_70 ... sm_90a)
// BAD-ARCH-LOWER: error: unknown target 'sm_9' (expected sm_70 ... sm_90a)

// CHECK-LABEL: tile.kernel @product
// CHECK: %[[IN:.*]] = tile.convert_layout %{{.*}} : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
// CHECK: %[[D:.*]] = tile.mma %{{.*}}, %{{.*}}, %[[IN]] {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
// CHECK: %[[OUT:.*]] = tile.convert_layout %[[D]] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>> -> tensor<64x64xf32>
// CHECK: tile.store %[[OUT]]
// 8 warps: 4 along M, then 2 along N.
// T256: #tile.mma<warpsB = 1, warpsM = 4, warpsN = 2>
// SM75-NOT: convert_layout
tile.kernel @product(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d = tile.mma %ta, %tb, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Batched: 2 m-tiles and 2 n-tiles take the 4 warps; each warp does both batch entries.
// CHECK-LABEL: tile.kernel @batched
// CHECK: tile.mma {{.*}} tensor<2x32x16xf32, #tile.mma<warpsB = 1, warpsM = 2, warpsN = 2>>
tile.kernel @batched(%a: !tile.array<?x?x?xf16>, %c: !tile.array<?x?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<2x32x16xf32>
  %ta = tile.load %a[%c0, %c0, %c0] : !tile.array<?x?x?xf16>[i32, i32, i32] -> tensor<2x32x16xf16>
  %tb = tile.load %a[%c0, %c0, %c0] : !tile.array<?x?x?xf16>[i32, i32, i32] -> tensor<2x16x16xf16>
  %d = tile.mma %ta, %tb, %acc : tensor<2x32x16xf16>, tensor<2x16x16xf16>, tensor<2x32x16xf32>
  tile.store %d, %c[%c0, %c0, %c0] : tensor<2x32x16xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  tile.return
}

// -----

// Too small for four warps (one 16x8 tile), and f32 operands: both stay canonical.
// CHECK-LABEL: tile.kernel @canonical
// CHECK-NOT: convert_layout
// CHECK: tile.mma {{.*}} tensor<16x8xf32>
// CHECK: tile.mma {{.*}} tensor<64x64xf32>
tile.kernel @canonical(%a: !tile.array<?x?xbf16>, %f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<16x8xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x8xbf16>
  %d = tile.mma %ta, %tb, %acc : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  %fa = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %e = tile.mma %fa, %fa, %fa : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  tile.store %e, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
