// tile-assign-layouts -debug-only=tile-assign-layouts prints each decision: per tile.mma,
// Tensor Cores or not and why, and the warp grid (in the default Release build too: TILE_DEBUG).
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -debug-only=tile-assign-layouts -o /dev/null 2>&1 | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts="arch=sm_75 num-threads=256" -debug-only=tile-assign-layouts -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -debug-only=tile-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER --allow-empty
// OTHER-NOT: [tile-assign-layouts]

// CHECK: [tile-assign-layouts] kernel 'product': target sm_90, 128 threads (4 warps)
// CHECK-NEXT: [tile-assign-layouts] tile.mma 64x32xbf16 * 32x64xbf16 -> 64x64xf32 at {{.*}}: Tensor Cores (mma.sync.m16n8k16), warp grid 1x4x1 (batch x M x N) -> #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>
// SM75: [tile-assign-layouts] kernel 'product': target sm_75, 256 threads (8 warps)
// SM75: [tile-assign-layouts] tile.mma 64x32xbf16 * 32x64xbf16 -> 64x64xf32 at {{.*}}: no Tensor Cores (sm_75 has no mma.sync.m16n8k16 (needs sm_80+)); FMA path, canonical layout
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

// Each fallback's remark comes before its debug line.
// CHECK: remark: wgmma here takes bf16, f16 or 8-bit float operands; using mma.sync
// CHECK: [tile-assign-layouts] tile.mma 64x16xtf32 * 16x32xtf32 -> 64x32xf32 at {{.*}}: Tensor Cores (mma.sync.m16n8k8), warp grid 1x4x1 (batch x M x N)
// CHECK: remark: Tensor Cores keep the accumulator in registers only when every warp has work: this product has work for 1 of 4 warps; using mma.sync with the accumulator in shared memory
// CHECK: [tile-assign-layouts] tile.mma 16x16xbf16 * 16x8xbf16 -> 16x8xf32 at {{.*}}: Tensor Cores possible (mma.sync.m16n8k16), warp grid 1x1x1 (batch x M x N) gives work to 1 of 4 warps; canonical layout
// CHECK: remark: no Tensor Cores for this product: operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats); using FMA
// CHECK: [tile-assign-layouts] tile.mma 64x64xf32 * 64x64xf32 -> 64x64xf32 at {{.*}}: no Tensor Cores (operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats)); FMA path, canonical layout
// CHECK: remark: no Tensor Cores for this product: M = 8 is not a multiple of 16; using FMA
// CHECK: [tile-assign-layouts] tile.mma 8x64xbf16 * 64x64xbf16 -> 8x64xf32 at {{.*}}: no Tensor Cores (M = 8 is not a multiple of 16); FMA path, canonical layout
tile.kernel @reasons(%t: !tile.array<?x?xtf32>, %a: !tile.array<?x?xbf16>, %f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t1 = tile.load %t[%c0, %c0] : !tile.array<?x?xtf32>[i32, i32] -> tensor<64x16xtf32>
  %t2 = tile.load %t[%c0, %c0] : !tile.array<?x?xtf32>[i32, i32] -> tensor<16x32xtf32>
  %z1 = arith.constant dense<0.0> : tensor<64x32xf32>
  %d1 = tile.mma %t1, %t2, %z1 : tensor<64x16xtf32>, tensor<16x32xtf32>, tensor<64x32xf32>
  tile.store %d1, %c[%c0, %c0] : tensor<64x32xf32>, !tile.array<?x?xf32>[i32, i32]
  %a1 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %a2 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x8xbf16>
  %z2 = arith.constant dense<0.0> : tensor<16x8xf32>
  %d2 = tile.mma %a1, %a2, %z2 : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  tile.store %d2, %c[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  %f1 = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %d3 = tile.mma %f1, %f1, %f1 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  tile.store %d3, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %b1 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<8x64xbf16>
  %b2 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  %z4 = arith.constant dense<0.0> : tensor<8x64xf32>
  %d4 = tile.mma %b1, %b2, %z4 : tensor<8x64xbf16>, tensor<64x64xbf16>, tensor<8x64xf32>
  tile.store %d4, %c[%c0, %c0] : tensor<8x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
