// What a launch passes to a kernel, over host memory: arrays, scalars and the grid.
// Free of MLIR so the runtime's launch API can build these directly.
#pragma once

#include "compiler/interpreter/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile::interp {

/// An array argument: element (i0, i1, ...) lives at `data + sum(i_k * strides[k])` elements.
/// Strides may be anything (non-contiguous, zero, negative). When `allocBegin`/`allocEnd` are
/// set, every element the kernel touches must lie inside [allocBegin, allocEnd); an access
/// outside is reported as an error instead of touching memory (e.g. a wrong negative stride).
struct HostArray {
  void *data = nullptr;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; // in elements
  const void *allocBegin = nullptr;
  const void *allocEnd = nullptr;

  /// A row-major view of `data`, whose allocation is exactly the array.
  static HostArray contiguous(void *data, DType dtype, std::vector<int64_t> shape);
  /// A view with explicit strides; the allocation bounds stay unset unless given.
  static HostArray strided(void *data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                           const void *allocBegin = nullptr, const void *allocEnd = nullptr);

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const;
};

/// A kernel argument: an array, or a scalar tagged with its dtype.
struct LaunchArg {
  bool isArray = false;
  HostArray array;
  DType dtype = DType::Float32; // a scalar's dtype (arrays: array.dtype)
  int64_t intValue = 0;         // integer and bool scalars
  double floatValue = 0;        // float scalars

  static LaunchArg of(HostArray a);
  /// A scalar of `dtype` (a float dtype rounds the value, an integer dtype wraps it).
  static LaunchArg floating(DType dtype, double v);
  static LaunchArg integer(DType dtype, int64_t v);
  /// A scalar from its bit pattern in the low dtypeSize(dtype) bytes (the runtime's form).
  static LaunchArg fromBits(DType dtype, uint64_t bits);
  static LaunchArg boolean(bool v) { return integer(DType::Bool, v); }
  static LaunchArg f32(float v) { return floating(DType::Float32, v); }
  static LaunchArg f64(double v) { return floating(DType::Float64, v); }
  static LaunchArg i32(int32_t v) { return integer(DType::Int32, v); }
  static LaunchArg i64(int64_t v) { return integer(DType::Int64, v); }
};

/// Grid extents; blocks run one after another, x fastest, then y, then z.
struct Dim3 {
  int64_t x = 1, y = 1, z = 1;
};

/// "(100, 70)" — shapes and indices in messages, Python style.
std::string shapeString(const std::vector<int64_t> &shape);

} // namespace tile::interp
