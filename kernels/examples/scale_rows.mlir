// The dsl.md example kernel `scale_rows` in tile IR, specialized for TM=64, TN=32
// and a bf16 output (what the front end emits for it).
tile.kernel @scale_rows(%x: !tile.array<?x?xf32>, %s: !tile.array<?xf32>, %out: !tile.array<?x?xbf16>)
    attributes {constants = {TM = 64 : i64, TN = 32 : i64}} {
  %i = tile.bid 0
  %j = tile.bid 1
  %t = tile.load %x[%i, %j] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<64x32xf32>
  %k = tile.load %s[%i] : !tile.array<?xf32>[i32] -> tensor<64xf32>
  %k2 = tile.expand_dims %k axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %kb = tile.broadcast %k2 : tensor<64x1xf32> -> tensor<64x32xf32>
  %p = arith.mulf %t, %kb : tensor<64x32xf32>
  %o = arith.truncf %p : tensor<64x32xf32> to tensor<64x32xbf16>
  tile.store %o, %out[%i, %j] : tensor<64x32xbf16>, !tile.array<?x?xbf16>[i32, i32]
  tile.return
}
