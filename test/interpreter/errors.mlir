// What stops a launch: arguments that do not fit the signature, ops the interpreter does
// not run (refused before any memory is written), failed asserts. Parameters of an .mlir
// kernel are named by `tile.name` or arg0, arg1, ...
// RUN: tile-run %s --kernel fill --array arg0=i32:8 --scalar n=i32:3 | FileCheck %s --check-prefix=OK
// RUN: not tile-run %s --kernel fill --array arg0=f32:8 --scalar n=i32:3 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tile-run %s --kernel fill --array arg0=i32:2x4 --scalar n=i32:3 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not tile-run %s --kernel fill --array arg0=i32:8 --scalar n=i64:3 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not tile-run %s --kernel unsupported --array arg0=i32:8 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not tile-run %s --kernel checks --grid 3 --array arg0=i32:8:iota 2>&1 | FileCheck %s --check-prefix=ASSERT

// OK: arg0: int32 (8,)
// OK-NEXT: [3, 3, 3, 3, 3, 3, 3, 3]
// DTYPE: error: argument 'arg0': expected an array of int32, got float32
// RANK: error: argument 'arg0': expected rank 1, got rank 2 (shape (2, 4))
// SCALAR: error: argument 'n': the kernel expects a scalar of int32, got a scalar of int64
tile.kernel @fill(%x: !tile.array<?xi32>, %n: i32 {tile.name = "n"}) {
  %c0 = arith.constant 0 : i32
  %t = tile.broadcast %n : i32 -> tensor<8xi32>
  tile.store %t, %x[%c0] : tensor<8xi32>, !tile.array<?xi32>[i32]
  tile.return
}

// REFUSED: errors.mlir:[[@LINE+4]]:14: error: the interpreter does not support 'arith.mulsi_extended'
tile.kernel @unsupported(%x: !tile.array<?xi32>) {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %lo, %hi = arith.mulsi_extended %c3, %c3 : i32
  tile.return
}

// Block b loads elements 2b and 2b + 1; block 2 holds 4 and 5, and 5 fails the check.

// ASSERT: errors.mlir:[[@LINE+6]]:3: error: assertion failed: small values (element (1,) is false) (block (2, 0, 0))
tile.kernel @checks(%x: !tile.array<?xi32>) {
  %b = tile.bid 0
  %t = tile.load %x[%b] : !tile.array<?xi32>[i32] -> tensor<2xi32>
  %five = arith.constant dense<5> : tensor<2xi32>
  %ok = arith.cmpi slt, %t, %five : tensor<2xi32>
  tile.assert %ok, "small values" : tensor<2xi1>
  tile.return
}
