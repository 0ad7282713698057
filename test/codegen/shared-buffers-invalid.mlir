// tile-lower-to-llvm refuses tgpu buffers it cannot lower (hand-written IR) at the op, naming
// what is missing: a place from tile-allocate-shared, the NVMMA layout without stages, a read
// by something other than a wgmma product, a store into a view, a wgmma B with nowhere to read.
// RUN: tile-opt %s -split-input-file -tile-lower-to-llvm -verify-diagnostics

module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @unplaced(%a: !tile.array<?x?xbf16>) attributes {num_threads = 128 : i32} {
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    // expected-error @below {{code generation needs the buffer's place in shared memory (tgpu.offset): run tile-allocate-shared first}}
    %buf = tgpu.alloc_shared : !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
    tgpu.store_shared %0, %buf : tensor<64x32xbf16>, !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
    tile.return
  }
}

// -----

module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @padded(%a: !tile.array<?x?xf32>) attributes {num_threads = 128 : i32} {
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<32x32xf32>
    // expected-error @below {{code generation supports buffers in the NVMMA layout without stages, not '!tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>>'}}
    %buf = tgpu.alloc_shared {tgpu.offset = 0 : i64} : !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>>
    tgpu.store_shared %0, %buf : tensor<32x32xf32>, !tgpu.shared<32x32xf32, #tgpu.padded<pitch = 36>>
    tile.return
  }
}

// -----

module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @read_by_arith(%a: !tile.array<?x?xbf16>) attributes {num_threads = 128 : i32} {
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %buf = tgpu.alloc_shared {tgpu.offset = 0 : i64} : !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
    tgpu.store_shared %0, %buf : tensor<64x32xbf16>, !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
    // expected-error @below {{code generation reads a buffer only as the operand of a wgmma product, not for 'arith.addf'}}
    %r = tgpu.load_shared %buf : !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> -> tensor<64x32xbf16>
    %s = arith.addf %r, %r : tensor<64x32xbf16>
    tile.store %s, %a[%c0, %c0] : tensor<64x32xbf16>, !tile.array<?x?xbf16>[i32, i32]
    tile.return
  }
}

// -----

module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @store_into_view(%a: !tile.array<?x?xbf16>) attributes {num_threads = 128 : i32} {
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %buf = tgpu.alloc_shared {tgpu.offset = 0 : i64} : !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>>
    %view = tgpu.transpose %buf : !tgpu.shared<64x32xbf16, #tgpu.nvmma<swizzle = 64, transposed = false>> -> !tgpu.shared<32x64xbf16, #tgpu.nvmma<swizzle = 64, transposed = true>>
    // expected-error @below {{code generation writes whole buffers of tgpu.alloc_shared only}}
    tgpu.store_shared %0, %view : tensor<32x64xbf16>, !tgpu.shared<32x64xbf16, #tgpu.nvmma<swizzle = 64, transposed = true>>
    tile.return
  }
}

// -----

// A in registers, B a plain load: B has no stage and no buffer.
module attributes {tile.target = #tile.target<sm_90a>} {
  tile.kernel @b_unplaced(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>) attributes {num_threads = 128 : i32} {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %c0 = arith.constant 0 : i32
    %0 = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %x = tile.convert_layout %0 : tensor<64x32xbf16> -> tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    %y = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    // expected-error @below {{code generation needs wgmma's B in a pipeline stage or a shared buffer (tile-place-shared-operands places it)}}
    %p = tile.mma %x, %y, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.operand_a = #tile.operand<registers>} : tensor<64x32xbf16, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    tile.store %p, %c[%c0, %c0] : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>, !tile.array<?x?xf32>[i32, i32]
    tile.return
  }
}
