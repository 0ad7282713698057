#include "compiler/codegen/lowering/Float8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace tile::codegen {

namespace {

// The layout of a float8 format: mantissa bits, exponent bias, whether it has infinities.
struct Format {
  int mantissa, bias;
  bool hasInf;
};

Format formatOf(Type float8) {
  if (isa<Float8E5M2Type>(float8))
    return {2, 15, true};
  return {3, 7, false}; // e4m3fn: the all-ones pattern (per sign) is its only NaN
}

// i32 arithmetic in short names.
struct I32 {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v))); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value and_(Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, c(m)); }
  Value or_(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, int64_t s) { return arith::ShLIOp::create(b, loc, x, c(s)); }
  Value shr(Value x, int64_t s) { return arith::ShRUIOp::create(b, loc, x, c(s)); }
  Value cmp(arith::CmpIPredicate p, Value x, int64_t y) { return arith::CmpIOp::create(b, loc, p, x, c(y)); }
  Value select(Value cond, Value x, Value y) { return arith::SelectOp::create(b, loc, cond, x, y); }
  Value select(Value cond, int64_t x, Value y) { return select(cond, c(x), y); }
};

} // namespace

Value float8ToF32(OpBuilder &b, Location loc, Value bits, Type float8) {
  Format f = formatOf(float8);
  I32 i{b, loc};
  using P = arith::CmpIPredicate;
  Value u = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  Value sign = i.shl(i.and_(u, 0x80), 24);
  Value magnitude = i.and_(u, 0x7F);
  Value mant = i.and_(magnitude, (1 << f.mantissa) - 1);
  // Normal: the exponent rebiased, the mantissa at the top of f32's.
  Value normal = i.add(i.shl(magnitude, 23 - f.mantissa), i.c(int64_t(127 - f.bias) << 23));
  // Subnormal (exponent 0): mantissa * 2^(1 - bias - mantissa bits), a normal f32.
  Value scaled = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), mant),
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::ldexp(1.0f, 1 - f.bias - f.mantissa))));
  Value subnormal = arith::BitcastOp::create(b, loc, b.getI32Type(), scaled);
  Value magnitudeBits = i.select(i.cmp(P::ult, magnitude, 1 << f.mantissa), subnormal, normal);
  // e5m2's all-ones exponent: infinity (mantissa 0) or NaN; e4m3fn's all-ones pattern: NaN.
  Value special = f.hasInf ? i.or_(i.c(0x7F800000), i.shl(mant, 23 - f.mantissa)) : i.c(0x7FC00000);
  Value isSpecial = f.hasInf ? i.cmp(P::uge, magnitude, 0x7C) : i.cmp(P::eq, magnitude, 0x7F);
  Value result = i.or_(sign, i.select(isSpecial, special, magnitudeBits));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), result);
}

Value f32ToFloat8(OpBuilder &b, Location loc, Value x, Type float8) {
  Format f = formatOf(float8);
  I32 i{b, loc};
  using P = arith::CmpIPredicate;
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  Value sign = i.and_(i.shr(bits, 24), 0x80);
  Value a = i.and_(bits, 0x7FFFFFFF);
  int shift = 23 - f.mantissa;
  // At or above the smallest normal: round the mantissa to nearest even in the integer bits (a
  // carry moves into the exponent), then rebias.
  Value odd = i.and_(i.shr(a, shift), 1);
  Value rounded = i.add(a, i.add(i.c((1 << (shift - 1)) - 1), odd));
  Value normal = i.sub(i.shr(rounded, shift), i.c(int64_t(127 - f.bias) << f.mantissa));
  // Below it: adding 2^(24 - bias - mantissa bits) in f32 leaves an ulp of the format's
  // subnormal step, so the f32 addition rounds to nearest even at the right bit and the low
  // bits of the sum are the subnormal's mantissa (2^mantissa bits: the smallest normal).
  float anchor = std::ldexp(1.0f, 24 - f.bias - f.mantissa);
  Value sum = arith::AddFOp::create(b, loc, arith::BitcastOp::create(b, loc, b.getF32Type(), a),
                                    arith::ConstantOp::create(b, loc, b.getF32FloatAttr(anchor)));
  Value subnormal = i.sub(arith::BitcastOp::create(b, loc, b.getI32Type(), sum), i.c(llvm::bit_cast<int32_t>(anchor)));
  Value code = i.select(i.cmp(P::ult, a, int64_t(128 - f.bias) << 23), subnormal, normal);
  int64_t maxFinite = f.hasInf ? 0x7B : 0x7E, overflow = f.hasInf ? 0x7C : 0x7F;
  code = i.select(i.cmp(P::ugt, code, maxFinite), overflow, code);
  code = i.select(i.cmp(P::ugt, a, 0x7F800000), f.hasInf ? 0x7E : 0x7F, code); // NaN stays NaN
  return arith::TruncIOp::create(b, loc, b.getI8Type(), i.or_(sign, code));
}

Value float8Constant(OpBuilder &b, Location loc, llvm::APFloat value, Type float8) {
  bool lost;
  value.convert(cast<FloatType>(float8).getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return arith::ConstantOp::create(b, loc,
                                   b.getI8IntegerAttr(static_cast<int8_t>(value.bitcastToAPInt().getZExtValue())));
}

} // namespace tile::codegen
