#include "runtime/DType.h"

namespace tile::rt {

namespace {
constexpr DType kAll[] = {DType::Bool,    DType::Int8,     DType::Int16,        DType::Int32,
                          DType::Int64,   DType::UInt8,    DType::UInt16,       DType::UInt32,
                          DType::UInt64,  DType::Float16,  DType::BFloat16,     DType::Float32,
                          DType::Float64, DType::TFloat32, DType::Float8E4M3FN, DType::Float8E5M2};
} // namespace

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool_";
  case DType::Int8:
    return "int8";
  case DType::Int16:
    return "int16";
  case DType::Int32:
    return "int32";
  case DType::Int64:
    return "int64";
  case DType::UInt8:
    return "uint8";
  case DType::UInt16:
    return "uint16";
  case DType::UInt32:
    return "uint32";
  case DType::UInt64:
    return "uint64";
  case DType::Float16:
    return "float16";
  case DType::BFloat16:
    return "bfloat16";
  case DType::Float32:
    return "float32";
  case DType::Float64:
    return "float64";
  case DType::TFloat32:
    return "tfloat32";
  case DType::Float8E4M3FN:
    return "float8_e4m3fn";
  case DType::Float8E5M2:
    return "float8_e5m2";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType d : kAll)
    if (name == dtypeName(d))
      return d;
  return std::nullopt;
}

std::string dtypeNameList() {
  std::string list;
  for (DType d : kAll) {
    if (!list.empty())
      list += ", ";
    list += dtypeName(d);
  }
  return list;
}

unsigned dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return 1;
  case DType::Int16:
  case DType::UInt16:
  case DType::Float16:
  case DType::BFloat16:
    return 2;
  case DType::Int32:
  case DType::UInt32:
  case DType::Float32:
  case DType::TFloat32:
    return 4;
  case DType::Int64:
  case DType::UInt64:
  case DType::Float64:
    return 8;
  }
  return 0;
}

bool isFloat(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::Int8:
  case DType::Int16:
  case DType::Int32:
  case DType::Int64:
  case DType::UInt8:
  case DType::UInt16:
  case DType::UInt32:
  case DType::UInt64:
    return false;
  default:
    return true;
  }
}

std::optional<DType> integerDType(unsigned bits, bool isUnsigned) {
  switch (bits) {
  case 1:
    return isUnsigned ? std::nullopt : std::optional<DType>(DType::Bool);
  case 8:
    return isUnsigned ? DType::UInt8 : DType::Int8;
  case 16:
    return isUnsigned ? DType::UInt16 : DType::Int16;
  case 32:
    return isUnsigned ? DType::UInt32 : DType::Int32;
  case 64:
    return isUnsigned ? DType::UInt64 : DType::Int64;
  }
  return std::nullopt;
}

bool isUnsigned(DType dtype) {
  return dtype == DType::UInt8 || dtype == DType::UInt16 || dtype == DType::UInt32 || dtype == DType::UInt64;
}

} // namespace tile::rt
