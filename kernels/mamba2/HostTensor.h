// Float64 host tensors for the Mamba-2 reference: a read-only strided view (what callers pass:
// a slice of a projection output is a view with non-contiguous strides) and an owning,
// contiguous row-major tensor (what the reference returns). Shapes and strides are in elements
// and 64-bit, like the runtime's ArrayArg.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tile::mamba2 {

using Shape = std::vector<std::int64_t>;

/// "(2, 100, 3, 16)", "(4,)", "()".
std::string shapeString(const Shape &shape);
/// The product of the extents.
std::int64_t numElements(const Shape &shape);
/// Row-major contiguous strides of `shape`.
Shape contiguousStrides(const Shape &shape);

/// A read-only view: element (i0, i1, ...) is data[sum(i_k * strides[k])]. Empty strides mean
/// contiguous. Strides may be zero (broadcast) or negative.
struct TensorView {
  const double *data = nullptr;
  Shape shape;
  Shape strides;

  TensorView() = default;
  TensorView(const double *data, Shape shape, Shape strides = {});

  std::int64_t rank() const { return std::int64_t(shape.size()); }
  std::int64_t numElements() const { return mamba2::numElements(shape); }
  /// The element at a full multi-index (no bounds checks: callers validated the shape).
  double operator()(std::initializer_list<std::int64_t> index) const;
  /// The element at a row-major linear index into shape (for element-wise loops over views).
  double atLinear(std::int64_t linear) const;
};

/// An owning row-major tensor.
struct Tensor {
  Shape shape;
  std::vector<double> data;

  Tensor() = default;
  explicit Tensor(Shape shape, double fill = 0.0);
  /// A contiguous copy of any view.
  static Tensor copyOf(const TensorView &view);

  TensorView view() const { return TensorView(data.data(), shape); }
  operator TensorView() const { return view(); } // NOLINT: pass a Tensor where a view goes
  std::int64_t numElements() const { return std::int64_t(data.size()); }
  double &operator()(std::initializer_list<std::int64_t> index);
  double operator()(std::initializer_list<std::int64_t> index) const;
  /// The linear offset of a full multi-index.
  std::int64_t offset(std::initializer_list<std::int64_t> index) const;
};

} // namespace tile::mamba2
