// tile-lower-to-llvm: the kernel ABI, the canonical layout, bounds masks, shared-memory data
// movement and the errors for what code generation does not handle yet.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics | FileCheck %s

// An array is (pointer, shape[rank], strides[rank]); a bool scalar travels as i8.
// CHECK: llvm.mlir.global external @__tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @copy__tile(
// CHECK-SAME: %[[X:.*]]: !llvm.ptr<1>, %[[N:.*]]: i64, %[[S:.*]]: i64, %[[Y:.*]]: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %[[FLAG:.*]]: i8)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-SAME: tile.name = "copy", tile.num_threads = 128 : i64
// CHECK-SAME: tile.params = [{dtype = "float32", kind = "array", name = "arg0", rank = 1 : i64}, {dtype = "float32", kind = "array", name = "arg1", rank = 1 : i64}, {dtype = "bool_", kind = "scalar", name = "arg2"}]
// CHECK-SAME: tile.shared_bytes = 0 : i64
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// 256 elements over 128 threads: 2 per thread, one run of 2, read as one 8-byte vector when
// the array allows it (unit stride, 8-byte aligned base) and the run is in bounds, else
// element by element with the padding value (vectorize.mlir has the details).
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[X]] : !llvm.ptr<1> to i64
// CHECK: %[[IDX:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[END:.*]] = arith.addi %[[IDX]], %{{.*}} : i64
// CHECK: %[[INBOUNDS:.*]] = arith.cmpi ult, %[[END]], %[[N]] : i64
// CHECK: %[[VEC:.*]] = arith.andi %{{.*}}, %[[INBOUNDS]] : i1
// CHECK: scf.if %[[VEC]] -> (f32, f32) {
// CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
// CHECK: } else {
// CHECK:   %[[IDX0:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:   %[[OK:.*]] = arith.cmpi ult, %[[IDX0]], %[[N]] : i64
// CHECK:   %[[OFF:.*]] = arith.muli %[[IDX0]], %[[S]] : i64
// CHECK:   %[[P:.*]] = llvm.getelementptr %[[X]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:   scf.if %[[OK]] -> (f32) {
// CHECK:     llvm.load %[[P]] : !llvm.ptr<1> -> f32
// CHECK:   } else {
// CHECK:     arith.constant 0.000000e+00 : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK: llvm.return
tile.kernel @copy(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %flag: i1) {
  %i = tile.bid 0
  %t = tile.load %x[%i] padding = zero : !tile.array<?xf32>[i32] -> tensor<256xf32>
  tile.store %t, %y[%i] : tensor<256xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// Reductions combine lanes with butterfly shuffles; the 16 sums reach the result's layout
// through shared memory between barriers (reduce-scan.mlir has the other cases).
// CHECK-LABEL: llvm.func @rows__tile
// CHECK-SAME: tile.shared_bytes = 64 : i64
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: arith.addf
// CHECK: nvvm.barrier0
// CHECK: llvm.mlir.addressof @__tile_smem : !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
tile.kernel @rows(%x: !tile.array<?x?xf32>, %y: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x4xf32>
  %s = tile.reduce sum %t axis = 1 : tensor<16x4xf32> -> tensor<16xf32>
  tile.store %s, %y[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// A tile smaller than the block is replicated; only owners (tid < 16) store.
// CHECK-LABEL: llvm.func @small__tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[OWN:.*]] = arith.cmpi ult, %[[TID]], %{{.*}} : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[OWN]], %{{.*}} : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK:   llvm.store
tile.kernel @small(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant dense<1.0> : tensor<16xf32>
  tile.store %one, %x[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// Matrix products that Tensor Cores cannot take (K = 8 here; mma-tensor-core.py has the
// Tensor Core path) use FMAs: one loop over K carrying every output register.
// CHECK-LABEL: llvm.func @product__tile
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: math.fma
tile.kernel @product(%x: !tile.array<?x?xbf16>, %y: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x8xbf16>
  %b = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<8x32xbf16>
  %acc = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.mma %a, %b, %acc : tensor<32x8xbf16>, tensor<8x32xbf16>, tensor<32x32xf32>
  tile.store %d, %y[%c0, %c0] : tensor<32x32xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Transcendentals use the PTX approximate instructions; printing goes through vprintf from
// thread 0 and assertions through __assertfail.
// CHECK-LABEL: llvm.func @debug__tile
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.call @vprintf
// CHECK: llvm.call @__assertfail
tile.kernel @debug(%x: !tile.array<?xf32>, %v: f32) {
  %e = math.exp2 %v : f32
  tile.print "v=%f\n", %e : f32
  %c = arith.constant 0.0 : f32
  %ok = arith.cmpf ogt, %e, %c : f32
  tile.assert %ok, "exp2 must be positive" : i1
  tile.return
}

// -----

tile.kernel @unsupported(%v: f64) {
  // expected-error @+1 {{code generation supports 'math.exp' on f16, bf16 and f32, not 'f64'}}
  %e = math.exp %v : f64
  tile.return
}

// -----

// 8-bit floats other than e4m3fn and e5m2 (Float8.h) are the interpreter's only.
tile.kernel @f8(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<16xf32>
  // expected-error @+1 {{code generation does not support element type 'f8E4M3FNUZ' yet}}
  %r = arith.truncf %t : tensor<16xf32> to tensor<16xf8E4M3FNUZ>
  tile.return
}

// -----

// tf32 values live in f32 registers: converting rounds to nearest even on the bits (half an
// ulp plus the kept lsb, then the 13 dropped bits cleared; infinities and NaNs pass).
// CHECK-LABEL: llvm.func @tf32__tile
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
// CHECK: arith.select
// CHECK: arith.bitcast %{{.*}} : i32 to f32
tile.kernel @tf32(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<256xf32>
  %r = arith.truncf %t : tensor<256xf32> to tensor<256xtf32>
  %e = arith.extf %r : tensor<256xtf32> to tensor<256xf32>
  tile.store %e, %x[%c0] : tensor<256xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// A reshape keeps registers only when both shapes distribute alike: (256,) holds runs of 2
// per thread, (256, 1) runs of 1, so this one goes through shared memory; a run goes in as one
// vector store.
// CHECK-LABEL: llvm.func @relayout__tile
// CHECK: tile.shared_bytes = 1024 : i64
// CHECK: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
tile.kernel @relayout(%y: !tile.array<?x?xi32>) {
  %c0 = arith.constant 0 : i32
  %i = tile.iota : tensor<256xi32>
  %r = tile.reshape %i : tensor<256xi32> -> tensor<256x1xi32>
  tile.store %r, %y[%c0, %c0] : tensor<256x1xi32>, !tile.array<?x?xi32>[i32, i32]
  tile.return
}

// -----

// Only layout-aware ops take a #tile.mma tile; anything else needs a conversion first.
tile.kernel @mma_layout_reduce(%t: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %m = arith.constant dense<1.0> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  // expected-error @+1 {{code generation needs the canonical layout for 'tile.reduce', not 'tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>' (a tile.convert_layout is missing)}}
  %s = tile.reduce sum %m axis = 1 : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>> -> tensor<64xf32>
  tile.store %s, %t[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

