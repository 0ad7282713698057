#include "runtime/DLPack.h"

#include "runtime/Error.h"

#include <fmt/format.h>

namespace tile::rt {

namespace {
// Codes newer than Debian's dlpack.h (0.6).
constexpr std::uint8_t kBool = 6, kFloat8E4M3FN = 10, kFloat8E5M2 = 12;
} // namespace

std::optional<DType> dtypeFromDLPack(DLDataType t) {
  if (t.lanes != 1)
    return std::nullopt;
  switch (t.code) {
  case kDLInt:
  case kDLUInt:
    if (t.bits >= 8) // DLPack's booleans have their own code
      return integerDType(t.bits, t.code == kDLUInt);
    break;
  case kDLFloat:
    switch (t.bits) {
    case 16:
      return DType::Float16;
    case 32:
      return DType::Float32;
    case 64:
      return DType::Float64;
    }
    break;
  case kDLBfloat:
    if (t.bits == 16)
      return DType::BFloat16;
    break;
  case kBool:
    if (t.bits == 8)
      return DType::Bool;
    break;
  case kFloat8E4M3FN:
    if (t.bits == 8)
      return DType::Float8E4M3FN;
    break;
  case kFloat8E5M2:
    if (t.bits == 8)
      return DType::Float8E5M2;
    break;
  }
  return std::nullopt;
}

DLDataType dtypeToDLPack(DType dtype) {
  auto make = [](std::uint8_t code, unsigned bits) { return DLDataType{code, std::uint8_t(bits), 1}; };
  switch (dtype) {
  case DType::Bool:
    return make(kBool, 8);
  case DType::Int8:
  case DType::Int16:
  case DType::Int32:
  case DType::Int64:
    return make(kDLInt, 8 * dtypeSize(dtype));
  case DType::UInt8:
  case DType::UInt16:
  case DType::UInt32:
  case DType::UInt64:
    return make(kDLUInt, 8 * dtypeSize(dtype));
  case DType::BFloat16:
    return make(kDLBfloat, 16);
  case DType::TFloat32:
    return make(kDLFloat, 32);
  case DType::Float8E4M3FN:
    return make(kFloat8E4M3FN, 8);
  case DType::Float8E5M2:
    return make(kFloat8E5M2, 8);
  default:
    return make(kDLFloat, 8 * dtypeSize(dtype));
  }
}

std::string describeDLPackType(DLDataType t) {
  const char *base = t.code == kDLInt      ? "int"
                     : t.code == kDLUInt   ? "uint"
                     : t.code == kDLFloat  ? "float"
                     : t.code == kDLBfloat ? "bfloat"
                     : t.code == kBool     ? "bool"
                                           : nullptr;
  std::string s =
      base ? fmt::format("{}{}", base, t.bits) : fmt::format("DLPack type code {} with {} bits", t.code, t.bits);
  if (t.lanes != 1)
    s += fmt::format("x{}", t.lanes);
  return s;
}

ArrayArg arrayFromDLPack(const DLTensor &t, int deviceOrdinal) {
  auto fail = [](const std::string &message) { throw Error(Error::Kind::InvalidArgument, message); };
  int type = t.device.device_type;
  if (type != kDLCUDA && type != kDLCUDAManaged)
    fail(fmt::format("DLPack tensor is not in CUDA device memory (device type {}{})", type,
                     type == kDLCPU        ? ", CPU"
                     : type == kDLCUDAHost ? ", CUDA host"
                                           : ""));
  if (deviceOrdinal >= 0 && type == kDLCUDA && t.device.device_id != deviceOrdinal)
    fail(
        fmt::format("DLPack tensor is on cuda:{}, the kernel is loaded on cuda:{}", t.device.device_id, deviceOrdinal));
  return dlpackView(t);
}

ArrayArg dlpackView(const DLTensor &t) {
  auto fail = [](const std::string &message) { throw Error(Error::Kind::InvalidArgument, message); };
  std::optional<DType> dtype = dtypeFromDLPack(t.dtype);
  if (!dtype)
    fail(fmt::format("DLPack tensor has type {}, which is not a cuTile dtype", describeDLPackType(t.dtype)));
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    fail(fmt::format("DLPack tensor has ndim {} but no shape", t.ndim));
  ArrayArg a;
  a.data = reinterpret_cast<DevicePtr>(t.data) + t.byte_offset;
  a.dtype = *dtype;
  a.shape.assign(t.shape, t.shape + t.ndim);
  if (t.strides)
    a.strides.assign(t.strides, t.strides + t.ndim);
  return a;
}

} // namespace tile::rt
