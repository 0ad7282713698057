#include "compiler/interpreter/FloatFormat.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace tile::interp {

namespace {

// A binary float format: mantissa bits without the implicit one, smallest normal exponent.
struct Format {
  unsigned expBits, mantBits;
  int emin;
  bool hasInf; // false: float8_e4m3fn, whose all-ones exponent is normal (except NaN)
  double maxFinite;
};

const Format &formatOf(DType dtype) {
  static const Format f16{5, 10, -14, true, 65504.0};
  static const Format bf16{8, 7, -126, true, std::ldexp(2.0 - std::ldexp(1.0, -7), 127)};
  static const Format f32{8, 23, -126, true, FLT_MAX};
  static const Format f64{11, 52, -1022, true, DBL_MAX};
  static const Format tf32{8, 10, -126, true, std::ldexp(2.0 - std::ldexp(1.0, -10), 127)};
  static const Format e4m3{4, 3, -6, false, 448.0};
  static const Format e5m2{5, 2, -14, true, 57344.0};
  switch (dtype) {
  case DType::Float16:
    return f16;
  case DType::BFloat16:
    return bf16;
  case DType::Float32:
    return f32;
  case DType::TFloat32:
    return tf32;
  case DType::Float8E4M3FN:
    return e4m3;
  case DType::Float8E5M2:
    return e5m2;
  default:
    return f64;
  }
}

long double roundInteger(long double q, Rounding mode) {
  switch (mode) {
  case Rounding::Downward:
    return std::floor(q);
  case Rounding::Upward:
    return std::ceil(q);
  case Rounding::TowardZero:
    return std::trunc(q);
  case Rounding::NearestAway:
    return std::round(q);
  case Rounding::NearestEven:
    break;
  }
  // Independent of the FPU's current rounding mode.
  long double f = std::floor(q), d = q - f;
  if (d > 0.5L || (d == 0.5L && std::fmod(f, 2.0L) != 0))
    return f + 1;
  return f;
}

double roundGeneric(long double x, const Format &fmt, Rounding mode) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(x))
    return std::copysign(nan, static_cast<double>(x));
  if (std::isinf(x))
    return fmt.hasInf ? static_cast<double>(x) : std::copysign(nan, static_cast<double>(x));
  if (x == 0)
    return static_cast<double>(x);
  int e;
  std::frexp(std::fabs(x), &e);
  int exp = std::max(e - 1, fmt.emin); // subnormals share the smallest normal's ulp
  int shift = static_cast<int>(fmt.mantBits) - exp;
  long double r = std::ldexp(roundInteger(std::ldexp(x, shift), mode), -shift);
  if (std::fabs(r) <= fmt.maxFinite)
    return std::copysign(static_cast<double>(r), static_cast<double>(x)); // -tiny -> -0
  bool toMax =
      mode == Rounding::TowardZero || (mode == Rounding::Downward && r > 0) || (mode == Rounding::Upward && r < 0);
  if (toMax)
    return std::copysign(fmt.maxFinite, static_cast<double>(r));
  double inf = std::numeric_limits<double>::infinity();
  return std::copysign(fmt.hasInf ? inf : nan, static_cast<double>(r));
}

// Small formats (f16, bf16, f8) to and from their bit patterns.
uint64_t encodeSmall(double v, const Format &fmt) {
  unsigned m = fmt.mantBits, total = 1 + fmt.expBits + m;
  uint64_t sign = std::signbit(v) ? uint64_t(1) << (total - 1) : 0;
  uint64_t expMask = (uint64_t(1) << fmt.expBits) - 1;
  if (std::isnan(v))
    return sign | (fmt.hasInf ? (expMask << m) | (uint64_t(1) << (m - 1)) : (expMask << m) | ((uint64_t(1) << m) - 1));
  if (std::isinf(v))
    return sign | (expMask << m);
  double a = std::fabs(v);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);
  int exp = e - 1;
  int bias = 1 - fmt.emin;
  if (exp < fmt.emin)
    return sign | static_cast<uint64_t>(std::ldexp(a, static_cast<int>(m) - fmt.emin));
  uint64_t mant = static_cast<uint64_t>(std::ldexp(a, static_cast<int>(m) - exp)) - (uint64_t(1) << m);
  return sign | (uint64_t(exp + bias) << m) | mant;
}

double decodeSmall(uint64_t bits, const Format &fmt) {
  unsigned m = fmt.mantBits;
  uint64_t expMask = (uint64_t(1) << fmt.expBits) - 1, mantMask = (uint64_t(1) << m) - 1;
  bool neg = (bits >> (fmt.expBits + m)) & 1;
  uint64_t exp = (bits >> m) & expMask, mant = bits & mantMask;
  double v;
  if (fmt.hasInf && exp == expMask)
    v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (!fmt.hasInf && exp == expMask && mant == mantMask)
    v = std::numeric_limits<double>::quiet_NaN();
  else if (exp == 0)
    v = std::ldexp(static_cast<double>(mant), fmt.emin - static_cast<int>(m));
  else
    v = std::ldexp(static_cast<double>(mant | (uint64_t(1) << m)),
                   static_cast<int>(exp) - (1 - fmt.emin) - static_cast<int>(m));
  return neg ? -v : v;
}

template <typename To, typename From> To bitCast(const From &v) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &v, sizeof to);
  return to;
}

// Round to nearest even on the double's bits, for a value in the format's normal range (the
// common case, where roundGeneric's long-double arithmetic costs ~50x more): drop the low
// mantissa bits with the tie going to the even neighbour; a carry into the exponent is the
// next binade, and a result past the largest finite value is infinity (f16, bf16 have one).
std::optional<double> roundNormalNearestEven(double x, const Format &fmt) {
  double a = std::fabs(x);
  if (!fmt.hasInf || !(a >= std::ldexp(1.0, fmt.emin)) || a > DBL_MAX)
    return std::nullopt; // subnormal in the format, zero, NaN or infinity: the generic path
  unsigned drop = 52 - fmt.mantBits;
  uint64_t u = bitCast<uint64_t>(x);
  u += ((uint64_t(1) << (drop - 1)) - 1) + ((u >> drop) & 1);
  u &= ~((uint64_t(1) << drop) - 1);
  double r = bitCast<double>(u);
  if (std::fabs(r) > fmt.maxFinite)
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

} // namespace

double roundToFloat(double x, DType dtype, Rounding mode) {
  if (mode == Rounding::NearestEven) {
    if (dtype == DType::Float64)
      return x;
    if (dtype == DType::Float32)
      return static_cast<float>(x);
    if (dtype == DType::BFloat16 || dtype == DType::Float16)
      if (auto r = roundNormalNearestEven(x, formatOf(dtype)))
        return *r;
  }
  return roundGeneric(x, formatOf(dtype), mode);
}

double roundToFloat(long double x, DType dtype, Rounding mode) {
  if (dtype == DType::Float64 && mode == Rounding::NearestEven)
    return static_cast<double>(x);
  return roundGeneric(x, formatOf(dtype), mode);
}

double fmaRound(double a, double b, double c, DType dtype) {
  if (dtype == DType::Float64)
    return std::fma(a, b, c);
  double p = a * b; // exact: both significands have at most 24 bits
  double s = p + c;
  if (std::isfinite(s)) {
    // Round the double sum to odd (TwoSum gives the exact error), so rounding it once more into
    // a format with at most 51 bits of significand is the correctly rounded exact sum.
    double bv = s - p;
    double err = (p - (s - bv)) + (c - bv);
    uint64_t bits = bitCast<uint64_t>(s);
    if (err != 0 && (bits & 1) == 0)
      s = std::nextafter(s,
                         err > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
  }
  return roundToFloat(s, dtype);
}

double smallestNormal(DType dtype) { return std::ldexp(1.0, formatOf(dtype).emin); }

uint64_t floatToBits(double v, DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return bitCast<uint64_t>(v);
  case DType::Float32:
  case DType::TFloat32: {
    float f = static_cast<float>(roundToFloat(v, dtype));
    return bitCast<uint32_t>(f);
  }
  case DType::BFloat16: {
    // bf16 is the top half of a float: every bf16 value (and infinity) converts exactly.
    double r = roundToFloat(v, dtype);
    if (std::isnan(r))
      return encodeSmall(r, formatOf(dtype));
    return bitCast<uint32_t>(static_cast<float>(r)) >> 16;
  }
  default:
    return encodeSmall(roundToFloat(v, dtype), formatOf(dtype));
  }
}

double bitsToFloat(uint64_t bits, DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return bitCast<double>(bits);
  case DType::Float32:
  case DType::TFloat32: {
    uint32_t b = static_cast<uint32_t>(bits);
    return bitCast<float>(b);
  }
  default:
    return decodeSmall(bits, formatOf(dtype));
  }
}

} // namespace tile::interp
