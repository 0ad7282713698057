// tile-place-tma: which copied loads TMA serves (tile.tma = descriptor index on the load, the
// descriptors in tile.tma_maps on the kernel) and a remark for each copied load that keeps
// cp.async, saying why. Input: tile-pipeline-loops' decisions, written by hand.
// RUN: tile-opt %s -split-input-file -tile-place-tma -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-place-tma="arch=sm_80" 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file -tile-place-tma -debug-only=tile-place-tma 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// A table of loads from aligned arrays: a plain row-major stage (box = the tile), a Tensor Core
// operand stage with 256-byte rows (two 128-byte swizzled column blocks: box 64 x 64 bf16) and
// one with 64-byte rows (64-byte swizzle), a rank-4 tile of a rank-4 array, and a second load
// of the first box, which shares its descriptor.
// CHECK-LABEL: tile.kernel @table
// CHECK-SAME: tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 64>, nan_fill = false, swizzle = 0 : i64},
// CHECK-SAME: {arg = 1 : i64, box = array<i64: 64, 64>, nan_fill = false, swizzle = 128 : i64},
// CHECK-SAME: {arg = 1 : i64, box = array<i64: 64, 32>, nan_fill = false, swizzle = 64 : i64},
// CHECK-SAME: {arg = 2 : i64, box = array<i64: 1, 64, 1, 64>, nan_fill = true, swizzle = 0 : i64}]
// CHECK: tile.load {{.*}}tile.tma = 0 : i64
// CHECK: tile.load {{.*}}tile.tma = 1 : i64
// CHECK: tile.load {{.*}}tile.tma = 2 : i64
// CHECK: tile.load {{.*}}tile.tma = 3 : i64
// CHECK: tile.load {{.*}}tile.tma = 0 : i64
// SM80: remark: load copied with cp.async, not TMA: sm_80 has no TMA (sm_90 and later)
// DEBUG: [tile-place-tma] load at {{.*}}: TMA descriptor 1 over 'arg1', box 64 64, swizzle 128
tile.kernel @table(%a: !tile.array<?x?xf32> {tile.aligned}, %b: !tile.array<?x?xbf16> {tile.aligned},
                   %x: !tile.array<?x?x?x?xf32> {tile.aligned}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t0 = tile.load %a[%i, %c0] padding = zero {tile.pipeline_offset = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
    %t1 = tile.load %b[%i, %c0] {tile.pipeline_offset = 4096 : i64, tile.pipeline_core_matrices} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x128xbf16>
    %t2 = tile.load %b[%c0, %i] {tile.pipeline_offset = 24576 : i64, tile.pipeline_core_matrices} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %t3 = tile.load %x[%c0, %i, %c0, %c0] padding = nan {tile.pipeline_offset = 28672 : i64} : !tile.array<?x?x?x?xf32>[i32, i32, i32, i32] -> tensor<1x64x1x64xf32>
    %t4 = tile.load %a[%c0, %i] {tile.pipeline_offset = 45056 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x64xf32>
  } {tile.pipeline_stage_bytes = 49152 : i64, tile.pipeline_stages = 2 : i64}
  tile.return
}

// -----

// What keeps cp.async, one remark each: an array without the aligned facts, allow_tma=False, a
// transposed view (order=), 8-byte rows, a box over 256, a Tensor
// Core layout TMA does not write (interleaved core matrices of 8-byte rows) and a load that is
// not copied ahead (no remark: it is an ordinary load), and a rank-1 array.
// CHECK-LABEL: tile.kernel @refused
// CHECK-NOT: tile.tma
// CHECK: tile.return
tile.kernel @refused(%a: !tile.array<?x?xf32>, %b: !tile.array<?x?xf32> {tile.aligned},
                     %h: !tile.array<?x?xbf16> {tile.aligned}, %v: !tile.array<?xf32> {tile.aligned}, %n: i32) {
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{load copied with cp.async, not TMA: the array 'arg0' is not known to be 16-byte aligned (an aligned argument: --arg arg0=DTYPE:RANK:aligned; the JIT passes arrays that are so)}}
  %t0 = tile.load %a[%c0, %c0] {tile.prefetch_offset = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: allow_tma=False}}
  %t1 = tile.load %b[%c0, %c0] {allow_tma = false, tile.prefetch_offset = 1024 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: its dimensions are not in memory order (order=)}}
  %t2 = tile.load %b[%c0, %c0] order = [1, 0] {tile.prefetch_offset = 2048 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: its rows are 8 bytes, not a multiple of 16}}
  %t4 = tile.load %b[%c0, %c0] {tile.prefetch_offset = 4096 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x2xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: a box dimension of 512 is over TMA's 256}}
  %t5 = tile.load %b[%c0, %c0] {tile.prefetch_offset = 5120 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<512x4xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: its Tensor Core layout (interleaved core matrices of 8-byte rows) is not a TMA box}}
  %t6 = tile.load %h[%c0, %c0] {tile.prefetch_offset = 14336 : i64, tile.pipeline_core_matrices} : !tile.array<?x?xbf16>[i32, i32] -> tensor<16x4xbf16>
  %t7 = tile.load %b[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  // expected-remark @below {{load copied with cp.async, not TMA: a rank-1 array (the driver refuses rank-1 descriptors)}}
  %t8 = tile.load %v[%c0] {tile.prefetch_offset = 15360 : i64} : !tile.array<?xf32>[i32] -> tensor<64xf32>
  tile.return
}

// -----

// A hand-written offset off the 128-byte grid keeps cp.async.
tile.kernel @misplaced(%b: !tile.array<?x?xf32> {tile.aligned}) {
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{load copied with cp.async, not TMA: its buffer at byte 16 is not 128-byte aligned}}
  %t = tile.load %b[%c0, %c0] {tile.prefetch_offset = 16 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}


// -----

// tile-pipeline-loops found no room for the kernel-start copies' mbarriers at the kernel's
// occupancy: those loads keep cp.async, the loops' loads do not.
// CHECK-LABEL: tile.kernel @no_room
// CHECK: tile.load {{.*}}tile.tma = 0 : i64
tile.kernel @no_room(%b: !tile.array<?x?xf32> {tile.aligned}, %n: i32) attributes {occupancy = 4 : i32, tile.no_tma_prefetch} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t0 = tile.load %b[%i, %c0] {tile.pipeline_offset = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  } {tile.pipeline_stage_bytes = 1024 : i64, tile.pipeline_stages = 2 : i64}
  // expected-remark @below {{load copied with cp.async, not TMA: no shared memory is left at occupancy 4 for the mbarriers of the kernel-start copies}}
  %t1 = tile.load %b[%c0, %c0] {tile.prefetch_offset = 2048 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}

// -----

// Padding TMA cannot fill (here -inf) is copied with zero fill; the threads reading the copy
// put the padding in (KernelLowering::readStage). NaN padding of floats is TMA's NaN fill.
// CHECK-LABEL: tile.kernel @padded
// CHECK-SAME: tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 16>, nan_fill = false, swizzle = 0 : i64}, {arg = 0 : i64, box = array<i64: 16, 16>, nan_fill = true, swizzle = 0 : i64}]
// CHECK: padding = neg_inf {tile.prefetch_offset = 0 : i64, tile.tma = 0 : i64}
// CHECK: padding = nan {tile.prefetch_offset = 1024 : i64, tile.tma = 1 : i64}
tile.kernel @padded(%b: !tile.array<?x?xf32> {tile.aligned}) attributes {tile.prefetch_bytes = 2048 : i64} {
  %c0 = arith.constant 0 : i32
  %t0 = tile.load %b[%c0, %c0] padding = neg_inf {tile.prefetch_offset = 0 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  %t1 = tile.load %b[%c0, %c0] padding = nan {tile.prefetch_offset = 1024 : i64} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}
