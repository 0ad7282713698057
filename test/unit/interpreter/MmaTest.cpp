// tile.mma: exact products accumulated in the accumulator dtype, one rounding per step,
// against references computed here (fmaf for f32 accumulators, APFloat for f16, ints).

#include "InterpreterTestUtil.h"

#include <cmath>

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

std::string mmaKernel(const std::string &shapeA, const std::string &shapeB, const std::string &shapeC,
                      const std::string &at, const std::string &ct, int rank) {
  std::string dyn = rank == 2 ? "?x?x" : "?x?x?x";
  std::string idx = rank == 2 ? "%z, %z" : "%z, %z, %z";
  std::string idxT = rank == 2 ? "i32, i32" : "i32, i32, i32";
  std::string A = "!tile.array<" + dyn + at + ">", C = "!tile.array<" + dyn + ct + ">";
  std::string ta = "tensor<" + shapeA + "x" + at + ">", tb = "tensor<" + shapeB + "x" + at + ">",
              tc = "tensor<" + shapeC + "x" + ct + ">";
  return "tile.kernel @mma(%a: " + A + ", %b: " + A + ", %c: " + C + ", %d: " + C + ") {\n" +
         "  %z = arith.constant 0 : i32\n" + "  %ta = tile.load %a[" + idx + "] : " + A + "[" + idxT + "] -> " + ta +
         "\n" + "  %tb = tile.load %b[" + idx + "] : " + A + "[" + idxT + "] -> " + tb + "\n" +
         "  %tc = tile.load %c[" + idx + "] : " + C + "[" + idxT + "] -> " + tc + "\n" +
         "  %r = tile.mma %ta, %tb, %tc : " + ta + ", " + tb + ", " + tc + "\n" + "  tile.store %r, %d[" + idx +
         "] : " + tc + ", " + C + "[" + idxT + "]\n" + "  tile.return\n}\n";
}

// Runs a 2-D M x K x N product with random inputs; returns (a, b, c, d) for checking.
struct Mma2D {
  Buffer a, b, c, d;
  Mma2D(DType at, DType ct, int64_t m, int64_t k, int64_t n, double scale, uint64_t seed)
      : a(at, {m, k}, [&](int64_t i) { return noise(seed, i) * scale; }),
        b(at, {k, n}, [&](int64_t i) { return noise(seed + 1, i) * scale; }),
        c(ct, {m, n}, [&](int64_t i) { return noise(seed + 2, i) * scale; }), d(ct, {m, n}) {
    auto name = [](DType t) {
      switch (t) {
      case DType::BFloat16:
        return "bf16";
      case DType::Float16:
        return "f16";
      case DType::TFloat32:
        return "tf32";
      case DType::Float8E4M3FN:
        return "f8E4M3FN";
      case DType::Float8E5M2:
        return "f8E5M2";
      case DType::Float64:
        return "f64";
      case DType::Int8:
        return "i8";
      case DType::Int32:
        return "i32";
      default:
        return "f32";
      }
    };
    auto dims = [](int64_t x, int64_t y) { return std::to_string(x) + "x" + std::to_string(y); };
    Program p(Program::Mlir{}, mmaKernel(dims(m, k), dims(k, n), dims(m, n), name(at), name(ct), 2));
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), c.arg(), d.arg()}) == "");
  }
};

} // namespace

TEST_CASE("mma with bf16, f16, tf32 and f8 inputs accumulates exactly in f32", "[interpreter][mma]") {
  for (DType at :
       {DType::BFloat16, DType::Float16, DType::TFloat32, DType::Float8E4M3FN, DType::Float8E5M2, DType::Float32}) {
    INFO(dtypeName(at));
    Mma2D r(at, DType::Float32, 64, 32, 16, at == DType::Float8E4M3FN || at == DType::Float8E5M2 ? 8 : 2, 10);
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t j = 0; j < 16; ++j) {
        // The inputs as stored (already rounded into their dtype), fused into f32 step by step.
        float s = static_cast<float>(r.c.at(i, j));
        for (int64_t q = 0; q < 32; ++q)
          s = std::fmaf(static_cast<float>(r.a.at(i, q)), static_cast<float>(r.b.at(q, j)), s);
        REQUIRE(r.d.at(i, j) == s);
      }
  }
}

TEST_CASE("mma's bf16 inputs are the rounded values, not the f32 ones they came from", "[interpreter][mma]") {
  // 1 + 2^-8 is not a bf16 value: stored into a bf16 array it rounds to 1 (ties to even).
  Buffer a(DType::BFloat16, {16, 16}, [](int64_t) { return 1 + std::ldexp(1.0, -8); });
  CHECK(a.get(0) == 1.0);
  Buffer b(DType::BFloat16, {16, 16}, [](int64_t k) { return k % 17 == 0 ? 1.0 : 0.0; }); // identity
  Buffer c(DType::Float32, {16, 16}), d(DType::Float32, {16, 16});
  Program p(Program::Mlir{}, mmaKernel("16x16", "16x16", "16x16", "bf16", "f32", 2));
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), c.arg(), d.arg()}) == "");
  for (int64_t k = 0; k < 256; ++k)
    REQUIRE(d.get(k) == 1.0);
}

TEST_CASE("f16 x f16 -> f16 rounds every step into f16", "[interpreter][mma]") {
  Mma2D r(DType::Float16, DType::Float16, 16, 64, 16, 4, 20);
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      llvm::APFloat s(r.c.at(i, j));
      bool lost;
      s.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
      for (int64_t q = 0; q < 64; ++q) {
        llvm::APFloat x(r.a.at(i, q)), y(r.b.at(q, j));
        x.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
        y.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
        x.fusedMultiplyAdd(y, s, llvm::APFloat::rmNearestTiesToEven);
        s = x;
      }
      s.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
      REQUIRE(r.d.at(i, j) == s.convertToDouble());
    }
}

TEST_CASE("f64 mma fuses in double; i8 mma accumulates in wrapping i32", "[interpreter][mma]") {
  Mma2D f(DType::Float64, DType::Float64, 16, 16, 16, 1, 30);
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      double s = f.c.at(i, j);
      for (int64_t q = 0; q < 16; ++q)
        s = std::fma(f.a.at(i, q), f.b.at(q, j), s);
      REQUIRE(f.d.at(i, j) == s);
    }
  Mma2D n(DType::Int8, DType::Int32, 16, 32, 16, 128, 40);
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      int64_t s = static_cast<int64_t>(n.c.at(i, j));
      for (int64_t q = 0; q < 32; ++q)
        s += static_cast<int64_t>(n.a.at(i, q)) * static_cast<int64_t>(n.b.at(q, j));
      REQUIRE(n.d.at(i, j) == static_cast<double>(s)); // small enough not to wrap here
    }
  // Wrapping: 32 products of 127 * 127 on top of INT32_MAX - 10.
  Buffer a(DType::Int8, {16, 32}, [](int64_t) { return 127; }), b(DType::Int8, {32, 16}, [](int64_t) { return 127; });
  Buffer c(DType::Int32, {16, 16}, [](int64_t) { return INT32_MAX - 10; }), d(DType::Int32, {16, 16});
  Program p(Program::Mlir{}, mmaKernel("16x32", "32x16", "16x16", "i8", "i32", 2));
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), c.arg(), d.arg()}) == "");
  CHECK(d.get(0) == static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(INT32_MAX - 10) +
                                                             static_cast<uint32_t>(32 * 127 * 127))));
}

TEST_CASE("batched 3-D mma multiplies each batch", "[interpreter][mma]") {
  Buffer a(DType::BFloat16, {4, 16, 32}, [](int64_t k) { return noise(50, k); });
  Buffer b(DType::BFloat16, {4, 32, 8}, [](int64_t k) { return noise(51, k); });
  Buffer c(DType::Float32, {4, 16, 8}, [](int64_t k) { return noise(52, k); });
  Buffer d(DType::Float32, {4, 16, 8});
  Program p(Program::Mlir{}, mmaKernel("4x16x32", "4x32x8", "4x16x8", "bf16", "f32", 3));
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), c.arg(), d.arg()}) == "");
  for (int64_t batch = 0; batch < 4; ++batch)
    for (int64_t i = 0; i < 16; ++i)
      for (int64_t j = 0; j < 8; ++j) {
        float s = static_cast<float>(c.get((batch * 16 + i) * 8 + j));
        for (int64_t q = 0; q < 32; ++q)
          s = std::fmaf(static_cast<float>(a.get((batch * 16 + i) * 32 + q)),
                        static_cast<float>(b.get((batch * 32 + q) * 8 + j)), s);
        REQUIRE(d.get((batch * 16 + i) * 8 + j) == s);
      }
}

TEST_CASE("f32 mma agrees bit for bit with fmaRound on subnormals, overflow, infinities and NaN",
          "[interpreter][mma]") {
  // The f32 fast path (fmaf, vectorized) against the generic definition: one fmaRound per step.
  // Operands: signed zeros, subnormals, tiny and huge values (products that underflow or
  // overflow); accumulators also start at infinities and NaN.
  const double operands[] = {0.0, -0.0, 1e-40, -3e-39, 1e-20, 3e38, -3e38, 1.5};
  const double starts[] = {INFINITY, -INFINITY, NAN, -1e-42, 0.0, -0.0};
  auto value = [](uint64_t seed, int64_t k, const double *pick, size_t count) {
    double n = noise(seed, k);
    return k % 4 == 0 ? pick[static_cast<size_t>(std::fabs(n) * 1000) % count] : n * 4;
  };
  Buffer a(DType::Float32, {16, 16}, [&](int64_t k) { return value(60, k, operands, 8); });
  Buffer b(DType::Float32, {16, 16}, [&](int64_t k) { return value(61, k, operands, 8); });
  Buffer c(DType::Float32, {16, 16}, [&](int64_t k) { return value(62, k, starts, 6); });
  Buffer d(DType::Float32, {16, 16});
  Program p(Program::Mlir{}, mmaKernel("16x16", "16x16", "16x16", "f32", "f32", 2));
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), c.arg(), d.arg()}) == "");
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      double s = c.at(i, j);
      for (int64_t q = 0; q < 16; ++q)
        s = fmaRound(a.at(i, q), b.at(q, j), s, DType::Float32);
      INFO(i << ", " << j);
      if (std::isnan(s))
        REQUIRE(std::isnan(d.at(i, j)));
      else
        REQUIRE(floatToBits(d.at(i, j), DType::Float32) == floatToBits(s, DType::Float32));
    }
}
