// tile-lower-to-llvm -debug-only=tile-lower-to-llvm prints, per tile.mma, the path it takes
// (Tensor Cores: where the accumulator lives, the warp grid; or the FMA path and why), and per
// kernel the block size and the shared memory against the target's limit.
// RUN: tile-opt %s -tile-assign-layouts -tile-place-shared-operands -tile-allocate-shared -tile-lower-to-llvm -debug-only=tile-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts="arch=sm_90" -tile-lower-to-llvm="arch=sm_90" -debug-only=tile-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s -tile-lower-to-llvm="arch=sm_80" -debug-only=tile-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARED

// CHECK: [tile-lower-to-llvm] tile.mma at {{.*}}: wgmma (m64n64k16 bf16), 1 warpgroup(s), 1 m64 block(s) and 1 N chunk(s) each{{$}}
// CHECK-NEXT: [tile-lower-to-llvm] tile.mma at {{.*}}: A K-major in a buffer, B N-major in a buffer, read in place
// SM90: [tile-lower-to-llvm] tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k16), accumulator in registers (#tile.mma), warp grid 1x4x1, 4 of 4 warps with work (not wgmma: wgmma needs sm_90a)
// CHECK: [tile-lower-to-llvm] tile.mma at {{.*}}: FMA path through shared memory (operands are f32 (Tensor Cores take bf16, f16, tf32 or 8-bit floats))
// CHECK: [tile-lower-to-llvm] kernel 'k' -> llvm.func @k__tile: 128 threads, {{[0-9]+}} bytes of dynamic shared memory (limit on sm_90: 232448)
// Without the layout pass the accumulator goes through shared memory.
// SHARED: [tile-lower-to-llvm] tile.mma at {{.*}}: Tensor Cores (mma.sync.m16n8k16), accumulator through shared memory, warp grid 1x4x1, 4 of 4 warps with work (not wgmma: wgmma needs sm_90a)
// SHARED: (limit on sm_80: 166912)
tile.kernel @k(%a: !tile.array<?x?xbf16>, %f: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d = tile.mma %ta, %tb, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %fa = tile.load %f[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  %facc = arith.constant dense<0.0> : tensor<16x16xf32>
  %e = tile.mma %fa, %fa, %facc : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  tile.store %e, %c[%c0, %c0] : tensor<16x16xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
