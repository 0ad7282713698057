// tile-allocate-shared places the tgpu dialect's buffers by liveness: buffers whose live ranges
// overlap get disjoint bytes, the others share; a 128-byte-swizzled buffer starts on 1024
// bytes; a use inside a loop keeps a buffer live until the loop ends; views (stage, transpose)
// count as uses of the buffer they view, and so do the users of a tile load_shared reads
// (products read it in place: %p stays live until the return of %l). More than a block may have is an error with the
// figures and where the most bytes are live at once (the debug run fails on that case).
// RUN: tile-opt %s -split-input-file -tile-allocate-shared -verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tile-allocate-shared -debug-only=tile-allocate-shared -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG

// %a (8 KiB) is live until the product; %b (3 stages of 16 KiB) until the loop that reads it
// ends, so it goes after %a, on 1024 bytes; %p, allocated after %a's last use, takes %a's bytes;
// %q, live with %p and %b, goes after %b.
// CHECK-LABEL: func.func @lifetimes
// CHECK-SAME: tgpu.shared_bytes = 61440 : i64
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64} : <64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
// CHECK: tgpu.alloc_shared {tgpu.offset = 8192 : i64} : <64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3>
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64} : <32x32xf32, #tgpu.padded<pitch = 36>>
// CHECK: tgpu.alloc_shared {tgpu.offset = 57344 : i64} : <1024xf32>
// DEBUG: [tile-allocate-shared] !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> at {{.*}}: 8192 bytes at offset 0, live over ops 0-4 of its block
// DEBUG: [tile-allocate-shared] !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3> at {{.*}}: 49152 bytes at offset 8192, live over ops 1-11 of its block
// DEBUG: [tile-allocate-shared] !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>> at {{.*}}: 4608 bytes at offset 0, live over ops 5-12 of its block
// DEBUG: [tile-allocate-shared] !tgpu.shared<1024xf32> at {{.*}}: 4096 bytes at offset 57344, live over ops 6-10 of its block
func.func @lifetimes(%t: tensor<64x64xbf16>, %i: i32, %acc: tensor<64x128xf32>, %n: index) -> tensor<32x32xf32> {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %b = tgpu.alloc_shared : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3>
  tgpu.store_shared %t, %a : tensor<64x64xbf16>, !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %b1 = tgpu.stage %b[%i] : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3> -> !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %d = tgpu.wgmma %a, %b1, %acc : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>, !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>, tensor<64x128xf32>
  %p = tgpu.alloc_shared : !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>>
  %q = tgpu.alloc_shared : !tgpu.shared<1024xf32>
  %l = tgpu.load_shared %p : !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>> -> tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %x = tgpu.load_shared %q : !tgpu.shared<1024xf32> -> tensor<1024xf32>
    %y = tgpu.load_shared %p : !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>> -> tensor<32x32xf32>
  }
  scf.for %k = %c0 to %n step %c1 {
    %z = tgpu.load_shared %b[%i] : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3> -> tensor<64x128xbf16>
  }
  return %l : tensor<32x32xf32>
}

// -----

// Two 128 KiB buffers live at once: over sm_90a's 227 KiB.
// expected-error @+1 {{shared memory: the buffers need 262144 bytes, over the 232448 a block may have on sm_90a}}
func.func @too_much(%t: tensor<256x256xf16>) {
  %a = tgpu.alloc_shared : !tgpu.shared<256x256xf16>
  // expected-note @+1 {{here 262144 bytes of buffers are live at once}}
  %b = tgpu.alloc_shared : !tgpu.shared<256x256xf16>
  tgpu.store_shared %t, %a : tensor<256x256xf16>, !tgpu.shared<256x256xf16>
  tgpu.store_shared %t, %b : tensor<256x256xf16>, !tgpu.shared<256x256xf16>
  return
}

// -----

// The same two buffers one after the other share their bytes.
// CHECK-LABEL: func.func @one_after_the_other
// CHECK-SAME: tgpu.shared_bytes = 131072 : i64
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64}
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64}
func.func @one_after_the_other(%t: tensor<256x256xf16>) {
  %a = tgpu.alloc_shared : !tgpu.shared<256x256xf16>
  tgpu.store_shared %t, %a : tensor<256x256xf16>, !tgpu.shared<256x256xf16>
  %b = tgpu.alloc_shared : !tgpu.shared<256x256xf16>
  tgpu.store_shared %t, %b : tensor<256x256xf16>, !tgpu.shared<256x256xf16>
  return
}

// -----

// A buffer read inside a loop that allocates another stays live through the loop: %b, the
// loop's own, goes after %a (its live range, counted by the loop op in the allocator's
// timeline, meets %a's). The placement is checked afresh after each run (Invariants.h): a
// liveness one op short would put %b on %a's bytes and stop with an internal error.
// CHECK-LABEL: func.func @loop_allocates
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64} : <64x64xf32>
// CHECK: scf.for
// CHECK: tgpu.alloc_shared {tgpu.offset = 16384 : i64} : <64x64xf32>
func.func @loop_allocates(%t: tensor<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xf32>
  tgpu.store_shared %t, %a : tensor<64x64xf32>, !tgpu.shared<64x64xf32>
  scf.for %k = %c0 to %n step %c1 {
    %b = tgpu.alloc_shared : !tgpu.shared<64x64xf32>
    tgpu.store_shared %t, %b : tensor<64x64xf32>, !tgpu.shared<64x64xf32>
    %x = tgpu.load_shared %a : !tgpu.shared<64x64xf32> -> tensor<64x64xf32>
    %y = tgpu.load_shared %b : !tgpu.shared<64x64xf32> -> tensor<64x64xf32>
  }
  return
}

// -----

// Buffers are compared in the innermost block holding both: %k and %v, used one after the
// other in one loop body (MLA decoding's K and V tiles), share their bytes; %q, outside the
// loop, counts as live over the whole loop against them.
// CHECK-LABEL: func.func @in_a_loop_body
// CHECK-SAME: tgpu.shared_bytes = 139264 : i64
// CHECK: tgpu.alloc_shared {tgpu.offset = 0 : i64} : <64x64xbf16>
// CHECK: tgpu.alloc_shared {tgpu.offset = 8192 : i64} : <128x512xbf16>
// CHECK: tgpu.alloc_shared {tgpu.offset = 8192 : i64} : <128x512xbf16>
func.func @in_a_loop_body(%t: tensor<128x512xbf16>, %s: tensor<64x64xbf16>, %n: index) {
  %q = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  tgpu.store_shared %s, %q : tensor<64x64xbf16>, !tgpu.shared<64x64xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %k = tgpu.alloc_shared : !tgpu.shared<128x512xbf16>
    tgpu.store_shared %t, %k : tensor<128x512xbf16>, !tgpu.shared<128x512xbf16>
    %rk = tgpu.load_shared %k : !tgpu.shared<128x512xbf16> -> tensor<128x512xbf16>
    %v = tgpu.alloc_shared : !tgpu.shared<128x512xbf16>
    tgpu.store_shared %t, %v : tensor<128x512xbf16>, !tgpu.shared<128x512xbf16>
    %rv = tgpu.load_shared %v : !tgpu.shared<128x512xbf16> -> tensor<128x512xbf16>
    %rq = tgpu.load_shared %q : !tgpu.shared<64x64xbf16> -> tensor<64x64xbf16>
  }
  return
}
