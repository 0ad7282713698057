// Kernels written in the language, compiled by the front end and run by the interpreter,
// against references computed here: the docs/language.md example on ragged shapes, a tiled matmul
// with a ragged K loop, and a row softmax.

#include "InterpreterTestUtil.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

// A file of the repository. The root comes from CMake: __FILE__ is relative when ccache's
// base_dir rewrites paths, and then depends on the working directory.
std::string readKernelFile(const std::string &relative) {
  std::ifstream in(std::string(TILE_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("scale_rows (the language example) on ragged shapes matches a bf16 reference", "[interpreter][kernels]") {
  std::string source = readKernelFile("kernels/examples/scale_rows.py");
  REQUIRE_FALSE(source.empty());
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{100, 70}, {64, 32}, {1, 1}, {130, 33}}) {
    INFO(rows << "x" << cols);
    Program p(Program::Python{}, source,
              spec("scale_rows", {{"x", {"float32", 2}}, {"s", {"float32", 1}}, {"out", {"bfloat16", 2}}},
                   {{"TM", int64_t(64)}, {"TN", int64_t(32)}}));
    Buffer x(DType::Float32, {rows, cols}, [](int64_t k) { return noise(130, k) * 10; });
    Buffer s(DType::Float32, {rows}, [](int64_t k) { return noise(131, k); });
    Buffer out(DType::BFloat16, {rows, cols}, [](int64_t) { return 99; });
    Dim3 grid{(rows + 63) / 64, (cols + 31) / 32, 1};
    REQUIRE(p.run(grid, {x.arg(), s.arg(), out.arg()}) == "");
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        REQUIRE(out.at(i, j) ==
                rounded(static_cast<float>(x.at(i, j)) * static_cast<float>(s.get(i)), DType::BFloat16));
  }
}

TEST_CASE("a tiled bf16 matmul with a ragged K loop accumulates exactly in f32", "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def matmul(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (i, k), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (k, j), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (i, j), acc)
)py",
            spec("matmul", {{"a", {"bfloat16", 2}}, {"b", {"bfloat16", 2}}, {"c", {"float32", 2}}},
                 {{"BM", int64_t(32)}, {"BN", int64_t(16)}, {"BK", int64_t(16)}}));
  const int64_t M = 50, N = 40, K = 37;
  Buffer a(DType::BFloat16, {M, K}, [](int64_t k) { return noise(140, k); });
  Buffer b(DType::BFloat16, {K, N}, [](int64_t k) { return noise(141, k); });
  Buffer c(DType::Float32, {M, N});
  REQUIRE(p.run({2, 3, 1}, {a.arg(), b.arg(), c.arg()}) == "");
  double worst = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      // Padded K elements add exact zeros: the same as stopping at K.
      float s = 0;
      double exact = 0;
      for (int64_t q = 0; q < K; ++q) {
        s = std::fmaf(static_cast<float>(a.at(i, q)), static_cast<float>(b.at(q, j)), s);
        exact += a.at(i, q) * b.at(q, j);
      }
      REQUIRE(c.at(i, j) == s);
      worst = std::max(worst, std::fabs(c.at(i, j) - exact));
    }
  CHECK(worst < 1e-5); // and close to the float64 product
}

TEST_CASE("a row softmax with a masked ragged edge matches a float64 reference", "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def softmax(x, y, BM: ct.Constant[int], BN: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i, 0), (BM, BN), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, (i, 0), e / s)
)py",
            spec("softmax", {{"x", {"float32", 2}}, {"y", {"float32", 2}}}, {{"BM", int64_t(8)}, {"BN", int64_t(64)}}));
  const int64_t R = 19, C = 45;
  Buffer x(DType::Float32, {R, C}, [](int64_t k) { return noise(150, k) * 5; });
  Buffer y(DType::Float32, {R, C});
  REQUIRE(p.run({3, 1, 1}, {x.arg(), y.arg()}) == "");
  for (int64_t i = 0; i < R; ++i) {
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < C; ++j)
      m = std::max(m, x.at(i, j));
    for (int64_t j = 0; j < C; ++j)
      s += std::exp(x.at(i, j) - m);
    for (int64_t j = 0; j < C; ++j)
      REQUIRE(y.at(i, j) == Approx(std::exp(x.at(i, j) - m) / s).epsilon(1e-6));
  }
}

TEST_CASE("ct.tan, ct.sinh and ct.cosh (and math.tan on run-time values) are libm's values rounded once",
          "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct
import math

@ct.kernel
def k(x, tan_out, sinh_out, cosh_out, mtan_out):
    t = ct.load(x, (0,), (32,))
    ct.store(tan_out, (0,), ct.tan(t))
    ct.store(sinh_out, (0,), ct.sinh(t))
    ct.store(cosh_out, (0,), ct.cosh(t))
    ct.store(mtan_out, (0,), math.tan(t))
)py",
            spec("k", {{"x", {"float32", 1}},
                       {"tan_out", {"float32", 1}},
                       {"sinh_out", {"float32", 1}},
                       {"cosh_out", {"float32", 1}},
                       {"mtan_out", {"float32", 1}}}));
  // Values across sinh's series (|x| < 0.5) and exponential ranges, both signs.
  Buffer x(DType::Float32, {32}, [](int64_t k) { return (k - 16) * 0.19 + noise(7, k) * 0.01; });
  Buffer tanOut(DType::Float32, {32}), sinhOut(DType::Float32, {32}), coshOut(DType::Float32, {32}),
      mtanOut(DType::Float32, {32});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), tanOut.arg(), sinhOut.arg(), coshOut.arg(), mtanOut.arg()}) == "");
  for (int64_t k = 0; k < 32; ++k) {
    double v = x.get(k);
    INFO("x = " << v);
    CHECK(tanOut.get(k) == rounded(std::tan(v), DType::Float32));
    CHECK(mtanOut.get(k) == rounded(std::tan(v), DType::Float32));
    CHECK(sinhOut.get(k) == rounded(std::sinh(v), DType::Float32));
    CHECK(coshOut.get(k) == rounded(std::cosh(v), DType::Float32));
  }
}

TEST_CASE("ct.bitcast keeps the bits, ct.astile makes a 0-d tile, the compile-time helpers pass values through",
          "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def k(x, n: int, bits, back, scalars):
    t = ct.load(x, (0,), (16,))
    b = ct.bitcast(t, ct.int32)
    ct.store(bits, (0,), b)
    ct.store(back, (0,), ct.bitcast(b + ct.static_eval(2 - 1), ct.float32))
    m = ct.assume_divisible_by(n, 4) + ct.ensure_constant(3)
    ct.store(scalars, (0,), ct.reshape(ct.astile(m, dtype=ct.float32), (1,)))
)py",
            spec("k", {{"x", {"float32", 1}},
                       {"n", {"int32", 0}},
                       {"bits", {"int32", 1}},
                       {"back", {"float32", 1}},
                       {"scalars", {"float32", 1}}}));
  Buffer x(DType::Float32, {16}, [](int64_t k) { return noise(11, k) * 100; });
  Buffer bits(DType::Int32, {16}), back(DType::Float32, {16}), scalars(DType::Float32, {1});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), LaunchArg::i32(8), bits.arg(), back.arg(), scalars.arg()}) == "");
  for (int64_t k = 0; k < 16; ++k) {
    float f = static_cast<float>(x.get(k));
    int32_t i;
    std::memcpy(&i, &f, 4);
    CHECK(bits.get(k) == i);
    int32_t j = i + 1; // the next float up, as bits
    float g;
    std::memcpy(&g, &j, 4);
    CHECK(back.get(k) == g);
  }
  CHECK(scalars.get(0) == 11.0);
}

TEST_CASE("ct.reduce and ct.scan with a built-in combining function are the named reductions and scans",
          "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def k(x, y, d_sum, d_max, d_scan, d_imin):
    t = ct.load(x, (0, 0), (16, 16))
    k = ct.load(y, (0, 0), (16, 16))
    ct.store(d_sum, (0,), ct.reduce(t, 0, ct.add, 0) - ct.sum(t, axis=0))
    ct.store(d_max, (0,), ct.reduce(t, 1, ct.maximum, -float("inf")) - ct.max(t, axis=1))
    s = ct.scan(t, 1, ct.add, 0.0, reverse=True) - ct.cumsum(t, axis=1, reverse=True)
    s = s + ct.scan(t, 0, ct.mul, 1) - ct.cumprod(t, axis=0)
    ct.store(d_scan, (0, 0), s)
    ct.store(d_imin, (0,), ct.reduce(k, 0, ct.minimum, 2147483647) - ct.min(k, axis=0))
)py",
            spec("k", {{"x", {"float32", 2}},
                       {"y", {"int32", 2}},
                       {"d_sum", {"float32", 1}},
                       {"d_max", {"float32", 1}},
                       {"d_scan", {"float32", 2}},
                       {"d_imin", {"int32", 1}}}));
  Buffer x(DType::Float32, {16, 16}, [](int64_t k) { return 1 + noise(21, k) * 0.1; });
  Buffer y(DType::Int32, {16, 16}, [](int64_t k) { return std::round(noise(22, k) * 1000); });
  Buffer dSum(DType::Float32, {16}, [](int64_t) { return 99; }), dMax(DType::Float32, {16}, [](int64_t) { return 99; });
  Buffer dScan(DType::Float32, {16, 16}, [](int64_t) { return 99; }),
      dImin(DType::Int32, {16}, [](int64_t) { return 99; });
  REQUIRE(p.run({1, 1, 1}, {x.arg(), y.arg(), dSum.arg(), dMax.arg(), dScan.arg(), dImin.arg()}) == "");
  for (int64_t k = 0; k < 16; ++k) {
    CHECK(dSum.get(k) == 0);
    CHECK(dMax.get(k) == 0);
    CHECK(dImin.get(k) == 0);
    for (int64_t j = 0; j < 16; ++j)
      CHECK(dScan.at(k, j) == 0);
  }
}

TEST_CASE("ct.matmul and ct.mma broadcast a batch of one and 2-D operands over the batch", "[interpreter][kernels]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def k(w, x, out):
    w1 = ct.load(w, (0, 0, 0), (1, 16, 16))
    xs = ct.load(x, (0, 0, 0), (4, 16, 8))
    y = ct.matmul(w1, xs) - ct.reshape(w1, (16, 16)) @ (2.0 * xs)
    y = ct.mma(ct.reshape(w1, (16, 16)), ct.reshape(ct.extract(xs, (1, 0, 0), (1, 16, 8)), (16, 8)), y)
    ct.store(out, (0, 0, 0), y)
)py",
            spec("k", {{"w", {"float32", 3}}, {"x", {"float32", 3}}, {"out", {"float32", 3}}}, {}));
  Buffer w(DType::Float32, {1, 16, 16}, [](int64_t k) { return noise(150, k); });
  Buffer x(DType::Float32, {4, 16, 8}, [](int64_t k) { return noise(151, k); });
  Buffer out(DType::Float32, {4, 16, 8});
  REQUIRE(p.run({1, 1, 1}, {w.arg(), x.arg(), out.arg()}) == "");
  // Batch n: W·X_n - 2 W·X_n + W·X_1 = W·(X_1 - X_n).
  for (int64_t n = 0; n < 4; ++n)
    for (int64_t i = 0; i < 16; ++i)
      for (int64_t j = 0; j < 8; ++j) {
        double exact = 0;
        for (int64_t q = 0; q < 16; ++q)
          exact += w.get(i * 16 + q) * (x.get((16 + q) * 8 + j) - x.get((n * 16 + q) * 8 + j));
        INFO("batch " << n << " (" << i << ", " << j << ")");
        REQUIRE(std::fabs(out.get((n * 16 + i) * 8 + j) - exact) < 1e-4);
      }
}
