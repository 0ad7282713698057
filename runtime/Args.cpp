#include "runtime/Args.h"

#include <cmath>
#include <cstring>

namespace tile::rt {

std::vector<std::int64_t> ArrayArg::stridesOrContiguous() const {
  if (!strides.empty())
    return strides;
  std::vector<std::int64_t> s(shape.size());
  std::int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i];
  }
  return s;
}

std::int64_t ArrayArg::numElements() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;
  return n;
}

namespace {

std::uint32_t floatBits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

// IEEE binary16, round to nearest even; overflow gives infinity, NaN stays NaN.
std::uint16_t toHalfBits(float f) {
  std::uint32_t x = floatBits(f);
  std::uint32_t sign = (x >> 16) & 0x8000, abs = x & 0x7fffffff;
  if (abs > 0x7f800000)
    return std::uint16_t(sign | 0x7e00);
  if (abs >= 0x477ff000)
    return std::uint16_t(sign | 0x7c00); // >= 65520 rounds to inf
  if (abs < 0x38800000) {                // below 2^-14: a subnormal half, |f| * 2^24 units (exact scaling)
    float a;
    std::memcpy(&a, &abs, 4);
    return std::uint16_t(sign | std::uint32_t(std::nearbyint(a * 16777216.0f)));
  }
  std::uint32_t h = (((abs >> 23) - 112) << 10) | ((abs & 0x7fffff) >> 13);
  std::uint32_t rest = abs & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // may carry into the exponent
  return std::uint16_t(sign | h);
}

// bfloat16, round to nearest even; NaN stays a quiet NaN.
std::uint16_t toBFloat16Bits(float f) {
  std::uint32_t x = floatBits(f);
  if ((x & 0x7fffffff) > 0x7f800000)
    return std::uint16_t((x >> 16) | 0x40);
  return std::uint16_t((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

} // namespace

void Scalar::init(DType dtype, std::uint64_t bits) {
  dtype_ = dtype;
  unsigned size = dtypeSize(dtype);
  bits_ = size == 8 ? bits : bits & ((std::uint64_t(1) << (8 * size)) - 1);
}

void Scalar::initFloat(float value) { init(DType::Float32, floatBits(value)); }

void Scalar::initDouble(double value) {
  std::uint64_t x;
  std::memcpy(&x, &value, 8);
  init(DType::Float64, x);
}

Scalar Scalar::float16(float value) { return fromBits(DType::Float16, toHalfBits(value)); }
Scalar Scalar::bfloat16(float value) { return fromBits(DType::BFloat16, toBFloat16Bits(value)); }
Scalar Scalar::tfloat32(float value) { return fromBits(DType::TFloat32, floatBits(value)); }

Scalar Scalar::fromBits(DType dtype, std::uint64_t bits) {
  Scalar s;
  s.init(dtype, bits);
  return s;
}

bool ArrayArg::isContiguous() const {
  if (strides.empty())
    return true;
  if (strides.size() != shape.size())
    return false;
  std::int64_t step = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != step)
      return false;
    step *= shape[d];
  }
  return true;
}

bool ArrayArg::isAligned() const {
  if (shape.empty() || numElements() == 0 || data % 16)
    return false;
  const std::vector<std::int64_t> s = stridesOrContiguous();
  const std::int64_t elem = dtypeSize(dtype);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] >= (std::int64_t(1) << 31))
      return false;
    if (shape[d] == 1)
      continue;
    if (d + 1 == shape.size() ? s[d] != 1 : s[d] <= 0 || (s[d] * elem) % 16 != 0)
      return false;
  }
  return true;
}

} // namespace tile::rt
