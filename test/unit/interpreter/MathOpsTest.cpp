// math ops: each computed in double and rounded once into the element type; exact cases
// and integer ops checked against values worked out here.

#include "InterpreterTestUtil.h"

#include <cmath>

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

std::string subst(std::string s, const std::map<std::string, std::string> &vars) {
  for (auto &[from, to] : vars)
    for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
      s.replace(pos, from.size(), to);
  return s;
}

const char *kUnary = R"mlir(
tile.kernel @un(%a: !tile.array<?xT>, %o: !tile.array<?xR>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xT>[i32] -> tensor<16xT>
  %r = OP %x : tensor<16xT>
  tile.store %r, %o[%z] : tensor<16xR>, !tile.array<?xR>[i32]
  tile.return
}
)mlir";

const char *kBinary = R"mlir(
tile.kernel @bin(%a: !tile.array<?xT>, %b: !tile.array<?xU>, %o: !tile.array<?xT>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xT>[i32] -> tensor<16xT>
  %y = tile.load %b[%z] : !tile.array<?xU>[i32] -> tensor<16xU>
  %r = OP %x, %y : $SIG
  tile.store %r, %o[%z] : tensor<16xT>, !tile.array<?xT>[i32]
  tile.return
}
)mlir";

Buffer runUnary(const std::string &op, const char *t, DType dt, const std::function<double(int64_t)> &init,
                const char *r = nullptr, DType dr = DType::Float32) {
  Program p(Program::Mlir{}, subst(kUnary, {{"OP", op}, {"T", t}, {"R", r ? r : t}}));
  Buffer a(dt, {16}, init), o(r ? dr : dt, {16});
  REQUIRE(p.run({1, 1, 1}, {a.arg(), o.arg()}) == "");
  return o;
}

} // namespace

TEST_CASE("each float math op is the libm value rounded once into the element type", "[interpreter][math]") {
  const std::pair<const char *, double (*)(double)> ops[] = {
      {"math.exp", [](double x) { return std::exp(x); }},
      {"math.exp2", [](double x) { return std::exp2(x); }},
      {"math.expm1", [](double x) { return std::expm1(x); }},
      {"math.log", [](double x) { return std::log(std::fabs(x)); }},
      {"math.log2", [](double x) { return std::log2(std::fabs(x)); }},
      {"math.log10", [](double x) { return std::log10(std::fabs(x)); }},
      {"math.log1p", [](double x) { return std::log1p(std::fabs(x)); }},
      {"math.sqrt", [](double x) { return std::sqrt(std::fabs(x)); }},
      {"math.rsqrt", [](double x) { return 1 / std::sqrt(std::fabs(x)); }},
      {"math.cbrt", [](double x) { return std::cbrt(x); }},
      {"math.sin", [](double x) { return std::sin(x); }},
      {"math.cos", [](double x) { return std::cos(x); }},
      {"math.tan", [](double x) { return std::tan(x); }},
      {"math.tanh", [](double x) { return std::tanh(x); }},
      {"math.atan", [](double x) { return std::atan(x); }},
      {"math.erf", [](double x) { return std::erf(x); }},
      {"math.absf", [](double x) { return std::fabs(x); }},
      {"math.floor", [](double x) { return std::floor(x); }},
      {"math.ceil", [](double x) { return std::ceil(x); }},
      {"math.trunc", [](double x) { return std::trunc(x); }},
      {"math.round", [](double x) { return std::round(x); }},
  };
  // log/sqrt get |x| so that every value is in their domain.
  bool needsAbs = false;
  for (auto &[op, f] : ops)
    for (auto [t, dt] :
         {std::pair{"f32", DType::Float32}, std::pair{"bf16", DType::BFloat16}, std::pair{"f16", DType::Float16}}) {
      std::string name = op;
      needsAbs = name.find("log") != std::string::npos || name.find("sqrt") != std::string::npos;
      INFO(op << " " << t);
      auto init = [&](int64_t k) { return (needsAbs ? std::fabs(noise(100, k)) + 0.01 : noise(100, k)) * 6; };
      Buffer o = runUnary(op, t, dt, init);
      for (int k = 0; k < 16; ++k) {
        double x = rounded(init(k), dt);
        REQUIRE(o.get(k) == rounded(f(x), dt));
      }
    }
}

TEST_CASE("math exact cases: powers, roots, rounding of halves, signed zeros, infinities", "[interpreter][math]") {
  const double xs[16] = {3, -2.5, 2.5, -0.0, 0.5, -0.5, 1.5, 4, 0, -1, 1e30, -1e30, 0.25, 16, 100, -3.5};
  auto init = [&](int64_t k) { return xs[k]; };
  Buffer e2 = runUnary("math.exp2", "f32", DType::Float32, init);
  CHECK(e2.get(0) == 8);
  CHECK(e2.get(1) == std::exp2(-2.5f));
  Buffer rt = runUnary("math.sqrt", "f32", DType::Float32, init);
  CHECK(rt.get(7) == 2);
  CHECK(std::isnan(rt.get(9)));
  CHECK(rt.get(13) == 4);
  Buffer rs = runUnary("math.rsqrt", "f32", DType::Float32, init);
  CHECK(rs.get(13) == 0.25);
  CHECK(rs.get(8) == INFINITY);
  Buffer lg = runUnary("math.log", "f32", DType::Float32, init);
  CHECK(lg.get(8) == -INFINITY);
  Buffer re = runUnary("math.roundeven", "f32", DType::Float32, init);
  Buffer ro = runUnary("math.round", "f32", DType::Float32, init);
  const double even[16] = {3, -2, 2, -0.0, 0, -0.0, 2, 4, 0, -1, 1e30, -1e30, 0, 16, 100, -4};
  const double away[16] = {3, -3, 3, -0.0, 1, -1, 2, 4, 0, -1, 1e30, -1e30, 0, 16, 100, -4};
  for (int k = 0; k < 16; ++k) {
    INFO(xs[k]);
    CHECK(re.get(k) == rounded(even[k], DType::Float32));
    CHECK(std::signbit(re.get(k)) == std::signbit(even[k]));
    CHECK(ro.get(k) == rounded(away[k], DType::Float32));
  }
  Buffer ab = runUnary("math.absf", "f32", DType::Float32, init);
  CHECK_FALSE(std::signbit(ab.get(3)));
  Buffer th = runUnary("math.tanh", "bf16", DType::BFloat16, init);
  CHECK(th.get(10) == 1);
  CHECK(th.get(11) == -1);
  // exp of 100 overflows f16 to infinity.
  Buffer ex = runUnary("math.exp", "f16", DType::Float16, init);
  CHECK(ex.get(14) == INFINITY);
}

TEST_CASE("float classification ops return i1", "[interpreter][math]") {
  double nan = std::nan("");
  const double xs[16] = {1, nan, INFINITY, -INFINITY, 0, 1e-5, 7e-5, -1e-6, 65504, 3, 0, 0, 0, 0, 0, 0};
  auto init = [&](int64_t k) { return xs[k]; };
  Buffer isnan = runUnary("math.isnan", "f16", DType::Float16, init, "i1", DType::Bool);
  Buffer isinf = runUnary("math.isinf", "f16", DType::Float16, init, "i1", DType::Bool);
  Buffer isfin = runUnary("math.isfinite", "f16", DType::Float16, init, "i1", DType::Bool);
  Buffer isnorm = runUnary("math.isnormal", "f16", DType::Float16, init, "i1", DType::Bool);
  for (int k = 0; k < 10; ++k) {
    double x = rounded(xs[k], DType::Float16);
    INFO(x);
    CHECK(isnan.get(k) == std::isnan(x));
    CHECK(isinf.get(k) == std::isinf(x));
    CHECK(isfin.get(k) == std::isfinite(x));
    // Normal in f16, whose smallest normal is 2^-14 (6.1e-5): 1e-5 is subnormal there.
    CHECK(isnorm.get(k) == (std::isfinite(x) && std::fabs(x) >= std::ldexp(1.0, -14)));
  }
}

TEST_CASE("powf, atan2, copysign, fpowi and fma", "[interpreter][math]") {
  auto run2 = [](const std::string &op, const char *t, DType dt, const char *u, DType du, const std::string &types,
                 const std::function<double(int64_t)> &fa, const std::function<double(int64_t)> &fb) {
    Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"$SIG", types}, {"T", t}, {"U", u}}));
    Buffer a(dt, {16}, fa), b(du, {16}, fb), o(dt, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
    return std::make_tuple(a, b, o);
  };
  auto pos = [](int64_t k) { return 0.1 + std::fabs(noise(110, k)) * 3; };
  auto any = [](int64_t k) { return noise(111, k) * 3; };
  {
    auto [a, b, o] = run2("math.powf", "bf16", DType::BFloat16, "bf16", DType::BFloat16, "tensor<16xbf16>", pos, any);
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == rounded(std::pow(a.get(k), b.get(k)), DType::BFloat16));
  }
  {
    auto [a, b, o] = run2("math.atan2", "f32", DType::Float32, "f32", DType::Float32, "tensor<16xf32>", any, any);
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == rounded(std::atan2(a.get(k), b.get(k)), DType::Float32));
  }
  {
    auto [a, b, o] = run2("math.copysign", "f32", DType::Float32, "f32", DType::Float32, "tensor<16xf32>", pos, any);
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == std::copysign(a.get(k), b.get(k)));
  }
  {
    auto [a, b, o] = run2("math.fpowi", "f32", DType::Float32, "i32", DType::Int32, "tensor<16xf32>, tensor<16xi32>",
                          any, [](int64_t k) { return k - 8; });
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == rounded(std::pow(a.get(k), k - 8.0), DType::Float32));
  }
  Program f(Program::Mlir{}, R"mlir(
tile.kernel @fma(%a: !tile.array<?xf32>, %o: !tile.array<?xf32>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xf32>[i32] -> tensor<16xf32>
  %n = arith.negf %x : tensor<16xf32>
  %sq = arith.mulf %x, %x : tensor<16xf32>
  %nsq = arith.negf %sq : tensor<16xf32>
  %r = math.fma %x, %x, %nsq : tensor<16xf32>
  tile.store %r, %o[%z] : tensor<16xf32>, !tile.array<?xf32>[i32]
  tile.return
}
)mlir");
  // fma(x, x, -round(x*x)) is the rounding error of x*x: exact, and not zero in general.
  Buffer a(DType::Float32, {16}, [](int64_t k) { return 1 + noise(112, k); }), o(DType::Float32, {16});
  REQUIRE(f.run({1, 1, 1}, {a.arg(), o.arg()}) == "");
  int nonzero = 0;
  for (int k = 0; k < 16; ++k) {
    float x = static_cast<float>(a.get(k));
    REQUIRE(o.get(k) == std::fmaf(x, x, -(x * x)));
    nonzero += o.get(k) != 0;
  }
  CHECK(nonzero > 0);
}

TEST_CASE("integer math: ipowi wraps and follows the folder for negative powers; absi, ctlz, cttz, ctpop",
          "[interpreter][math]") {
  Program p(Program::Mlir{},
            subst(kBinary, {{"OP", "math.ipowi"}, {"$SIG", "tensor<16xi32>"}, {"T", "i32"}, {"U", "i32"}}));
  const int64_t bases[16] = {2, 3, -2, 0, 1, -1, -1, 5, 7, 2, 10, -3, 0, 1, 2, 65536};
  const int64_t exps[16] = {10, 4, 3, 0, -5, -3, -4, -1, 0, 31, 9, 5, 3, 100, 32, 2};
  Buffer a(DType::Int32, {16}, [&](int64_t k) { return bases[k]; });
  Buffer b(DType::Int32, {16}, [&](int64_t k) { return exps[k]; });
  Buffer o(DType::Int32, {16});
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
  for (int k = 0; k < 16; ++k) {
    int64_t want;
    if (exps[k] < 0)
      want = bases[k] == 1 ? 1 : bases[k] == -1 ? (exps[k] % 2 ? -1 : 1) : 0;
    else {
      uint32_t r = 1;
      for (int64_t i = 0; i < exps[k]; ++i)
        r *= static_cast<uint32_t>(bases[k]);
      want = static_cast<int32_t>(r);
    }
    INFO(bases[k] << " ** " << exps[k]);
    REQUIRE(o.get(k) == want);
  }
  // 0 ** -1 divides by zero.
  Buffer z(DType::Int32, {16}), m(DType::Int32, {16}, [](int64_t) { return -1; });
  CHECK_THAT(p.run({1, 1, 1}, {z.arg(), m.arg(), o.arg()}),
             Catch::Matchers::Contains("division by zero in 'math.ipowi'"));

  const int64_t vs[16] = {0, 1, -1, 127, -128, 8, 16, 96, -96, 3, 64, 2, 4, -2, 100, -100};
  auto init = [&](int64_t k) { return vs[k]; };
  Buffer abs = runUnary("math.absi", "i8", DType::Int8, init, "i8", DType::Int8);
  Buffer clz = runUnary("math.ctlz", "i8", DType::Int8, init, "i8", DType::Int8);
  Buffer ctz = runUnary("math.cttz", "i8", DType::Int8, init, "i8", DType::Int8);
  Buffer pop = runUnary("math.ctpop", "i8", DType::Int8, init, "i8", DType::Int8);
  for (int k = 0; k < 16; ++k) {
    uint8_t u = static_cast<uint8_t>(vs[k]);
    int lead = 0, trail = 0, ones = 0;
    for (int bit = 7; bit >= 0 && !((u >> bit) & 1); --bit)
      ++lead;
    for (int bit = 0; bit < 8 && !((u >> bit) & 1); ++bit)
      ++trail;
    for (int bit = 0; bit < 8; ++bit)
      ones += (u >> bit) & 1;
    INFO(vs[k]);
    REQUIRE(abs.get(k) == static_cast<int8_t>(vs[k] < 0 ? -vs[k] : vs[k])); // abs(-128) wraps to -128
    REQUIRE(clz.get(k) == lead);
    REQUIRE(ctz.get(k) == trail);
    REQUIRE(pop.get(k) == ones);
  }
}
