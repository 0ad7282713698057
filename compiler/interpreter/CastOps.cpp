// arith casts. Float-to-int conversions follow the GPU's cvt.rzi.sat (truncate, saturate,
// NaN -> 0) where LLVM would give poison. Int-to-float rounds the exact integer once.

#include "compiler/interpreter/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

using namespace mlir;

namespace tile::interp {
namespace {

// Applies `convert(src, k, dst)` to every element into a tensor of the result's dtype.
template <typename F> LogicalResult convert(ExecContext &ctx, Operation *op, F f) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  Tensor r(elementDType(op->getResult(0)), a.shape);
  for (int64_t k = 0; k < a.size(); ++k)
    f(a, k, r);
  ctx.bind(op->getResult(0), std::move(r));
  return success();
}

Rounding roundingOf(arith::TruncFOp op) {
  if (auto mode = op.getRoundingmode()) {
    switch (*mode) {
    case arith::RoundingMode::downward:
      return Rounding::Downward;
    case arith::RoundingMode::upward:
      return Rounding::Upward;
    case arith::RoundingMode::toward_zero:
      return Rounding::TowardZero;
    case arith::RoundingMode::to_nearest_away:
      return Rounding::NearestAway;
    case arith::RoundingMode::to_nearest_even:
      break;
    }
  }
  return Rounding::NearestEven;
}

int64_t floatToSigned(double v, unsigned width) {
  if (std::isnan(v))
    return 0;
  double lo = -std::ldexp(1.0, static_cast<int>(width) - 1), hi = -lo; // [-2^(w-1), 2^(w-1))
  v = std::trunc(v);
  if (v < lo)
    return width == 64 ? INT64_MIN : static_cast<int64_t>(lo);
  if (v >= hi)
    return width == 64 ? INT64_MAX : static_cast<int64_t>(hi) - 1;
  return static_cast<int64_t>(v);
}

uint64_t floatToUnsigned(double v, unsigned width) {
  if (std::isnan(v) || v <= 0)
    return 0;
  double hi = std::ldexp(1.0, static_cast<int>(width));
  v = std::trunc(v);
  if (v >= hi)
    return width == 64 ? UINT64_MAX : static_cast<uint64_t>(hi) - 1;
  return static_cast<uint64_t>(v);
}

LogicalResult signExtend(ExecContext &ctx, Operation *op) {
  return convert(
      ctx, op, [](const Tensor &a, int64_t k, Tensor &r) { r.i[k] = wrapInt(signedValue(a.i[k], a.dtype), r.dtype); });
}

LogicalResult zeroExtend(ExecContext &ctx, Operation *op) {
  return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
    r.i[k] = wrapInt(static_cast<int64_t>(unsignedValue(a.i[k], a.dtype)), r.dtype);
  });
}

LogicalResult bitcast(ExecContext &ctx, Operation *op) {
  return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
    uint64_t bits = a.isFloat() ? floatToBits(a.f[k], a.dtype) : unsignedValue(a.i[k], a.dtype);
    if (r.isFloat())
      r.f[k] = bitsToFloat(bits, r.dtype);
    else
      r.i[k] = wrapInt(static_cast<int64_t>(bits), r.dtype);
  });
}

} // namespace

void registerCastOps(OpTable &t) {
  t.add<arith::ExtFOp>([](ExecContext &ctx, Operation *op) {
    return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) { r.f[k] = a.f[k]; });
  });
  t.add<arith::TruncFOp>([](ExecContext &ctx, Operation *op) {
    Rounding mode = roundingOf(cast<arith::TruncFOp>(op));
    return convert(ctx, op,
                   [mode](const Tensor &a, int64_t k, Tensor &r) { r.f[k] = roundToFloat(a.f[k], r.dtype, mode); });
  });
  t.add<arith::ExtSIOp>(signExtend);
  t.add<arith::TruncIOp>(signExtend); // wrapping keeps the low bits either way
  t.add<arith::IndexCastOp>(signExtend);
  t.add<arith::ExtUIOp>(zeroExtend);
  t.add<arith::IndexCastUIOp>(zeroExtend);
  t.add<arith::BitcastOp>(bitcast);
  // An unsigned scalar parameter seen as the signless integer of its width (the front end's
  // dropSignedness): the same bits.
  t.add<UnrealizedConversionCastOp>(bitcast);
  t.add<arith::SIToFPOp>([](ExecContext &ctx, Operation *op) {
    return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
      r.f[k] = roundToFloat(static_cast<long double>(signedValue(a.i[k], a.dtype)), r.dtype);
    });
  });
  t.add<arith::UIToFPOp>([](ExecContext &ctx, Operation *op) {
    return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
      r.f[k] = roundToFloat(static_cast<long double>(unsignedValue(a.i[k], a.dtype)), r.dtype);
    });
  });
  t.add<arith::FPToSIOp>([](ExecContext &ctx, Operation *op) {
    return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
      r.i[k] = wrapInt(floatToSigned(a.f[k], intWidth(r.dtype)), r.dtype);
    });
  });
  t.add<arith::FPToUIOp>([](ExecContext &ctx, Operation *op) {
    return convert(ctx, op, [](const Tensor &a, int64_t k, Tensor &r) {
      r.i[k] = wrapInt(static_cast<int64_t>(floatToUnsigned(a.f[k], intWidth(r.dtype))), r.dtype);
    });
  });
}

} // namespace tile::interp
