// A tile.rematerialize broadcast or conversion whose input a thread cannot recompute on its own
// (hand-written IR; tile-remove-layout-conversions never marks one) is refused at the op by
// tile-lower-to-llvm, naming what stops it, instead of being lowered into reads of the wrong
// elements.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics

tile.kernel @broadcast_of_reduction(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %s = tile.reduce sum %t axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %s2 = tile.reshape %s : tensor<64xf32> -> tensor<64x1xf32>
  // expected-error @below {{'tile.rematerialize' on a broadcast whose input cannot be recomputed: 'tile.reduce' moves data between threads}}
  %b = tile.broadcast %s2 {tile.rematerialize} : tensor<64x1xf32> -> tensor<64x64xf32>
  tile.store %b, %y[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

tile.kernel @conversion_of_written_array(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  tile.store %t, %x[%c1, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  // expected-error @below {{'tile.rematerialize' on a conversion whose input cannot be recomputed: the kernel writes the array it loads}}
  %m = tile.convert_layout %t {tile.rematerialize} : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  %e = arith.addf %m, %m : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  tile.store %e, %x[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
