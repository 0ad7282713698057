#include "compiler/interpreter/DType.h"

#include "compiler/interpreter/FloatFormat.h"

#include <cstring>

namespace tile::interp {

namespace {

struct NameEntry {
  const char *name;
  DType dtype;
};
// cuTile names, then the short forms tile-cc takes.
constexpr NameEntry kNames[] = {
    {"bool_", DType::Bool},
    {"int8", DType::Int8},
    {"int16", DType::Int16},
    {"int32", DType::Int32},
    {"int64", DType::Int64},
    {"uint8", DType::UInt8},
    {"uint16", DType::UInt16},
    {"uint32", DType::UInt32},
    {"uint64", DType::UInt64},
    {"float16", DType::Float16},
    {"bfloat16", DType::BFloat16},
    {"float32", DType::Float32},
    {"float64", DType::Float64},
    {"tfloat32", DType::TFloat32},
    {"float8_e4m3fn", DType::Float8E4M3FN},
    {"float8_e5m2", DType::Float8E5M2},
    {"bool", DType::Bool},
    {"i1", DType::Bool},
    {"i8", DType::Int8},
    {"i16", DType::Int16},
    {"i32", DType::Int32},
    {"i64", DType::Int64},
    {"u8", DType::UInt8},
    {"u16", DType::UInt16},
    {"u32", DType::UInt32},
    {"u64", DType::UInt64},
    {"f16", DType::Float16},
    {"half", DType::Float16},
    {"bf16", DType::BFloat16},
    {"f32", DType::Float32},
    {"f64", DType::Float64},
    {"tf32", DType::TFloat32},
    {"f8e4m3", DType::Float8E4M3FN},
    {"f8e5m2", DType::Float8E5M2},
};

template <typename T> T load(const void *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> void store(void *p, T v) { std::memcpy(p, &v, sizeof(T)); }

} // namespace

std::optional<DType> parseDType(std::string_view name) {
  for (const NameEntry &e : kNames)
    if (name == e.name)
      return e.dtype;
  return std::nullopt;
}

unsigned intWidth(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return 1;
  case DType::Int8:
  case DType::UInt8:
    return 8;
  case DType::Int16:
  case DType::UInt16:
    return 16;
  case DType::Int32:
  case DType::UInt32:
    return 32;
  default:
    return 64;
  }
}

int64_t wrapInt(int64_t v, DType dtype) {
  unsigned w = intWidth(dtype);
  if (w == 64)
    return v;
  if (w == 1)
    return v & 1;
  uint64_t mask = (uint64_t(1) << w) - 1, u = static_cast<uint64_t>(v) & mask;
  if (u >> (w - 1) && !rt::isUnsigned(dtype))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

int64_t signedValue(int64_t v, DType dtype) { return dtype == DType::Bool ? -(v & 1) : v; }

uint64_t unsignedValue(int64_t v, DType dtype) {
  unsigned w = intWidth(dtype);
  return w == 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t(1) << w) - 1);
}

double readFloat(const void *p, DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return load<double>(p);
  case DType::Float32:
    return load<float>(p);
  // A tfloat32 array may hold full f32 values; the element is what rounding to tf32 gives.
  case DType::TFloat32:
    return roundToFloat(static_cast<double>(load<float>(p)), dtype);
  case DType::Float16:
  case DType::BFloat16:
    return bitsToFloat(load<uint16_t>(p), dtype);
  default:
    return bitsToFloat(load<uint8_t>(p), dtype);
  }
}

void writeFloat(void *p, DType dtype, double v) {
  switch (dtype) {
  case DType::Float64:
    store(p, v);
    return;
  case DType::Float32:
  case DType::TFloat32:
    store(p, static_cast<float>(roundToFloat(v, dtype)));
    return;
  case DType::Float16:
  case DType::BFloat16:
    store(p, static_cast<uint16_t>(floatToBits(v, dtype)));
    return;
  default:
    store(p, static_cast<uint8_t>(floatToBits(v, dtype)));
    return;
  }
}

int64_t readInt(const void *p, DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return load<uint8_t>(p) != 0;
  case DType::Int8:
    return load<int8_t>(p);
  case DType::Int16:
    return load<int16_t>(p);
  case DType::Int32:
    return load<int32_t>(p);
  case DType::UInt8:
    return load<uint8_t>(p);
  case DType::UInt16:
    return load<uint16_t>(p);
  case DType::UInt32:
    return load<uint32_t>(p);
  default:
    return load<int64_t>(p);
  }
}

void writeInt(void *p, DType dtype, int64_t v) {
  switch (dtype) {
  case DType::Bool:
    store(p, static_cast<uint8_t>(v & 1));
    return;
  case DType::Int8:
  case DType::UInt8:
    store(p, static_cast<int8_t>(v));
    return;
  case DType::Int16:
  case DType::UInt16:
    store(p, static_cast<int16_t>(v));
    return;
  case DType::Int32:
  case DType::UInt32:
    store(p, static_cast<int32_t>(v));
    return;
  default:
    store(p, v);
    return;
  }
}

} // namespace tile::interp
