// tile-opt registers the tile and tgpu dialects, the upstream dialects the compiler uses and our pipelines.
// RUN: tile-opt --help | FileCheck %s --check-prefix=HELP
// RUN: tile-opt %s --tile-opt-pipeline | FileCheck %s

// HELP: Available Dialects: {{.*}}nvgpu, nvvm, scf, tensor, tgpu, tile
// HELP: --tile-opt-pipeline

// CHECK-LABEL: tile.kernel @k
// CHECK: %[[T:.*]] = tile.load
// CHECK-NOT: tile.load
// CHECK: arith.addf %[[T]], %[[T]]
tile.kernel @k(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<16xf32>
  %b = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<16xf32>
  %s = arith.addf %a, %b : tensor<16xf32>
  tile.store %s, %x[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}
