// tile-select-mma records the instruction of every product (tile.mma_instruction) from the
// target, the dtypes, the shapes and the kernel's threads, with a remark for every product that
// does not get the fastest instruction of its target; an instruction written by hand is kept
// when the product can run it and refused otherwise.
// (The last kernel asks for an instruction it cannot have: the runs without -verify-diagnostics fail on it.)
// RUN: tile-opt %s -split-input-file -tile-select-mma -verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tile-choose-threads="arch=sm_80" -tile-select-mma -o - 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file -tile-select-mma -debug-only=tile-select-mma -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG

// CHECK-LABEL: tile.kernel @choices
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<fma>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// SM80-LABEL: tile.kernel @choices
// SM80: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// SM80: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// SM80: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// SM80: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<fma>}
// SM80: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<mma.sync>}
// DEBUG: [tile-select-mma] tile.mma at {{.*}}: wgmma at 128 threads
// DEBUG: [tile-select-mma] tile.mma at {{.*}}: mma.sync at 128 threads (wgmma needs whole warpgroups along M
// DEBUG: [tile-select-mma] tile.mma at {{.*}}: mma.sync (given; the best here is wgmma)
tile.kernel @choices(%a: !tile.array<?x?xbf16>, %t: !tile.array<?x?xtf32>, %f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %a64 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %b64 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %z64 = arith.constant dense<0.0> : tensor<64x64xf32>
  %d0 = tile.mma %a64, %b64, %z64 : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d0, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %a32 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x32xbf16>
  %z32 = arith.constant dense<0.0> : tensor<32x64xf32>
  // expected-remark @+1 {{wgmma needs whole warpgroups along M (M a multiple of 64 per warpgroup); using mma.sync}}
  %d1 = tile.mma %a32, %b64, %z32 : tensor<32x32xbf16>, tensor<32x64xbf16>, tensor<32x64xf32>
  tile.store %d1, %c[%c0, %c0] : tensor<32x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %t1 = tile.load %t[%c0, %c0] : !tile.array<?x?xtf32>[i32, i32] -> tensor<64x16xtf32>
  %t2 = tile.load %t[%c0, %c0] : !tile.array<?x?xtf32>[i32, i32] -> tensor<16x64xtf32>
  // expected-remark @+1 {{wgmma here takes bf16, f16 or 8-bit float operands; using mma.sync}}
  %d2 = tile.mma %t1, %t2, %z64 : tensor<64x16xtf32>, tensor<16x64xtf32>, tensor<64x64xf32>
  tile.store %d2, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %f1 = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x16xf32>
  %f2 = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  // expected-remark @+1 {{no Tensor Cores for this product: operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats); using FMA}}
  %d3 = tile.mma %f1, %f2, %z64 : tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>
  tile.store %d3, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %s1 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %s2 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x8xbf16>
  %z16 = arith.constant dense<0.0> : tensor<16x8xf32>
  // expected-remark @+1 {{Tensor Cores keep the accumulator in registers only when every warp has work: this product has work for 1 of 4 warps; using mma.sync with the accumulator in shared memory}}
  %d4 = tile.mma %s1, %s2, %z16 : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  tile.store %d4, %c[%c0, %c0] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  // Written by hand: a slower instruction is kept.
  %d5 = tile.mma %a64, %b64, %z64 {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d5, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

tile.kernel @impossible(%f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %f1 = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x16xf32>
  %f2 = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{tile.mma_instruction = wgmma cannot run this product on sm_90a: no Tensor Cores for this product: operands are f32}}
  %d = tile.mma %f1, %f2, %z {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
