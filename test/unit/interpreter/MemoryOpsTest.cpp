// tile.load / tile.store / tile.dim: ragged edges, padding modes, order, strided and negative
// views, 64-bit offsets, and out-of-allocation accesses.

#include "InterpreterTestUtil.h"

#include <cmath>

using namespace tile::interp;
using namespace tile::interp::test;
using Catch::Matchers::Contains;

namespace {

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

const char *kCopy = R"mlir(
tile.kernel @copy(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %i = tile.bid 0
  %j = tile.bid 1
  %t = tile.load %x[%i, %j] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<64x32xf32>
  tile.store %t, %y[%i, %j] : tensor<64x32xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
)mlir";

// Loads the tile at (1, 2) (rows 64..127, cols 64..95) of x and stores it whole into o.
const char *kPadded = R"mlir(
tile.kernel @padded(%x: !tile.array<?x?xDT>, %o: !tile.array<?x?xDT>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = tile.load %x[%c1, %c2] PADDING : !tile.array<?x?xDT>[i32, i32] -> tensor<64x32xDT>
  tile.store %t, %o[%c0, %c0] : tensor<64x32xDT>, !tile.array<?x?xDT>[i32, i32]
  tile.return
}
)mlir";

} // namespace

TEST_CASE("load/store cover a ragged 100x70 array with 64x32 tiles and write nothing outside",
          "[interpreter][memory]") {
  Program p(Program::Mlir{}, kCopy);
  Buffer x(DType::Float32, {100, 70}, [](int64_t k) { return noise(1, k); });
  // y is a 100x70 window of a larger 128x96 buffer; the rest must stay untouched.
  Buffer big(DType::Float32, {128, 96}, [](int64_t) { return -7.0; });
  HostArray y = HostArray::strided(big.bytes.data(), DType::Float32, {100, 70}, {96, 1}, big.bytes.data(),
                                   big.bytes.data() + big.bytes.size());
  REQUIRE(p.run({2, 3, 1}, {x.arg(), LaunchArg::of(y)}) == "");
  for (int64_t i = 0; i < 128; ++i)
    for (int64_t j = 0; j < 96; ++j)
      REQUIRE(big.at(i, j) == (i < 100 && j < 70 ? x.at(i, j) : -7.0));
}

TEST_CASE("load padding modes fill the elements outside the array", "[interpreter][memory]") {
  struct Mode {
    const char *padding;
    double value; // NaN: expect NaN
    bool negZero;
    UndeterminedPadding undetermined;
  };
  double nan = std::nan(""), inf = INFINITY;
  const Mode modes[] = {{"padding = zero", 0.0, false, UndeterminedPadding::Poison},
                        {"padding = neg_zero", 0.0, true, UndeterminedPadding::Poison},
                        {"padding = nan", nan, false, UndeterminedPadding::Poison},
                        {"padding = pos_inf", inf, false, UndeterminedPadding::Poison},
                        {"padding = neg_inf", -inf, false, UndeterminedPadding::Poison},
                        {"", nan, false, UndeterminedPadding::Poison},
                        {"", 0.0, false, UndeterminedPadding::Zero}};
  for (const Mode &m : modes) {
    INFO(m.padding);
    Program p(Program::Mlir{}, replaceAll(replaceAll(kPadded, "PADDING", m.padding), "DT", "bf16"));
    Buffer x(DType::BFloat16, {100, 70}, [](int64_t k) { return noise(2, k); });
    Buffer o(DType::BFloat16, {64, 32});
    InterpreterOptions options;
    options.undeterminedPadding = m.undetermined;
    REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}, options) == "");
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < 32; ++c) {
        double v = o.at(r, c);
        if (64 + r < 100 && 64 + c < 70)
          REQUIRE(v == x.at(64 + r, 64 + c));
        else if (std::isnan(m.value))
          REQUIRE(std::isnan(v));
        else
          REQUIRE((v == m.value && (v != 0 || std::signbit(v) == m.negZero)));
      }
  }
}

TEST_CASE("integer loads pad with zero, undetermined ones too unless poison is asked for", "[interpreter][memory]") {
  for (bool zero : {true, false}) {
    Program p(Program::Mlir{}, replaceAll(replaceAll(kPadded, "PADDING", zero ? "padding = zero" : ""), "DT", "i16"));
    Buffer x(DType::Int16, {100, 70}, [](int64_t k) { return k; });
    Buffer o(DType::Int16, {64, 32}), byDefault(DType::Int16, {64, 32});
    REQUIRE(p.run({1, 1, 1}, {x.arg(), byDefault.arg()}) == "");
    CHECK(byDefault.at(36, 0) == 0); // the default is what the GPU reads
    InterpreterOptions poison;
    poison.undeterminedPadding = UndeterminedPadding::Poison;
    REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}, poison) == "");
    CHECK(o.at(0, 0) == x.at(64, 64));
    CHECK(o.at(35, 5) == x.at(99, 69));
    CHECK(o.at(36, 0) == (zero ? 0 : -32768));
    CHECK(o.at(0, 6) == (zero ? 0 : -32768));
  }
}

TEST_CASE("float8_e4m3fn has no infinity: pos_inf padding becomes NaN", "[interpreter][memory]") {
  Program p(Program::Mlir{}, replaceAll(replaceAll(kPadded, "PADDING", "padding = pos_inf"), "DT", "f8E4M3FN"));
  Buffer x(DType::Float8E4M3FN, {100, 70}, [](int64_t k) { return noise(3, k) * 100; });
  Buffer o(DType::Float8E4M3FN, {64, 32});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}) == "");
  CHECK(o.at(0, 0) == x.at(64, 64));
  CHECK(std::isnan(o.at(63, 31)));
}

TEST_CASE("order loads and stores a permuted view, indices counting tiles of the result", "[interpreter][memory]") {
  // Result dim d runs along array dim order[d]; index d counts tiles of result dim d.
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @t(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>) {
  %i = tile.bid 0
  %j = tile.bid 1
  %t = tile.load %x[%i, %j] padding = zero order = [1, 0] : !tile.array<?x?xf32>[i32, i32] -> tensor<16x8xf32>
  tile.store %t, %y[%i, %j] : tensor<16x8xf32>, !tile.array<?x?xf32>[i32, i32]
  tile.return
}
)mlir");
  // x is 20x40; y = x^T is 40x20. Tile (i, j): rows j*8.. of x, cols i*16.. of x.
  Buffer x(DType::Float32, {20, 40}, [](int64_t k) { return k; });
  Buffer y(DType::Float32, {40, 20}, [](int64_t) { return -1; });
  REQUIRE(p.run({3, 3, 1}, {x.arg(), y.arg()}) == "");
  for (int64_t r = 0; r < 40; ++r)
    for (int64_t c = 0; c < 20; ++c)
      REQUIRE(y.at(r, c) == x.at(c, r));

  // A 3-D order, and a store with order writing back through the same view.
  Program q(Program::Mlir{}, R"mlir(
tile.kernel @t3(%x: !tile.array<?x?x?xi32>, %y: !tile.array<?x?x?xi32>, %o: !tile.array<?x?x?xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = tile.load %x[%c1, %c0, %c0] order = [2, 0, 1] : !tile.array<?x?x?xi32>[i32, i32, i32] -> tensor<4x2x8xi32>
  tile.store %t, %o[%c0, %c0, %c0] : tensor<4x2x8xi32>, !tile.array<?x?x?xi32>[i32, i32, i32]
  tile.store %t, %y[%c1, %c0, %c0] order = [2, 0, 1] : tensor<4x2x8xi32>, !tile.array<?x?x?xi32>[i32, i32, i32]
  tile.return
}
)mlir");
  Buffer x3(DType::Int32, {2, 8, 8}, [](int64_t k) { return k; });
  Buffer y3(DType::Int32, {2, 8, 8}, [](int64_t) { return -1; });
  Buffer o3(DType::Int32, {4, 2, 8});
  REQUIRE(q.run({1, 1, 1}, {x3.arg(), y3.arg(), o3.arg()}) == "");
  // o[a][b][c] = x[b][c][4 + a]: result dim 0 runs along x dim 2 at tile 1 (elements 4..7).
  for (int64_t a = 0; a < 4; ++a)
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t c = 0; c < 8; ++c)
        REQUIRE(o3.get((a * 2 + b) * 8 + c) == x3.get((b * 8 + c) * 8 + 4 + a));
  for (int64_t k = 0; k < 128; ++k) {
    bool written = k % 8 >= 4; // dim 2 in 4..7, all of dims 0 and 1
    REQUIRE(y3.get(k) == (written ? x3.get(k) : -1));
  }
}

TEST_CASE("strided, column-major and negative-stride views load and store correctly", "[interpreter][memory]") {
  Program p(Program::Mlir{}, kCopy);
  Buffer src(DType::Float32, {100, 70}, [](int64_t k) { return k; });
  // Column-major copy of src.
  Buffer colMajor(DType::Float32, {70, 100});
  for (int64_t i = 0; i < 100; ++i)
    for (int64_t j = 0; j < 70; ++j)
      colMajor.set(j * 100 + i, src.at(i, j));
  HostArray x = HostArray::strided(colMajor.bytes.data(), DType::Float32, {100, 70}, {1, 100});
  // Every other column of a 100x140 buffer.
  Buffer wide(DType::Float32, {100, 140}, [](int64_t) { return -3; });
  HostArray y = HostArray::strided(wide.bytes.data(), DType::Float32, {100, 70}, {140, 2});
  REQUIRE(p.run({2, 3, 1}, {LaunchArg::of(x), LaunchArg::of(y)}) == "");
  for (int64_t i = 0; i < 100; ++i)
    for (int64_t j = 0; j < 140; ++j)
      REQUIRE(wide.at(i, j) == (j % 2 ? -3 : src.at(i, j / 2)));

  // Rows reversed: data points at the last row, row stride negative, allocation given.
  Buffer out(DType::Float32, {100, 70});
  char *lastRow = src.bytes.data() + 99 * 70 * sizeof(float);
  HostArray reversed = HostArray::strided(lastRow, DType::Float32, {100, 70}, {-70, 1}, src.bytes.data(),
                                          src.bytes.data() + src.bytes.size());
  REQUIRE(p.run({2, 3, 1}, {LaunchArg::of(reversed), out.arg()}) == "");
  for (int64_t i = 0; i < 100; ++i)
    for (int64_t j = 0; j < 70; ++j)
      REQUIRE(out.at(i, j) == src.at(99 - i, j));
}

TEST_CASE("an access outside the array's allocation is an error, not a memory write", "[interpreter][memory][errors]") {
  Program p(Program::Mlir{}, kCopy);
  Buffer x(DType::Float32, {100, 70});
  Buffer y(DType::Float32, {100, 70}, [](int64_t) { return 5; });
  // A negative row stride from the start of the buffer walks before it.
  HostArray bad = HostArray::strided(y.bytes.data(), DType::Float32, {100, 70}, {-70, 1}, y.bytes.data(),
                                     y.bytes.data() + y.bytes.size());
  InterpreterOptions options;
  options.argNames = {"x", "y"};
  std::string error = p.run({2, 3, 1}, {x.arg(), LaunchArg::of(bad)}, options);
  CHECK_THAT(error, Contains("k.mlir:6:3: error: store out of bounds at index (1, 0) of array argument 'y' "
                             "(shape (100, 70), strides (-70, 1)): element offset -70 lies outside the "
                             "array's allocation (block (0, 0, 0))"));
  for (int64_t k = 0; k < y.size(); ++k)
    REQUIRE(y.get(k) == 5); // the store checks every address before it writes any
  // The same for loads.
  HostArray badLoad = HostArray::strided(x.bytes.data(), DType::Float32, {100, 70}, {70, 2}, x.bytes.data(),
                                         x.bytes.data() + x.bytes.size());
  error = p.run({2, 3, 1}, {LaunchArg::of(badLoad), y.arg()}, options);
  CHECK_THAT(error, Contains("error: load out of bounds at index (99, 35) of array argument 'x'"));
  CHECK_THAT(error, Contains("(block (1, 1, 0))"));
}

TEST_CASE("tile indices and offsets are 64-bit", "[interpreter][memory]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @far(%x: !tile.array<?x?xf32>, %y: !tile.array<?x?xf32>, %row: i64) {
  %c0 = arith.constant 0 : i64
  %t = tile.load %x[%row, %c0] padding = neg_inf : !tile.array<?x?xf32>[i64, i64] -> tensor<64x4xf32>
  tile.store %t, %y[%c0, %c0] : tensor<64x4xf32>, !tile.array<?x?xf32>[i64, i64]
  tile.return
}
)mlir");
  // 2^33 rows (a zero row stride over one row of memory): the last tile is at row 2^33 - 64.
  Buffer row(DType::Float32, {4}, [](int64_t k) { return k + 1; });
  HostArray x = HostArray::strided(row.bytes.data(), DType::Float32, {int64_t(1) << 33, 4}, {0, 1});
  Buffer y(DType::Float32, {64, 4});
  REQUIRE(p.run({1, 1, 1}, {LaunchArg::of(x), y.arg(), LaunchArg::i64((int64_t(1) << 27) - 1)}) == "");
  for (int64_t k = 0; k < 256; ++k)
    REQUIRE(y.get(k) == k % 4 + 1);
  // A tile index so large that index * 64 overflows 64 bits is simply out of bounds.
  REQUIRE(p.run({1, 1, 1}, {LaunchArg::of(x), y.arg(), LaunchArg::i64(INT64_MAX / 2)}) == "");
  CHECK(y.get(0) == -INFINITY);
  REQUIRE(p.run({1, 1, 1}, {LaunchArg::of(x), y.arg(), LaunchArg::i64(-1)}) == "");
  CHECK(y.get(255) == -INFINITY);
}

TEST_CASE("tile.dim reads the run-time shape", "[interpreter][memory]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @dims(%x: !tile.array<?x?x?xf16>, %o: !tile.array<?xi64>) {
  %d0 = tile.dim %x, 0 : !tile.array<?x?x?xf16>
  %d2 = tile.dim %x, 2 : !tile.array<?x?x?xf16>
  %t = tensor.from_elements %d0, %d2 : tensor<2xi64>
  %c0 = arith.constant 0 : i32
  tile.store %t, %o[%c0] : tensor<2xi64>, !tile.array<?xi64>[i32]
  tile.return
}
)mlir");
  Buffer x(DType::Float16, {3, 5, 7});
  Buffer o(DType::Int64, {2});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}) == "");
  CHECK(o.get(0) == 3);
  CHECK(o.get(1) == 7);
}
