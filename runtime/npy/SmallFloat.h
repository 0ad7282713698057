// Conversions between double and the 16-bit float formats (IEEE float16, bfloat16), and
// rounding a double to a dtype. They convert from double directly, not through float, so a
// value is rounded once: tests that "round the inputs to the kernel's dtype" then see exactly
// what a correctly rounded device conversion would give.
#pragma once

#include "runtime/DType.h"

#include <cstdint>

namespace tile::rt {

/// Round to nearest even; overflow gives infinity, NaN a quiet NaN with the sign kept.
std::uint16_t float16Bits(double value);
std::uint16_t bfloat16Bits(double value);
/// The exact value of a 16-bit pattern.
double fromFloat16Bits(std::uint16_t bits);
double fromBFloat16Bits(std::uint16_t bits);

/// `value` rounded to `dtype` and back: float16, bfloat16, float32 and tfloat32 (10 mantissa
/// bits, float32 range) round to nearest even; float64 is the identity. Other dtypes throw
/// Error(InvalidArgument).
double roundToDType(double value, DType dtype);

} // namespace tile::rt
