// tile-pipeline-loops: which loads of a loop are copied into shared-memory stages ahead of
// their iteration, how many stages each loop gets, and a remark for every load that stays
// synchronous.
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops="stages=4" -verify-diagnostics | FileCheck %s --check-prefix=FORCED
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops -debug-only=tile-pipeline-loops -verify-diagnostics 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// A K loop over two operands: 3 stages without hints; each stage holds both tiles (4 KiB
// each), the second at a 4096-byte offset; the kernel reserves 3 stages of 8 KiB.
// CHECK-LABEL: tile.kernel @k_loop
// CHECK-SAME: tile.pipeline_bytes = 24576
// CHECK: tile.load %{{.*}} {tile.pipeline_offset = 0 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_offset = 4096 : i64}
// CHECK: } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 3 : i64}
// FORCED-LABEL: tile.kernel @k_loop
// FORCED: tile.pipeline_stages = 4
// DEBUG: [tile-pipeline-loops] loop at {{.*}}: 2 load(s) copied 2 iteration(s) ahead, 3 stages of 8192 bytes at offset 0 (latency hint 0
tile.kernel @k_loop(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %d = tile.mma %ta, %tb, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// The one wgmma product of a K loop, accumulating into the carried value: its group stays
// pending across iterations (tile.wgmma_pending). An accumulator scaled first (read by
// something else) keeps the wait in the iteration.
// CHECK-LABEL: tile.kernel @pending
// CHECK: tile.mma {{.*}} {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.wgmma_pending}
// DEBUG: [tile-pipeline-loops] tile.mma at {{.*}}: its wgmma group stays pending across iterations
tile.kernel @pending(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %d = tile.mma %ta, %tb, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @scaled
// CHECK-NOT: tile.wgmma_pending
// CHECK: tile.return
tile.kernel @scaled(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %half = arith.constant dense<0.5> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %s = arith.mulf %acc, %half : tensor<64x64xf32>
    %d = tile.mma %ta, %tb, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Loads that feed 2-D wgmma or mma.sync operands (through a reshape and a transpose here) and
// no other product get their stages in the Tensor Core operand layout (swizzled, on 1024-byte
// boundaries): the products read them in place
// (wgmma through descriptors, mma.sync with ldmatrix), and other uses (%twice's element-wise
// one) read registers from that order. A load that also feeds a batched product (%tc) keeps
// row-major stages.
// CHECK-LABEL: tile.kernel @in_place
// CHECK: tile.load %{{.*}} {tile.pipeline_core_matrices, tile.pipeline_offset = 0 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_core_matrices, tile.pipeline_offset = 16384 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_core_matrices, tile.pipeline_offset = 24576 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_core_matrices, tile.pipeline_offset = 32768 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_offset = 49152 : i64}
// DEBUG: [tile-pipeline-loops] load at {{.*}}: stages in the Tensor Core operand layout (its products read them in place)
tile.kernel @in_place(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %zero3 = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %acc2 = %zero) -> (tensor<128x64xf32>, tensor<128x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<128x64xbf16>
    %tb3 = tile.load %b[%c0, %c0, %i] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<1x64x64xbf16>
    %tb = tile.reshape %tb3 : tensor<1x64x64xbf16> -> tensor<64x64xbf16>
    %tbt = tile.permute %tb [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %d = tile.mma %ta, %tbt, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %other = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %e = tile.mma %ta, %other, %acc2 {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %twice = tile.load %a[%i, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<128x64xbf16>
    %f = tile.mma %twice, %tbt, %e {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %g = arith.extf %twice : tensor<128x64xbf16> to tensor<128x64xf32>
    %tc = tile.load %b[%i, %c0, %c0] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<2x16x16xbf16>
    %bat = tile.mma %tc, %tc, %zero3 : tensor<2x16x16xbf16>, tensor<2x16x16xbf16>, tensor<2x16x16xf32>
    %s = tile.reshape %bat : tensor<2x16x16xf32> -> tensor<32x16xf32>
    tile.store %s, %c[%i, %c1] : tensor<32x16xf32>, !tile.array<?x?xf32>[i32, i32]
    %h = arith.addf %f, %g : tensor<128x64xf32>
    scf.yield %d, %h : tensor<128x64xf32>, tensor<128x64xf32>
  }
  tile.store %r#0, %c[%c0, %c0] : tensor<128x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.store %r#1, %c[%c1, %c0] : tensor<128x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Latency hints set the depth: 5 for latency 6 (4 stages), the largest hint of the loop wins.
// Indices computed from the induction variable by arith ops of the body are fine.
// CHECK-LABEL: tile.kernel @hinted
// CHECK: tile.pipeline_stages = 4 : i64
// FORCED-LABEL: tile.kernel @hinted
// FORCED: tile.pipeline_stages = 4 : i64
tile.kernel @hinted(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %j = arith.muli %i, %c1 : i32
    %k = arith.addi %j, %c1 : i32
    %t = tile.load %x[%k] padding = zero {latency = 6 : i32} : !tile.array<?xf32>[i32] -> tensor<128xf32>
    %u = tile.load %x[%i] {latency = 2 : i32} : !tile.array<?xf32>[i32] -> tensor<128xf32>
    %s = arith.addf %t, %u : tensor<128xf32>
    %a = arith.addf %acc, %s : tensor<128xf32>
    scf.yield %a : tensor<128xf32>
  }
  tile.store %r, %y[%c0] : tensor<128xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// Loads that stay synchronous, each with its reason; the loop keeps the two loads that
// qualify.
// CHECK-LABEL: tile.kernel @refused
// CHECK: tile.pipeline_offset = 0
// CHECK: tile.pipeline_offset = 256
// CHECK-NOT: tile.pipeline_offset
// CHECK: tile.pipeline_stages = 3
tile.kernel @refused(%x: !tile.array<?xf32>, %h: !tile.array<?xbf16>, %y: !tile.array<?xf32>, %m: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %j = %c0) -> (tensor<64xf32>, i32) : i32 {
    %ok = tile.load %x[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    // expected-remark @below {{load not pipelined: a row of the tile is 2 bytes (the smallest asynchronous copy is 4)}}
    %one = tile.load %h[%i] : !tile.array<?xbf16>[i32] -> tensor<1xbf16>
    // expected-remark @below {{load not pipelined: the loop writes the array it reads}}
    %w = tile.load %y[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    tile.store %w, %y[%i] : tensor<64xf32>, !tile.array<?xf32>[i32]
    %v = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<1xf32>
    %v0 = tile.reshape %v : tensor<1xf32> -> tensor<f32>
    %ev = tensor.extract %v0[] : tensor<f32>
    %d = arith.fptosi %ev : f32 to i32
    // expected-remark @below {{load not pipelined: an index is computed by 'tensor.extract'}}
    %g = tile.load %x[%d] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    // expected-remark @below {{load not pipelined: an index depends on a value carried from the previous iteration}}
    %cv = tile.load %x[%j] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    // expected-remark @below {{load not pipelined: it reads dimensions out of memory order (order=)}}
    %tr = tile.load %m[%c0, %i] order = [1, 0] : !tile.array<?x?xf32>[i32, i32] -> tensor<8x8xf32>
    %s0 = arith.addf %ok, %ok : tensor<64xf32>
    %s1 = arith.addf %s0, %g : tensor<64xf32>
    %s2 = arith.addf %s1, %cv : tensor<64xf32>
    %a = arith.addf %acc, %s2 : tensor<64xf32>
    %jn = arith.addi %j, %c1 : i32
    scf.yield %a, %jn : tensor<64xf32>, i32
  }
  tile.store %r#0, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// The budget: at occupancy 4 a block has 56 KiB of shared memory; three stages of 24 KiB do
// not fit, two do, and a remark says so. At occupancy 8 (27.5 KiB) not even two fit.
// CHECK-LABEL: tile.kernel @budget
// CHECK: tile.pipeline_stages = 2 : i64
// REMARK: remark: loop pipelined with 2 stages instead of 3: 3 need 73728 bytes of shared memory and 57344 are left at occupancy 4
tile.kernel @budget(%a: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>, %n: i32) attributes {occupancy = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{loop pipelined with 2 stages instead of}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<32x64xf32>
    tile.store %ta, %c[%i, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    tile.store %tb, %c[%c0, %i] : tensor<32x64xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @over_budget
// CHECK-NOT: tile.pipeline_stages
tile.kernel @over_budget(%a: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>, %n: i32) attributes {occupancy = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{loop not pipelined: 2 stages of its loads need 49152 bytes of shared memory and 28160 are left at occupancy 8}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<32x64xf32>
    tile.store %ta, %c[%i, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    tile.store %tb, %c[%c0, %i] : tensor<32x64xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}

// -----

// No asynchronous copies before sm_80: every load says so.
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops="arch=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75
// SM75-NOT: tile.pipeline_stages
// SM75: remark: load not pipelined: sm_75 has no asynchronous copies (sm_80 and later)
// SM75-NOT: tile.pipeline_stages
// On sm_90a the same loop is pipelined.
// CHECK-LABEL: tile.kernel @old
// CHECK: tile.pipeline_stages = 3
tile.kernel @old(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t = tile.load %x[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    tile.store %t, %y[%i] : tensor<64xf32>, !tile.array<?xf32>[i32]
  }
  tile.return
}

// -----

// Loads of the body of a kernel with loops are copied at kernel start: after a loop (their
// latency passes while the loop runs) and before it (copied together, re-readable from shared
// memory); one whose array the kernel writes is not, with a remark.
// CHECK-LABEL: tile.kernel @after_loop
// CHECK-SAME: tile.prefetch_bytes = 768
// CHECK: tile.load %{{.*}} {tile.prefetch_offset = 0 : i64}
// CHECK: scf.for
// CHECK: tile.load %{{.*}} {tile.prefetch_offset = 256 : i64}
// CHECK: tile.load %{{.*}} {tile.prefetch_offset = 512 : i64}
// CHECK-NOT: tile.prefetch_offset
// DEBUG: [tile-pipeline-loops] load at {{.*}}: copied at kernel start into 256 bytes at offset 0
tile.kernel @after_loop(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %before = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %before) -> (tensor<64xf32>) : i32 {
    %t = tile.load %x[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    %s = arith.addf %acc, %t : tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  %b = tile.bid 0
  %k = arith.addi %b, %c1 : i32
  %a1 = tile.load %x[%b] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %a2 = tile.load %x[%k] padding = zero : !tile.array<?xf32>[i32] -> tensor<64xf32>
  // expected-remark @below {{load not copied at kernel start: the kernel writes the array it reads}}
  %a3 = tile.load %y[%k] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %s1 = arith.addf %r, %a1 : tensor<64xf32>
  %s2 = arith.addf %s1, %a2 : tensor<64xf32>
  %s3 = arith.addf %s2, %a3 : tensor<64xf32>
  tile.store %s3, %y[%b] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// Swizzled operand buffers start on 1024-byte boundaries (the swizzle's period): the vector
// of 64 f32 (256 bytes) takes the first 1024 bytes of the stage, the operand starts at 1024,
// and the stage (1024 + 4096 bytes) stays a multiple of 1024, so every stage's operand buffer
// is aligned. The x tile read after the loop is copied at kernel start, into the prefetch
// region, whose size is rounded up to 1024 so that the stages after it stay aligned.
// CHECK-LABEL: tile.kernel @swizzle_alignment
// CHECK-SAME: tile.pipeline_bytes = 15360
// CHECK-SAME: tile.prefetch_bytes = 1024
// CHECK: tile.load %{{.*}} {tile.pipeline_offset = 0 : i64}
// CHECK: tile.load %{{.*}} {tile.pipeline_core_matrices, tile.pipeline_offset = 1024 : i64}
// CHECK: } {tile.pipeline_stage_bytes = 5120 : i64, tile.pipeline_stages = 3 : i64}
// CHECK: tile.load %{{.*}} {tile.prefetch_offset = 0 : i64}
tile.kernel @swizzle_alignment(%a: !tile.array<?x?xbf16>, %v: !tile.array<?xf32>, %w: !tile.array<?xf32>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %s = tile.load %v[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    %ta = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tat = tile.permute %ta [1, 0] : tensor<64x32xbf16> -> tensor<32x64xbf16>
    %d = tile.mma %ta, %tat, %acc {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %s2 = tile.reshape %s : tensor<64xf32> -> tensor<64x1xf32>
    %sb = tile.broadcast %s2 : tensor<64x1xf32> -> tensor<64x64xf32>
    %e = arith.addf %d, %sb : tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }
  %x = tile.load %w[%c1] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %x2 = tile.reshape %x : tensor<64xf32> -> tensor<64x1xf32>
  %xb = tile.broadcast %x2 : tensor<64x1xf32> -> tensor<64x64xf32>
  %y = arith.addf %r, %xb : tensor<64x64xf32>
  tile.store %y, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Padding other than zero: the copy fills zeros and the threads reading it put the padding in
// (KernelLowering::readStage), so NaN- and -inf-padded loads are pipelined; a Tensor Core
// product reads its operand's copy in place, so an operand with such padding stays synchronous.
// CHECK-LABEL: tile.kernel @padded
// CHECK: padding = nan {tile.pipeline_offset = 0 : i64}
// CHECK: padding = neg_inf {tile.pipeline_offset = 256 : i64}
// CHECK: tile.load %{{.*}} padding = neg_inf : !tile.array<?x?xbf16>
tile.kernel @padded(%x: !tile.array<?xf32>, %a: !tile.array<?x?xbf16>, %y: !tile.array<?xf32>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %mzero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %macc = %mzero) -> (tensor<64xf32>, tensor<64x64xf32>) : i32 {
    %p = tile.load %x[%i] padding = nan : !tile.array<?xf32>[i32] -> tensor<64xf32>
    %q = tile.load %x[%i] padding = neg_inf : !tile.array<?xf32>[i32] -> tensor<64xf32>
    // expected-remark @below {{load not pipelined: its padding is not zero and Tensor Core products would read its copy in place (asynchronous copies fill out-of-bounds elements with zeros)}}
    %ta = tile.load %a[%c0, %i] padding = neg_inf : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x16xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x64xbf16>
    %m = tile.mma %ta, %tb, %macc {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
    %s = arith.maximumf %p, %q : tensor<64xf32>
    %a2 = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %a2, %m : tensor<64xf32>, tensor<64x64xf32>
  }
  tile.store %r#0, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.store %r#1, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
