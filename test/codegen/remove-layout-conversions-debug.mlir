// tile-remove-layout-conversions -debug-only=tile-remove-layout-conversions prints each
// rewrite: an op moved into a layout, a loop value carried in a layout, each conversion removed.
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-remove-layout-conversions -debug-only=tile-remove-layout-conversions -o /dev/null 2>&1 | FileCheck %s

// The K loop: the rescale moves into the mma layout, the loop carries the accumulator in it,
// the store after the loop reads its fragments.
// CHECK: [tile-remove-layout-conversions] tile.convert_layout ops before: 2
// CHECK-DAG: [tile-remove-layout-conversions] moved arith.mulf at {{.*}} into #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1> (one operand converted, the others cancel or are layout-free)
// CHECK-DAG: [tile-remove-layout-conversions] built in place: broadcast scalar at {{.*}} in #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>
// CHECK-DAG: [tile-remove-layout-conversions] loop at {{.*}} carries iter_arg #0 in #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>
// CHECK-DAG: [tile-remove-layout-conversions] removed conversion tensor<64x64xf32, #tile.mma<{{.*}}>> -> tensor<64x64xf32, #tile.mma<{{.*}}>> at {{.*}}: no-op (same layout)
// CHECK-DAG: [tile-remove-layout-conversions] store at {{.*}}: from the accumulator layout #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1> (0 op(s) on the way)
// CHECK: [tile-remove-layout-conversions] tile.convert_layout ops after: 0
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

// Two products in a row: the conversions between them cancel (the reduction keeps one).
// CHECK: [tile-remove-layout-conversions] tile.convert_layout ops before: 4
// CHECK: [tile-remove-layout-conversions] removed conversion tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<{{.*}}>> at {{.*}}: cancelled (converts back to the layout it came from)
// CHECK: [tile-remove-layout-conversions] tile.convert_layout ops after: 1
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

// A product's result cast and fed back as the next product's B operand: written to shared
// memory from the accumulator layout.
// CHECK: [tile-remove-layout-conversions] tile.mma at {{.*}}: B written to shared memory from the accumulator layout #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1> (1 op(s) on the way)
tile.kernel @state_as_b(%a: !tile.array<?x?xbf16>, %y: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  %s = tile.mma %ta, %ta, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  %sb = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
  %out = tile.mma %ta, %sb, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  tile.store %out, %y[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
