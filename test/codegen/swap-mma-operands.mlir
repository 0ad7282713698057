// tile-swap-mma-operands: a wgmma product in a loop whose A is loaded and whose B is computed
// in registers becomes D^T = B^T.A^T (the computed operand in wgmma's register A slot, the
// loaded one read transposed), the loop carrying the accumulator transposed; products where
// that does not pay or cannot run are left alone, each with a remark saying why.
// RUN: tile-opt %s -split-input-file -tile-swap-mma-operands -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-swap-mma-operands -debug-only=tile-swap-mma-operands -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG

// B scaled per row (a dequantized operand): B^T is built from the load read transposed and
// the scale broadcast as a row; the splat accumulator folds; the result is transposed back
// once, after the loop.
// CHECK-LABEL: tile.kernel @scaled_b
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<128x64xf32>)
// CHECK: %[[A:.*]] = tile.load %{{.*}} -> tensor<64x64xbf16>
// CHECK: %[[B:.*]] = tile.load %{{.*}} -> tensor<64x128xbf16>
// CHECK: %[[S:.*]] = tile.load %{{.*}} -> tensor<64xf32>
// CHECK: %[[BT:.*]] = tile.permute %[[B]] [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
// CHECK: %[[BTF:.*]] = arith.extf %[[BT]] : tensor<128x64xbf16> to tensor<128x64xf32>
// CHECK: %[[ROW:.*]] = tile.reshape %{{.*}} : tensor<64x1xf32> -> tensor<1x64xf32>
// CHECK: %[[SB:.*]] = tile.broadcast %[[ROW]] : tensor<1x64xf32> -> tensor<128x64xf32>
// CHECK: %[[W:.*]] = arith.mulf %[[BTF]], %[[SB]] : tensor<128x64xf32>
// CHECK: %[[WB:.*]] = arith.truncf %[[W]] : tensor<128x64xf32> to tensor<128x64xbf16>
// CHECK: %[[AT:.*]] = tile.permute %[[A]] [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
// CHECK: %[[D:.*]] = tile.mma %[[WB]], %[[AT]], %[[ACC]] {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.mma_swapped} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
// CHECK: scf.yield %[[D]] : tensor<128x64xf32>
// CHECK: %[[OUT:.*]] = tile.permute %{{.*}} [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
// CHECK: tile.store %[[OUT]]
// DEBUG: [tile-swap-mma-operands] tile.mma at {{.*}}: operands swapped (D^T = B^T A^T): the computed operand is A, from registers; the loop carries the accumulator transposed
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @scaled_b(%a: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %s: !tile.array<?xf32>, %c: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x128xf32>) : i32 {
    %at = tile.load %a[%c0, %k] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x128xbf16>
    %sc = tile.load %s[%k] : !tile.array<?xf32>[i32] -> tensor<64xf32>
    %col = tile.reshape %sc : tensor<64xf32> -> tensor<64x1xf32>
    %sb = tile.broadcast %col : tensor<64x1xf32> -> tensor<64x128xf32>
    %bf = arith.extf %bt : tensor<64x128xbf16> to tensor<64x128xf32>
    %w = arith.mulf %bf, %sb : tensor<64x128xf32>
    %wb = arith.truncf %w : tensor<64x128xf32> to tensor<64x128xbf16>
    %d = tile.mma %at, %wb, %acc {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    scf.yield %d : tensor<64x128xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x128xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}

// -----

// A decayed accumulator (S = S * exp(g) + A.B, a state update) carried transposed: the decay
// is cloned with transposed shapes; A is itself a transpose, so B^T.A^T reads its input.
// CHECK-LABEL: tile.kernel @decayed
// CHECK: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK: %[[X:.*]] = tile.load %{{.*}} -> tensor<64x64xbf16>
// CHECK: %[[DEC:.*]] = arith.mulf %[[S]], %{{.*}} : tensor<64x64xf32>
// CHECK: %[[D:.*]] = tile.mma %{{.*}}, %[[X]], %[[DEC]] {tile.mma_instruction = #tile.mma_instruction<wgmma>, tile.mma_swapped}
// CHECK: scf.yield %[[D]]
// CHECK: tile.permute %{{.*}} [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @decayed(%x: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %g: !tile.array<?xf32>, %out: !tile.array<?x?xf32>, %init: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s0 = tile.load %init[%c0, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %s0) -> (tensor<64x64xf32>) : i32 {
    %xt = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %xT = tile.permute %xt [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %gt = tile.load %g[%k] : !tile.array<?xf32>[i32] -> tensor<1xf32>
    %g2 = tile.reshape %gt : tensor<1xf32> -> tensor<1x1xf32>
    %e = math.exp %g2 : tensor<1x1xf32>
    %eb = tile.broadcast %e : tensor<1x1xf32> -> tensor<64x64xf32>
    %dec = arith.mulf %s, %eb : tensor<64x64xf32>
    %bf = arith.extf %bt : tensor<64x64xbf16> to tensor<64x64xf32>
    %bw = arith.mulf %bf, %eb : tensor<64x64xf32>
    %wb = arith.truncf %bw : tensor<64x64xf32> to tensor<64x64xbf16>
    %d = tile.mma %xT, %wb, %dec {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %out[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}

// -----

// Left alone. A loop that also stores its accumulator every iteration (Mamba-2's chunk-entry
// states) would store it transposed: the swap does not pay there.
// CHECK-LABEL: tile.kernel @stored_every_iteration
// CHECK-NOT: tile.mma_swapped
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @stored_every_iteration(%x: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %out: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    tile.store %s, %out[%k, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    %xt = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bf = arith.extf %bt : tensor<64x64xbf16> to tensor<64x64xf32>
    %bw = arith.mulf %bf, %bf : tensor<64x64xf32>
    %wb = arith.truncf %bw : tensor<64x64xf32> to tensor<64x64xbf16>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): the loop uses its accumulator for more than this product}}
    %d = tile.mma %xt, %wb, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}
}

// -----

// Left alone: swapped, the 32-column product would have M = 32, which wgmma cannot run.
// CHECK-LABEL: tile.kernel @narrow
// CHECK-NOT: tile.mma_swapped
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @narrow(%x: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %out: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x32xf32>) : i32 {
    %xt = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %neg = arith.negf %bt : tensor<64x32xbf16>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): the swapped product would not run as wgmma: wgmma needs whole warpgroups along M}}
    %d = tile.mma %xt, %neg, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %d : tensor<64x32xf32>
  }
  tile.store %r, %out[%c0, %c0] : tensor<64x32xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}

// -----

// Left alone: outside a loop (the transposed result would cost a transpose of its own), and B
// computed from a reshape that moves elements between rows. A product whose computed operand
// is already A is no candidate (no remark).
// CHECK-LABEL: tile.kernel @others
// CHECK-NOT: tile.mma_swapped
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @others(%x: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %out: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %xt = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  %bt = tile.load %b[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  %neg = arith.negf %bt : tensor<64x64xbf16>
  // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): it is not in a loop (its transposed result would need a transpose of its own)}}
  %d = tile.mma %xt, %neg, %zero {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %d) -> (tensor<64x64xf32>) : i32 {
    %x2 = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %b2 = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %nx = arith.negf %x2 : tensor<64x64xbf16>
    %e = tile.mma %nx, %b2, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %e : tensor<64x64xf32>
  }
  %q = scf.for %k = %c0 to %n step %c1 iter_args(%t = %r) -> (tensor<64x64xf32>) : i32 {
    %x2 = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %b2 = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %m = arith.mulf %b2, %x2 : tensor<64x64xbf16>
    %mb = tile.reshape %m : tensor<64x64xbf16> -> tensor<32x128xbf16>
    %mb2 = tile.reshape %mb : tensor<32x128xbf16> -> tensor<64x64xbf16>
    %mn = arith.negf %mb2 : tensor<64x64xbf16>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): its B operand is computed from 'tile.reshape'}}
    %f = tile.mma %x2, %mn, %t {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %f : tensor<64x64xf32>
  }
  tile.store %q, %out[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}

// -----

// Left alone: tf32 operands (wgmma reads a transposed operand only with 16-bit elements).
// CHECK-LABEL: tile.kernel @tf32
// CHECK-NOT: tile.mma_swapped
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @tf32(%x: !tile.array<?x?xtf32>, %b: !tile.array<?x?xf32>, %out: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    %xc = tile.load %x[%k, %c0] : !tile.array<?x?xtf32>[i32, i32] -> tensor<64x64xtf32>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
    %bn = arith.negf %bt : tensor<64x64xf32>
    %bc = arith.truncf %bn : tensor<64x64xf32> to tensor<64x64xtf32>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): wgmma reads a transposed operand from shared memory only with bf16/f16 elements}}
    %d = tile.mma %xc, %bc, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xtf32>, tensor<64x64xtf32>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %out[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}

// -----

// Left alone: the product's result is read in the loop besides the next iteration, and an
// accumulator computed from something that does not transpose for free (a reduction).
// CHECK-LABEL: tile.kernel @result_used
// CHECK-NOT: tile.mma_swapped
module attributes {tile.target = #tile.target<sm_90a>} {
tile.kernel @result_used(%x: !tile.array<?x?xbf16>, %b: !tile.array<?x?xbf16>, %out: !tile.array<?x?xf32>, %n: i32) attributes {num_threads = 128 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    %xt = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %neg = arith.negf %bt : tensor<64x64xbf16>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): its result has uses other than the loop's next iteration}}
    %d = tile.mma %xt, %neg, %s {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %d, %out[%k, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    scf.yield %d : tensor<64x64xf32>
  }
  %q = scf.for %k = %c0 to %n step %c1 iter_args(%t = %zero) -> (tensor<64x64xf32>) : i32 {
    %xt = tile.load %x[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %neg = arith.negf %bt : tensor<64x64xbf16>
    %cs = tile.scan cumsum %t axis = 0 : tensor<64x64xf32>
    // expected-remark@+1 {{operands not swapped (the computed B operand goes through shared memory): its accumulator comes from 'tile.scan'}}
    %d = tile.mma %xt, %neg, %cs {tile.mma_instruction = #tile.mma_instruction<wgmma>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %q, %out[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
}
