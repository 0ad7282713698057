// Float dtypes as binary formats: rounding into them, their bit patterns, and the fused
// multiply-add that tile.mma and math.fma are built on.
#pragma once

#include "compiler/interpreter/DType.h"

#include <cstdint>

namespace tile::interp {

/// Rounding directions of arith.truncf (and the default, to nearest even).
enum class Rounding { NearestEven, Downward, Upward, TowardZero, NearestAway };

/// `x` rounded into a float dtype. Overflow gives infinity, or NaN for float8_e4m3fn, which
/// has no infinity (LLVM APFloat's conversion, i.e. what MLIR folds to; not the saturating
/// cvt.satfinite). Subnormals are kept. The long double overload rounds 64-bit integers once.
double roundToFloat(double x, DType dtype, Rounding mode = Rounding::NearestEven);
double roundToFloat(long double x, DType dtype, Rounding mode = Rounding::NearestEven);

/// a * b + c rounded once into a float dtype (the exact product and sum, one rounding). Exact
/// for operands of float32 or narrower, and for float64 through std::fma.
double fmaRound(double a, double b, double c, DType dtype);
/// The smallest positive normal value of a float dtype.
double smallestNormal(DType dtype);

/// The bit pattern of a float element (the low dtypeSize bytes) and back; NaN is the
/// canonical quiet NaN with the value's sign.
uint64_t floatToBits(double v, DType dtype);
double bitsToFloat(uint64_t bits, DType dtype);

} // namespace tile::interp
