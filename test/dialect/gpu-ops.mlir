// The tgpu dialect's types and ops print and parse back unchanged: shared buffers with the
// NVMMA (swizzled, transposed) and padded encodings and pipeline stages, mbarriers, wgmma with
// A in shared memory or in registers, and its wait.
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: func.func @buffers
// CHECK: tgpu.alloc_shared : <64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
// CHECK: tgpu.store_shared %{{.*}}, %{{.*}} : tensor<64x64xbf16>, <64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
// CHECK: tgpu.alloc_shared : <64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3>
// CHECK: tgpu.stage %{{.*}}[%{{.*}}] : <64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3> -> <64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tgpu.load_shared %{{.*}}[%{{.*}}] : <64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3> -> tensor<64x128xbf16>
// CHECK: tgpu.transpose %{{.*}} : <64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> -> <64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>
// CHECK: tgpu.alloc_shared : <64x64xf32, #tgpu.padded<pitch = 68>>
// CHECK: tgpu.alloc_shared : <256xf32>
// CHECK: tgpu.alloc_shared : <2x64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tgpu.transpose %{{.*}} : <2x64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> -> <2x32x64xbf16, #tgpu.nvmma<swizzle = 64, transposed = true>>
func.func @buffers(%t: tensor<64x64xbf16>, %i: i32) -> tensor<64x128xbf16> {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  tgpu.store_shared %t, %a : tensor<64x64xbf16>, !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %s = tgpu.alloc_shared : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3>
  %b = tgpu.stage %s[%i] : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3> -> !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
  %l = tgpu.load_shared %s[%i] : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>, stages = 3> -> tensor<64x128xbf16>
  %v = tgpu.transpose %a : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> -> !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>
  %p = tgpu.alloc_shared : !tgpu.shared<64x64xf32, #tgpu.padded<pitch = 68>>
  %r = tgpu.alloc_shared : !tgpu.shared<256xf32>
  // A batch of two 64x32 tiles stacked along the rows, and its view with the last two
  // dimensions swapped.
  %batch = tgpu.alloc_shared : !tgpu.shared<2x64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
  %bt = tgpu.transpose %batch : !tgpu.shared<2x64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> -> !tgpu.shared<2x32x64xbf16, #tgpu.nvmma<swizzle = 64, transposed = true>>
  return %l : tensor<64x128xbf16>
}

// CHECK-LABEL: func.func @async
// CHECK: %[[BAR:.*]] = tgpu.alloc_mbarrier count = 1 : !tgpu.mbarrier
// CHECK: tgpu.arrive %[[BAR]] {tx_bytes = 16384 : i64} : !tgpu.mbarrier
// CHECK: tgpu.wait %[[BAR]], %{{.*}} : !tgpu.mbarrier
// CHECK: tgpu.fence_async_shared
// CHECK: %[[D:.*]] = tgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>, <64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>, tensor<64x128xf32>
// CHECK: %[[E:.*]] = tgpu.wgmma %{{.*}}, %{{.*}}, %[[D]] : tensor<64x64xbf16>, <64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>, tensor<64x128xf32>
// CHECK: tgpu.wgmma_wait %[[E]] {pending = 0 : i64} : tensor<64x128xf32>
func.func @async(%t: tensor<64x64xbf16>, %phase: i1, %acc: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %bar = tgpu.alloc_mbarrier count = 1 : !tgpu.mbarrier
  tgpu.arrive %bar {tx_bytes = 16384} : !tgpu.mbarrier
  tgpu.wait %bar, %phase : !tgpu.mbarrier
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %b = tgpu.alloc_shared : !tgpu.shared<128x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  %bt = tgpu.transpose %b : !tgpu.shared<128x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> -> !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>
  tgpu.fence_async_shared
  %d = tgpu.wgmma %a, %bt, %acc : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>, !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>, tensor<64x128xf32>
  %e = tgpu.wgmma %t, %bt, %d : tensor<64x64xbf16>, !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>, tensor<64x128xf32>
  %r = tgpu.wgmma_wait %e {pending = 0} : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
