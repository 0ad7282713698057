// A tile (or scalar, as a 0-D tile) while the interpreter runs: row-major elements of one dtype.
#pragma once

#include "compiler/interpreter/FloatFormat.h"

#include <cstdint>
#include <vector>

namespace tile::interp {

struct Tensor {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<double> f;  // float dtypes: every value exactly representable in the dtype
  std::vector<int64_t> i; // integer dtypes: canonical (see DType.h)

  Tensor() = default;
  /// Zero-filled.
  Tensor(DType dtype, std::vector<int64_t> shape);
  static Tensor scalarFloat(DType dtype, double v);
  static Tensor scalarInt(DType dtype, int64_t v);

  bool isFloat() const { return interp::isFloat(dtype); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t size() const { return static_cast<int64_t>(isFloat() ? f.size() : i.size()); }
  /// An element as a number: floats as stored, integers by their signed reading.
  double number(int64_t k) const { return isFloat() ? f[k] : static_cast<double>(signedValue(i[k], dtype)); }
  /// Copies element `from` of `src` (same dtype) into element `to`.
  void copyElement(int64_t to, const Tensor &src, int64_t from) {
    if (isFloat())
      f[to] = src.f[from];
    else
      i[to] = src.i[from];
  }
};

int64_t numElements(const std::vector<int64_t> &shape);
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);
/// The row-major multi-index of element `k`.
std::vector<int64_t> unravelIndex(int64_t k, const std::vector<int64_t> &shape);
/// Advances a row-major multi-index; false after the last one.
bool nextIndex(std::vector<int64_t> &index, const std::vector<int64_t> &shape);

} // namespace tile::interp
