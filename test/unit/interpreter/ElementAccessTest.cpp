// tile.gather / tile.scatter / tile.atomic_add: masks, bounds, padding, duplicate indices.

#include "InterpreterTestUtil.h"

using namespace tile::interp;
using namespace tile::interp::test;
using Catch::Matchers::Contains;

TEST_CASE("gather reads per-element indices; masked-off and out-of-bounds take the padding", "[interpreter][gather]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @g(%x: !tile.array<?xf32>, %idx: !tile.array<?xi32>, %o: !tile.array<?xf32>, %o2: !tile.array<?xf32>, %pad: f32) {
  %c0 = arith.constant 0 : i32
  %i = tile.load %idx[%c0] : !tile.array<?xi32>[i32] -> tensor<16xi32>
  %odd = arith.constant dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]> : tensor<16xi1>
  %g = tile.gather %x[%i] mask(%odd : tensor<16xi1>) padding(%pad : f32) : !tile.array<?xf32>[tensor<16xi32>] -> tensor<16xf32>
  tile.store %g, %o[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  %h = tile.gather %x[%i] : !tile.array<?xf32>[tensor<16xi32>] -> tensor<16xf32>
  tile.store %h, %o2[%c0] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}
)mlir");
  Buffer x(DType::Float32, {10}, [](int64_t k) { return 100 + k; });
  const int indices[16] = {3, 3, -1, 9, 10, 0, 5, 7, 100000, 2, 1, -5, 4, 8, 6, 9};
  Buffer idx(DType::Int32, {16}, [&](int64_t k) { return indices[k]; });
  Buffer o(DType::Float32, {16}), o2(DType::Float32, {16});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), idx.arg(), o.arg(), o2.arg(), LaunchArg::f32(-2.5f)}) == "");
  for (int k = 0; k < 16; ++k) {
    bool inBounds = indices[k] >= 0 && indices[k] < 10;
    INFO(k);
    CHECK(o.get(k) == (k % 2 == 0 && inBounds ? 100 + indices[k] : -2.5));
    CHECK(o2.get(k) == (inBounds ? 100 + indices[k] : 0.0)); // default padding zero
  }
}

TEST_CASE("2-D gather with broadcast row and column indices reads a sub-block", "[interpreter][gather]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @g2(%x: !tile.array<?x?xi64>, %o: !tile.array<?x?xi64>, %r0: i32, %c0: i32) {
  %z = arith.constant 0 : i32
  %ri = tile.iota : tensor<8xi32>
  %ci = tile.iota : tensor<4xi32>
  %rb = tile.broadcast %r0 : i32 -> tensor<8xi32>
  %cb = tile.broadcast %c0 : i32 -> tensor<4xi32>
  %rows = arith.addi %ri, %rb : tensor<8xi32>
  %cols = arith.addi %ci, %cb : tensor<4xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  %R = tile.broadcast %r2 : tensor<8x1xi32> -> tensor<8x4xi32>
  %C = tile.broadcast %c2 : tensor<1x4xi32> -> tensor<8x4xi32>
  %g = tile.gather %x[%R, %C] : !tile.array<?x?xi64>[tensor<8x4xi32>, tensor<8x4xi32>] -> tensor<8x4xi64>
  tile.store %g, %o[%z, %z] : tensor<8x4xi64>, !tile.array<?x?xi64>[i32, i32]
  tile.return
}
)mlir");
  Buffer x(DType::Int64, {10, 6}, [](int64_t k) { return (int64_t(1) << 40) + k; });
  Buffer o(DType::Int64, {8, 4});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg(), LaunchArg::i32(5), LaunchArg::i32(3)}) == "");
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c) {
      bool in = 5 + r < 10 && 3 + c < 6;
      REQUIRE(o.at(r, c) == (in ? x.at(5 + r, 3 + c) : 0));
    }
}

TEST_CASE("scatter writes unmasked in-bounds elements, the last duplicate winning", "[interpreter][scatter]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @s(%x: !tile.array<?xbf16>, %idx: !tile.array<?xi8>, %m: !tile.array<?xi1>) {
  %c0 = arith.constant 0 : i32
  %i = tile.load %idx[%c0] : !tile.array<?xi8>[i32] -> tensor<8xi8>
  %mask = tile.load %m[%c0] : !tile.array<?xi1>[i32] -> tensor<8xi1>
  %iota = tile.iota : tensor<8xi32>
  %v = arith.sitofp %iota : tensor<8xi32> to tensor<8xbf16>
  %one = arith.constant dense<1.0> : tensor<8xbf16>
  %v1 = arith.addf %v, %one : tensor<8xbf16>
  tile.scatter %v1, %x[%i] mask(%mask : tensor<8xi1>) : tensor<8xbf16>, !tile.array<?xbf16>[tensor<8xi8>]
  tile.return
}
)mlir");
  Buffer x(DType::BFloat16, {6}, [](int64_t) { return -1; });
  const int indices[8] = {0, 2, 2, -3, 6, 4, 4, 5};
  const bool mask[8] = {true, true, true, true, true, true, false, false};
  Buffer idx(DType::Int8, {8}, [&](int64_t k) { return indices[k]; });
  Buffer m(DType::Bool, {8}, [&](int64_t k) { return mask[k]; });
  REQUIRE(p.run({1, 1, 1}, {x.arg(), idx.arg(), m.arg()}) == "");
  // Element k writes k + 1 where allowed: x[0] = 1, x[2] = 3 (k = 2 after k = 1), x[4] = 6.
  CHECK(x.get(0) == 1);
  CHECK(x.get(1) == -1);
  CHECK(x.get(2) == 3);
  CHECK(x.get(3) == -1);
  CHECK(x.get(4) == 6);
  CHECK(x.get(5) == -1); // masked off
}

TEST_CASE("atomic_add returns the old values, zero where masked or out of bounds", "[interpreter][atomic]") {
  auto kernel = [](const char *dt) {
    std::string s = R"mlir(
tile.kernel @a(%x: !tile.array<?xDT>, %idx: !tile.array<?xi32>, %v: !tile.array<?xDT>, %old: !tile.array<?xDT>) {
  %c0 = arith.constant 0 : i32
  %i = tile.load %idx[%c0] : !tile.array<?xi32>[i32] -> tensor<8xi32>
  %val = tile.load %v[%c0] : !tile.array<?xDT>[i32] -> tensor<8xDT>
  %lim = arith.constant dense<7> : tensor<8xi32>
  %mask = arith.cmpi slt, %i, %lim : tensor<8xi32>
  %o = tile.atomic_add %val, %x[%i] mask(%mask : tensor<8xi1>) : tensor<8xDT>, !tile.array<?xDT>[tensor<8xi32>]
  tile.store %o, %old[%c0] : tensor<8xDT>, !tile.array<?xDT>[i32]
  tile.return
}
)mlir";
    for (size_t pos; (pos = s.find("DT")) != std::string::npos;)
      s.replace(pos, 2, dt);
    return s;
  };
  const int indices[8] = {1, 1, 1, 7, -1, 3, 6, 8}; // 7 is masked off (>= 7), -1 and 8 out of bounds
  Buffer idx(DType::Int32, {8}, [&](int64_t k) { return indices[k]; });

  // bf16: each add rounds into bf16, in element order.
  Program b(Program::Mlir{}, kernel("bf16"));
  Buffer x(DType::BFloat16, {7}, [](int64_t) { return 256; });
  Buffer v(DType::BFloat16, {8}, [](int64_t k) { return k == 0 ? 1 : k == 1 ? 1 : 3; });
  Buffer old(DType::BFloat16, {8}, [](int64_t) { return -9; });
  REQUIRE(b.run({1, 1, 1}, {x.arg(), idx.arg(), v.arg(), old.arg()}) == "");
  // x[1]: 256 + 1 = 257 -> 256 (ties to even in bf16), + 1 -> 256, + 3 -> 259 -> 260.
  CHECK(old.get(0) == 256);
  CHECK(old.get(1) == 256);
  CHECK(old.get(2) == 256);
  CHECK(x.get(1) == rounded(rounded(rounded(256 + 1.0, DType::BFloat16) + 1, DType::BFloat16) + 3, DType::BFloat16));
  CHECK(x.get(1) == 260);
  CHECK(old.get(3) == 0); // masked off
  CHECK(old.get(4) == 0); // out of bounds
  CHECK(old.get(7) == 0);
  CHECK(old.get(5) == 256);
  CHECK(x.get(3) == 260); // 256 + 3 -> 259 -> 260
  CHECK(x.get(6) == 260);

  // i32 wraps; several blocks add in turn.
  Program i(Program::Mlir{}, kernel("i32"));
  Buffer xi(DType::Int32, {7}, [](int64_t) { return INT32_MAX - 1; });
  Buffer vi(DType::Int32, {8}, [](int64_t) { return 1; });
  Buffer oldi(DType::Int32, {8});
  REQUIRE(i.run({2, 1, 1}, {xi.arg(), idx.arg(), vi.arg(), oldi.arg()}) == "");
  CHECK(xi.get(1) == static_cast<double>(INT32_MIN + 4));   // +6 in all, wrapping past INT32_MAX
  CHECK(oldi.get(2) == static_cast<double>(INT32_MIN + 3)); // the second block's third add
  CHECK(xi.get(0) == INT32_MAX - 1);
}
