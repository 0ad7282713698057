// tile-remove-layout-conversions: a K loop keeps its accumulator in mma.sync's registers, an
// element-wise rescale of the accumulator (the Mamba-2 state update) happens in that layout,
// conversion pairs cancel, and ops that need the canonical layout keep their conversion.
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-remove-layout-conversions -canonicalize | FileCheck %s

// CHECK-LABEL: tile.kernel @k_loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #tile.mma<{{.*}}>>)
// CHECK-NOT: tile.convert_layout
// CHECK: %[[SCALE:.*]] = tile.broadcast %{{.*}} : f32 -> tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[ACC]], %[[SCALE]] : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: %[[D:.*]] = tile.mma %{{.*}}, %{{.*}}, %[[SCALED]]
// CHECK: scf.yield %[[D]]
// CHECK: %[[OUT:.*]] = tile.convert_layout %[[LOOP]] : tensor<64x64xf32, #tile.mma<{{.*}}>> -> tensor<64x64xf32>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[OUT]]
tile.kernel @k_loop(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %decay: f32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %s = tile.broadcast %decay : f32 -> tensor<64x64xf32>
    %scaled = arith.mulf %acc, %s : tensor<64x64xf32>
    %d = tile.mma %ta, %tb, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Two products in a row share the layout: the conversions between them cancel. The
// reduction needs the canonical layout and keeps its conversion.
// CHECK-LABEL: tile.kernel @chain
// CHECK: %[[D1:.*]] = tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma
// CHECK-NEXT: %[[D2:.*]] = tile.mma %{{.*}}, %{{.*}}, %[[D1]]
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[D2]]
// CHECK-NEXT: tile.reduce sum %[[C]]
tile.kernel @chain(%a: !tile.array<?x?xbf16>, %c: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d1 = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %d2 = tile.mma %ta, %tb, %d1 : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %s = tile.reduce sum %d2 axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %s, %c[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// The Mamba-2 state loop: the running state is stored every iteration and rescaled by a
// one-element tile. The loop still carries it in the mma layout; the store gets one conversion back.
// CHECK-LABEL: tile.kernel @state_loop
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #tile.mma<{{.*}}>>)
// CHECK-NEXT: %[[BACK:.*]] = tile.convert_layout %{{.*}} : tensor<64x64xf32, #tile.mma<{{.*}}>> -> tensor<64x64xf32>
// CHECK-NEXT: tile.store %[[BACK]]
// CHECK-NOT: tile.convert_layout
// CHECK: %[[DECAY:.*]] = tile.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: arith.mulf %{{.*}}, %[[DECAY]] : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: scf.yield
tile.kernel @state_loop(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %w: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    tile.store %acc, %c[%i, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %v = tile.load %w[%i] : !tile.array<?xf32>[i32] -> tensor<16xf32>
    %s = tile.reduce sum %v axis = 0 : tensor<16xf32> -> tensor<f32>
    %s11 = tile.reshape %s : tensor<f32> -> tensor<1x1xf32>
    %d0 = tile.broadcast %s11 : tensor<1x1xf32> -> tensor<64x64xf32>
    %scaled = arith.mulf %acc, %d0 : tensor<64x64xf32>
    %d = tile.mma %ta, %tb, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}
