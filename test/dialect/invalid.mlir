// Every verifier message of the tile dialect.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result 'tensor<48xi32>' has dimension 0 of size 48; tile dimensions must be powers of two}}
  %0 = tile.iota : tensor<48xi32>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result 'tensor<2097152xi32>' has 2097152 elements; a tile holds at most 1048576 (2^20)}}
  %0 = tile.iota : tensor<2097152xi32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'tile.load' op result 'tensor<4294967296x4294967296xf32>' has more than 2^63 elements; a tile holds at most 1048576 (2^20)}}
  %t = tile.load %x[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<4294967296x4294967296xf32>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result 'tensor<16xi3>' has unsupported element type 'i3'}}
  %0 = tile.iota : tensor<16xi3>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op result #0 must be tile (statically shaped tensor)}}
  %0 = tile.load %x[%i] : !tile.array<?xf32>[i32] -> tensor<?xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  // expected-error @+1 {{'tile.cat' op result 'tensor<4x12xf32>' has dimension 1 of size 12; tile dimensions must be powers of two}}
  %0 = tile.cat %c, %c axis = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x12xf32>
  tile.return
}

// -----

// expected-error @+1 {{array rank 9 exceeds the maximum of 8}}
tile.kernel @k(%x: !tile.array<?x?x?x?x?x?x?x?x?xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported array element type 'index'; expected i1/i8/i16/i32/i64, f16, bf16, f32, f64, tf32 or f8}}
tile.kernel @k(%x: !tile.array<?xindex>) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported array element type 'complex<f32>'}}
tile.kernel @k(%x: !tile.array<4xcomplex<f32>>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op must have a body}}
tile.kernel @k(%x: !tile.array<?xf32>)

// -----

// expected-error @+1 {{'tile.kernel' op kernels return nothing, but the signature has 1 result(s)}}
tile.kernel @k(%x: i32) -> i32 {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #1 has type 'tensor<4xf32>'; kernel arguments are arrays or scalars}}
tile.kernel @k(%x: i32, %t: tensor<4xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op occupancy 0 is out of range [1, 32]}}
tile.kernel @k() attributes {occupancy = 0 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_ctas 3 must be a power of two in [1, 16]}}
tile.kernel @k() attributes {num_ctas = 3 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_threads 96 must be a power of two from 32 to 1024}}
tile.kernel @k() attributes {num_threads = 96 : i32} {
  tile.return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.bid' op grid axis 3 is out of range; a grid has axes 0, 1, 2}}
  %0 = tile.bid 3
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.num_blocks' op grid axis -1 is out of range; a grid has axes 0, 1, 2}}
  %0 = tile.num_blocks -1
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>) {
  // expected-error @+1 {{'tile.dim' op axis 2 is out of range for rank 2 (expected 0..1)}}
  %0 = tile.dim %x, 2 : !tile.array<?x?xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op expected 2 tile indices for a rank-2 array, got 1}}
  %0 = tile.load %x[%i] : !tile.array<?x?xf32>[i32] -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op result 'tensor<16xf32>' has rank 1 but the array has rank 2}}
  %0 = tile.load %x[%i, %i] : !tile.array<?x?xf32>[i32, i32] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op result element type 'bf16' does not match the array element type 'f32'}}
  %0 = tile.load %x[%i, %i] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xbf16>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order [1, 1] is not a permutation of 0..1}}
  %0 = tile.load %x[%i, %i] order = [1, 1] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order has 3 entries but the rank is 2}}
  %0 = tile.load %x[%i, %i] order = [0, 1, 2] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op latency 11 is out of range [1, 10]}}
  %0 = tile.load %x[%i, %i] {latency = 11 : i32} : !tile.array<?x?xf32>[i32, i32] -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xi32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op padding neg_inf needs a floating-point element type, not 'i32'}}
  %0 = tile.load %x[%i] padding = neg_inf : !tile.array<?xi32>[i32] -> tensor<16xi32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %i: i32) {
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{'tile.load' op operand #1 must be variadic of tile index (i32, i64 or index), but got 'f32'}}
  %0 = tile.load %x[%f] : !tile.array<?xf32>[f32] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %i: i32) {
  %t = arith.constant dense<1.0> : tensor<16xbf16>
  // expected-error @+1 {{'tile.store' op stored tile element type 'bf16' does not match the array element type 'f32'}}
  tile.store %t, %x[%i] : tensor<16xbf16>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %i: i32) {
  %t = arith.constant dense<1.0> : tensor<16xf32>
  // expected-error @+1 {{'tile.store' op expected 1 tile indices for a rank-1 array, got 2}}
  tile.store %t, %x[%i, %i] : tensor<16xf32>, !tile.array<?xf32>[i32, i32]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %i: i32) {
  %t = arith.constant dense<1.0> : tensor<16xf32>
  // expected-error @+1 {{'tile.store' op latency 0 is out of range [1, 10]}}
  tile.store %t, %x[%i] {latency = 0 : i32} : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?x?xf32>) {
  %i = tile.iota : tensor<16xi32>
  // expected-error @+1 {{'tile.gather' op expected 2 index tiles for a rank-2 array, got 1}}
  %0 = tile.gather %x[%i] : !tile.array<?x?xf32>[tensor<16xi32>] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  // expected-error @+1 {{'tile.gather' op index tile #0 has shape (16,) but the result has shape (32,)}}
  %0 = tile.gather %x[%i] : !tile.array<?xf32>[tensor<16xi32>] -> tensor<32xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  %m = arith.constant dense<true> : tensor<8xi1>
  // expected-error @+1 {{'tile.gather' op mask has shape (8,) but the result has shape (16,)}}
  %0 = tile.gather %x[%i] mask(%m : tensor<8xi1>) : !tile.array<?xf32>[tensor<16xi32>] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>, %p: f16) {
  %i = tile.iota : tensor<16xi32>
  // expected-error @+1 {{'tile.gather' op padding value has type 'f16' but the element type is 'f32'}}
  %0 = tile.gather %x[%i] padding(%p : f16) : !tile.array<?xf32>[tensor<16xi32>] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = arith.constant dense<true> : tensor<16xi1>
  // expected-error @+1 {{'tile.gather' op index tile #0 must hold integers, not i1}}
  %0 = tile.gather %x[%i] : !tile.array<?xf32>[tensor<16xi1>] -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  // expected-error @+1 {{'tile.gather' op result element type 'f16' does not match the array element type 'f32'}}
  %0 = tile.gather %x[%i] : !tile.array<?xf32>[tensor<16xi32>] -> tensor<16xf16>
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  %v = arith.constant dense<1.0> : tensor<16xf16>
  // expected-error @+1 {{'tile.scatter' op value element type 'f16' does not match the array element type 'f32'}}
  tile.scatter %v, %x[%i] : tensor<16xf16>, !tile.array<?xf32>[tensor<16xi32>]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  %v = arith.constant dense<1.0> : tensor<32xf32>
  // expected-error @+1 {{'tile.scatter' op index tile #0 has shape (16,) but the value has shape (32,)}}
  tile.scatter %v, %x[%i] : tensor<32xf32>, !tile.array<?xf32>[tensor<16xi32>]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xi8>) {
  %i = tile.iota : tensor<16xi32>
  %v = arith.constant dense<1> : tensor<16xi8>
  // expected-error @+1 {{'tile.atomic_add' op atomic_add supports f16, bf16, f32, f64, i32 and i64, not 'i8'}}
  %0 = tile.atomic_add %v, %x[%i] : tensor<16xi8>, !tile.array<?xi8>[tensor<16xi32>]
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  %i = tile.iota : tensor<16xi32>
  %v = arith.constant dense<1.0> : tensor<16xf32>
  %m = arith.constant dense<true> : tensor<4xi1>
  // expected-error @+1 {{'tile.atomic_add' op mask has shape (4,) but the value has shape (16,)}}
  %0 = tile.atomic_add %v, %x[%i] mask(%m : tensor<4xi1>) : tensor<16xf32>, !tile.array<?xf32>[tensor<16xi32>]
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<16xf16>
  %b = arith.constant dense<1.0> : tensor<16x16xf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op operands must all be 2-D (MxK, KxN, MxN) or all 3-D (batched), got ranks 1, 2, 2}}
  %0 = tile.mma %a, %b, %c : tensor<16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<16x32xf16>
  %b = arith.constant dense<1.0> : tensor<16x16xf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op contraction sizes differ: a is (16, 32) (K = 32) but b is (16, 16) (K = 16)}}
  %0 = tile.mma %a, %b, %c : tensor<16x32xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<16x16xf16>
  %b = arith.constant dense<1.0> : tensor<16x8xf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op accumulator has shape (16, 16) but a * b has M = 16, N = 8}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<2x16x16xf16>
  %b = arith.constant dense<1.0> : tensor<4x16x16xf16>
  %c = arith.constant dense<0.0> : tensor<2x16x16xf32>
  // expected-error @+1 {{'tile.mma' op batch sizes differ: 2, 4, 2}}
  %0 = tile.mma %a, %b, %c : tensor<2x16x16xf16>, tensor<4x16x16xf16>, tensor<2x16x16xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<16x16xf16>
  %b = arith.constant dense<1.0> : tensor<16x16xbf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op a and b must have the same element type, got 'f16' and 'bf16'}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<16x16xbf16>
  %b = arith.constant dense<1.0> : tensor<16x16xbf16>
  %c = arith.constant dense<0.0> : tensor<16x16xbf16>
  // expected-error @+1 {{'tile.mma' op unsupported element types: 'bf16' operands with a 'bf16' accumulator (}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xbf16>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'tile.reduce' op cannot reduce a 0-D tile}}
  %0 = tile.reduce sum %c axis = 0 : tensor<f32> -> tensor<f32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for rank 2 (expected 0..1)}}
  %0 = tile.reduce sum %c axis = 2 : tensor<4x8xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result shape (8,) should be (4,) when reducing (4, 8) along axis 1}}
  %0 = tile.reduce sum %c axis = 1 : tensor<4x8xf32> -> tensor<8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result shape (4,) should be (4, 1) when reducing (4, 8) along axis 1 with keepdims}}
  %0 = tile.reduce max %c axis = 1 keepdims : tensor<4x8xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result element type 'f32' should be 'i32' for argmax}}
  %0 = tile.reduce argmax %c axis = 1 : tensor<4x8xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result element type 'f16' should be 'f32' for sum}}
  %0 = tile.reduce sum %c axis = 1 : tensor<4x8xf32> -> tensor<4xf16>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<true> : tensor<4x8xi1>
  // expected-error @+1 {{'tile.reduce' op sum of i1 tiles is not supported; cast first}}
  %0 = tile.reduce sum %c axis = 1 : tensor<4x8xi1> -> tensor<4xi1>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'tile.scan' op cannot scan a 0-D tile}}
  %0 = tile.scan cumsum %c axis = 0 : tensor<f32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.scan' op axis -1 is out of range for rank 2 (expected 0..1)}}
  %0 = tile.scan cumprod %c axis = -1 : tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<true> : tensor<8xi1>
  // expected-error @+1 {{'tile.scan' op scans of i1 tiles are not supported; cast first}}
  %0 = tile.scan cumsum %c axis = 0 : tensor<8xi1>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result must be 1-D, got 'tensor<4x4xi32>'}}
  %0 = tile.iota : tensor<4x4xi32>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result element type must be a wider integer than i1}}
  %0 = tile.iota : tensor<4xi1>
  tile.return
}

// -----

tile.kernel @k() {
  // expected-error @+1 {{'tile.iota' op result #0 must be tile of integers}}
  %0 = tile.iota : tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k(%s: f16) {
  // expected-error @+1 {{'tile.broadcast' op scalar of type 'f16' cannot be broadcast to 'tensor<4xf32>'; the element types differ}}
  %0 = tile.broadcast %s : f16 -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<1x8xf32>
  // expected-error @+1 {{'tile.broadcast' op element types differ: 'f32' and 'f16'}}
  %0 = tile.broadcast %c : tensor<1x8xf32> -> tensor<4x8xf16>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.broadcast' op input rank 1 differs from result rank 2; insert the missing dimensions with expand_dims}}
  %0 = tile.broadcast %c : tensor<8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<2x8xf32>
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast (2, 8) to (4, 8): dimension 0 is 2, not 1 or 4}}
  %0 = tile.broadcast %c : tensor<2x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.expand_dims' op axis 2 is out of range for inserting into rank 1 (expected 0..1)}}
  %0 = tile.expand_dims %c axis = 2 : tensor<8xf32> -> tensor<8x1xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.expand_dims' op result 'tensor<8x1xf32>' should be 'tensor<1x8xf32>'}}
  %0 = tile.expand_dims %c axis = 0 : tensor<8xf32> -> tensor<8x1xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.reshape' op cannot reshape (8,) (8 elements) to (4, 4) (16 elements)}}
  %0 = tile.reshape %c : tensor<8xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.reshape' op element types differ: 'f32' and 'f16'}}
  %0 = tile.reshape %c : tensor<8xf32> -> tensor<2x4xf16>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.permute' op permutation [0, 2] is not a permutation of 0..1}}
  %0 = tile.permute %c [0, 2] : tensor<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.permute' op result 'tensor<4x8xf32>' should be 'tensor<8x4xf32>'}}
  %0 = tile.permute %c [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  %b = arith.constant dense<1.0> : tensor<4x4xf32>
  // expected-error @+1 {{'tile.cat' op operand shapes (4, 8) and (4, 4) differ in dimension 1, which is not the concatenation axis}}
  %0 = tile.cat %a, %b axis = 0 : tensor<4x8xf32>, tensor<4x4xf32> -> tensor<8x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.cat' op result shape (8, 8) should be (4, 16)}}
  %0 = tile.cat %a, %a axis = 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.cat' op axis 2 is out of range for rank 2 (expected 0..1)}}
  %0 = tile.cat %a, %a axis = 2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  %b = arith.constant dense<1.0> : tensor<4x8xf16>
  // expected-error @+1 {{'tile.cat' op operands and result must have the same element type}}
  %0 = tile.cat %a, %b axis = 0 : tensor<4x8xf32>, tensor<4x8xf16> -> tensor<8x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  %b = arith.constant dense<1.0> : tensor<8xf32>
  // expected-error @+1 {{'tile.cat' op operands and result must have the same rank}}
  %0 = tile.cat %a, %b axis = 0 : tensor<4x8xf32>, tensor<8xf32> -> tensor<8x8xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.extract' op index 2 in dimension 1 is out of range: the tile holds 2 sub-tiles there}}
  %0 = tile.extract %a [0, 2] : tensor<4x8xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.extract' op sub-tile (8, 4) is larger than (4, 8) in dimension 0}}
  %0 = tile.extract %a [0, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.extract' op expected 2 indices, got 1}}
  %0 = tile.extract %a [0] : tensor<4x8xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.extract' op result rank 1 differs from input rank 2}}
  %0 = tile.extract %a [0] : tensor<4x8xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @k() {
  %a = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'tile.extract' op element types differ: 'f32' and 'f16'}}
  %0 = tile.extract %a [0, 0] : tensor<4x8xf32> -> tensor<4x4xf16>
  tile.return
}

// -----

tile.kernel @k(%i: i32) {
  // expected-error @+1 {{'tile.print' op format "%d %d" has 2 conversion(s) but 1 argument(s) were given}}
  tile.print "%d %d", %i : i32
  tile.return
}

// -----

tile.kernel @k(%i: i32) {
  // expected-error @+1 {{'tile.print' op malformed conversion in format "value %"}}
  tile.print "value %", %i : i32
  tile.return
}

// -----

tile.kernel @k(%x: !tile.array<?xf32>) {
  // expected-error @+1 {{'tile.print' op argument #0 of type '!tile.array<?xf32>' cannot be printed}}
  tile.print "%p", %x : !tile.array<?xf32>
  tile.return
}

// -----

tile.kernel @k(%f: f32) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be 1-bit signless integer or tile of i1}}
  tile.assert %f, "x" : f32
  tile.return
}

// -----

tile.kernel @k() {
  %t = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.convert_layout' op changes only the layout: 'tensor<64x64xf32>' and 'tensor<64x32xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>' differ in shape or element type}}
  %m = tile.convert_layout %t : tensor<64x64xf32> -> tensor<64x32xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  tile.return
}

// -----

tile.kernel @k() {
  %t = arith.constant dense<0.0> : tensor<32x64xf32>
  // expected-error @+1 {{'tile.convert_layout' op 'tensor<32x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>': the warp grid does not divide the 16x8 tiles}}
  %m = tile.convert_layout %t : tensor<32x64xf32> -> tensor<32x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  tile.return
}

// -----

tile.kernel @k() {
  %t = arith.constant dense<0.0> : tensor<64x2xf32>
  // expected-error @+1 {{#tile.mma_rows needs a 2-D or 3-D tile of one column, not 'tensor<64x2xf32, #tile.mma_rows<warpsB = 1, warpsM = 4, warpsN = 1>>'}}
  %m = tile.convert_layout %t : tensor<64x2xf32> -> tensor<64x2xf32, #tile.mma_rows<warpsB = 1, warpsM = 4, warpsN = 1>>
  tile.return
}

// -----

tile.kernel @k() {
  %t = arith.constant dense<0.0> : tensor<32x1xf32>
  // expected-error @+1 {{'tile.convert_layout' op 'tensor<32x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 4, warpsN = 1>>': the warp grid does not divide the 16-row tiles}}
  %m = tile.convert_layout %t : tensor<32x1xf32> -> tensor<32x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 4, warpsN = 1>>
  tile.return
}

// -----

tile.kernel @k() {
  %t = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'tile.convert_layout' op unknown layout encoding in 'tensor<64x64xf32, "blocked">'}}
  %m = tile.convert_layout %t : tensor<64x64xf32> -> tensor<64x64xf32, "blocked">
  tile.return
}

// -----

// The aligned facts (--arg NAME=DTYPE:RANK:aligned) belong to arrays.
// expected-error @below {{'tile.kernel' op argument #0 has type 'i32'; tile.aligned states facts of an array}}
tile.kernel @aligned_scalar(%n: i32 {tile.aligned}) {
  tile.return
}

// -----

// Conversions must match their arguments as the GPU passes them: vprintf would read a pointer
// from an integer (%s), an integer from a double, or 32 bits of a 64-bit value.
tile.kernel @k(%i: i32) {
  // expected-error @+1 {{'tile.print' op argument #0: %s reads a string or pointer, but tile values are numbers (use %d for integers, %f or %g for floats)}}
  tile.print "%s", %i : i32
  tile.return
}

// -----

tile.kernel @k(%f: f32) {
  // expected-error @+1 {{'tile.print' op argument #0: %d prints an integer, but the argument is f32 (use %f or %g)}}
  tile.print "%d", %f : f32
  tile.return
}

// -----

tile.kernel @k(%t: i32) {
  // expected-error @+1 {{'tile.print' op argument #0: %5.2f prints a float, but the argument is i32 (use %d or %lld)}}
  tile.print "%5.2f", %t : i32
  tile.return
}

// -----

tile.kernel @k(%i: i64) {
  // expected-error @+1 {{'tile.print' op argument #0: %d reads 32 bits, but the argument is i64 (64 bits): use %lld}}
  tile.print "%d", %i : i64
  tile.return
}

// -----

tile.kernel @k(%i: i32) {
  // expected-error @+1 {{'tile.print' op argument #0: %lx reads 64 bits, but the argument is i32 (passed as 32 bits): use %x}}
  tile.print "%lx", %i : i32
  tile.return
}
