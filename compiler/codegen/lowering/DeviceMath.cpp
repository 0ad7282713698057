#include "compiler/codegen/lowering/DeviceMath.h"

#include "dialect/NumericAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;

namespace tile::codegen {

static Value intrinsic(OpBuilder &b, Location loc, StringRef name, Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, x.getType(), b.getStringAttr(name), ValueRange{x}).getResult(0);
}

static Value f32(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(static_cast<float>(v)));
}

// atan2(y, x) in f32. The ratio t = min(|y|, |x|) / max(|y|, |x|) lies in [0, 1]; above
// tan(pi/8) it is reduced to (t - 1) / (t + 1) around pi/4, and atan of the reduced value is
// Cephes' atanf polynomial (relative error about 2e-7). The quadrant comes from which of |y|,
// |x| is larger, x's sign bit (atan2(+-0, -0) = +-pi) and y's sign. Both zero give t = 0, both
// infinite t = 1 (the diagonals); a NaN propagates.
static Value atan2F32(OpBuilder &b, Location loc, Value y, Value x) {
  auto c = [&](double v) { return f32(b, loc, v); };
  auto fma = [&](Value p, Value q, Value r) { return math::FmaOp::create(b, loc, p, q, r).getResult(); };
  auto sel = [&](Value cond, Value p, Value q) { return arith::SelectOp::create(b, loc, cond, p, q).getResult(); };
  auto cmp = [&](arith::CmpFPredicate pred, Value p, Value q) {
    return arith::CmpFOp::create(b, loc, pred, p, q).getResult();
  };
  constexpr double kPi = 3.14159265358979323846;
  Value ay = math::AbsFOp::create(b, loc, y), ax = math::AbsFOp::create(b, loc, x);
  Value hi = arith::MaximumFOp::create(b, loc, ay, ax), lo = arith::MinimumFOp::create(b, loc, ay, ax);
  Value t = arith::DivFOp::create(b, loc, lo, hi);
  t = sel(cmp(arith::CmpFPredicate::OEQ, hi, c(0.0)), c(0.0), t);
  Value inf = c(std::numeric_limits<double>::infinity());
  Value bothInf =
      arith::AndIOp::create(b, loc, cmp(arith::CmpFPredicate::OEQ, ay, inf), cmp(arith::CmpFPredicate::OEQ, ax, inf));
  t = sel(bothInf, c(1.0), t);
  Value reduce = cmp(arith::CmpFPredicate::OGT, t, c(0.41421356237309503));
  Value reduced =
      arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, t, c(1.0)), arith::AddFOp::create(b, loc, t, c(1.0)));
  Value u = sel(reduce, reduced, t);
  Value z = arith::MulFOp::create(b, loc, u, u);
  Value poly =
      fma(fma(fma(c(8.05374449538e-2), z, c(-1.38776856032e-1)), z, c(1.99777106478e-1)), z, c(-3.33329491539e-1));
  Value r = fma(arith::MulFOp::create(b, loc, poly, z), u, u);
  r = arith::AddFOp::create(b, loc, r, sel(reduce, c(kPi / 4), c(0.0)));
  r = sel(cmp(arith::CmpFPredicate::OGT, ay, ax), arith::SubFOp::create(b, loc, c(kPi / 2), r), r);
  Value xNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, arith::BitcastOp::create(b, loc, b.getI32Type(), x),
                            arith::ConstantIntOp::create(b, loc, 0, 32));
  r = sel(xNegative, arith::SubFOp::create(b, loc, c(kPi), r), r);
  return math::CopySignOp::create(b, loc, r, y);
}

FailureOr<Value> lowerDeviceMath(OpBuilder &b, Operation *op, ValueRange operands) {
  if (!isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SinOp, math::CosOp, math::TanOp, math::SinhOp,
           math::CoshOp, math::TanhOp, math::RsqrtOp, math::PowFOp, math::Atan2Op>(op))
    return Value();
  Location loc = op->getLoc();
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(type) || type.isF64())
    return op->emitError("code generation supports '") << op->getName() << "' on f16, bf16 and f32, not " << type;
  // tf32 values live in f32 registers; the caller rounds the result.
  bool inF32 = type.isF32() || type.isTF32();
  SmallVector<Value> xs;
  for (Value v : operands)
    xs.push_back(inF32 ? v : Value(arith::ExtFOp::create(b, loc, b.getF32Type(), v)));
  Value x = xs[0], r;
  // flush_to_zero=True in the source: the .ftz forms, which skip the subnormal handling (for
  // ex2 a range check and two multiplications around the MUFU.EX2).
  bool ftz = op->hasAttr(mlir::tile::kFlushToZeroAttr);
  auto approx = [&](StringRef name, Value v) {
    return intrinsic(
        b, loc, ("llvm.nvvm." + name + (ftz ? ".approx.ftz." : ".approx.")).str() + (name == "ex2" ? "f32" : "f"), v);
  };
  auto ex2 = [&](Value v) { return approx("ex2", v); };
  auto lg2 = [&](Value v) { return approx("lg2", v); };
  constexpr double kLog2E = 1.4426950408889634, kLn2 = 0.6931471805599453;
  if (isa<math::Exp2Op>(op))
    r = ex2(x);
  else if (isa<math::ExpOp>(op))
    r = ex2(arith::MulFOp::create(b, loc, x, f32(b, loc, kLog2E)));
  else if (isa<math::Log2Op>(op))
    r = lg2(x);
  else if (isa<math::LogOp>(op))
    r = arith::MulFOp::create(b, loc, lg2(x), f32(b, loc, kLn2));
  else if (isa<math::SinOp>(op))
    r = approx("sin", x);
  else if (isa<math::CosOp>(op))
    r = approx("cos", x);
  else if (isa<math::RsqrtOp>(op))
    r = approx("rsqrt", x);
  else if (isa<math::PowFOp>(op))
    r = ex2(arith::MulFOp::create(b, loc, xs[1], lg2(x)));
  else if (isa<math::Atan2Op>(op))
    r = atan2F32(b, loc, xs[0], xs[1]);
  else if (isa<math::TanOp>(op)) {
    Value sin = approx("sin", x);
    Value cos = approx("cos", x);
    r = arith::DivFOp::create(b, loc, sin, cos);
  } else if (isa<math::SinhOp, math::CoshOp>(op)) {
    // (e^x -+ e^-x) / 2; sinh near 0 from its series instead (x + x^3/6 + x^5/120 + x^7/5040,
    // relative error below 2^-26 for |x| < 0.5), where the difference would cancel.
    Value e = ex2(arith::MulFOp::create(b, loc, x, f32(b, loc, kLog2E)));
    Value inv = arith::DivFOp::create(b, loc, f32(b, loc, 1.0), e);
    bool isSinh = isa<math::SinhOp>(op);
    Value half = f32(b, loc, 0.5);
    r = arith::MulFOp::create(b, loc, half,
                              isSinh ? Value(arith::SubFOp::create(b, loc, e, inv))
                                     : Value(arith::AddFOp::create(b, loc, e, inv)));
    if (isSinh) {
      Value x2 = arith::MulFOp::create(b, loc, x, x);
      Value poly = f32(b, loc, 1.0 / 5040);
      for (double c : {1.0 / 120, 1.0 / 6, 1.0})
        poly = math::FmaOp::create(b, loc, poly, x2, f32(b, loc, c));
      Value series = arith::MulFOp::create(b, loc, x, poly);
      Value small =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, x), f32(b, loc, 0.5));
      r = arith::SelectOp::create(b, loc, small, series, r);
    }
  } else {
    // tanh(x) = 1 - 2 / (exp(2x) + 1): saturates correctly at both ends.
    Value e = ex2(arith::MulFOp::create(b, loc, x, f32(b, loc, 2 * kLog2E)));
    Value q = arith::DivFOp::create(b, loc, f32(b, loc, 2.0), arith::AddFOp::create(b, loc, e, f32(b, loc, 1.0)));
    r = arith::SubFOp::create(b, loc, f32(b, loc, 1.0), q);
  }
  return inF32 ? r : Value(arith::TruncFOp::create(b, loc, type, r));
}

} // namespace tile::codegen
