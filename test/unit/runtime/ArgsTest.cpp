// Dtypes and typed scalars.
#include "runtime/Args.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tile::rt;

TEST_CASE("dtype: names, sizes and parsing", "[runtime][dtype]") {
  for (int d = 0; d <= int(DType::Float8E5M2); ++d)
    CHECK(parseDType(dtypeName(DType(d))) == DType(d));
  CHECK(std::string(dtypeName(DType::Bool)) == "bool_");
  CHECK(std::string(dtypeName(DType::Float8E4M3FN)) == "float8_e4m3fn");
  CHECK(!parseDType("f32"));
  CHECK(!parseDType("bool"));
  CHECK(dtypeSize(DType::Bool) == 1);
  CHECK(dtypeSize(DType::BFloat16) == 2);
  CHECK(dtypeSize(DType::TFloat32) == 4);
  CHECK(dtypeSize(DType::Float8E5M2) == 1);
  CHECK(dtypeSize(DType::Int64) == 8);
  CHECK(isFloat(DType::TFloat32));
  CHECK(!isFloat(DType::Bool));
}

TEST_CASE("scalar: C++ types map to dtypes", "[runtime][dtype]") {
  CHECK(Scalar(true).dtype() == DType::Bool);
  CHECK(Scalar(true).bits() == 1);
  CHECK(Scalar(std::int8_t(-1)).dtype() == DType::Int8);
  CHECK(Scalar(std::int8_t(-1)).bits() == 0xff);
  CHECK(Scalar(std::int16_t(-2)).bits() == 0xfffe);
  CHECK(Scalar(-3).dtype() == DType::Int32);
  CHECK(Scalar(-3).bits() == 0xfffffffdu);
  CHECK(Scalar(std::int64_t(-4)).dtype() == DType::Int64);
  CHECK(Scalar(std::int64_t(-4)).bits() == ~std::uint64_t(3));
  CHECK(Scalar(std::uint8_t(250)).dtype() == DType::UInt8);
  CHECK(Scalar(std::uint8_t(250)).bits() == 250);
  CHECK(Scalar(std::uint16_t(65535)).dtype() == DType::UInt16);
  CHECK(Scalar(4294967290u).dtype() == DType::UInt32);
  CHECK(Scalar(4294967290u).bits() == 4294967290u);
  CHECK(Scalar(~std::uint64_t(0)).dtype() == DType::UInt64);
  CHECK(Scalar(~std::uint64_t(0)).bits() == ~std::uint64_t(0));
  CHECK(Scalar(1.0f).dtype() == DType::Float32);
  CHECK(Scalar(1.0f).bits() == 0x3f800000);
  CHECK(Scalar(1.0).dtype() == DType::Float64);
  CHECK(Scalar(1.0).bits() == 0x3ff0000000000000);
  CHECK(Scalar::fromBits(DType::Int8, 0x1ff).bits() == 0xff); // masked to the width
}

TEST_CASE("scalar: float16 and bfloat16 round to nearest even", "[runtime][dtype]") {
  auto h = [](float f) { return Scalar::float16(f).bits(); };
  CHECK(h(1.0f) == 0x3c00);
  CHECK(h(-2.0f) == 0xc000);
  CHECK(h(0.1f) == 0x2e66);
  CHECK(h(65504.0f) == 0x7bff);
  CHECK(h(65519.0f) == 0x7bff);
  CHECK(h(65520.0f) == 0x7c00); // rounds up to infinity
  CHECK(h(std::numeric_limits<float>::infinity()) == 0x7c00);
  CHECK(h(std::ldexp(1.0f, -24)) == 0x0001);        // smallest subnormal
  CHECK(h(std::ldexp(1.0f, -25)) == 0x0000);        // halfway, rounds to even (zero)
  CHECK(h(std::ldexp(3.0f, -25)) == 0x0002);        // 1.5 units, rounds to even (2)
  CHECK(h(std::ldexp(1.0f, -14)) == 0x0400);        // smallest normal
  CHECK(h(1.0f + std::ldexp(1.0f, -11)) == 0x3c00); // halfway between 1 and next: even
  CHECK(h(1.0f + std::ldexp(3.0f, -11)) == 0x3c02); // halfway, odd below: rounds up
  CHECK(h(-0.0f) == 0x8000);
  CHECK((h(std::nanf("")) & 0x7e00) == 0x7e00);

  auto b = [](float f) { return Scalar::bfloat16(f).bits(); };
  CHECK(b(1.0f) == 0x3f80);
  CHECK(b(-2.0f) == 0xc000);
  CHECK(b(3.14159265f) == 0x4049);
  CHECK(b(1.0f + std::ldexp(1.0f, -8)) == 0x3f80); // halfway: even
  CHECK(b(1.0f + std::ldexp(3.0f, -8)) == 0x3f82); // halfway: up to even
  CHECK((b(std::nanf("")) & 0x7fc0) == 0x7fc0);
  CHECK(Scalar::tfloat32(1.5f).bits() == 0x3fc00000);
  CHECK(Scalar::tfloat32(1.5f).dtype() == DType::TFloat32);
}
