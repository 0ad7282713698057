#include "runtime/npy/SmallFloat.h"

#include "runtime/Error.h"

#include <cmath>
#include <limits>
#include <string>

namespace tile::rt {

namespace {

// One rounding routine for every binary format with `expBits` exponent bits and `mantBits`
// stored mantissa bits: scaling by a power of two is exact in double, so nearbyint (ties to
// even in the default rounding mode) rounds the true value once. A mantissa that rounds up to
// the next power of two carries into the exponent field by plain addition of the bit pattern.
std::uint32_t roundToBits(double value, int expBits, int mantBits) {
  const std::uint32_t sign = std::signbit(value) ? std::uint32_t(1) << (expBits + mantBits) : 0;
  const std::uint32_t expMask = ((std::uint32_t(1) << expBits) - 1) << mantBits;
  if (std::isnan(value))
    return sign | expMask | (std::uint32_t(1) << (mantBits - 1));
  const double a = std::fabs(value);
  if (std::isinf(a))
    return sign | expMask;
  if (a == 0)
    return sign;
  const int bias = (1 << (expBits - 1)) - 1;
  const int minExp = 1 - bias;
  int e;
  std::frexp(a, &e);
  const int exponent = e - 1 < minExp ? minExp : e - 1; // subnormals share minExp's quantum
  const double q = std::nearbyint(std::ldexp(a, mantBits - exponent));
  // q < 2^(mantBits+1); a normal value has q >= 2^mantBits, whose implicit bit the biased
  // exponent (exponent - minExp) absorbs. Adding gives the pattern, with carries.
  const std::uint64_t bits = (std::uint64_t(exponent - minExp) << mantBits) + std::uint64_t(q);
  if (bits >= expMask)
    return sign | expMask; // overflow to infinity
  return sign | std::uint32_t(bits);
}

double fromBits(std::uint32_t bits, int expBits, int mantBits) {
  const bool negative = (bits >> (expBits + mantBits)) & 1;
  const int field = int((bits >> mantBits) & ((1u << expBits) - 1));
  const std::uint32_t mant = bits & ((1u << mantBits) - 1);
  const int bias = (1 << (expBits - 1)) - 1;
  double v;
  if (field == (1 << expBits) - 1)
    v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (field == 0)
    v = std::ldexp(double(mant), 1 - bias - mantBits);
  else
    v = std::ldexp(double(mant | (1u << mantBits)), field - bias - mantBits);
  return negative ? -v : v;
}

} // namespace

std::uint16_t float16Bits(double value) { return std::uint16_t(roundToBits(value, 5, 10)); }
std::uint16_t bfloat16Bits(double value) { return std::uint16_t(roundToBits(value, 8, 7)); }
double fromFloat16Bits(std::uint16_t bits) { return fromBits(bits, 5, 10); }
double fromBFloat16Bits(std::uint16_t bits) { return fromBits(bits, 8, 7); }

double roundToDType(double value, DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return fromFloat16Bits(float16Bits(value));
  case DType::BFloat16:
    return fromBFloat16Bits(bfloat16Bits(value));
  case DType::Float32:
    return double(float(value));
  case DType::TFloat32:
    return fromBits(roundToBits(value, 8, 10), 8, 10);
  case DType::Float64:
    return value;
  default:
    throw Error(Error::Kind::InvalidArgument, std::string("roundToDType: cannot round to ") + dtypeName(dtype) +
                                                  " (float16, bfloat16, float32, tfloat32 or float64)");
  }
}

} // namespace tile::rt
