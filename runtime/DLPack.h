// DLPack interop: a DLTensor on a CUDA device becomes an ArrayArg without copying.
#pragma once

#include "runtime/Args.h"

#include <dlpack/dlpack.h>

#include <optional>

namespace tile::rt {

/// The cuTile dtype of a DLPack type (lanes must be 1): int8..64, float16/32/64, bfloat16,
/// bool (code 6, DLPack >= 0.8) and float8_e4m3fn / float8_e5m2 (codes 10 / 12, DLPack 1.1).
/// Unsigned integers have no cuTile dtype.
std::optional<DType> dtypeFromDLPack(DLDataType type);
/// The DLPack type of a dtype (tfloat32 is stored as float32).
DLDataType dtypeToDLPack(DType dtype);
/// "int8", "uint16", "float32x4", "code 9 bits 8", for messages.
std::string describeDLPackType(DLDataType type);

/// A zero-copy view of `tensor`: data + byte_offset, its dtype, shape and strides (NULL strides
/// mean row-major contiguous). The tensor must live on a CUDA device (kDLCUDA or
/// kDLCUDAManaged), on device `deviceOrdinal` unless that is negative. Throws
/// Error(InvalidArgument) saying what does not fit.
ArrayArg arrayFromDLPack(const DLTensor &tensor, int deviceOrdinal = -1);
/// The same view wherever the memory lives (the interpreter backend takes CPU tensors); the
/// caller checks the device.
ArrayArg dlpackView(const DLTensor &tensor);

} // namespace tile::rt
