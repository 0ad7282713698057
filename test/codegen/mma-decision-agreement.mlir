// The lowering carries out the instruction recorded on each product (tile.mma_instruction), so
// what --remarks and the IR say is what the code holds: "fma" on a product Tensor Cores could
// run is lowered with FMA (no mma.sync), "mma.sync" on one they cannot run, and "wgmma" where
// wgmma cannot run, are internal errors naming the op.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics | FileCheck %s

// CHECK-LABEL: llvm.func @fma_asked
// CHECK-NOT: nvvm.mma
// CHECK: math.fma
// CHECK-NOT: nvvm.mma
// CHECK: llvm.return
tile.kernel @fma_asked(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.mma %x, %y, %z {tile.mma_instruction = #tile.mma_instruction<fma>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

tile.kernel @mma_sync_impossible(%f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x16xf32>
  %y = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{internal error: tile.mma_instruction = mma.sync, but this product cannot run on Tensor Cores: operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats)}}
  %d = tile.mma %x, %y, %z {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
