// tile-lower-to-llvm refuses hand-written TMA store attributes that do not fit together.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics

tile.kernel @other_array(%y: !tile.array<?x?xf32> {tile.aligned}, %z: !tile.array<?x?xf32> {tile.aligned}, %n: i32)
    attributes {tile.tma_maps = [{arg = 1 : i64, box = array<i64: 16, 16>, nan_fill = false, swizzle = 64 : i64}],
                tile.tma_store_bytes = 1024 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = arith.constant dense<1.0> : tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{malformed tile.tma: descriptor 0 writes another array}}
    tile.store %t, %y[%i, %c0] {tile.tma = 0 : i64} : tensor<16x16xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}

// -----

tile.kernel @bad_box(%y: !tile.array<?x?xf32> {tile.aligned}, %n: i32)
    attributes {tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 8>, nan_fill = false, swizzle = 64 : i64}],
                tile.tma_store_bytes = 1024 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = arith.constant dense<1.0> : tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{malformed tile.tma: descriptor 0's box does not tile the stored 'tensor<16x16xf32>'}}
    tile.store %t, %y[%i, %c0] {tile.tma = 0 : i64} : tensor<16x16xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}

// -----

tile.kernel @small_staging(%y: !tile.array<?x?xf32> {tile.aligned}, %n: i32)
    attributes {tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 16>, nan_fill = false, swizzle = 64 : i64}],
                tile.tma_store_bytes = 512 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = arith.constant dense<1.0> : tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{malformed tile.tma: the kernel's tile.tma_store_bytes does not hold the stored 'tensor<16x16xf32>'}}
    tile.store %t, %y[%i, %c0] {tile.tma = 0 : i64} : tensor<16x16xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}
