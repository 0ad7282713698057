// Creation and shape ops: iota, broadcast, expand_dims, reshape, permute, cat, extract, and
// the tensor ops between tiles and scalars.

#include "InterpreterTestUtil.h"

using namespace tile::interp;
using namespace tile::interp::test;

TEST_CASE("iota counts from zero and wraps to its element type", "[interpreter][shape]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @iota(%a: !tile.array<?xi32>, %b: !tile.array<?xi8>) {
  %z = arith.constant 0 : i32
  %i = tile.iota : tensor<64xi32>
  tile.store %i, %a[%z] : tensor<64xi32>, !tile.array<?xi32>[i32]
  %j = tile.iota : tensor<256xi8>
  tile.store %j, %b[%z] : tensor<256xi8>, !tile.array<?xi8>[i32]
  tile.return
}
)mlir");
  Buffer a(DType::Int32, {64}), b(DType::Int8, {256});
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg()}) == "");
  for (int k = 0; k < 64; ++k)
    REQUIRE(a.get(k) == k);
  CHECK(b.get(127) == 127);
  CHECK(b.get(128) == -128);
  CHECK(b.get(255) == -1);
}

// x is 4x8 (element k holds k); every op writes into its own output array.
TEST_CASE("broadcast, expand_dims, reshape, permute, cat and extract move elements as defined",
          "[interpreter][shape]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @shapes(%x: !tile.array<?x?xf32>, %s: f32, %splat: !tile.array<?x?xf32>,
                    %bc: !tile.array<?x?xf32>, %rs: !tile.array<?x?xf32>, %pm: !tile.array<?x?x?xf32>,
                    %c0a: !tile.array<?x?xf32>, %c1a: !tile.array<?x?xf32>, %ex: !tile.array<?x?xf32>) {
  %z = arith.constant 0 : i32
  %t = tile.load %x[%z, %z] : !tile.array<?x?xf32>[i32, i32] -> tensor<4x8xf32>
  %b = tile.broadcast %s : f32 -> tensor<2x4xf32>
  tile.store %b, %splat[%z, %z] : tensor<2x4xf32>, !tile.array<?x?xf32>[i32, i32]
  %row = tile.extract %t [0, 0] : tensor<4x8xf32> -> tensor<1x8xf32>
  %rowb = tile.broadcast %row : tensor<1x8xf32> -> tensor<4x8xf32>
  %col = tile.extract %t [0, 7] : tensor<4x8xf32> -> tensor<4x1xf32>
  %colb = tile.broadcast %col : tensor<4x1xf32> -> tensor<4x8xf32>
  %sum = arith.addf %rowb, %colb : tensor<4x8xf32>
  tile.store %sum, %bc[%z, %z] : tensor<4x8xf32>, !tile.array<?x?xf32>[i32, i32]
  %flat = tile.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
  %e = tile.expand_dims %flat axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
  %r = tile.reshape %e : tensor<1x32xf32> -> tensor<8x4xf32>
  tile.store %r, %rs[%z, %z] : tensor<8x4xf32>, !tile.array<?x?xf32>[i32, i32]
  %t3 = tile.reshape %t : tensor<4x8xf32> -> tensor<2x4x4xf32>
  %p = tile.permute %t3 [2, 0, 1] : tensor<2x4x4xf32> -> tensor<4x2x4xf32>
  tile.store %p, %pm[%z, %z, %z] : tensor<4x2x4xf32>, !tile.array<?x?x?xf32>[i32, i32, i32]
  %c0 = tile.cat %t, %t axis = 0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  tile.store %c0, %c0a[%z, %z] : tensor<8x8xf32>, !tile.array<?x?xf32>[i32, i32]
  %neg = arith.negf %t : tensor<4x8xf32>
  %c1 = tile.cat %t, %neg axis = 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  tile.store %c1, %c1a[%z, %z] : tensor<4x16xf32>, !tile.array<?x?xf32>[i32, i32]
  %sub = tile.extract %c1 [1, 3] : tensor<4x16xf32> -> tensor<2x4xf32>
  tile.store %sub, %ex[%z, %z] : tensor<2x4xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
)mlir");
  Buffer x(DType::Float32, {4, 8}, [](int64_t k) { return k; });
  Buffer splat(DType::Float32, {2, 4}), bc(DType::Float32, {4, 8}), rs(DType::Float32, {8, 4});
  Buffer pm(DType::Float32, {4, 2, 4}), c0(DType::Float32, {8, 8}), c1(DType::Float32, {4, 16});
  Buffer ex(DType::Float32, {2, 4});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), LaunchArg::f32(1.5f), splat.arg(), bc.arg(), rs.arg(), pm.arg(), c0.arg(),
                            c1.arg(), ex.arg()}) == "");
  for (int k = 0; k < 8; ++k)
    CHECK(splat.get(k) == 1.5);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      REQUIRE(bc.at(i, j) == x.at(0, j) + x.at(i, 7));
  for (int k = 0; k < 32; ++k)
    REQUIRE(rs.get(k) == k); // row-major order is kept
  // t3[a][b][c] = 16a + 4b + c; p[d0][d1][d2] = t3[d1][d2][d0].
  for (int d0 = 0; d0 < 4; ++d0)
    for (int d1 = 0; d1 < 2; ++d1)
      for (int d2 = 0; d2 < 4; ++d2)
        REQUIRE(pm.get((d0 * 2 + d1) * 4 + d2) == 16 * d1 + 4 * d2 + d0);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      REQUIRE(c0.at(i, j) == x.at(i % 4, j));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 16; ++j)
      REQUIRE(c1.at(i, j) == (j < 8 ? x.at(i, j) : -x.at(i, j - 8)));
  // Sub-tile [1, 3] of 2x4 tiles: rows 2..3, columns 12..15 of c1.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      REQUIRE(ex.at(i, j) == c1.at(2 + i, 12 + j));
}

TEST_CASE("tensor.extract, from_elements and splat move between scalars and tiles", "[interpreter][shape]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @t(%x: !tile.array<?x?xi32>, %o: !tile.array<?xi32>) {
  %z = arith.constant 0 : i32
  %t = tile.load %x[%z, %z] : !tile.array<?x?xi32>[i32, i32] -> tensor<4x4xi32>
  %i1 = arith.constant 1 : index
  %i3 = arith.constant 3 : index
  %a = tensor.extract %t[%i1, %i3] : tensor<4x4xi32>
  %b = tensor.extract %t[%i3, %i1] : tensor<4x4xi32>
  %pair = tensor.from_elements %a, %b : tensor<2xi32>
  %s = tensor.splat %a : tensor<2xi32>
  %c = tile.cat %pair, %s axis = 0 : tensor<2xi32>, tensor<2xi32> -> tensor<4xi32>
  tile.store %c, %o[%z] : tensor<4xi32>, !tile.array<?xi32>[i32]
  tile.return
}
)mlir");
  Buffer x(DType::Int32, {4, 4}, [](int64_t k) { return 10 * k; });
  Buffer o(DType::Int32, {4});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}) == "");
  CHECK(o.get(0) == 70);
  CHECK(o.get(1) == 130);
  CHECK(o.get(2) == 70);
  CHECK(o.get(3) == 70);
}

// IR after code generation's layout passes: conversions and mma-layout tiles keep their values.
TEST_CASE("convert_layout and #tile.mma tiles hold the same elements", "[interpreter][shape]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @layouts(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %z = arith.constant 0 : i32
  %t = tile.load %x[%z, %z] : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
  %m = tile.convert_layout %t : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  %two = arith.constant dense<2.0> : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  %d = arith.mulf %m, %two : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
  %b = tile.convert_layout %d : tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>> -> tensor<64x64xf32>
  tile.store %b, %y[%z, %z] : tensor<64x64xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
)mlir");
  Buffer x(DType::Float32, {64, 64}), y(DType::Float32, {64, 64});
  for (int k = 0; k < 64 * 64; ++k)
    x.set(k, k);
  REQUIRE(p.run({1, 1, 1}, {x.arg(), y.arg()}) == "");
  for (int k = 0; k < 64 * 64; ++k)
    REQUIRE(y.get(k) == 2.0 * k);
}
