// Kernel launch arguments: arrays (device pointer, dtype, shape, strides), DLPack tensors
// (zero-copy) and typed scalars. They are checked against the metadata only at launch, so a
// message can name the parameter.
#pragma once

#include "runtime/DType.h"

#include <dlpack/dlpack.h>

#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

namespace tile::rt {

/// A device address (CUdeviceptr).
using DevicePtr = std::uint64_t;

/// An array in device memory: element (i0, i1, ...) is at data + sum(i_k * strides[k]) *
/// dtypeSize(dtype) bytes. Empty strides mean row-major contiguous.
struct ArrayArg {
  DevicePtr data = 0;
  DType dtype = DType::Float32;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides; // in elements; empty = contiguous

  /// The strides, or the row-major contiguous ones when none were given.
  std::vector<std::int64_t> stridesOrContiguous() const;
  std::int64_t numElements() const;
  /// Whether the array keeps the promise of an `aligned` kernel argument (TMA's facts): not
  /// empty, base address and every stride but the last multiples of 16 bytes (dimensions of
  /// size 1 never step), last stride 1, every dimension below 2^31. A JIT caller compiles an
  /// `aligned` variant only for arrays that keep it.
  bool isAligned() const;
  /// Row-major contiguous (a dimension of size 1 may have any stride: it never steps).
  bool isContiguous() const;
};

/// A scalar argument with its dtype; the value's bit pattern is kept in the low
/// dtypeSize(dtype) bytes of bits(). C++ types map to dtypes: bool -> bool_, signed integers
/// by width -> int8..int64, float -> float32, double -> float64.
class Scalar {
public:
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Scalar(T value) { // NOLINT: implicit on purpose, launch(k, grid, {x, 2.0f})
    static_assert(!std::is_same_v<T, long double>, "long double is not a cuTile dtype");
    if constexpr (std::is_same_v<T, bool>)
      init(DType::Bool, value ? 1 : 0);
    else if constexpr (std::is_same_v<T, float>)
      initFloat(value);
    else if constexpr (std::is_same_v<T, double>)
      initDouble(value);
    else if constexpr (std::is_unsigned_v<T>)
      init(sizeof(T) == 1   ? DType::UInt8
           : sizeof(T) == 2 ? DType::UInt16
           : sizeof(T) == 4 ? DType::UInt32
                            : DType::UInt64,
           std::uint64_t(value));
    else if constexpr (sizeof(T) == 1)
      init(DType::Int8, std::uint64_t(std::int64_t(value)));
    else if constexpr (sizeof(T) == 2)
      init(DType::Int16, std::uint64_t(std::int64_t(value)));
    else if constexpr (sizeof(T) == 4)
      init(DType::Int32, std::uint64_t(std::int64_t(value)));
    else
      init(DType::Int64, std::uint64_t(std::int64_t(value)));
  }

  /// 16-bit and tf32 floats, rounded to nearest even from a float.
  static Scalar float16(float value);
  static Scalar bfloat16(float value);
  static Scalar tfloat32(float value);
  /// Any dtype from its raw bit pattern (e.g. float8 values).
  static Scalar fromBits(DType dtype, std::uint64_t bits);

  DType dtype() const { return dtype_; }
  std::uint64_t bits() const { return bits_; }

private:
  Scalar() = default;
  void init(DType dtype, std::uint64_t bits);
  void initFloat(float value);
  void initDouble(double value);

  DType dtype_ = DType::Int32;
  std::uint64_t bits_ = 0;
};

/// One launch argument. DLPack tensors are borrowed, not owned: the caller keeps them (and
/// their memory) alive until the kernel has finished, and calls the managed tensor's deleter.
class Arg {
public:
  Arg(ArrayArg array) : value_(std::move(array)) {}
  Arg(const DLTensor *tensor) : value_(tensor) {}
  Arg(const DLManagedTensor *tensor) : value_(tensor ? &tensor->dl_tensor : nullptr) {}
  Arg(Scalar scalar) : value_(scalar) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> Arg(T value) : value_(Scalar(value)) {}

  const std::variant<ArrayArg, const DLTensor *, Scalar> &value() const { return value_; }

private:
  std::variant<ArrayArg, const DLTensor *, Scalar> value_;
};

} // namespace tile::rt
