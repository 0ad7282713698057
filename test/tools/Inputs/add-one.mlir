// A kernel in tile IR (tile-run-gpu.py: .mlir files run on the interpreter only).
tile.kernel @k(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  tile.store %t, %x[%c0] : tensor<64xf32>, !tile.array<?xf32>[i32]
  tile.return
}
