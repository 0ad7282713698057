// math: transcendental functions are computed in double (libm) and rounded once into the
// element type, so for f32 and narrower they are correctly rounded in all but rare cases.
// The GPU's approximate instructions (ex2.approx, ...) may differ from them by a few ulps.

#include "compiler/interpreter/Elementwise.h"
#include "compiler/interpreter/OpTable.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace tile::interp {
namespace {

using Opt = std::optional<int64_t>;

// Integer power by squaring, wrapping; negative exponents as math.ipowi folds them.
Opt ipow(int64_t base, int64_t exp, DType dt) {
  int64_t b = signedValue(base, dt), e = signedValue(exp, dt);
  if (e < 0) {
    if (b == 0)
      return std::nullopt;
    if (b == 1)
      return 1;
    if (b == -1)
      return (e & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, x = static_cast<uint64_t>(b);
  for (uint64_t n = static_cast<uint64_t>(e); n; n >>= 1) {
    if (n & 1)
      result = static_cast<uint64_t>(wrapInt(static_cast<int64_t>(result * x), dt));
    x = static_cast<uint64_t>(wrapInt(static_cast<int64_t>(x * x), dt));
  }
  return static_cast<int64_t>(result);
}

LogicalResult runFPowI(ExecContext &ctx, Operation *op) {
  const Tensor &a = ctx.tensor(op->getOperand(0)), &n = ctx.tensor(op->getOperand(1));
  Tensor r(a.dtype, a.shape);
  for (size_t k = 0; k < a.f.size(); ++k)
    r.f[k] = roundToFloat(std::pow(a.f[k], static_cast<double>(signedValue(n.i[k], n.dtype))), r.dtype);
  ctx.bind(op->getResult(0), std::move(r));
  return success();
}

LogicalResult runFma(ExecContext &ctx, Operation *op) {
  const Tensor &a = ctx.tensor(op->getOperand(0)), &b = ctx.tensor(op->getOperand(1)),
               &c = ctx.tensor(op->getOperand(2));
  Tensor r(a.dtype, a.shape);
  for (size_t k = 0; k < a.f.size(); ++k)
    r.f[k] = fmaRound(a.f[k], b.f[k], c.f[k], r.dtype);
  ctx.bind(op->getResult(0), std::move(r));
  return success();
}

// Independent of the FPU's rounding mode; keeps the sign of zero.
double roundHalfEven(double x) {
  double f = std::floor(x), d = x - f;
  double r = (d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0)) ? f + 1 : f;
  return std::copysign(r, x);
}

int64_t countLeadingZeros(int64_t v, DType dt) {
  unsigned w = intWidth(dt);
  uint64_t x = unsignedValue(v, dt);
  unsigned n = 0;
  for (int bit = static_cast<int>(w) - 1; bit >= 0 && !((x >> bit) & 1); --bit)
    ++n;
  return n;
}

int64_t countTrailingZeros(int64_t v, DType dt) {
  unsigned w = intWidth(dt);
  uint64_t x = unsignedValue(v, dt);
  unsigned n = 0;
  while (n < w && !((x >> n) & 1))
    ++n;
  return n;
}

#define FLOAT_UNARY(OP, EXPR)                                                                                          \
  t.add<OP>([](ExecContext &ctx, Operation *op) { return mapFloat(ctx, op, [](double x) -> double { return EXPR; }); })
#define FLOAT_BINARY(OP, EXPR)                                                                                         \
  t.add<OP>([](ExecContext &ctx, Operation *op) {                                                                      \
    return mapFloat2(ctx, op, [](double a, double b) -> double { return EXPR; });                                      \
  })
#define FLOAT_TEST(OP, EXPR)                                                                                           \
  t.add<OP>([](ExecContext &ctx, Operation *op) {                                                                      \
    return testFloat(ctx, op, [](double x, DType dt) -> bool {                                                         \
      (void)dt;                                                                                                        \
      return EXPR;                                                                                                     \
    });                                                                                                                \
  })
#define INT_UNARY(OP, EXPR)                                                                                            \
  t.add<OP>([](ExecContext &ctx, Operation *op) {                                                                      \
    return mapInt(ctx, op, [](int64_t a, DType dt) -> int64_t { return EXPR; });                                       \
  })

} // namespace

void registerMathOps(OpTable &t) {
  FLOAT_UNARY(math::ExpOp, std::exp(x));
  FLOAT_UNARY(math::Exp2Op, std::exp2(x));
  FLOAT_UNARY(math::ExpM1Op, std::expm1(x));
  FLOAT_UNARY(math::LogOp, std::log(x));
  FLOAT_UNARY(math::Log2Op, std::log2(x));
  FLOAT_UNARY(math::Log10Op, std::log10(x));
  FLOAT_UNARY(math::Log1pOp, std::log1p(x));
  FLOAT_UNARY(math::SqrtOp, std::sqrt(x));
  FLOAT_UNARY(math::RsqrtOp, 1.0 / std::sqrt(x));
  FLOAT_UNARY(math::CbrtOp, std::cbrt(x));
  FLOAT_UNARY(math::SinOp, std::sin(x));
  FLOAT_UNARY(math::CosOp, std::cos(x));
  FLOAT_UNARY(math::TanOp, std::tan(x));
  FLOAT_UNARY(math::AsinOp, std::asin(x));
  FLOAT_UNARY(math::AcosOp, std::acos(x));
  FLOAT_UNARY(math::AtanOp, std::atan(x));
  FLOAT_UNARY(math::SinhOp, std::sinh(x));
  FLOAT_UNARY(math::CoshOp, std::cosh(x));
  FLOAT_UNARY(math::TanhOp, std::tanh(x));
  FLOAT_UNARY(math::AsinhOp, std::asinh(x));
  FLOAT_UNARY(math::AcoshOp, std::acosh(x));
  FLOAT_UNARY(math::AtanhOp, std::atanh(x));
  FLOAT_UNARY(math::ErfOp, std::erf(x));
  FLOAT_UNARY(math::ErfcOp, std::erfc(x));
  FLOAT_UNARY(math::AbsFOp, std::fabs(x));
  FLOAT_UNARY(math::FloorOp, std::floor(x));
  FLOAT_UNARY(math::CeilOp, std::ceil(x));
  FLOAT_UNARY(math::TruncOp, std::trunc(x));
  FLOAT_UNARY(math::RoundOp, std::round(x));
  FLOAT_UNARY(math::RoundEvenOp, roundHalfEven(x));
  FLOAT_BINARY(math::PowFOp, std::pow(a, b));
  FLOAT_BINARY(math::Atan2Op, std::atan2(a, b));
  FLOAT_BINARY(math::CopySignOp, std::copysign(a, b));
  FLOAT_TEST(math::IsNaNOp, std::isnan(x));
  FLOAT_TEST(math::IsInfOp, std::isinf(x));
  FLOAT_TEST(math::IsFiniteOp, std::isfinite(x));
  FLOAT_TEST(math::IsNormalOp, std::isfinite(x) && std::fabs(x) >= smallestNormal(dt));
  t.add<math::FmaOp>(runFma);
  t.add<math::FPowIOp>(runFPowI);

  INT_UNARY(math::AbsIOp, signedValue(a, dt) < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : a);
  INT_UNARY(math::CountLeadingZerosOp, countLeadingZeros(a, dt));
  INT_UNARY(math::CountTrailingZerosOp, countTrailingZeros(a, dt));
  INT_UNARY(math::CtPopOp, __builtin_popcountll(unsignedValue(a, dt)));
  t.add<math::IPowIOp>([](ExecContext &ctx, Operation *op) { return mapInt2(ctx, op, ipow); });
}

} // namespace tile::interp
