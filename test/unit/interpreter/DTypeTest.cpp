// Element types: rounding, bit patterns and fused multiply-add against LLVM's APFloat.

#include "InterpreterTestUtil.h"

#include "llvm/ADT/APInt.h"

#include <cmath>
#include <limits>

using namespace tile::interp;
using namespace tile::interp::test;
using llvm::APFloat;

namespace {

const DType kSmallFloats[] = {DType::Float16, DType::BFloat16, DType::TFloat32, DType::Float8E4M3FN, DType::Float8E5M2};

bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// Values that exercise every rounding path of `dtype`: random magnitudes over its whole
// exponent range and beyond, exact midpoints between neighbours, and the special values.
std::vector<double> probeValues(DType dtype) {
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                1e-300,
                                1e300};
  for (int e = -160; e <= 160; e += 3)
    for (int k = 0; k < 12; ++k)
      values.push_back(std::ldexp(noise(e + 1000, k), e));
  // Midpoints between neighbouring representable values are the tie cases.
  for (int k = 0; k < 400; ++k) {
    APFloat r(rounded(std::ldexp(noise(7, k), (k % 40) - 20), dtype));
    bool lost;
    r.convert(semanticsOf(dtype), APFloat::rmNearestTiesToEven, &lost);
    APFloat next = r;
    next.next(false);
    if (!next.isFinite())
      continue;
    r.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    next.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back((r.convertToDouble() + next.convertToDouble()) / 2);
  }
  // Around the largest finite value (overflow to infinity, or NaN for e4m3fn).
  double max = APFloat::getLargest(semanticsOf(dtype)).convertToDouble();
  for (double f : {1.0, 1.01, 1.03, 1.0625, 1.07, 1.5, 2.0})
    values.push_back(max * f);
  return values;
}

} // namespace

TEST_CASE("rounding into each float dtype matches APFloat, ties to even", "[interpreter][dtype]") {
  for (DType dtype : kSmallFloats) {
    INFO(dtypeName(dtype));
    for (double v : probeValues(dtype)) {
      INFO(v);
      CHECK(sameValue(roundToFloat(v, dtype), rounded(v, dtype)));
      if (!std::isnan(v) && dtype != DType::TFloat32) // the bits of the rounded value
        CHECK(floatToBits(v, dtype) == floatToBits(rounded(v, dtype), dtype));
    }
  }
  CHECK(roundToFloat(0.1, DType::Float32) == static_cast<double>(0.1f));
}

TEST_CASE("directed rounding modes of truncf match APFloat", "[interpreter][dtype]") {
  const std::pair<Rounding, APFloat::roundingMode> modes[] = {{Rounding::Downward, APFloat::rmTowardNegative},
                                                              {Rounding::Upward, APFloat::rmTowardPositive},
                                                              {Rounding::TowardZero, APFloat::rmTowardZero},
                                                              {Rounding::NearestAway, APFloat::rmNearestTiesToAway}};
  for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float8E5M2}) {
    for (auto [mode, apMode] : modes) {
      for (double v : probeValues(dtype)) {
        APFloat ref(v);
        bool lost;
        ref.convert(semanticsOf(dtype), apMode, &lost);
        ref.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
        INFO(dtypeName(dtype) << " mode " << static_cast<int>(mode) << " value " << v);
        CHECK(sameValue(roundToFloat(v, dtype, mode), ref.convertToDouble()));
      }
    }
  }
}

TEST_CASE("every bit pattern of 8- and 16-bit floats decodes and encodes like APFloat", "[interpreter][dtype]") {
  for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float8E4M3FN, DType::Float8E5M2}) {
    unsigned bits = dtypeSize(dtype) * 8;
    int mismatches = 0;
    for (uint64_t b = 0; b < (uint64_t(1) << bits); ++b) {
      APFloat ref(semanticsOf(dtype), llvm::APInt(bits, b));
      bool lost;
      ref.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      double v = bitsToFloat(b, dtype);
      if (!sameValue(v, ref.convertToDouble()))
        ++mismatches;
      if (!std::isnan(v) && floatToBits(v, dtype) != b)
        ++mismatches;
    }
    INFO(dtypeName(dtype));
    CHECK(mismatches == 0);
  }
  // tf32 lives in a 32-bit float container; reading rounds away the low 13 bits.
  float full = 1.0f + std::ldexp(1.0f, -12); // below tf32's precision: rounds to even (1.0)
  float tie = 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -23);
  CHECK(readFloat(&full, DType::TFloat32) == 1.0);
  CHECK(readFloat(&tie, DType::TFloat32) == 1.0 + std::ldexp(1.0, -10));
}

TEST_CASE("fmaRound is one rounding of the exact a * b + c", "[interpreter][dtype]") {
  for (DType dtype : {DType::Float32, DType::Float16, DType::BFloat16}) {
    int mismatches = 0;
    for (int k = 0; k < 20000; ++k) {
      double a = rounded(noise(1, k) * 4, dtype), b = rounded(noise(2, k) * 4, dtype);
      // Often nearly cancelling, where double rounding would show.
      double c = rounded(k % 3 ? -a * b * (1 + noise(3, k) * 1e-3) : noise(4, k), dtype);
      APFloat ra(a), rb(b), rc(c);
      bool lost;
      for (APFloat *x : {&ra, &rb, &rc})
        x->convert(semanticsOf(dtype), APFloat::rmNearestTiesToEven, &lost);
      ra.fusedMultiplyAdd(rb, rc, APFloat::rmNearestTiesToEven);
      ra.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      if (!sameValue(fmaRound(a, b, c, dtype), ra.convertToDouble()))
        ++mismatches;
    }
    INFO(dtypeName(dtype));
    CHECK(mismatches == 0);
  }
  CHECK(fmaRound(0.1, 10.0, -1.0, DType::Float64) == std::fma(0.1, 10.0, -1.0));
}

TEST_CASE("integers wrap to their width; bool reads -1 signed and 1 unsigned", "[interpreter][dtype]") {
  CHECK(wrapInt(128, DType::Int8) == -128);
  CHECK(wrapInt(-129, DType::Int8) == 127);
  CHECK(wrapInt(65535, DType::Int16) == -1);
  CHECK(wrapInt(int64_t(1) << 31, DType::Int32) == INT32_MIN);
  CHECK(wrapInt(3, DType::Bool) == 1);
  CHECK(wrapInt(2, DType::Bool) == 0);
  CHECK(signedValue(1, DType::Bool) == -1);
  CHECK(unsignedValue(1, DType::Bool) == 1);
  CHECK(unsignedValue(-1, DType::Int8) == 255);
  CHECK(unsignedValue(-1, DType::Int64) == UINT64_MAX);
  // Unsigned dtypes (host arrays) keep zero-extended values.
  CHECK(wrapInt(-1, DType::UInt8) == 255);
  CHECK(wrapInt(int64_t(1) << 31, DType::UInt32) == int64_t(1) << 31);
  CHECK(wrapInt(-6, DType::UInt32) == 4294967290);
  CHECK(unsignedValue(-1, DType::UInt64) == UINT64_MAX);
  uint8_t bytes[8] = {};
  writeInt(bytes, DType::UInt32, 4294967290);
  CHECK(readInt(bytes, DType::UInt32) == 4294967290);
  CHECK(readInt(bytes, DType::Int32) == -6);
  writeInt(bytes, DType::UInt16, 65535);
  CHECK(readInt(bytes, DType::UInt16) == 65535);
}

TEST_CASE("64-bit integers round once into narrow floats", "[interpreter][dtype]") {
  // 2^62 + 2^38 + 1: through double it becomes the f32 midpoint 2^62 + 2^38 and ties to even
  // (2^62); rounded once it is above the midpoint (2^62 + 2^39).
  int64_t v = (int64_t(1) << 62) + (int64_t(1) << 38) + 1;
  APFloat ref(APFloat::IEEEsingle());
  ref.convertFromAPInt(llvm::APInt(64, v), /*isSigned=*/true, APFloat::rmNearestTiesToEven);
  CHECK(roundToFloat(static_cast<long double>(v), DType::Float32) == ref.convertToFloat());
  CHECK(roundToFloat(static_cast<long double>(v), DType::Float32) == std::ldexp(1.0, 62) + std::ldexp(1.0, 39));
}

TEST_CASE("dtype names parse in cuTile and short spellings", "[interpreter][dtype]") {
  CHECK(parseDType("bfloat16") == DType::BFloat16);
  CHECK(parseDType("bf16") == DType::BFloat16);
  CHECK(parseDType("f8e4m3") == DType::Float8E4M3FN);
  CHECK(parseDType("bool_") == DType::Bool);
  CHECK(parseDType("uint32") == DType::UInt32);
  CHECK(parseDType("u8") == DType::UInt8);
  CHECK(std::string(dtypeName(DType::UInt64)) == "uint64");
  CHECK(dtypeSize(DType::UInt16) == 2);
  CHECK_FALSE(parseDType("f128"));
  CHECK(std::string(dtypeName(DType::Float8E5M2)) == "float8_e5m2");
  CHECK(dtypeSize(DType::TFloat32) == 4);
}

TEST_CASE("launch scalars from values and from bit patterns", "[interpreter][dtype]") {
  CHECK(LaunchArg::floating(DType::BFloat16, 1 + std::ldexp(1.0, -8)).floatValue == 1.0);
  CHECK(LaunchArg::integer(DType::Int8, 300).intValue == 44);
  CHECK(LaunchArg::fromBits(DType::BFloat16, 0x3FC0).floatValue == 1.5);
  CHECK(LaunchArg::fromBits(DType::Float8E4M3FN, 0x7E).floatValue == 448);
  CHECK(LaunchArg::fromBits(DType::Int16, 0xFFFF).intValue == -1);
  CHECK(LaunchArg::fromBits(DType::Bool, 1).intValue == 1);
  CHECK(LaunchArg::floating(DType::Int32, 7.9).intValue == 7);
}
