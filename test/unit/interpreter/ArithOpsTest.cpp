// arith ops on tiles and scalars: integer semantics per width, float rounding per dtype,
// comparisons, select, casts, constants, division by zero.

#include "InterpreterTestUtil.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tile::interp;
using namespace tile::interp::test;
using Catch::Matchers::Contains;

namespace {

std::string subst(std::string s, const std::map<std::string, std::string> &vars) {
  for (auto &[from, to] : vars)
    for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
      s.replace(pos, from.size(), to);
  return s;
}

// o = OP(a, b) over 16-element tiles of type T (result type R).
const char *kBinary = R"mlir(
tile.kernel @bin(%a: !tile.array<?xT>, %b: !tile.array<?xT>, %o: !tile.array<?xR>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xT>[i32] -> tensor<16xT>
  %y = tile.load %b[%z] : !tile.array<?xT>[i32] -> tensor<16xT>
  %r = OP %x, %y : tensor<16xT>
  tile.store %r, %o[%z] : tensor<16xR>, !tile.array<?xR>[i32]
  tile.return
}
)mlir";

// o = OP(a) converting T to R.
const char *kCast = R"mlir(
tile.kernel @cast(%a: !tile.array<?xT>, %o: !tile.array<?xR>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xT>[i32] -> tensor<16xT>
  %r = OP %x MODE: tensor<16xT> to tensor<16xR>
  tile.store %r, %o[%z] : tensor<16xR>, !tile.array<?xR>[i32]
  tile.return
}
)mlir";

struct IntType {
  const char *name;
  DType dtype;
  unsigned bits;
};
const IntType kInts[] = {{"i8", DType::Int8, 8}, {"i32", DType::Int32, 32}, {"i64", DType::Int64, 64}};

// The test's own wrap-around: the low `bits` bits, sign-extended.
int64_t wrapRef(__int128 v, unsigned bits) {
  uint64_t u = static_cast<uint64_t>(v);
  if (bits == 64)
    return static_cast<int64_t>(u);
  u &= (uint64_t(1) << bits) - 1;
  return static_cast<int64_t>(u << (64 - bits)) >> (64 - bits);
}
uint64_t unsignedRef(int64_t v, unsigned bits) {
  return bits == 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
}

// Pairs (a, b) including the width's extremes; b is never zero.
std::vector<std::pair<int64_t, int64_t>> intPairs(unsigned bits) {
  int64_t mn = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)), mx = -(mn + 1);
  return {{7, 2},   {-7, 2}, {7, -2},  {-7, -2}, {0, 5},   {mn, -1}, {mx, 1}, {mx, mx},
          {mn, mn}, {-1, 3}, {100, 7}, {mn, 2},  {-1, -1}, {6, 3},   {-6, 3}, {mx, -3}};
}

} // namespace

TEST_CASE("integer arithmetic wraps to the width and divides like LLVM (floor/ceil variants like Python)",
          "[interpreter][arith]") {
  using F = std::function<__int128(int64_t, int64_t, unsigned)>;
  auto sdiv = [](int64_t a, int64_t b) -> __int128 { return static_cast<__int128>(a) / b; };
  const std::pair<const char *, F> ops[] = {
      {"arith.addi", [](int64_t a, int64_t b, unsigned) { return static_cast<__int128>(a) + b; }},
      {"arith.subi", [](int64_t a, int64_t b, unsigned) { return static_cast<__int128>(a) - b; }},
      {"arith.muli", [](int64_t a, int64_t b, unsigned) { return static_cast<__int128>(a) * b; }},
      {"arith.divsi", [&](int64_t a, int64_t b, unsigned) { return sdiv(a, b); }},
      {"arith.remsi", [](int64_t a, int64_t b, unsigned) { return static_cast<__int128>(a) % b; }},
      {"arith.floordivsi",
       [](int64_t a, int64_t b, unsigned) {
         __int128 q = static_cast<__int128>(a) / b, r = static_cast<__int128>(a) % b;
         return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
       }},
      {"arith.ceildivsi",
       [](int64_t a, int64_t b, unsigned) {
         __int128 q = static_cast<__int128>(a) / b, r = static_cast<__int128>(a) % b;
         return (r != 0 && ((r < 0) == (b < 0))) ? q + 1 : q;
       }},
      {"arith.divui", [](int64_t a, int64_t b, unsigned w) { return __int128(unsignedRef(a, w) / unsignedRef(b, w)); }},
      {"arith.remui", [](int64_t a, int64_t b, unsigned w) { return __int128(unsignedRef(a, w) % unsignedRef(b, w)); }},
      {"arith.ceildivui",
       [](int64_t a, int64_t b, unsigned w) {
         uint64_t x = unsignedRef(a, w), y = unsignedRef(b, w);
         return __int128(x / y + (x % y != 0));
       }},
      {"arith.andi", [](int64_t a, int64_t b, unsigned) { return __int128(a & b); }},
      {"arith.ori", [](int64_t a, int64_t b, unsigned) { return __int128(a | b); }},
      {"arith.xori", [](int64_t a, int64_t b, unsigned) { return __int128(a ^ b); }},
      {"arith.maxsi", [](int64_t a, int64_t b, unsigned) { return __int128(std::max(a, b)); }},
      {"arith.minsi", [](int64_t a, int64_t b, unsigned) { return __int128(std::min(a, b)); }},
      {"arith.maxui", [](int64_t a, int64_t b,
                         unsigned w) { return unsignedRef(a, w) > unsignedRef(b, w) ? __int128(a) : __int128(b); }},
      {"arith.minui", [](int64_t a, int64_t b,
                         unsigned w) { return unsignedRef(a, w) < unsignedRef(b, w) ? __int128(a) : __int128(b); }},
  };
  for (const IntType &t : kInts) {
    auto pairs = intPairs(t.bits);
    for (auto &[op, ref] : ops) {
      INFO(op << " " << t.name);
      Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"T", t.name}, {"R", t.name}}));
      Buffer a(t.dtype, {16}), b(t.dtype, {16}), o(t.dtype, {16});
      for (int k = 0; k < 16; ++k) {
        a.set(k, static_cast<double>(pairs[k].first));
        b.set(k, static_cast<double>(pairs[k].second));
      }
      // i64 extremes are not exact as doubles: write the raw bits.
      for (int k = 0; k < 16; ++k) {
        writeInt(a.bytes.data() + k * dtypeSize(t.dtype), t.dtype, pairs[k].first);
        writeInt(b.bytes.data() + k * dtypeSize(t.dtype), t.dtype, pairs[k].second);
      }
      REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
      for (int k = 0; k < 16; ++k) {
        auto [x, y] = pairs[k];
        INFO(x << " , " << y);
        int64_t want = (std::string(op) == "arith.divsi" || std::string(op) == "arith.floordivsi" ||
                        std::string(op) == "arith.ceildivsi" || std::string(op) == "arith.remsi") &&
                               y == -1
                           ? wrapRef(std::string(op) == "arith.remsi" ? 0 : -static_cast<__int128>(x), t.bits)
                           : wrapRef(ref(x, y, t.bits), t.bits);
        REQUIRE(readInt(o.bytes.data() + k * dtypeSize(t.dtype), t.dtype) == want);
      }
    }
  }
}

TEST_CASE("shifts take unsigned amounts; amounts >= the width give 0 or the sign", "[interpreter][arith]") {
  const int64_t values[16] = {1, -1, 5, -128, 127, 64, -2, 3, 1, -1, 96, -96, 0, 1, -7, 7};
  const int64_t amounts[16] = {0, 1, 2, 3, 7, 8, 9, -1, 6, 7, 1, 1, 3, 100, 4, 0};
  for (const char *op : {"arith.shli", "arith.shrsi", "arith.shrui"}) {
    Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"T", "i8"}, {"R", "i8"}}));
    Buffer a(DType::Int8, {16}, [&](int64_t k) { return values[k]; });
    Buffer b(DType::Int8, {16}, [&](int64_t k) { return amounts[k]; });
    Buffer o(DType::Int8, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
    for (int k = 0; k < 16; ++k) {
      uint64_t amount = unsignedRef(amounts[k], 8);
      int64_t want;
      if (std::string(op) == "arith.shli")
        want = amount >= 8 ? 0 : wrapRef(static_cast<__int128>(values[k]) << amount, 8);
      else if (std::string(op) == "arith.shrsi")
        want = amount >= 8 ? (values[k] < 0 ? -1 : 0) : values[k] >> amount;
      else
        want = amount >= 8 ? 0 : wrapRef(unsignedRef(values[k], 8) >> amount, 8);
      INFO(op << " " << values[k] << " by " << amounts[k]);
      REQUIRE(o.get(k) == want);
    }
  }
}

TEST_CASE("integer division by zero stops the kernel with the op's location", "[interpreter][arith][errors]") {
  for (const char *op : {"arith.divsi", "arith.remui", "arith.floordivsi", "arith.ceildivsi"}) {
    Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"T", "i32"}, {"R", "i32"}}));
    Buffer a(DType::Int32, {16}, [](int64_t k) { return k; });
    Buffer b(DType::Int32, {16}, [](int64_t k) { return k == 3 ? 0 : 1; });
    Buffer o(DType::Int32, {16});
    std::string error = p.run({2, 1, 1}, {a.arg(), b.arg(), o.arg()});
    CHECK_THAT(error, Contains("k.mlir:6:8: error: integer division by zero in '" + std::string(op) +
                               "' at element (3,) (block (0, 0, 0))"));
  }
  // Scalars: ct.cdiv of a run-time zero.
  Program s(Program::Mlir{}, R"mlir(
tile.kernel @s(%n: i64, %d: i64) {
  %q = arith.ceildivsi %n, %d : i64
  tile.return
}
)mlir");
  CHECK_THAT(s.run({1, 1, 1}, {LaunchArg::i64(10), LaunchArg::i64(0)}),
             Contains("k.mlir:3:8: error: integer division by zero in 'arith.ceildivsi' (block (0, 0, 0))"));
}

TEST_CASE("float arithmetic rounds into the element type after every op", "[interpreter][arith]") {
  const std::pair<const char *, std::function<double(double, double)>> ops[] = {
      {"arith.addf", [](double a, double b) { return a + b; }},
      {"arith.subf", [](double a, double b) { return a - b; }},
      {"arith.mulf", [](double a, double b) { return a * b; }},
      {"arith.divf", [](double a, double b) { return a / b; }},
      {"arith.remf", [](double a, double b) { return std::fmod(a, b); }},
  };
  for (const char *t : {"bf16", "f16", "f32", "f8E5M2"}) {
    DType dt = *parseDType(std::string(t) == "f8E5M2" ? "float8_e5m2" : t);
    for (auto &[op, ref] : ops) {
      INFO(op << " " << t);
      Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"T", t}, {"R", t}}));
      Buffer a(dt, {16}, [](int64_t k) { return noise(90, k) * 100; });
      Buffer b(dt, {16}, [](int64_t k) { return noise(91, k) * 3; });
      Buffer o(dt, {16});
      REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
      for (int k = 0; k < 16; ++k)
        REQUIRE(o.get(k) == rounded(ref(a.get(k), b.get(k)), dt));
    }
  }
  // bf16: 1 + 2^-8 is a tie and rounds to 1; f32 keeps it.
  Program p(Program::Mlir{}, subst(kBinary, {{"OP", "arith.addf"}, {"T", "bf16"}, {"R", "bf16"}}));
  Buffer a(DType::BFloat16, {16}, [](int64_t) { return 1; });
  Buffer b(DType::BFloat16, {16}, [](int64_t) { return std::ldexp(1.0, -8); });
  Buffer o(DType::BFloat16, {16});
  REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
  CHECK(o.get(0) == 1.0);
}

TEST_CASE("maximumf/minimumf propagate NaN, maxnumf/minnumf ignore it; negf flips the sign", "[interpreter][arith]") {
  double nan = std::nan("");
  const double xs[16] = {1, nan, 2, -0.0, 0.0, -3, nan, 5, 1, 1, -1, 4, 0, 0, 7, -7};
  const double ys[16] = {2, 1, nan, 0.0, -0.0, -4, nan, 5, -1, 1, -1, 3, 0, 0, -7, 7};
  for (const char *op : {"arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"}) {
    Program p(Program::Mlir{}, subst(kBinary, {{"OP", op}, {"T", "f32"}, {"R", "f32"}}));
    Buffer a(DType::Float32, {16}, [&](int64_t k) { return xs[k]; });
    Buffer b(DType::Float32, {16}, [&](int64_t k) { return ys[k]; });
    Buffer o(DType::Float32, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
    std::string name = op;
    bool isMax = name.find("max") != std::string::npos, propagates = name.find("mum") != std::string::npos;
    for (int k = 0; k < 16; ++k) {
      double x = xs[k], y = ys[k], v = o.get(k);
      INFO(op << " " << x << " " << y);
      if (std::isnan(x) && std::isnan(y))
        REQUIRE(std::isnan(v));
      else if (std::isnan(x) || std::isnan(y))
        REQUIRE((propagates ? std::isnan(v) : v == (std::isnan(x) ? y : x)));
      else if (x == 0 && y == 0) // -0 < +0
        REQUIRE(std::signbit(v) == (isMax ? std::signbit(x) && std::signbit(y) : std::signbit(x) || std::signbit(y)));
      else
        REQUIRE(v == (isMax ? std::max(x, y) : std::min(x, y)));
    }
  }
}

TEST_CASE("cmpf predicates treat NaN as unordered; cmpi distinguishes signed and unsigned", "[interpreter][arith]") {
  double nan = std::nan("");
  const double xs[16] = {1, 2, 2, nan, 1, nan, -0.0, 3, 1, 2, 2, nan, 1, nan, 0.0, -3};
  const double ys[16] = {2, 1, 2, 1, nan, nan, 0.0, 3, 2, 1, 2, 1, nan, nan, -0.0, 3};
  const std::pair<const char *, std::function<bool(double, double)>> fpreds[] = {
      {"false", [](double, double) { return false; }},
      {"oeq", [](double a, double b) { return a == b; }},
      {"ogt", [](double a, double b) { return a > b; }},
      {"oge", [](double a, double b) { return a >= b; }},
      {"olt", [](double a, double b) { return a < b; }},
      {"ole", [](double a, double b) { return a <= b; }},
      {"one", [](double a, double b) { return a < b || a > b; }},
      {"ord", [](double a, double b) { return !std::isnan(a) && !std::isnan(b); }},
      {"ueq", [](double a, double b) { return !(a < b || a > b); }},
      {"ugt", [](double a, double b) { return !(a <= b); }},
      {"uge", [](double a, double b) { return !(a < b); }},
      {"ult", [](double a, double b) { return !(a >= b); }},
      {"ule", [](double a, double b) { return !(a > b); }},
      {"une", [](double a, double b) { return a != b; }},
      {"uno", [](double a, double b) { return std::isnan(a) || std::isnan(b); }},
      {"true", [](double, double) { return true; }}};
  for (auto &[pred, ref] : fpreds) {
    INFO(pred);
    Program p(Program::Mlir{},
              subst(kBinary, {{"OP", std::string("arith.cmpf ") + pred + ","}, {"T", "f16"}, {"R", "i1"}}));
    Buffer a(DType::Float16, {16}, [&](int64_t k) { return xs[k]; });
    Buffer b(DType::Float16, {16}, [&](int64_t k) { return ys[k]; });
    Buffer o(DType::Bool, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == (ref(xs[k], ys[k]) ? 1 : 0));
  }
  const int64_t is[16] = {1, -1, 5, -128, 127, 0, -2, 3, 3, -1, 0, 127, -128, 2, -5, 5};
  const int64_t js[16] = {2, 1, 5, 127, -128, 0, -1, 3, -3, -1, -1, 127, 1, 2, 5, -5};
  const std::pair<const char *, std::function<bool(int64_t, int64_t)>> ipreds[] = {
      {"eq", [](int64_t a, int64_t b) { return a == b; }},
      {"ne", [](int64_t a, int64_t b) { return a != b; }},
      {"slt", [](int64_t a, int64_t b) { return a < b; }},
      {"sle", [](int64_t a, int64_t b) { return a <= b; }},
      {"sgt", [](int64_t a, int64_t b) { return a > b; }},
      {"sge", [](int64_t a, int64_t b) { return a >= b; }},
      {"ult", [](int64_t a, int64_t b) { return uint8_t(a) < uint8_t(b); }},
      {"ule", [](int64_t a, int64_t b) { return uint8_t(a) <= uint8_t(b); }},
      {"ugt", [](int64_t a, int64_t b) { return uint8_t(a) > uint8_t(b); }},
      {"uge", [](int64_t a, int64_t b) { return uint8_t(a) >= uint8_t(b); }}};
  for (auto &[pred, ref] : ipreds) {
    INFO(pred);
    Program p(Program::Mlir{},
              subst(kBinary, {{"OP", std::string("arith.cmpi ") + pred + ","}, {"T", "i8"}, {"R", "i1"}}));
    Buffer a(DType::Int8, {16}, [&](int64_t k) { return is[k]; });
    Buffer b(DType::Int8, {16}, [&](int64_t k) { return js[k]; });
    Buffer o(DType::Bool, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), b.arg(), o.arg()}) == "");
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == (ref(is[k], js[k]) ? 1 : 0));
  }
}

TEST_CASE("select takes a tile or a scalar condition; i1 logic works on tiles", "[interpreter][arith]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @sel(%a: !tile.array<?xf32>, %o: !tile.array<?xf32>, %o2: !tile.array<?xf32>, %flag: i1) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xf32>[i32] -> tensor<8xf32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %pos = arith.cmpf ogt, %x, %zero : tensor<8xf32>
  %big = arith.constant dense<[1.0, 10.0, 1.0, 10.0, 1.0, 10.0, 1.0, 10.0]> : tensor<8xf32>
  %small = arith.cmpf olt, %x, %big : tensor<8xf32>
  %both = arith.andi %pos, %small : tensor<8xi1>
  %either = arith.ori %pos, %small : tensor<8xi1>
  %one = arith.xori %both, %either : tensor<8xi1>
  %r = arith.select %one, %x, %zero : tensor<8xi1>, tensor<8xf32>
  tile.store %r, %o[%z] : tensor<8xf32>, !tile.array<?xf32>[i32]
  %s = arith.select %flag, %x, %zero : tensor<8xf32>
  tile.store %s, %o2[%z] : tensor<8xf32>, !tile.array<?xf32>[i32]
  tile.return
}
)mlir");
  const double xs[8] = {-2, 5, 0.5, 20, -0.5, 9, 3, -11};
  Buffer a(DType::Float32, {8}, [&](int64_t k) { return xs[k]; });
  Buffer o(DType::Float32, {8}), o2(DType::Float32, {8}, [](int64_t) { return 7; });
  REQUIRE(p.run({1, 1, 1}, {a.arg(), o.arg(), o2.arg(), LaunchArg::boolean(false)}) == "");
  const double big[8] = {1, 10, 1, 10, 1, 10, 1, 10};
  for (int k = 0; k < 8; ++k) {
    bool pos = xs[k] > 0, small = xs[k] < big[k];
    CHECK(o.get(k) == ((pos != small) ? xs[k] : 0.0));
    CHECK(o2.get(k) == 0.0);
  }
  REQUIRE(p.run({1, 1, 1}, {a.arg(), o.arg(), o2.arg(), LaunchArg::boolean(true)}) == "");
  for (int k = 0; k < 8; ++k)
    CHECK(o2.get(k) == xs[k]);
}

TEST_CASE("casts: float widths, integer widths, int<->float with saturation, bitcast", "[interpreter][arith][cast]") {
  auto cast = [](const char *op, const char *t, DType dt, const char *r, DType dr,
                 const std::function<double(int64_t)> &init) {
    std::string name = op, mode;
    if (name.find(' ') != std::string::npos) { // "arith.truncf toward_zero": the mode follows %x
      mode = name.substr(name.find(' ') + 1) + " ";
      name = name.substr(0, name.find(' '));
    }
    Program p(Program::Mlir{}, subst(kCast, {{"OP", name}, {"MODE", mode}, {"T", t}, {"R", r}}));
    Buffer a(dt, {16}, init), o(dr, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), o.arg()}) == "");
    return std::make_pair(a, o);
  };
  double nan = std::nan(""), inf = INFINITY;
  {
    auto [a, o] = cast("arith.truncf", "f32", DType::Float32, "bf16", DType::BFloat16,
                       [](int64_t k) { return noise(95, k) * 1000; });
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == rounded(a.get(k), DType::BFloat16));
  }
  {
    auto [a, o] = cast("arith.truncf", "f64", DType::Float64, "f8E4M3FN", DType::Float8E4M3FN, [&](int64_t k) {
      return k == 0 ? 500.0 : k == 1 ? inf : noise(96, k) * 300;
    });
    CHECK(std::isnan(o.get(0))); // beyond 448 + half an ulp: NaN (no infinity in e4m3fn)
    CHECK(std::isnan(o.get(1)));
    for (int k = 2; k < 16; ++k)
      REQUIRE(o.get(k) == rounded(a.get(k), DType::Float8E4M3FN));
  }
  {
    auto [a, o] = cast("arith.truncf toward_zero", "f32", DType::Float32, "bf16", DType::BFloat16,
                       [](int64_t k) { return 1 + k * std::ldexp(1.0, -10); });
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == std::ldexp(std::floor(std::ldexp(a.get(k), 7)), -7));
  }
  {
    auto [a, o] =
        cast("arith.extf", "bf16", DType::BFloat16, "f32", DType::Float32, [](int64_t k) { return noise(97, k); });
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == a.get(k));
  }
  {
    auto [a, o] = cast("arith.extsi", "i8", DType::Int8, "i32", DType::Int32, [](int64_t k) { return k * 17 - 128; });
    auto [b, u] = cast("arith.extui", "i8", DType::Int8, "i32", DType::Int32, [](int64_t k) { return k * 17 - 128; });
    auto [c, t] =
        cast("arith.trunci", "i32", DType::Int32, "i8", DType::Int8, [](int64_t k) { return k * 1000 - 5000; });
    for (int k = 0; k < 16; ++k) {
      REQUIRE(o.get(k) == k * 17 - 128);
      REQUIRE(u.get(k) == static_cast<uint8_t>(k * 17 - 128));
      REQUIRE(t.get(k) == static_cast<int8_t>(static_cast<uint32_t>(k * 1000 - 5000) & 0xff));
    }
  }
  {
    auto [a, o] = cast("arith.fptosi", "f32", DType::Float32, "i8", DType::Int8, [&](int64_t k) {
      const double v[16] = {1.9, -1.9, 127.5, 128, 1000, -128.9, -129, -1e9, nan, inf, -inf, 0.5, -0.5, 42, -42, 3};
      return v[k];
    });
    const double want[16] = {1, -1, 127, 127, 127, -128, -128, -128, 0, 127, -128, 0, 0, 42, -42, 3};
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == want[k]);
    auto [b, u] = cast("arith.fptoui", "f32", DType::Float32, "i8", DType::Int8, [&](int64_t k) {
      const double v[16] = {1.9, -1.9, 255.5, 256, 1000, 0, nan, inf, 128, 200, 3, 4, 5, 6, 7, 8};
      return v[k];
    });
    const int want2[16] = {1, 0, 255, 255, 255, 0, 0, 255, 128, 200, 3, 4, 5, 6, 7, 8};
    for (int k = 0; k < 16; ++k)
      REQUIRE(static_cast<uint8_t>(u.get(k)) == want2[k]);
  }
  {
    auto [a, o] =
        cast("arith.sitofp", "i32", DType::Int32, "bf16", DType::BFloat16, [](int64_t k) { return k * 999 - 7000; });
    auto [b, u] =
        cast("arith.uitofp", "i8", DType::Int8, "f16", DType::Float16, [](int64_t k) { return k * 16 - 128; });
    for (int k = 0; k < 16; ++k) {
      REQUIRE(o.get(k) == rounded(k * 999 - 7000, DType::BFloat16));
      REQUIRE(u.get(k) == static_cast<uint8_t>(k * 16 - 128));
    }
  }
  {
    auto [a, o] =
        cast("arith.bitcast", "f32", DType::Float32, "i32", DType::Int32, [](int64_t k) { return noise(98, k); });
    for (int k = 0; k < 16; ++k) {
      float f = static_cast<float>(a.get(k));
      int32_t bits;
      std::memcpy(&bits, &f, 4);
      REQUIRE(o.get(k) == bits);
    }
  }
  {
    Program p(Program::Mlir{}, R"mlir(
tile.kernel @idx(%a: !tile.array<?xi32>, %o: !tile.array<?xi64>) {
  %z = arith.constant 0 : i32
  %x = tile.load %a[%z] : !tile.array<?xi32>[i32] -> tensor<16xi32>
  %i = arith.index_cast %x : tensor<16xi32> to tensor<16xindex>
  %u = arith.index_castui %x : tensor<16xi32> to tensor<16xindex>
  %s = arith.addi %i, %u : tensor<16xindex>
  %r = arith.index_cast %s : tensor<16xindex> to tensor<16xi64>
  tile.store %r, %o[%z] : tensor<16xi64>, !tile.array<?xi64>[i32]
  tile.return
}
)mlir");
    Buffer a(DType::Int32, {16}, [](int64_t k) { return -k; }), o(DType::Int64, {16});
    REQUIRE(p.run({1, 1, 1}, {a.arg(), o.arg()}) == "");
    for (int k = 0; k < 16; ++k)
      REQUIRE(o.get(k) == -k + static_cast<double>(static_cast<uint32_t>(-k)));
  }
}

TEST_CASE("non-splat dense constants and scalar constants", "[interpreter][arith]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @c(%o: !tile.array<?xbf16>, %n: !tile.array<?xi16>) {
  %z = arith.constant 0 : i32
  %c = arith.constant dense<[1.0, 0.1, -2.5, 3.0e+38]> : tensor<4xbf16>
  tile.store %c, %o[%z] : tensor<4xbf16>, !tile.array<?xbf16>[i32]
  %i = arith.constant dense<[-1, 32767, 7, -32768]> : tensor<4xi16>
  %s = arith.constant 3 : i16
  %sb = tile.broadcast %s : i16 -> tensor<4xi16>
  %r = arith.muli %i, %sb : tensor<4xi16>
  tile.store %r, %n[%z] : tensor<4xi16>, !tile.array<?xi16>[i32]
  tile.return
}
)mlir");
  Buffer o(DType::BFloat16, {4}), n(DType::Int16, {4});
  REQUIRE(p.run({1, 1, 1}, {o.arg(), n.arg()}) == "");
  CHECK(o.get(0) == 1.0);
  CHECK(o.get(1) == rounded(0.1, DType::BFloat16));
  CHECK(o.get(2) == -2.5);
  CHECK(o.get(3) == rounded(3.0e38, DType::BFloat16));
  CHECK(n.get(0) == -3);
  CHECK(n.get(1) == static_cast<int16_t>(32767 * 3));
  CHECK(n.get(2) == 21);
  CHECK(n.get(3) == static_cast<int16_t>(-32768 * 3));
}
