// Every verifier message of the tgpu dialect.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{NVMMA swizzle 48 must be 0, 32, 64 or 128 bytes}}
func.func private @f(!tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 48, transposed = false>>)

// -----

// expected-error @+1 {{rows of 32 bytes are not whole 128-byte swizzle blocks}}
func.func private @f(!tgpu.shared<64x16xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>)

// -----

// expected-error @+1 {{the NVMMA layout needs rows in groups of 8 (core matrices), not 4}}
func.func private @f(!tgpu.shared<4x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>)

// -----

// expected-error @+1 {{the NVMMA layout is for tiles of rank 2 or more (a batch stacked along the rows), not rank 1}}
func.func private @f(!tgpu.shared<64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>)

// -----

// expected-error @+1 {{a row pitch of 60 elements is shorter than the rows (64)}}
func.func private @f(!tgpu.shared<64x64xf32, #tgpu.padded<pitch = 60>>)

// -----

// expected-error @+1 {{padded rows need a positive pitch, not 0}}
func.func private @f(!tgpu.shared<64x64xf32, #tgpu.padded<pitch = 0>>)

// -----

// expected-error @+1 {{a shared buffer's stages must be 0 (none) or more, not -1}}
func.func private @f(!tgpu.shared<64x64xf32, stages = -1>)

// -----

// expected-error @+1 {{a shared buffer's encoding is #tgpu.nvmma or #tgpu.padded, not 7 : i64}}
func.func private @f(!tgpu.shared<64x64xf32, 7>)

// -----

func.func @f(%t: tensor<64x32xbf16>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.store_shared' op tile 'tensor<64x32xbf16>' does not match the buffer's 'tensor<64x64xbf16>'}}
  tgpu.store_shared %t, %a : tensor<64x32xbf16>, !tgpu.shared<64x64xbf16>
  return
}

// -----

func.func @f() {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, stages = 2>
  // expected-error @+1 {{'tgpu.load_shared' op needs a stage index: the buffer has 2 stages}}
  %t = tgpu.load_shared %a : !tgpu.shared<64x64xbf16, stages = 2> -> tensor<64x64xbf16>
  return
}

// -----

func.func @f(%i: i32) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.load_shared' op has a stage index but the buffer has no stages}}
  %t = tgpu.load_shared %a[%i] : !tgpu.shared<64x64xbf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @f(%i: i32) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.stage' op views a stage of a buffer without stages}}
  %s = tgpu.stage %a[%i] : !tgpu.shared<64x64xbf16> -> !tgpu.shared<64x64xbf16>
  return
}

// -----

func.func @f(%i: i32) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, stages = 3>
  // expected-error @+1 {{'tgpu.stage' op result must be the buffer's type without stages, not '!tgpu.shared<64x64xf16>'}}
  %s = tgpu.stage %a[%i] : !tgpu.shared<64x64xbf16, stages = 3> -> !tgpu.shared<64x64xf16>
  return
}

// -----

func.func @f() {
  %a = tgpu.alloc_shared : !tgpu.shared<64x32xf32, #tgpu.nvmma<swizzle = 128, transposed = false>>
  // expected-error @+1 {{'tgpu.transpose' op wgmma reads transposed operands of 16-bit and 8-bit elements only, not 'f32'}}
  %t = tgpu.transpose %a : !tgpu.shared<64x32xf32, #tgpu.nvmma<swizzle = 128, transposed = false>> -> !tgpu.shared<32x64xf32, #tgpu.nvmma<swizzle = 128, transposed = true>>
  return
}

// -----

func.func @f() {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.transpose' op transposes buffers in the NVMMA layout (what wgmma reads with its transpose bit)}}
  %t = tgpu.transpose %a : !tgpu.shared<64x64xbf16> -> !tgpu.shared<64x64xbf16>
  return
}

// -----

func.func @f() {
  %a = tgpu.alloc_shared : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  // expected-error @+1 {{'tgpu.transpose' op result must be '!tgpu.shared<128x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = true>>', not '!tgpu.shared<128x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>'}}
  %t = tgpu.transpose %a : !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>> -> !tgpu.shared<128x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tgpu.alloc_mbarrier' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %b = tgpu.alloc_mbarrier count = 0 : !tgpu.mbarrier
  return
}

// -----

func.func @f(%b: !tgpu.mbarrier) {
  // expected-error @+1 {{'tgpu.arrive' op attribute 'tx_bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  tgpu.arrive %b {tx_bytes = -16} : !tgpu.mbarrier
  return
}

// -----

func.func @f(%acc: tensor<32x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<32x64xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op needs M to be a multiple of 64 (one warpgroup per 64 rows), not 32}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<32x64xbf16>, !tgpu.shared<64x64xbf16>, tensor<32x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x32xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op shapes do not chain: A 64x32, B 64x64, accumulator 64x64}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x32xbf16>, !tgpu.shared<64x64xbf16>, tensor<64x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x512xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x512xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op needs N to be a multiple of 8 up to 256, not 512}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xbf16>, !tgpu.shared<64x512xbf16>, tensor<64x512xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x8xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<8x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op needs K to be a multiple of 16 for 16-bit operands, not 8}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x8xbf16>, !tgpu.shared<8x64xbf16>, tensor<64x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xf32>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xf32>
  // expected-error @+1 {{'tgpu.wgmma' op takes bf16 or f16 operands of one type, not 'f32' and 'f32'}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xf32>, !tgpu.shared<64x64xf32>, tensor<64x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xbf16>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op accumulates in f32 or f16, not 'bf16'}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xbf16>, !tgpu.shared<64x64xbf16>, tensor<64x64xbf16>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>, %i: i32) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, stages = 2>
  // expected-error @+1 {{'tgpu.wgmma' op reads one stage of B: view it with tgpu.stage}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xbf16>, !tgpu.shared<64x64xbf16, stages = 2>, tensor<64x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tgpu.wgmma_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %r = tgpu.wgmma_wait %acc {pending = -1} : tensor<64x64xf32>
  return
}

// -----

// expected-error @+1 {{shared buffer elements must be integers or floats, not 'index'}}
func.func private @f(!tgpu.shared<64x64xindex>)

// -----

func.func @f() {
  %a = tgpu.alloc_shared : !tgpu.shared<64xbf16>
  // expected-error @+1 {{'tgpu.transpose' op transposes buffers of rank 2 or more (their last two dimensions), not rank 1}}
  %t = tgpu.transpose %a : !tgpu.shared<64xbf16> -> !tgpu.shared<64xbf16>
  return
}

// -----

func.func @f(%acc: tensor<2x64x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<2x64x64xbf16>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op multiplies 2-D operands into a 2-D accumulator}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<2x64x64xbf16>, !tgpu.shared<64x64xbf16>, tensor<2x64x64xf32>
  return
}

// -----

func.func @f(%acc: tensor<64x64xf32>) {
  %a = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, stages = 2>
  %b = tgpu.alloc_shared : !tgpu.shared<64x64xbf16>
  // expected-error @+1 {{'tgpu.wgmma' op reads one stage of A: view it with tgpu.stage}}
  %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xbf16, stages = 2>, !tgpu.shared<64x64xbf16>, tensor<64x64xf32>
  return
}

// -----

// expected-error @+1 {{shared buffer dimensions must be positive, not 0}}
func.func private @f(!tgpu.shared<0x64xbf16>)

// -----

// expected-error @+1 {{a shared buffer holds a tile of rank 1 or more}}
func.func private @f(!tgpu.shared<f32>)

// -----

// A byte count past 64 bits (2^65 bytes) is refused, not wrapped to a small size that
// tile-allocate-shared would place.
// expected-error @+1 {{a shared buffer of more than 2^63 bytes is larger than any GPU's shared memory}}
func.func private @f(!tgpu.shared<4294967296x4294967296x2xf32>)

// -----

// A row pitch of 2^63-1 elements: the padded size overflows too.
// expected-error @+1 {{a shared buffer of more than 2^63 bytes}}
func.func private @f(!tgpu.shared<2x64xf32, #tgpu.padded<pitch = 9223372036854775807>>)

// -----

// Sizes that fit in 64 bits but no shared memory: refused with the count.
// expected-error @+1 {{a shared buffer of 8589934592 bytes is larger than any GPU's shared memory (at most 4294967296 bytes a buffer)}}
func.func private @f(!tgpu.shared<65536x32768xf32>)
