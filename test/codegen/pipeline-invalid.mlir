// Pipelining attributes that do not fit together (hand-written IR) are refused by
// tile-lower-to-llvm at the op, never lowered into copies that overwrite each other.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics
// RUN: not tile-opt %s -tile-pipeline-loops="stages=9" 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: pipeline stages 9 must be 0 (from latency hints) or 1 ... 8

tile.kernel @outside(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>) attributes {tile.pipeline_bytes = 256 : i64} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed pipelining: tile.pipeline_offset on a load outside a pipelined loop}}
  %t = tile.load %x[%c0] {tile.pipeline_offset = 0 : i64} : !tile.array<?xf32>[i32] -> tensor<64xf32>
  tile.store %t, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// A product marked to leave its wgmma group pending outside a pipelined loop: its result would
// be read before the group completes.
tile.kernel @pending_outside(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  // expected-error @below {{malformed pipelining: tile.wgmma_pending on a product that is not the one wgmma of a pipelined loop accumulating into its carried value}}
  %d = tile.mma %ta, %tb, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.wgmma_pending} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

tile.kernel @no_bytes(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{malformed pipelining: tile.pipeline_stages (2-8) and tile.pipeline_stage_bytes (a positive multiple of 16) go together}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t = tile.load %x[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    tile.store %t, %y[%i] : tensor<64xf32>, !tile.array<?xf32>[i32]
  } {tile.pipeline_stages = 3 : i64}
  tile.return
}

// -----

tile.kernel @too_small(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) attributes {tile.pipeline_bytes = 512 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{malformed pipelining: the load's stages end at byte 768 of a 512-byte stages region}}
    %t = tile.load %x[%i] {tile.pipeline_offset = 0 : i64} : !tile.array<?xf32>[i32] -> tensor<64xf32>
    tile.store %t, %y[%i] : tensor<64xf32>, !tile.array<?xf32>[i32]
  } {tile.pipeline_stage_bytes = 256 : i64, tile.pipeline_stages = 3 : i64}
  tile.return
}

// -----

tile.kernel @prefetch_nested(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>, %n: i32) attributes {tile.prefetch_bytes = 256 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @below {{malformed pipelining: tile.prefetch_offset on a load inside a region}}
    %t = tile.load %x[%i] {tile.prefetch_offset = 0 : i64} : !tile.array<?xf32>[i32] -> tensor<64xf32>
    tile.store %t, %y[%i] : tensor<64xf32>, !tile.array<?xf32>[i32]
  }
  tile.return
}

// -----

tile.kernel @prefetch_outside(%x: !tile.array<?xf32>, %y: !tile.array<?xf32>) attributes {tile.prefetch_bytes = 128 : i64} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed pipelining: the load's 256 bytes at offset 0 leave the kernel's 128-byte prefetch region}}
  %t = tile.load %x[%c0] {tile.prefetch_offset = 0 : i64} : !tile.array<?xf32>[i32] -> tensor<64xf32>
  tile.store %t, %y[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// Stages sized from an estimate that the real scratch overruns (here written by hand: 128 KiB
// of stages and a 128 KiB transpose in the loop): the kernel is lowered again with
// synchronous loads, and a remark says so.
// expected-remark @below {{loads not copied ahead: the kernel needs}}
tile.kernel @overrun(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>, %n: i32) attributes {tile.pipeline_bytes = 131072 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t = tile.load %x[%i, %c0] {tile.pipeline_offset = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<64x256xf32>
    %u = tile.load %y[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<256x128xf32>
    %p = tile.permute %u [1, 0] : tensor<256x128xf32> -> tensor<128x256xf32>
    tile.store %t, %x[%i, %c1] : tensor<64x256xf32>, !tile.array<?x?xf32>[i32, i32]
    tile.store %p, %y[%i, %c1] : tensor<128x256xf32>, !tile.array<?x?xf32>[i32, i32]
  } {tile.pipeline_stage_bytes = 65536 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}

// -----

// A Tensor Core operand's stages hold the swizzled layout, whose period is 1024 bytes: a stage
// of 5120 + 128 bytes would put the operand's second stage off it.
tile.kernel @misaligned_operand(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) attributes {tile.pipeline_bytes = 15744 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    // expected-error @below {{malformed pipelining: a Tensor Core operand's buffer (tile.pipeline_core_matrices) starts at byte 1024 of shared memory, with stages 5248 bytes apart; both must be multiples of 1024}}
    %ta = tile.load %a[%i, %c0] {tile.pipeline_core_matrices, tile.pipeline_offset = 1024 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tat = tile.permute %ta [1, 0] : tensor<64x32xbf16> -> tensor<32x64xbf16>
    %d = tile.mma %ta, %tat, %acc {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.pipeline_stage_bytes = 5248 : i64, tile.pipeline_stages = 3 : i64}
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// TMA decisions that do not fit together are refused at the op too.
// expected-error @below {{malformed tile.tma_maps: each entry is {arg = an array argument's index, box = one size per dimension, swizzle = 0, 32, 64 or 128, nan_fill = bool}}}
tile.kernel @tma_map_scalar(%x: !tile.array<?xf32>, %n: i32) attributes {tile.tma_maps = [{arg = 1 : i64, box = array<i64: 16>, swizzle = 0 : i64, nan_fill = false}]} {
  tile.return
}

// -----

tile.kernel @tma_index(%x: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 4096 : i64, tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 64>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed tile.tma: not an index into the kernel's 1 TMA descriptor(s)}}
  %t = tile.load %x[%c0, %c0] {tile.prefetch_offset = 0 : i64, tile.tma = 1 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @tma_not_copied(%x: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 64>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed tile.tma on a load that is not copied ahead}}
  %t = tile.load %x[%c0, %c0] {tile.tma = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @tma_other_array(%x: !tile.array<?x?xf32> {tile.aligned}, %y: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 4096 : i64, tile.tma_maps = [{arg = 1 : i64, box = array<i64: 16, 64>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed tile.tma: descriptor 0 reads another array}}
  %t = tile.load %x[%c0, %c0] {tile.prefetch_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @tma_box(%x: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 4096 : i64, tile.tma_maps = [{arg = 0 : i64, box = array<i64: 8, 64>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{malformed tile.tma: descriptor 0's box does not tile the load's 'tensor<16x64xf32>'}}
  %t = tile.load %x[%c0, %c0] {tile.prefetch_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

// The descriptors against the code that reads the stages (verifyTmaDescriptors): a row-major
// stage needs an unswizzled copy of the whole tile, a NaN-padded load a NaN fill, and a Tensor
// Core operand's stage one copy per swizzled column block (128 bytes of bf16 rows: 64 wide).

tile.kernel @tma_swizzle_unread(%x: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 4096 : i64, tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 32>, swizzle = 128 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{internal error: TMA descriptor 0 (box [16, 32], swizzle 128, zero fill) is not the copy the code reading this load's stage assumes (box [16, 64], swizzle 0, zero fill)}}
  %t = tile.load %x[%c0, %c0] {tile.prefetch_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @tma_fill(%x: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 4096 : i64, tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 64>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{internal error: TMA descriptor 0 (box [16, 64], swizzle 0, zero fill) is not the copy the code reading this load's stage assumes (box [16, 64], swizzle 0, NaN fill)}}
  %t = tile.load %x[%c0, %c0] padding = nan {tile.prefetch_offset = 0 : i64, tile.tma = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  tile.return
}

// -----

tile.kernel @tma_operand_unswizzled(%x: !tile.array<?x?xbf16> {tile.aligned}) attributes {tile.prefetch_bytes = 16384 : i64, tile.tma_maps = [{arg = 0 : i64, box = array<i64: 64, 128>, swizzle = 0 : i64, nan_fill = false}]} {
  %c0 = arith.constant 0 : i32
  // expected-error @below {{internal error: TMA descriptor 0 (box [64, 128], swizzle 0, zero fill) is not the copy the code reading this load's stage assumes (box [64, 64], swizzle 128, zero fill)}}
  %t = tile.load %x[%c0, %c0] {tile.prefetch_offset = 0 : i64, tile.pipeline_core_matrices, tile.tma = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x128xbf16>
  tile.return
}
