// Round trip of every tile op: custom form, and through the generic form.
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: tile.kernel @grid
// CHECK-SAME: (%{{.*}}: !tile.array<?x?xf32>, %{{.*}}: !tile.array<?x64xbf16>, %{{.*}}: !tile.array<f32>, %{{.*}}: f32, %{{.*}}: i64)
// CHECK-SAME: attributes {constants = {BLOCK = 64 : i64}, num_ctas = 2 : i32, num_threads = 256 : i32, occupancy = 2 : i32}
tile.kernel @grid(%x: !tile.array<?x?xf32>, %y: !tile.array<?x64xbf16>, %z: !tile.array<f32>,
                  %s: f32, %n: i64) attributes {occupancy = 2 : i32, num_ctas = 2 : i32, num_threads = 256 : i32, constants = {BLOCK = 64}} {
  // CHECK: tile.bid 0
  // CHECK: tile.bid 2
  // CHECK: tile.num_blocks 1
  // CHECK: tile.dim %{{.*}}, 1 : !tile.array<?x?xf32>
  %0 = tile.bid 0
  %1 = tile.bid 2
  %2 = tile.num_blocks 1
  %3 = tile.dim %x, 1 : !tile.array<?x?xf32>
  // CHECK: tile.grid_dependency_control wait
  // CHECK: tile.grid_dependency_control launch_dependents
  tile.grid_dependency_control wait
  tile.grid_dependency_control launch_dependents
  // CHECK: tile.return
  tile.return
}

// CHECK-LABEL: tile.kernel @memory
tile.kernel @memory(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xbf16>, %i: i32, %j: i64) {
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.array<?x?xf32>[i32, i64] -> tensor<64x32xf32>
  %a = tile.load %x[%i, %j] : !tile.array<?x?xf32>[i32, i64] -> tensor<64x32xf32>
  // CHECK: tile.load %{{.*}} padding = neg_inf order = [1, 0] {allow_tma = true, latency = 4 : i32}
  %b = tile.load %x[%i, %i] padding = neg_inf order = [1, 0] {latency = 4 : i32, allow_tma = true} : !tile.array<?x?xf32>[i32, i32] -> tensor<32x64xf32>
  // CHECK: tile.load %{{.*}} padding = zero : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  %c = tile.load %y[%i, %i] padding = zero : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x16xbf16>
  // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] order = [1, 0] {latency = 2 : i32} : tensor<32x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.store %b, %x[%i, %i] order = [1, 0] {latency = 2 : i32} : tensor<32x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.store %a, %x[%i, %i] : tensor<64x32xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// CHECK-LABEL: tile.kernel @element_access
tile.kernel @element_access(%x: !tile.array<?xf32>, %m: !tile.array<?x?xi32>, %p: f32) {
  %idx = tile.iota : tensor<128xi32>
  %mask = arith.constant dense<true> : tensor<128xi1>
  %r = arith.constant dense<1> : tensor<16x16xi32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] : !tile.array<?xf32>[tensor<128xi32>] -> tensor<128xf32>
  %g = tile.gather %x[%idx] : !tile.array<?xf32>[tensor<128xi32>] -> tensor<128xf32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] mask(%{{.*}} : tensor<128xi1>) padding(%{{.*}} : f32) : !tile.array<?xf32>[tensor<128xi32>] -> tensor<128xf32>
  %h = tile.gather %x[%idx] mask(%mask : tensor<128xi1>) padding(%p : f32) : !tile.array<?xf32>[tensor<128xi32>] -> tensor<128xf32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] : !tile.array<?x?xi32>[tensor<16x16xi32>, tensor<16x16xi32>] -> tensor<16x16xi32>
  %k = tile.gather %m[%r, %r] : !tile.array<?x?xi32>[tensor<16x16xi32>, tensor<16x16xi32>] -> tensor<16x16xi32>
  // CHECK: tile.scatter %{{.*}}, %{{.*}}[%{{.*}}] mask(%{{.*}} : tensor<128xi1>) : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
  tile.scatter %g, %x[%idx] mask(%mask : tensor<128xi1>) : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
  tile.scatter %h, %x[%idx] : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}}[%{{.*}}] : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
  %old = tile.atomic_add %g, %x[%idx] : tensor<128xf32>, !tile.array<?xf32>[tensor<128xi32>]
  // CHECK: tile.atomic_add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask(%{{.*}} : tensor<16x16xi1>)
  %mk = arith.constant dense<false> : tensor<16x16xi1>
  %old2 = tile.atomic_add %k, %m[%r, %r] mask(%mk : tensor<16x16xi1>) : tensor<16x16xi32>, !tile.array<?x?xi32>[tensor<16x16xi32>, tensor<16x16xi32>]
  tile.return
}

// CHECK-LABEL: tile.kernel @matrix
tile.kernel @matrix() {
  %a = arith.constant dense<1.0> : tensor<64x32xbf16>
  %b = arith.constant dense<1.0> : tensor<32x128xbf16>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
  %d = tile.mma %a, %b, %acc : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
  %a3 = arith.constant dense<1.0> : tensor<4x16x16xf16>
  %c3 = arith.constant dense<0.0> : tensor<4x16x16xf16>
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>
  %d3 = tile.mma %a3, %a3, %c3 : tensor<4x16x16xf16>, tensor<4x16x16xf16>, tensor<4x16x16xf16>
  %t = arith.constant dense<1.0> : tensor<16x8xtf32>
  %t2 = arith.constant dense<1.0> : tensor<8x16xtf32>
  %tc = arith.constant dense<0.0> : tensor<16x16xf32>
  // CHECK: tile.mma {{.*}} : tensor<16x8xtf32>, tensor<8x16xtf32>, tensor<16x16xf32>
  %td = tile.mma %t, %t2, %tc : tensor<16x8xtf32>, tensor<8x16xtf32>, tensor<16x16xf32>
  %i8 = arith.constant dense<1> : tensor<16x32xi8>
  %i8b = arith.constant dense<1> : tensor<32x16xi8>
  %ic = arith.constant dense<0> : tensor<16x16xi32>
  // CHECK: tile.mma {{.*}} : tensor<16x32xi8>, tensor<32x16xi8>, tensor<16x16xi32>
  %id = tile.mma %i8, %i8b, %ic : tensor<16x32xi8>, tensor<32x16xi8>, tensor<16x16xi32>
  tile.return
}

// CHECK-LABEL: tile.kernel @reductions
tile.kernel @reductions(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x32xf32>
  // CHECK: tile.reduce sum %{{.*}} axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %0 = tile.reduce sum %t axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  // CHECK: tile.reduce prod %{{.*}} axis = 0 keepdims : tensor<64x32xf32> -> tensor<1x32xf32>
  %1 = tile.reduce prod %t axis = 0 keepdims : tensor<64x32xf32> -> tensor<1x32xf32>
  // CHECK: tile.reduce max
  %2 = tile.reduce max %t axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  // CHECK: tile.reduce min
  %3 = tile.reduce min %t axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  // CHECK: tile.reduce argmax %{{.*}} axis = 1 : tensor<64x32xf32> -> tensor<64xi32>
  %4 = tile.reduce argmax %t axis = 1 : tensor<64x32xf32> -> tensor<64xi32>
  // CHECK: tile.reduce argmin %{{.*}} axis = 0 keepdims : tensor<64x32xf32> -> tensor<1x32xi32>
  %5 = tile.reduce argmin %t axis = 0 keepdims : tensor<64x32xf32> -> tensor<1x32xi32>
  // CHECK: tile.reduce sum %{{.*}} axis = 0 : tensor<64xf32> -> tensor<f32>
  %6 = tile.reduce sum %0 axis = 0 : tensor<64xf32> -> tensor<f32>
  // CHECK: tile.scan cumsum %{{.*}} axis = 1 : tensor<64x32xf32>
  %7 = tile.scan cumsum %t axis = 1 : tensor<64x32xf32>
  // CHECK: tile.scan cumprod %{{.*}} axis = 0 reverse : tensor<64x32xf32>
  %8 = tile.scan cumprod %t axis = 0 reverse : tensor<64x32xf32>
  tile.return
}

// CHECK-LABEL: tile.kernel @shapes
tile.kernel @shapes(%s: f32) {
  // CHECK: tile.iota : tensor<64xi32>
  %i = tile.iota : tensor<64xi32>
  // CHECK: tile.broadcast %{{.*}} : f32 -> tensor<64x32xf32>
  %b = tile.broadcast %s : f32 -> tensor<64x32xf32>
  // CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %e = tile.expand_dims %i axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<64x1xi32> -> tensor<64x16xi32>
  %eb = tile.broadcast %e : tensor<64x1xi32> -> tensor<64x16xi32>
  // CHECK: tile.reshape %{{.*}} : tensor<64x32xf32> -> tensor<2048xf32>
  %r = tile.reshape %b : tensor<64x32xf32> -> tensor<2048xf32>
  // CHECK: tile.permute %{{.*}} [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %p = tile.permute %b [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  // CHECK: tile.cat %{{.*}}, %{{.*}} axis = 0 : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  %c = tile.cat %b, %b axis = 0 : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  // CHECK: tile.extract %{{.*}} [1, 0] : tensor<64x32xf32> -> tensor<32x32xf32>
  %x = tile.extract %b [1, 0] : tensor<64x32xf32> -> tensor<32x32xf32>
  tile.return
}

// CHECK-LABEL: tile.kernel @debug
tile.kernel @debug(%v: f32) {
  %i = tile.bid 0
  %t = tile.iota : tensor<8xi32>
  // CHECK: tile.print "block %d: %f %5.2f\0A", %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32
  tile.print "block %d: %f %5.2f\n", %i, %v, %v : i32, f32, f32
  // CHECK: tile.print "tile %d 100%%", %{{.*}} : tensor<8xi32>
  tile.print "tile %d 100%%", %t : tensor<8xi32>
  // CHECK: tile.print "hello"
  tile.print "hello"
  %c = arith.constant true
  // CHECK: tile.assert %{{.*}}, "must hold" : i1
  tile.assert %c, "must hold" : i1
  %ct = arith.constant dense<true> : tensor<8xi1>
  // CHECK: tile.assert %{{.*}}, "all lanes" : tensor<8xi1>
  tile.assert %ct, "all lanes" : tensor<8xi1>
  tile.return
}

// CHECK-LABEL: tile.kernel @layouts
// CHECK: tile.convert_layout %{{.*}} : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
tile.kernel @layouts(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %m = tile.convert_layout %t : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  %b = tile.convert_layout %m : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>> -> tensor<64x64xf32>
  tile.store %b, %x[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
