// Element types of kernel parameters, by cuTile's names. This is the one definition: the
// interpreter aliases it (tile::interp::DType in compiler/interpreter/DType.h adds rounding and
// bit patterns on top), so the dependency points from the compiler to the runtime core, which
// depends on nothing of the compiler.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tile::rt {

enum class DType : std::uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  TFloat32, // stored as a 32-bit float
  Float8E4M3FN,
  Float8E5M2,
  UInt8, // unsigned integers: after the others, so that the existing values keep their codes
  UInt16,
  UInt32,
  UInt64,
};

/// cuTile's name: "bool_", "int32", "bfloat16", "float8_e4m3fn", ...
const char *dtypeName(DType dtype);
/// The dtype of a cuTile name; nullopt for anything else.
std::optional<DType> parseDType(std::string_view name);
/// "bool_, int8, ..., float8_e5m2", for messages.
std::string dtypeNameList();
/// Bytes per element in memory, and of a scalar kernel parameter (bool is one byte).
unsigned dtypeSize(DType dtype);
bool isFloat(DType dtype);
/// uint8 ... uint64.
bool isUnsigned(DType dtype);
/// The integer dtype of `bits` (1: bool; 8, 16, 32, 64) and signedness; nullopt for other widths.
std::optional<DType> integerDType(unsigned bits, bool isUnsigned);

} // namespace tile::rt
