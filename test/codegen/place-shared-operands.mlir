// tile-place-shared-operands gives each wgmma operand that is neither in registers nor in a
// pipeline stage a tgpu buffer in front of the product, which reads it in place: a computed
// tile as it is (vector stores), the input of a transpose behind a tgpu.transpose view (the
// permute stays for its other use), batches stacked along the rows; a 128-byte swizzle for
// 64-element bf16 rows, 64 bytes for 32-element ones. Operands in registers or stages get no buffer,
// mma.sync products none at all, and a pending product that reads a buffer is waited for in
// its own iteration. tile-lower-to-llvm refuses a wgmma operand with no place to read it from.
// RUN: tile-opt %s -split-input-file -tile-place-shared-operands -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-place-shared-operands -debug-only=tile-place-shared-operands -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: tile-opt %s -split-input-file -tile-place-shared-operands -tile-allocate-shared -tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=LOWERED
// RUN: not tile-opt %s -split-input-file -tile-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=UNPLACED

// CHECK-LABEL: tile.kernel @computed_and_transposed
// CHECK: %[[X:.*]] = arith.mulf
// CHECK: %[[T:.*]] = tile.permute %[[Y:.*]] [1, 0]
// CHECK: %[[A:.*]] = tgpu.alloc_shared : <64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tgpu.store_shared %[[X]], %[[A]]
// CHECK: %[[RA:.*]] = tgpu.load_shared %[[A]]
// CHECK: %[[B:.*]] = tgpu.alloc_shared : <64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tgpu.store_shared %[[Y]], %[[B]]
// CHECK: %[[BT:.*]] = tgpu.transpose %[[B]] : <64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> -> <32x64xbf16, #tgpu.nvmma<swizzle = 64, transposed = true>>
// CHECK: %[[RB:.*]] = tgpu.load_shared %[[BT]]
// CHECK: tile.mma %[[RA]], %[[RB]],
// CHECK: tile.store %[[T]]
// DEBUG: tile.mma at {{.*}}: A in !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>, stored as computed
// DEBUG: tile.mma at {{.*}}: B in !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>, the permute's input read through a transposed view
// The lowering reads both buffers in place, after one barrier before their stores and a proxy
// fence and barrier after them.
// LOWERED: llvm.func @computed_and_transposed__tile
// LOWERED: nvvm.barrier0
// LOWERED: nvvm.fence.proxy
// LOWERED-NEXT: nvvm.barrier0
// LOWERED: nvvm.wgmma.fence.aligned
// LOWERED: nvvm.wgmma.mma_async
// UNPLACED: error: code generation needs wgmma's A in registers, a pipeline stage or a shared buffer (tile-place-shared-operands places it)
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @computed_and_transposed(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %d: !tile.array<?x?xbf16>) attributes {num_threads = 128 : i32} {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %x = arith.mulf %0, %0 : tensor<64x32xbf16>
    %y = tile.load %b[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %t = tile.permute %y [1, 0] : tensor<64x32xbf16> -> tensor<32x64xbf16>
    %p = tile.mma %x, %t, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<shared>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    tile.store %p, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.store %t, %d[%c0, %c0] : tensor<32x64xbf16>, !tile.array<?x?xbf16>[i32, i32]
    tile.return
  }
}

// -----

// A batch of two products: each operand one buffer with the batch stacked along its rows.
// CHECK-LABEL: tile.kernel @batched
// CHECK: tgpu.alloc_shared : <2x64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tgpu.alloc_shared : <2x32x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
// LOWERED: llvm.func @batched__tile
// LOWERED-COUNT-4: nvvm.wgmma.mma_async
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @batched(%a: !tile.array<?x?x?xbf16>, %b: !tile.array<?x?x?xbf16>, %c: !tile.array<?x?x?xf32>) attributes {num_threads = 128 : i32} {
    %acc = arith.constant dense<0.000000e+00> : tensor<2x64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0, %c0] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<2x64x32xbf16>
    %1 = tile.load %b[%c0, %c0, %c0] : !tile.array<?x?x?xbf16>[i32, i32, i32] -> tensor<2x32x64xbf16>
    %x = arith.mulf %0, %0 : tensor<2x64x32xbf16>
    %p = tile.mma %x, %1, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<shared>} : tensor<2x64x32xbf16>, tensor<2x32x64xbf16>, tensor<2x64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    tile.store %p, %c[%c0, %c0, %c0] : tensor<2x64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?x?xf32>[i32, i32, i32]
    tile.return
  }
}

// -----

// A in registers (#tile.mma) and B copied at kernel start in core-matrix order: no buffer.
// CHECK-LABEL: tile.kernel @registers_and_stage
// CHECK-NOT: tgpu.
// CHECK: tile.return
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @registers_and_stage(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) attributes {num_threads = 128 : i32, tile.prefetch_bytes = 4096 : i64} {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %x = tile.convert_layout %0 : tensor<64x32xbf16> -> tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %y = tile.load %b[%c0, %c0] {tile.pipeline_core_matrices, tile.prefetch_offset = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %p = tile.mma %x, %y, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>} : tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    tile.store %p, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.return
  }
}

// -----

// A product its pipelined loop leaves pending reads B from the stages but A from a buffer that
// the next iteration rewrites: it is waited for in its own iteration.
// CHECK-LABEL: tile.kernel @pending
// CHECK: tgpu.alloc_shared : <64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
// CHECK: tile.mma
// CHECK-NOT: tile.wgmma_pending
// CHECK-SAME: tensor<64x32xbf16>, tensor<32x64xbf16>
// DEBUG: tile.mma at {{.*}}: waited for in its own iteration (the next one rewrites its buffers)
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @pending(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32, tile.pipeline_bytes = 24576 : i64} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %acc) -> (tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>) : i32 {
      %0 = tile.load %a[%c0, %k] {tile.pipeline_offset = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
      %y = tile.load %b[%k, %c0] {tile.pipeline_core_matrices, tile.pipeline_offset = 4096 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
      %x = arith.mulf %0, %0 : tensor<64x32xbf16>
      %p = tile.mma %x, %y, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<shared>, tile.wgmma_pending} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
      scf.yield %p : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    } {tile.pipeline_stage_bytes = 8192 : i64, tile.pipeline_stages = 3 : i64}
    tile.store %r, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.return
  }
}

// -----

// mma.sync (sm_90: no wgmma) reads its operands its own way: nothing is placed.
// CHECK-LABEL: tile.kernel @mma_sync
// CHECK-NOT: tgpu.
// CHECK: tile.return
module attributes {tile.target = #tile.target<sm_90>} {
  tile.kernel @mma_sync(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) attributes {num_threads = 128 : i32} {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %1 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %p = tile.mma %0, %1, %acc {tile.mma_instruction = #tile.mma_instruction<mma.sync>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    tile.store %p, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.return
  }
}

// -----

// Stages that the real scratch overruns (hand-written: 128 KiB of stages and a 128 KiB
// transpose in the loop): tile-lower-to-llvm lowers the kernel again with synchronous loads,
// and the operands it read from the stages get buffers then.
// LOWERED: remark: loads not copied ahead: the kernel needs
// LOWERED: llvm.func @overrun__tile
// LOWERED: nvvm.fence.proxy
// LOWERED: nvvm.wgmma.mma_async
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @overrun(%a: !tile.array<?x?xbf16>, %y: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32, tile.pipeline_bytes = 131072 : i64} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %acc) -> (tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>) : i32 {
      %ta = tile.load %a[%i, %c0] {tile.pipeline_core_matrices, tile.pipeline_offset = 0 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
      %tb = tile.load %a[%c0, %i] {tile.pipeline_core_matrices, tile.pipeline_offset = 8192 : i64} : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
      %u = tile.load %y[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<256x128xf32>
      %p = tile.permute %u [1, 0] : tensor<256x128xf32> -> tensor<128x256xf32>
      tile.store %p, %y[%i, %c1] : tensor<128x256xf32>, !tile.array<?x?xf32>[i32, i32]
      %d = tile.mma %ta, %tb, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
      scf.yield %d : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    } {tile.pipeline_stage_bytes = 65536 : i64, tile.pipeline_stages = 2 : i64}
    tile.store %r, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.return
  }
}
