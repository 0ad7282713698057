// tile-remove-layout-conversions: a K loop keeps its accumulator in mma.sync's registers, an
// element-wise rescale of the accumulator (the Mamba-2 state update) happens in that layout,
// conversion pairs cancel, stores write the accumulator straight from its fragments,
// broadcasts of tiles every thread can recompute are marked tile.rematerialize (and built in
// any layout), and ops that need the canonical layout keep their conversion.
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-remove-layout-conversions -canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-remove-layout-conversions 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: remove-layout-conversions.mlir:{{[0-9]+}}:9: remark: broadcast through shared memory: its input cannot be recomputed by each thread ('tile.reduce' moves data between threads)
// REMARK: remove-layout-conversions.mlir:{{[0-9]+}}:9: remark: broadcast through shared memory: its input cannot be recomputed by each thread (the kernel writes the array it loads)
// REMARK: remove-layout-conversions.mlir:{{[0-9]+}}:13: remark: broadcast through shared memory: its input cannot be recomputed by each thread (a loop lies between the load and its use)
// REMARK-NOT: remark
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-remove-layout-conversions -debug-only=tile-remove-layout-conversions -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
// DEBUG: [tile-remove-layout-conversions] conversion at {{.*}}remove-layout-conversions.mlir{{.*}} to #tile.mma<{{.*}}>: hoisted out of both branches of an scf.if
// DEBUG: [tile-remove-layout-conversions] scf.if at {{.*}}remove-layout-conversions.mlir{{.*}} yields result #0 in #tile.mma<{{.*}}>

// CHECK-LABEL: tile.kernel @k_loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #tile.mma<{{.*}}>>)
// CHECK-NOT: tile.convert_layout
// CHECK: %[[SCALE:.*]] = tile.broadcast %{{.*}} : f32 -> tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[ACC]], %[[SCALE]] : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: %[[D:.*]] = tile.mma %{{.*}}, %{{.*}}, %[[SCALED]]
// CHECK: scf.yield %[[D]]
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[LOOP]], {{.*}} : tensor<64x64xf32, #tile.mma<{{.*}}>>
tile.kernel @k_loop(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %decay: f32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %s = tile.broadcast %decay : f32 -> tensor<64x64xf32>
    %scaled = arith.mulf %acc, %s : tensor<64x64xf32>
    %d = tile.mma %ta, %tb, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// Two products in a row share the layout: the conversions between them cancel. The
// reduction needs the canonical layout and keeps its conversion.
// CHECK-LABEL: tile.kernel @chain
// CHECK: %[[D1:.*]] = tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tile.mma
// CHECK-NEXT: %[[D2:.*]] = tile.mma %{{.*}}, %{{.*}}, %[[D1]]
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[D2]]
// CHECK-NEXT: tile.reduce sum %[[C]]
tile.kernel @chain(%a: !tile.array<?x?xbf16>, %c: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d1 = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %d2 = tile.mma %ta, %tb, %d1 : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %s = tile.reduce sum %d2 axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %s, %c[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}

// -----

// The Mamba-2 state loop: the running state is stored every iteration and rescaled by a
// one-element tile. The loop carries it in the mma layout and stores it from there.
// CHECK-LABEL: tile.kernel @state_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #tile.mma<{{.*}}>>)
// CHECK-NEXT: tile.store %[[ACC]], {{.*}} : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[DECAY:.*]] = tile.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: arith.mulf %{{.*}}, %[[DECAY]] : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: scf.yield
tile.kernel @state_loop(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %w: !tile.array<?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    tile.store %acc, %c[%i, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    %ta = tile.load %a[%c0, %i] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
    %tb = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %v = tile.load %w[%i] : !tile.array<?xf32>[i32] -> tensor<16xf32>
    %s = tile.reduce sum %v axis = 0 : tensor<16xf32> -> tensor<f32>
    %s11 = tile.reshape %s : tensor<f32> -> tensor<1x1xf32>
    %d0 = tile.broadcast %s11 : tensor<1x1xf32> -> tensor<64x64xf32>
    %scaled = arith.mulf %acc, %d0 : tensor<64x64xf32>
    %d = tile.mma %ta, %tb, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// -----

// The Mamba-2 stores of the state and of y: reshaped to the array's rank (unit dims before or
// between the matrix dims) and cast to bf16 on the way; both happen in the accumulator layout
// and the stores read the fragments. A reshape that splits the matrix keeps its conversion.
// CHECK-LABEL: tile.kernel @store_reshaped
// CHECK: %[[ACC:.*]] = tile.mma
// CHECK: %[[R:.*]] = tile.reshape %[[ACC]] : tensor<64x64xf32, #tile.mma<[[L:.*]]>> -> tensor<1x1x64x64xf32, #tile.mma<[[L]]>>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[R]] : tensor<1x1x64x64xf32, #tile.mma<[[L]]>> to tensor<1x1x64x64xbf16, #tile.mma<[[L]]>>
// CHECK-NEXT: tile.store %[[T]]
// CHECK: tile.reshape %[[ACC]] : tensor<64x64xf32, #tile.mma<[[L]]>> -> tensor<64x1x64xf32, #tile.mma<[[L]]>>
// CHECK: tile.reshape %{{.*}} : tensor<64x64xf32> -> tensor<2x32x64xf32>
tile.kernel @store_reshaped(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?x?x?xbf16>, %e: !tile.array<?x?x?xf32>, %f: !tile.array<?x?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %r = tile.reshape %d : tensor<64x64xf32> -> tensor<1x1x64x64xf32>
  %t = arith.truncf %r : tensor<1x1x64x64xf32> to tensor<1x1x64x64xbf16>
  tile.store %t, %c[%c0, %c0, %c0, %c0] : tensor<1x1x64x64xbf16>, !tile.array<?x?x?x?xbf16>[i32, i32, i32, i32]
  %split = tile.reshape %d : tensor<64x64xf32> -> tensor<64x1x64xf32>
  tile.store %split, %e[%c0, %c0, %c0] : tensor<64x1x64xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  %halves = tile.reshape %d : tensor<64x64xf32> -> tensor<2x32x64xf32>
  tile.store %halves, %f[%c0, %c0, %c0] : tensor<2x32x64xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  tile.return
}

// -----

// Row scales and causal masks from loads and iota: each thread recomputes the elements it
// needs (tile.rematerialize); the scaled accumulator is stored from its fragments, with the
// scale built straight in the accumulator layout. A broadcast of a reduction moves data
// between threads and keeps shared memory (with a remark).
// CHECK-LABEL: tile.kernel @recompute
// CHECK: %[[ACC:.*]] = tile.mma
// CHECK: %[[SCALE:.*]] = tile.broadcast %{{.*}} {tile.rematerialize} : tensor<64x1xf32> -> tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[ACC]], %[[SCALE]] : tensor<64x64xf32, #tile.mma<{{.*}}>>
// CHECK: tile.store %[[SCALED]]
// CHECK: tile.broadcast %{{.*}} {tile.rematerialize} : tensor<1x64xi32> -> tensor<64x64xi32>
// CHECK: tile.broadcast %{{.*}} {tile.rematerialize} : tensor<64x1xi32> -> tensor<64x64xi32>
// CHECK: tile.reduce
// CHECK: tile.broadcast %{{.*}} : tensor<64x1xf32> -> tensor<64x64xf32>
// CHECK-NOT: tile.rematerialize
// CHECK: tile.return
tile.kernel @recompute(%a: !tile.array<?x?xbf16>, %s: !tile.array<?xf32>, %c: !tile.array<?x?xf32>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %sv = tile.load %s[%c0] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %e = math.exp %sv : tensor<64xf32>
  %e2 = tile.reshape %e : tensor<64xf32> -> tensor<64x1xf32>
  %eb = tile.broadcast %e2 : tensor<64x1xf32> -> tensor<64x64xf32>
  %scaled = arith.mulf %d, %eb : tensor<64x64xf32>
  tile.store %scaled, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %i = tile.iota : tensor<64xi32>
  %row = tile.reshape %i : tensor<64xi32> -> tensor<64x1xi32>
  %col = tile.reshape %i : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
  %rb = tile.broadcast %row : tensor<64x1xi32> -> tensor<64x64xi32>
  %causal = arith.cmpi sle, %cb, %rb : tensor<64x64xi32>
  %ones = arith.constant dense<1.0> : tensor<64x64xf32>
  %masked = arith.select %causal, %ones, %zero : tensor<64x64xi1>, tensor<64x64xf32>
  %sum = tile.reduce sum %masked axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %sum2 = tile.reshape %sum : tensor<64xf32> -> tensor<64x1xf32>
  %sb = tile.broadcast %sum2 : tensor<64x1xf32> -> tensor<64x64xf32>
  %out = arith.mulf %masked, %sb : tensor<64x64xf32>
  tile.store %out, %c[%c64, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}

// -----

// A load of an array the kernel writes cannot be re-read later, nor can a load inside a loop
// from a nested loop (its pipeline stage may be overwritten meanwhile).
// CHECK-LABEL: tile.kernel @not_rereadable
// CHECK-NOT: tile.rematerialize
// CHECK: tile.return
tile.kernel @not_rereadable(%s: !tile.array<?xf32>, %r: !tile.array<?x?xf32>, %c: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %sv = tile.load %s[%c0] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %s2 = tile.reshape %sv : tensor<64xf32> -> tensor<64x1xf32>
  %sb = tile.broadcast %s2 : tensor<64x1xf32> -> tensor<64x64xf32>
  tile.store %sb, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  %w = tile.reshape %sv : tensor<64xf32> -> tensor<1x64xf32>
  tile.store %w, %c[%c1, %c0] : tensor<1x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.store %sv, %s[%c1] : tensor<64xf32>, !tile.array<?xf32>[i32]
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = tile.load %r[%i, %c0] : !tile.array<?x?xf32>[i32, i32] -> tensor<1x64xf32>
    scf.for %j = %c0 to %n step %c1 : i32 {
      %vb = tile.broadcast %v : tensor<1x64xf32> -> tensor<64x64xf32>
      tile.store %vb, %c[%j, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    }
  }
  tile.return
}

// -----

// An accumulator plus a loaded tile (the y = acc + D * x epilogue of compute_out), stored: the
// sum happens in the accumulator layout, and the loaded tile is converted to it by each thread
// recomputing its elements (tile.rematerialize on the conversion: no shared memory).
// CHECK-LABEL: tile.kernel @epilogue
// CHECK: %[[ACC:.*]] = tile.mma
// CHECK: %[[X:.*]] = tile.convert_layout %{{.*}} {tile.rematerialize} : tensor<64x64xbf16> -> tensor<64x64xbf16, #tile.mma<[[L:.*]]>>
// CHECK: %[[XF:.*]] = arith.extf %[[X]] : tensor<64x64xbf16, #tile.mma<[[L]]>> to tensor<64x64xf32, #tile.mma<[[L]]>>
// CHECK: %[[DX:.*]] = arith.mulf %{{.*}}, %[[XF]] : tensor<64x64xf32, #tile.mma<[[L]]>>
// CHECK: %[[Y:.*]] = arith.addf %[[ACC]], %[[DX]] : tensor<64x64xf32, #tile.mma<[[L]]>>
// CHECK: tile.reshape %[[Y]] : tensor<64x64xf32, #tile.mma<[[L]]>> -> tensor<1x64x1x64xf32, #tile.mma<[[L]]>>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.return
tile.kernel @epilogue(%a: !tile.array<?x?xbf16>, %x: !tile.array<?x?xbf16>, %y: !tile.array<?x?x?x?xbf16>, %dv: f32) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %xv = tile.load %x[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
  %xf = arith.extf %xv : tensor<64x64xbf16> to tensor<64x64xf32>
  %db = tile.broadcast %dv : f32 -> tensor<64x64xf32>
  %dx = arith.mulf %db, %xf : tensor<64x64xf32>
  %sum = arith.addf %d, %dx : tensor<64x64xf32>
  %r = tile.reshape %sum : tensor<64x64xf32> -> tensor<1x64x1x64xf32>
  %t = arith.truncf %r : tensor<1x64x1x64xf32> to tensor<1x64x1x64xbf16>
  tile.store %t, %y[%c0, %c0, %c0, %c0] : tensor<1x64x1x64xbf16>, !tile.array<?x?x?x?xbf16>[i32, i32, i32, i32]
  tile.return
}

// -----

// A product's result fed back as the B operand of the next (the fused Mamba-2 loop's
// y = C . S^T with S^T the running state): the cast to bf16 happens in the accumulator layout
// and the lowering writes B into shared memory from the fragments, with no conversion through
// shared memory first. The transposed use (a permute the lowering folds) keeps its conversion.
// CHECK-LABEL: tile.kernel @state_as_b
// CHECK: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (tensor<64x64xf32, #tile.mma<[[L:.*]]>>)
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[S]] : tensor<64x64xf32, #tile.mma<[[L]]>> -> tensor<64x64xf32>
// CHECK: %[[SB:.*]] = arith.truncf %[[S]] : tensor<64x64xf32, #tile.mma<[[L]]>> to tensor<64x64xbf16, #tile.mma<[[L]]>>
// CHECK-NEXT: %[[Y:.*]] = tile.mma %{{.*}}, %[[SB]], %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16, #tile.mma<[[L]]>>, tensor<64x64xf32, #tile.mma<[[L]]>>
// CHECK-NEXT: tile.store %[[Y]]
// CHECK-NEXT: %[[CT:.*]] = arith.truncf %[[C]] : tensor<64x64xf32> to tensor<64x64xbf16>
// CHECK-NEXT: %[[P:.*]] = tile.permute %[[CT]] [1, 0]
// CHECK-NEXT: tile.mma %{{.*}}, %[[P]], %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32, #tile.mma<[[L]]>>
tile.kernel @state_as_b(%a: !tile.array<?x?xbf16>, %y: !tile.array<?x?xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    %ta = tile.load %a[%i, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x64xbf16>
    %sb = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %out = tile.mma %ta, %sb, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %out, %y[%i, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    %st = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %stt = tile.permute %st [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %out2 = tile.mma %ta, %stt, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %out2, %y[%c0, %i] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
    %d = tile.mma %ta, %ta, %s : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.return
}

// -----

// A product in each branch of an scf.if (a kernel that picks one of two ways to build an
// operand at run time): the accumulator both branches convert to the product's layout is converted once before the
// scf.if, the scf.if yields its result in that layout, and the store writes it from there:
// no conversion is left.
// CHECK-LABEL: tile.kernel @product_in_each_branch
// CHECK-NOT: tile.convert_layout
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #tile.mma<{{.*}}>>) {
// CHECK: tile.mma
// CHECK: } else {
// CHECK: tile.mma
// CHECK: }
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[R]], {{.*}} : tensor<64x64xf32, #tile.mma<{{.*}}>>
tile.kernel @product_in_each_branch(%a: !tile.array<?x?xbf16>, %c: !tile.array<?x?xf32>, %s: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.array<?x?xbf16>[i32, i32] -> tensor<64x32xbf16>
  %tb = tile.load %a[%c0, %c1] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
  %d0 = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %scale = tile.broadcast %s : f32 -> tensor<64x64xf32>
  %scaled = arith.mulf %d0, %scale : tensor<64x64xf32>
  %cond = arith.cmpf ogt, %s, %f0 : f32
  %r = scf.if %cond -> (tensor<64x64xf32>) {
    %d1 = tile.mma %ta, %tb, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d1 : tensor<64x64xf32>
  } else {
    %tb2 = tile.load %a[%c1, %c1] : !tile.array<?x?xbf16>[i32, i32] -> tensor<32x64xbf16>
    %d2 = tile.mma %ta, %tb2, %scaled : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d2 : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
