// tile-choose-threads records the target on the module and each kernel's threads per block:
// the kernel's own num_threads, else the pass option, else a choice from its accumulators (or,
// without products, its widest tile)
// (128 threads, doubled while an accumulator takes more than 128 registers per thread and the
// product keeps its instruction). Every choice above 128 and every refusal has a remark.
// RUN: tile-opt %s -split-input-file -tile-choose-threads -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-choose-threads -debug-only=tile-choose-threads -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: tile-opt %s -split-input-file -tile-choose-threads="arch=sm_80" -o - 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file -tile-choose-threads="num-threads=64" -o - 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not tile-opt %s -split-input-file -tile-choose-threads="num-threads=96" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// DEBUG: [tile-choose-threads] kernel 'wide': 256 threads (its widest product) on sm_90a
// CHECK: module attributes {tile.target = #tile.target<sm_90a>}
// CHECK: tile.kernel @wide({{.*}}) attributes {num_threads = 256 : i32}
// SM80: module attributes {tile.target = #tile.target<sm_80>}
// SM80: tile.kernel @wide({{.*}}) attributes {num_threads = 256 : i32}
// FIXED: tile.kernel @wide({{.*}}) attributes {num_threads = 64 : i32}
// BAD: error: num-threads 96 must be a power of two from 32 to 1024
tile.kernel @wide(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<128x256xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<128x64xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x256xbf16>
  // expected-remark @+1 {{256 threads per block for kernel 'wide': at 128 this 32768-element accumulator would take 256 registers per thread (more than 128)}}
  %d = tile.mma %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
  tile.store %d, %c[%c0, %c0] : tensor<128x256xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A 64-row wgmma product keeps one warpgroup: at 256 threads the warps would split N, which
// wgmma cannot do.
// DEBUG: [tile-choose-threads] kernel 'flat': 128 threads (default) on sm_90a
// CHECK: tile.kernel @flat({{.*}}) attributes {num_threads = 128 : i32}
tile.kernel @flat(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %acc = arith.constant dense<0.0> : tensor<64x512xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x512xbf16>
  // expected-remark @+1 {{this 32768-element accumulator takes 256 registers per thread at 128 threads, but at 256 the product would run on mma.sync instead of wgmma; keeping 128}}
  %d = tile.mma %ta, %tb, %acc : tensor<64x32xbf16>, tensor<32x512xbf16>, tensor<64x512xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x512xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// The kernel option wins over the pass option and the choice; kernels without products get 128.
// DEBUG: [tile-choose-threads] kernel 'given': 64 threads (kernel option)
// CHECK: tile.kernel @given({{.*}}) attributes {num_threads = 64 : i32}
// DEBUG: [tile-choose-threads] kernel 'plain': 128 threads (default) on sm_90a
// CHECK: tile.kernel @plain({{.*}}) attributes {num_threads = 128 : i32}
// FIXED: tile.kernel @given({{.*}}) attributes {num_threads = 64 : i32}
// FIXED: tile.kernel @plain({{.*}}) attributes {num_threads = 64 : i32}
tile.kernel @given(%x: !tile.array<?xf32>) attributes {num_threads = 64 : i32} {
  tile.return
}
tile.kernel @plain(%x: !tile.array<?xf32>) {
  tile.return
}

// -----

// Without products, the widest tile asks: doubled from 128 while it holds more than 32 elements
// per thread, up to 512. A row of 4096 keeps 128; a row of 8192 gets 256; 4 rows of 8192 stop
// at 512 (64 per thread).
// DEBUG: [tile-choose-threads] kernel 'row4096': 128 threads (default) on sm_90a
// CHECK: tile.kernel @row4096({{.*}}) attributes {num_threads = 128 : i32}
// DEBUG: [tile-choose-threads] kernel 'row8192': 256 threads (its widest tile) on sm_90a
// CHECK: tile.kernel @row8192({{.*}}) attributes {num_threads = 256 : i32}
// DEBUG: [tile-choose-threads] kernel 'rows4x8192': 512 threads (its widest tile) on sm_90a
// CHECK: tile.kernel @rows4x8192({{.*}}) attributes {num_threads = 512 : i32}
// FIXED: tile.kernel @row8192({{.*}}) attributes {num_threads = 64 : i32}
tile.kernel @row4096(%x: !tile.array<?x?xbf16>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<1x4096xbf16>
  %f = arith.extf %t : tensor<1x4096xbf16> to tensor<1x4096xf32>
  %h = arith.truncf %f : tensor<1x4096xf32> to tensor<1x4096xbf16>
  tile.store %h, %x[%c0, %c0] : tensor<1x4096xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}
tile.kernel @row8192(%x: !tile.array<?x?xbf16>) {
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{256 threads per block for kernel 'row8192': at 128 this 8192-element tile would take 64 elements per thread (more than 32)}}
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<1x8192xbf16>
  tile.store %t, %x[%c0, %c0] : tensor<1x8192xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}
tile.kernel @rows4x8192(%x: !tile.array<?x?xbf16>) {
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{512 threads per block for kernel 'rows4x8192': at 256 this 32768-element tile would take 128 elements per thread (more than 32)}}
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<4x8192xbf16>
  tile.store %t, %x[%c0, %c0] : tensor<4x8192xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}


// -----

// The accumulators of one loop's products are live together (attention's S = Q.K^T and
// O += P.V, with P between them): 128x128 and 128x64 take 192 registers per thread at 128
// threads between them, although each alone fits; several products double at 128 already.
// DEBUG: [tile-choose-threads] kernel 'loop_products': 256 threads (its widest product) on sm_90a
// CHECK: tile.kernel @loop_products({{.*}}) attributes {num_threads = 256 : i32}
tile.kernel @loop_products(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zs = arith.constant dense<0.0> : tensor<128x128xf32>
  %zo = arith.constant dense<0.0> : tensor<128x64xf32>
  %q = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<128x64xbf16>
  %o = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zo) -> (tensor<128x64xf32>) : i32 {
    %k = tile.load %b[%c0, %j] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x128xbf16>
    // expected-remark @+1 {{256 threads per block for kernel 'loop_products': at 128 the accumulators of this loop's products (24576 elements together) would take 192 registers per thread (at least 128)}}
    %s = tile.mma %q, %k, %zs : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    %p = arith.truncf %s : tensor<128x128xf32> to tensor<128x128xbf16>
    %v = tile.load %b[%j, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<128x64xbf16>
    %next = tile.mma %p, %v, %acc : tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32>
    scf.yield %next : tensor<128x64xf32>
  }
  tile.store %o, %c[%c0, %c0] : tensor<128x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
