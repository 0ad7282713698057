// tile-warp-specialize: which pipelined loop's copies a producer warpgroup issues
// (tile.warp_specialize on the loop) in a kernel that asks (warp_specialize = true), a remark for
// each loop taken and for each loop with two or more wgmma products not taken (why, or how to
// ask), a warning for a loop asked for that does not admit it. Input: tile-pipeline-loops' and
// tile-place-tma's decisions, written by hand.
// RUN: tile-opt %s -split-input-file -tile-warp-specialize -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-warp-specialize="arch=sm_80" 2>/dev/null | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file -tile-warp-specialize -debug-only=tile-warp-specialize 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Attention's shape: two wgmma products in a loop whose copies are all TMA copies, at 256
// threads, asked for: chosen, the consumers at 240 registers and the producer at 24, and the
// two consumer warpgroups take turns issuing the products (ping-pong).
// CHECK-LABEL: tile.kernel @two_products
// CHECK: tile.warp_specialize = {consumer_registers = 240 : i64, ping_pong = true, producer_registers = 24 : i64, producer_threads = 128 : i64}
// DEBUG: [tile-warp-specialize] scf.for at {{.*}}: producer warpgroup, 256 consumer threads at 240 registers, ping-pong
// DEBUG: [tile-warp-specialize] scf.for at {{.*}}: admits specialization, not asked for
// On sm_80 (no setmaxnreg, no TMA) no loop is specialized; a kernel that asks gets a warning.
// SM80-NOT: tile.warp_specialize =
tile.kernel @two_products(%k: !tile.array<?x?xbf16> {tile.aligned}, %v: !tile.array<?x?xbf16> {tile.aligned},
                          %n: !tile.array<?x?xf32>) attributes {num_threads = 256 : i32, warp_specialize = true} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bid = tile.bid 0
  %rows = tile.dim %k, 0 : !tile.array<?x?xbf16>
  %trunc = arith.trunci %rows : i64 to i32
  %count = arith.divsi %trunc, %bid : i32
  %q = arith.constant dense<1.0> : tensor<128x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  // expected-remark @below {{loop warp-specialized: a producer warpgroup (128 threads more) issues its TMA copies, the kernel's 256 threads wait for them and release each stage (setmaxnreg: 240 registers per consumer thread, 24 per producer thread); its two consumer warpgroups take turns issuing its products (ping-pong)}}
  %r = scf.for %j = %c0 to %count step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) : i32 {
    %row = arith.muli %j, %bid : i32
    %kt = tile.load %k[%c0, %row] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %vt = tile.load %v[%j, %c0] {tile.pipeline_offset = 8192 : i64, tile.tma = 1 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %o = tile.mma %p, %vt, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    scf.yield %o : tensor<128x64xf32>
  } {tile.pipeline_stage_bytes = 16384 : i64, tile.pipeline_stages = 2 : i64}
  tile.store %r, %n[%c0, %c0] : tensor<128x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// At 128 threads the launch already gives each consumer the most registers a thread may have:
// no setmaxnreg; one consumer warpgroup takes no turns.
// CHECK-LABEL: tile.kernel @one_warpgroup
// CHECK: tile.warp_specialize = {consumer_registers = 0 : i64, ping_pong = false, producer_registers = 0 : i64, producer_threads = 128 : i64}
tile.kernel @one_warpgroup(%k: !tile.array<?x?xbf16> {tile.aligned}, %n: i32) attributes {num_threads = 128 : i32, warp_specialize = true} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-remark @below {{loop warp-specialized: a producer warpgroup (128 threads more) issues its TMA copies, the kernel's 128 threads wait for them and release each stage}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %o = tile.mma %p, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 3 : i64}
  tile.return
}

// -----

// Without the option: a loop that admits it is not taken, and its remark says how to ask; those
// that do not admit it say why: a copy that is not a TMA copy, an index the loop carries.
// warp_specialize = false: nothing, not even a remark (@option_off).
// CHECK-LABEL: tile.kernel @refused
// CHECK-NOT: tile.warp_specialize
// CHECK: tile.return
tile.kernel @refused(%k: !tile.array<?x?xbf16> {tile.aligned}, %a: !tile.array<?x?xbf16>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-remark @below {{loop not warp-specialized: it admits a producer warpgroup for its copies; @ct.kernel(warp_specialize=True) asks for one}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %o = tile.mma %q, %kt, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 2 : i64}
  // expected-remark @below {{loop not warp-specialized: not every load copied ahead is a TMA copy}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %at = tile.load %a[%c0, %j] {tile.pipeline_offset = 8192 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %o = tile.mma %q, %at, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 16384 : i64, tile.pipeline_stages = 2 : i64}
  // expected-remark @below {{loop not warp-specialized: a copied load's index depends on a value the loop carries}}
  %last = scf.for %j = %c0 to %n step %c1 iter_args(%row = %c0) -> (i32) : i32 {
    %kt = tile.load %k[%c0, %row] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %o = tile.mma %q, %kt, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %next = arith.addi %row, %c1 : i32
    scf.yield %next : i32
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @option_off
// CHECK-NOT: tile.warp_specialize
tile.kernel @option_off(%k: !tile.array<?x?xbf16> {tile.aligned}, %n: i32) attributes {num_threads = 128 : i32, warp_specialize = false} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %o = tile.mma %q, %kt, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}

// -----

// warp_specialize = true: a loop with one product is taken too, and one that does not admit it
// gets a warning (the kernel asked) rather than a remark.
// CHECK-LABEL: tile.kernel @option_on
// CHECK: scf.for
// CHECK: tile.warp_specialize = {consumer_registers = 0 : i64, ping_pong = false, producer_registers = 0 : i64, producer_threads = 128 : i64}
tile.kernel @option_on(%k: !tile.array<?x?xbf16> {tile.aligned}, %n: i32) attributes {num_threads = 128 : i32, warp_specialize = true} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-warning @below {{loop not warp-specialized: the loop is not pipelined}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  }
  // expected-remark @below {{loop warp-specialized}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}

// -----

// At 512 threads the block's 640 start with 96 registers each; the consumers take what the
// producer gives up, and no more (more would block them in setmaxnreg.inc forever): 112.
// CHECK-LABEL: tile.kernel @four_warpgroups
// CHECK: tile.warp_specialize = {consumer_registers = 112 : i64, ping_pong = false, producer_registers = 24 : i64, producer_threads = 128 : i64}
tile.kernel @four_warpgroups(%k: !tile.array<?x?xbf16> {tile.aligned}, %n: i32) attributes {num_threads = 512 : i32, warp_specialize = true} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = arith.constant dense<1.0> : tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-remark @below {{(setmaxnreg: 112 registers per consumer thread, 24 per producer thread)}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kt = tile.load %k[%c0, %j] {tile.pipeline_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %s = tile.mma %q, %kt, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}
